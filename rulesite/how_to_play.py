"""The pieces of a how-to-play page that come from the engine: the drawn table and a whole deal walked through.

The pages themselves (``rulesite/hand_written/play/<game>.md``) are prose written for players; they place these pieces with
the shortcodes ``[[walkthrough: GAME]]`` and ``[[table: GAME]]`` (the table as the walk-through's deal
starts).
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from rulesite import table_words
from rulesite.links import PageLinks
from rulesite.table_view import TableView, table_view
from rulesite.templating import macro, render
from rulesite.walkthrough import Moment, Walkthrough, play
from specreader.jsontypes import Json


@dataclass(frozen=True)
class MomentView:
    actions: list[Json]
    events: list[Json]
    trick: Json | None
    draws: list[Json]
    number: int  # the trick's number, 0 for another step
    anchor: str
    title: str
    played: list[tuple[str, str, bool]]  # (name, card, whether it won the trick) in the order played
    note: Markup | None
    standing: str
    table: TableView | None


def scores_points(variant: Json) -> bool:
    """Whether a deal is scored by the value of the cards won (else by the number of tricks)."""
    components = variant.get("components")
    score = components.get("score") if isinstance(components, dict) else None
    return not (isinstance(score, dict) and score.get("rule") == "tricks")


def standing(after: Json, variant: Json) -> str:
    sides = table_words.side_names(variant)
    if scores_points(variant):
        values = after.get("totals", [])
        unit = ""
    else:
        values = after.get("tricks", [])
        unit = " trick"
    shown = []
    for name, v in zip(sides, values if isinstance(values, list) else [], strict=False):
        shown.append(f"{name} {v}{unit}{'' if not unit or v == 1 else 's'}")
    return ", ".join(shown)


def _moment(i: int, m: Moment, number: int, walk: Walkthrough, title: str, links: PageLinks) -> MomentView:
    names = table_words.seat_names(walk.variant)
    trick = m.trick()
    winner = trick.get("winner") if trick else None
    played = [(names[a["seat"]], str(a["card"]), a["seat"] == winner) for a in m.actions if a.get("type") == "play"]
    anchor = f"{walk.game}-trick-{number}" if trick else f"{walk.game}-step-{i + 1}"
    hands_changed = trick is None and m.result() is None
    return MomentView(
        m.actions,
        m.events,
        trick,
        m.draws(),
        number,
        anchor,
        title,
        played,
        links.paragraphs(m.note) if m.note else None,
        standing(m.after, walk.variant) if trick else "",
        table_view(m.after, walk.variant) if hands_changed else None,
    )


def walkthrough_markdown(script: Json, links: PageLinks) -> str:
    walk = play(script)
    names = table_words.seat_names(walk.variant)
    views = []
    number = 0
    for i, m in enumerate(walk.moments):
        if m.trick() is not None:
            number += 1
        step = script["steps"][i]
        views.append(_moment(i, m, number, walk, str(step.get("title") or f"Step {i + 1}"), links))
    result = walk.moments[-1].result() or {}
    indicator = next((e.get("card") for m in walk.moments for e in m.events if e.get("type") == "indicator"), None)
    start = table_view(walk.start, walk.variant)
    return render(
        "walkthrough.md.j2",
        game=walk.game,
        names=names,
        sides=table_words.side_names(walk.variant),
        has_partners=table_words.has_partners(walk.variant),
        scores_points=scores_points(walk.variant),
        indicator=indicator,
        start_table=start if any(s.hand for s in start.seats) else None,
        start_events=[e for e in walk.start_events if e.get("type") not in ("played", "drew")],
        moments=views,
        result_sentence=table_words.result_sentence(result, walk.variant, choice_open=True),
        links=links,
    )


def start_table(script: Json) -> Markup:
    """The table as the walk-through's deal waits for its first action."""
    walk = play(script)
    return macro("table.html.j2", "table")(table_view(walk.start, walk.variant))
