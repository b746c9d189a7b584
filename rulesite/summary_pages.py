"""One-page summaries, to print and keep by the cards: what a player needs at the table.

A sheet per table size: a game played by one number of players has one sheet (``print/<game>.md``); a game
played by several has one for each (``print/<game>-<n>p.md``) and, at ``print/<game>.md``, a page choosing
among them. Every line is a fact of ``rule_words``, the words built from a resolved variant that the ruleset
pages show too, gathered over the sheet's rulesets: a fact they share is said once, a fact they differ on is
given once per wording, naming the rulesets it holds for. Under a wording, a line marks each of the project's
rulings behind it (``ruling_marks``); a ruling behind every wording of a fact is marked once, under them all.
Ranks and values, when every ruleset shares them, are drawn as the how-to-play pages' table instead of said,
with the rulings behind them under it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from markupsafe import Markup

from rulesite import paths, ruling_marks, table_words
from rulesite.links import PageLinks
from rulesite.shortcodes import values_table
from rulesite.sitedata import SiteData
from rulesite.table_words import whole
from rulesite.templating import render
from specreader.jsontypes import Json

# The sheet's headings, each with the rule_words topics under it, in the order of play.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Players and cards", ("Players", "Direction", "Partners and first dealer", "Pack")),
    ("Rank and values", ("Rank", "Values")),
    ("The deal", ("First dealer", "The cut", "The deal")),
    ("Trumps", ("Trumps", "Partners' look", "Going alone")),
    ("Play", ("Play", "The trick", "Drawing")),
    ("Scoring", ("Scoring",)),
    ("The match", ("Next dealer", "The match")),
)
TABLE_GROUP = "Rank and values"  # where the ranks-and-values table stands
# Where a topic that no group names goes, so that a new one shows rather than vanishes.
OTHER_GROUP = "Also"


@dataclass(frozen=True)
class Wording:
    words: str
    rulesets: list[str]  # the labels of the rulesets that say it, or of what sets them apart
    rulings: tuple[str, ...] = ()  # the rulings behind this wording and not behind every wording of its topic
    held: int = 1  # how many rulesets say it (``rulesets`` may name them by one thing they share)
    only: dict[str, str] = field(default_factory=dict)  # of ``rulings``, those behind only some of its rulesets: which


@dataclass(frozen=True)
class Line:
    topic: str
    common: Wording | None  # what every ruleset says, or every one not named in ``others``
    others: list[Wording]
    rulings: tuple[str, ...] = ()  # the rulings behind every wording of the topic

    def labelled(self, wording: Wording) -> str:
        """The rulesets of a wording, as the sheet names them: "For five" or, under a common wording, "Except for five";
        a ruleset named by what sets it apart ("clockwise") is named alone."""
        names = "; ".join(wording.rulesets)
        if self.common is not None and names.startswith("for "):
            return "Except " + names
        return names[:1].upper() + names[1:]

    def every_ruling(self) -> tuple[str, ...]:
        held = [*(self.common.rulings if self.common else ()), *(r for w in self.others for r in w.rulings)]
        return tuple(dict.fromkeys([*held, *self.rulings]))


@dataclass(frozen=True)
class Group:
    title: str
    lines: list[Line]
    table: Markup | None = None
    table_rulings: tuple[str, ...] = ()  # the rulings behind what the table says


@dataclass(frozen=True)
class Sheet:
    path: str
    title: str  # "Albastini for two", or the game's title when it has one table size
    variants: dict[str, Json]
    players: int | None = None  # the table size, when the game has several


def sheets(game: str, data: SiteData) -> list[Sheet]:
    """A sheet for each number of players the game's rulesets are for."""
    variants = data.playable_variants(game)
    sizes = sorted({whole(v.get("players")) for v in variants.values()})
    if len(sizes) == 1:
        return [Sheet(paths.summary_path(game), data.game_title(game), variants)]
    return [
        Sheet(
            paths.table_summary_path(game, n),
            f"{data.game_title(game)} {table_size(n)}",
            {vid: v for vid, v in variants.items() if whole(v.get("players")) == n},
            n,
        )
        for n in sizes
    ]


