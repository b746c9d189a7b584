"""A game's one-page summary, to print and keep by the cards: what a player needs at the table.

Every line is a fact of ``rule_words``, the words built from a resolved variant that the ruleset pages show
too, gathered over the game's playable rulesets: a fact they share is said once, a fact they differ on is
given once per wording, naming the rulesets it holds for. Ranks and values, when every ruleset shares them, are
drawn as the how-to-play pages' table instead of said.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from rulesite import paths, rule_words
from rulesite.links import PageLinks
from rulesite.shortcodes import values_table
from rulesite.sitedata import SiteData
from rulesite.templating import render
from specreader.jsontypes import Json

# The sheet's headings, each with the rule_words topics under it, in the order of play.
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Players and cards", ("Players", "Direction", "Partners and first dealer", "Pack")),
    ("Rank and values", ("Rank", "Values")),
    ("The deal", ("The cut", "The deal")),
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
    rulesets: list[str]  # the labels of the rulesets that say it


@dataclass(frozen=True)
class Line:
    topic: str
    common: str | None  # what every ruleset says, or every one not named in ``others``
    others: list[Wording]

    def labelled(self, wording: Wording) -> str:
        """The rulesets of a wording, as the sheet names them: "For five" or, under a common wording, "Except for five"."""
        names = "; ".join(wording.rulesets)
        return "Except " + names if self.common is not None else names[:1].upper() + names[1:]


@dataclass(frozen=True)
class Group:
    title: str
    lines: list[Line]
    table: Markup | None = None


def ruleset_label(title: str, game_title: str) -> str:
    """On Albastini's sheet "Albastini for two" is "for two"; a title not of that form is kept whole."""
    short = title.removeprefix(game_title + " ")
    return short if short != title and short.startswith("for ") else title


def topic_line(topic: str, wordings: dict[str, list[str]], rulesets: int) -> Line:
    """A topic's wordings, each with its rulesets' labels: the wording of most rulesets, when every ruleset has
    the topic, is said as the rule and the others as its exceptions."""
    top, held = max(wordings.items(), key=lambda item: len(item[1]))
    everyone = sum(len(labels) for labels in wordings.values()) == rulesets
    if everyone and 2 * len(held) > rulesets:
        return Line(topic, top, [Wording(w, labels) for w, labels in wordings.items() if w != top])
    return Line(topic, None, [Wording(w, labels) for w, labels in wordings.items()])


def lines(variants: dict[str, Json], game_title: str) -> list[Line]:
    """Every topic of every ruleset, in rule_words' order."""
    by_topic: dict[str, dict[str, list[str]]] = {}
    for variant in variants.values():
        label = ruleset_label(str(variant.get("title", "")), game_title)
        for fact in rule_words.facts(variant):
            by_topic.setdefault(fact.topic, {}).setdefault(fact.words, []).append(label)
    return [topic_line(topic, wordings, len(variants)) for topic, wordings in by_topic.items()]


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


def groups(found: list[Line], table: Markup | None = None) -> list[Group]:
    by_topic = {found_line.topic: found_line for found_line in found}
    named = {topic for _, topics in GROUPS for topic in topics}
    out = [
        Group(title, [by_topic[t] for t in topics if t in by_topic], table if title == TABLE_GROUP else None)
        for title, topics in GROUPS
    ]
    out.append(Group(OTHER_GROUP, [found_line for found_line in found if found_line.topic not in named]))
    return [g for g in out if g.lines or g.table is not None]


def summary_page(game: str, data: SiteData) -> str:
    variants = data.playable_variants(game)
    game_title = data.game_title(game)
    table, said = shared_table(variants)
    found = [found_line for found_line in lines(variants, game_title) if found_line.topic not in said]
    page = paths.summary_path(game)
    return render(
        "summary.md.j2",
        game=game,
        game_title=game_title,
        groups=groups(found, table),
        rulesets=[str(v.get("title", vid)) for vid, v in variants.items()],
        how_to_play=paths.how_to_play_path(game),
        links=PageLinks(page, data),
    )