def table_size(players: int) -> str:
    """ "for four": how a ruleset's title names its table size, and so how a sheet's does."""
    return f"for {table_words.number(players)}"


def ruleset_label(title: str, sheet_title: str) -> str:
    """On the sheet "Albastini for four", "Albastini for four, clockwise" is "clockwise"; on the sheet "Albastini",
    "Albastini for two" is "for two"; a title not of that form is kept whole."""
    if title.startswith(sheet_title + ", "):
        return title.removeprefix(sheet_title + ", ")
    short = title.removeprefix(sheet_title + " ")
    return short if short != title and short.startswith("for ") else title


def label_parts(label: str) -> list[str]:
    """What a ruleset's label says sets it apart: "three pairs, over-60 scoring to a target" says two things."""
    return label.split(", ")


def named(labels: list[str], every: list[str], sheet_title: str = "") -> list[str]:
    """The rulesets of a wording, named by what sets them apart when one part of their labels does: on the sheet
    "Albastini for six", the wording of "three pairs" and "three pairs, over-60 scoring to a target" is that of
    "three pairs", as no other ruleset of the sheet is of three pairs; and the wording of exactly the rulesets
    without over-60 scoring, "without over-60 scoring to a target". A label that is the sheet's own title (the
    ruleset with nothing set apart) only ever goes by the second way."""
    parts = [set(label_parts(label)) for label in labels]
    others = [set(label_parts(label)) for label in every if label not in labels]
    for part in label_parts(labels[0]):
        if part != sheet_title and all(part in p for p in parts) and not any(part in o for o in others):
            return [part]
    for part in dict.fromkeys(p for label in every if label not in labels for p in label_parts(label)):
        if part != sheet_title and all(part in o for o in others) and not any(part in p for p in parts):
            return [f"without {part}"]
    return labels


def topic_line(topic: str, wordings: list[Wording], rulesets: int, rulings: tuple[str, ...] = ()) -> Line:
    """A topic's wordings: the wording of most rulesets, when every ruleset has the topic, is said as the rule and
    the others as its exceptions."""
    top = max(wordings, key=lambda w: w.held)
    everyone = sum(w.held for w in wordings) == rulesets
    if everyone and 2 * top.held > rulesets:
        return Line(topic, top, [w for w in wordings if w is not top], rulings)
    return Line(topic, None, wordings, rulings)


def lines(variants: dict[str, Json], sheet_title: str, data: SiteData) -> list[Line]:
    """Every topic of every ruleset, in rule_words' order, each wording with the rulings behind it; a ruling behind
    only some rulesets of a wording names them (``only``)."""
    said: dict[str, dict[str, dict[str, list[str]]]] = {}  # topic: words: ruleset id: rulings
    for vid in variants:
        for fact in data.facts(vid):
            said.setdefault(fact.topic, {}).setdefault(fact.words, {})[vid] = ruling_marks.rulings_behind(fact, vid, data)
    labels = {vid: ruleset_label(str(v.get("title", "")), sheet_title) for vid, v in variants.items()}
    every = list(labels.values())
    out = []
    for topic, wordings in said.items():
        held = {rid for by_id in wordings.values() for rids in by_id.values() for rid in rids}
        shared = {r for r in held if all(r in rids for by_id in wordings.values() for rids in by_id.values())}
        made = []
        for words, by_id in wordings.items():
            ids = list(by_id)
            behind = [r for r in data.rulings if r not in shared and any(r in rids for rids in by_id.values())]
            only = {r: some(ids, [v for v in ids if r in by_id[v]], labels, sheet_title) for r in behind}
            only = {r: names for r, names in only.items() if names}
            made.append(Wording(words, named([labels[v] for v in ids], every, sheet_title), tuple(behind), len(ids), only))
        out.append(topic_line(topic, made, len(variants), tuple(r for r in data.rulings if r in shared)))
    return out


def some(ids: list[str], holding: list[str], labels: dict[str, str], sheet_title: str) -> str:
    """How a mark names the rulesets of a wording (``ids``) it holds for (``holding``), when it does not hold for
    all: "Except clockwise" when the others are fewer, else "For ..."; nothing when it holds for every one.
    ``labels``: every ruleset of the sheet, by id, by its label."""
    if len(holding) == len(ids):
        return ""
    every = list(labels.values())
    left = [labels[v] for v in ids if v not in holding]
    held = [labels[v] for v in holding]
    names = "; ".join(named(left, every, sheet_title) if len(left) < len(held) else named(held, every, sheet_title))
    if len(left) < len(held):
        return "Except " + names
    return names[:1].upper() + names[1:]


def shared_table(variants: dict[str, Json]) -> tuple[Markup | None, set[str]]:
    """The ranks-and-values table when every ruleset has the same pack, ranking and values, with the topics it
    says (the rank too, unless trumps rank otherwise or top trumps stand above them)."""
    first = next(iter(variants.values()), {})
    same = all(v.get(k) == first.get(k) for v in variants.values() for k in ("deck", "ranking", "values"))
    if not same or not isinstance(first.get("values"), dict):
        return None, set()
    ranking = first.get("ranking")
    plain = isinstance(ranking, dict) and not ranking.get("trump_order") and not ranking.get("top_trumps")
    return Markup(values_table(first)), {"Values", "Rank"} if plain else {"Values"}


def groups(found: list[Line], table: Markup | None = None, table_rulings: tuple[str, ...] = ()) -> list[Group]:
    by_topic = {found_line.topic: found_line for found_line in found}
    grouped = {topic for _, topics in GROUPS for topic in topics}
    out = []
    for title, topics in GROUPS:
        present = [by_topic[t] for t in topics if t in by_topic]
        if title != TABLE_GROUP:
            out.append(Group(title, present))
        elif table is not None:
            out.append(Group(title, present, table, table_rulings))
        else:  # no table: the heading names what the lines say ("Rank" where the cards carry no values)
            out.append(Group(" and ".join(line.topic for line in present).capitalize(), present))
    out.append(Group(OTHER_GROUP, [found_line for found_line in found if found_line.topic not in grouped]))
    return [g for g in out if g.lines or g.table is not None]


def sheet_page(sheet: Sheet, game: str, data: SiteData) -> str:
    table, drawn = shared_table(sheet.variants)
    every = lines(sheet.variants, sheet.title, data)
    found = [line for line in every if line.topic not in drawn]
    under_table = tuple(dict.fromkeys(r for line in every if line.topic in drawn for r in line.every_ruling()))
    links = PageLinks(sheet.path, data)
    marked = {r for line in every for r in line.every_ruling()}
    return render(
        "summary.md.j2",
        game=game,
        title=sheet.title,
        game_title=data.game_title(game),
        groups=groups(found, table, under_table),
        rulesets=[str(v.get("title", vid)) for vid, v in sheet.variants.items()],
        how_to_play=paths.how_to_play_path(game),
        rulings={rid: ruling_marks.ruling_words(data.rulings[rid], links) for rid in marked},
        links=links,
    )


def summary_pages(game: str, data: SiteData) -> dict[str, str]:
    """The game's sheets by path, with the page choosing among them when there are several."""
    made = sheets(game, data)
    out = {sheet.path: sheet_page(sheet, game, data) for sheet in made}
    if paths.summary_path(game) not in out:
        out[paths.summary_path(game)] = render(
            "sheets.md.j2",
            game_title=data.game_title(game),
            sheets=made,
            how_to_play=paths.how_to_play_path(game),
            links=PageLinks(paths.summary_path(game), data),
        )
    return out


def summary_nav(data: SiteData) -> dict[str, list[dict[str, str]]]:
    """For each game of several table sizes, the nav entries of its sheets, after the page choosing among them."""
    out = {}
    for game in data.games():
        made = sheets(game, data)
        if len(made) > 1:
            entries = [{"Choose your table": paths.summary_path(game)}]
            entries += [{table_size(sheet.players).capitalize(): sheet.path} for sheet in made if sheet.players]
            out[paths.summary_path(game)] = entries
    return out
