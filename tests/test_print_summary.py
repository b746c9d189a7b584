"""A one-page summary to print for each table size: made from its rulesets' facts, every fact once, every table
named, and the project's rulings behind a fact marked under it.

tests/test_site_browser.py prints each sheet in Chromium and counts its pages.
"""

from __future__ import annotations

import copy
import re

import pytest

import rulesite
from rulesite import paths, rule_words, ruling_marks, summary_pages
from rulesite.escaping import md
from rulesite.links import PageLinks
from rulesite.shortcodes import values_table
from rulesite.summary_pages import Line, Wording, sheets

import site_build


def block_of(page: str, words: str) -> tuple[str, list[str], str]:
    """The sheet's item for a topic that holds ``words``: its first line, its nested lines, and the line with
    the words (the first line when they are the wording every ruleset not named below it says)."""
    lines = page.splitlines()
    at = next((i for i, line in enumerate(lines) if line.endswith(" " + words)), None)
    assert at is not None, f"{words[:60]!r} is not on the sheet"
    start = next(i for i in range(at, -1, -1) if lines[i].startswith("- "))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith("    - ")), len(lines))
    return lines[start], lines[start + 1 : end], lines[at]


def names_in(line: str) -> set[str]:
    """What a nested line of a sheet names: ``    - *Except for five; for six:* ...``."""
    found = re.match(r"    - \*(?:Except )?(.*?):\*", line)
    return {name.replace("\\", "").lower() for name in found[1].split("; ")} if found else set()


def names(name: str, label: str, every: list[str]) -> bool:
    """Whether a sheet's name stands for the ruleset of ``label``: its label, a part of it no other ruleset of
    the sheet without it has, or "without" a part every other ruleset has and this one has not."""
    parts = summary_pages.label_parts(label)
    if name.startswith("without "):
        missing = name.removeprefix("without ")
        return missing not in parts and any(missing in summary_pages.label_parts(o) for o in every if o != label)
    return name == label or name in parts


def test_every_table_size_has_its_sheet_and_a_game_of_several_a_page_choosing(
    site_data: rulesite.SiteData, site_pages: dict[str, str]
) -> None:
    for game in site_data.games():
        made = sheets(game, site_data)
        sizes = {v["players"] for v in site_data.playable_variants(game).values()}
        assert len(made) == len(sizes)
        assert sorted(vid for sheet in made for vid in sheet.variants) == sorted(site_data.playable_variants(game))
        for sheet in made:
            page = site_pages[sheet.path]
            assert page.startswith(f"# {md(sheet.title)} at the table {{: .print-sheet }}\n")
            assert f"({paths.link(sheet.path, paths.how_to_play_path(game))})" in page
            assert len({v["players"] for v in sheet.variants.values()}) == 1
        if len(made) > 1:
            chooser = site_pages[paths.summary_path(game)]
            assert ".print-sheet" not in chooser
            assert all(f"]({paths.link(paths.summary_path(game), sheet.path)})" in chooser for sheet in made)
    titles = [f"Albastini for {n}" for n in ("two", "three", "four", "five", "six")]
    assert [sheet.title for sheet in sheets("albastini", site_data)] == titles
    assert [sheet.path for sheet in sheets("altbaumer", site_data)] == [paths.summary_path("altbaumer")]


def test_every_fact_of_every_ruleset_is_on_its_sheet_once(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    for game in site_data.games():
        for sheet in sheets(game, site_data):
            page = site_pages[sheet.path]
            links = PageLinks(sheet.path, site_data)
            table, said = summary_pages.shared_table(sheet.variants)
            every = [summary_pages.ruleset_label(str(v["title"]), sheet.title).lower() for v in sheet.variants.values()]
            for vid, variant in sheet.variants.items():
                label = summary_pages.ruleset_label(str(variant["title"]), sheet.title).lower()
                for fact in site_data.facts(vid):
                    if fact.topic in said:
                        assert table is not None and str(table) in page
                        continue
                    words = str(links.prose(fact.words))
                    said_times = sum(line.endswith(" " + words) for line in page.splitlines())
                    assert said_times == 1, f"{sheet.path}: {fact.topic} of {vid} is said {said_times} times"
                    first, nested, own = block_of(page, words)
                    assert first.startswith(f"- **{md(fact.topic)}:**"), (fact.topic, first)
                    if own in nested:  # said for some rulesets: this one is named
                        assert any(names(n, label, every) for n in names_in(own)), (vid, own)
                    else:  # said for every ruleset not named below: this one is not
                        assert not any(names(n, label, every) for line in nested for n in names_in(line)), (vid, nested)


def test_a_fact_the_rulesets_differ_on_names_the_tables_of_each_wording(
    site_data: rulesite.SiteData, site_pages: dict[str, str]
) -> None:
    path = paths.table_summary_path("albastini", 4)
    page = site_pages[path]
    links = PageLinks(path, site_data)
    clockwise = site_data.variants["albastini-clockwise"]
    direction = next(f.words for f in rule_words.facts(clockwise) if f.topic == "Direction")  # no choice of its own
    _, nested, own = block_of(page, str(links.prose(direction)))
    assert own == f"    - *Clockwise:* {links.prose(direction)}"
    assert [n for n in nested if "ruling-mark" not in n] == [own]
    two = site_pages[paths.table_summary_path("albastini", 2)]
    assert re.search(r"^    - \*Over\\-60 scoring to a target:\* A player with more than 60", two, re.M)
    # Named by what sets them apart: both six-player tables of three pairs, with or without over-60 scoring.
    six = site_pages[paths.table_summary_path("albastini", 6)]
    assert re.search(r"^    - \*Three pairs:\* Six players in three pairs", six, re.M)
    assert re.search(r"^    - \*Two teams of three:\* Six players in two teams of three", six, re.M)
    every = ["three pairs", "two teams of three", "three pairs, over-60", "two teams of three, over-60"]
    assert summary_pages.named(["three pairs", "three pairs, over-60"], every) == ["three pairs"]
    assert summary_pages.named(["three pairs", "two teams of three"], every) == ["without over-60"]
    apart = ["three pairs", "two teams of three, over-60"]  # nothing they share sets them apart
    assert summary_pages.named(apart, every) == apart
    assert re.search(r"^    - \*Without over\\-60 scoring to a target:\* The side with the single highest", two, re.M)


def test_each_ruling_behind_a_rule_is_marked_under_it_for_the_rulesets_it_holds_for(
    site_data: rulesite.SiteData, site_pages: dict[str, str]
) -> None:
    def behind(vid: str, topic: str) -> list[str]:
        fact = next(f for f in site_data.facts(vid) if f.topic == topic)
        return ruling_marks.rulings_behind(fact, vid, site_data)

    assert behind("albastini-2p", "Scoring") == ["R7"] and behind("albastini-over60-2p", "Scoring") == ["R8"]
    assert behind("albastini-4p", "Drawing") == ["R6"] and behind("albastini-5p", "Drawing") == []  # the indicator is dead
    # The account's sentence names the player the ruling does at a table of two and under clockwise play.
    assert behind("albastini-2p", "Drawing") == behind("albastini-over60-2p", "Drawing") == []
    assert behind("albastini-clockwise", "Drawing") == [] and behind("albastini-3p", "Drawing") == ["R6"]
    assert behind("altbaumer-standard", "Rank") == ["R9"] and behind("briscola-2p", "Scoring") == []
    four, five = (site_pages[paths.table_summary_path("albastini", n)] for n in (4, 5))
    mark = '    - <span class="ruling-mark">Our ruling [R6 Who draws the indicator](../rulings.md#R6): one account says otherwise'
    drawing = block_of(four, "the player just before the winner\\. Then the hands are played out without drawing\\.")
    assert drawing[1][-1].startswith(mark.replace('mark">', 'mark">*Except clockwise:* '))  # not at all of the sheet's tables
    assert "R6 Who draws" not in five
    assert "R6 Who draws" not in site_pages[paths.table_summary_path("albastini", 2)]
    three = block_of(site_pages[paths.table_summary_path("albastini", 3)], drawing[2].removeprefix("- **Drawing:** "))
    assert three[1][-1].startswith(mark)
    for page in (four, five, site_pages[paths.summary_path("altbaumer")]):
        for line in page.splitlines():
            if "ruling-mark" in line:
                marked = r'(    )+- <span class="ruling-mark">(\*[^*]+:\* )?Our ruling \[R\d+ [^\]]+\]\(\.\./rulings\.md#R\d+\): '
                assert re.fullmatch(marked + r".*; this page follows the ruling\.</span>", line), line


def test_the_shared_rank_and_values_are_drawn_once_as_the_table(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    page = site_pages[paths.table_summary_path("briscola", 4)]
    assert page.count(values_table(site_data.variants["briscola-2p"])) == 1
    assert "**Values:**" not in page and "**Rank:**" not in page
    # Altbaumer's trumps rank otherwise and count no points: its rank is said, with no table.
    altbaumer = site_pages[paths.summary_path("altbaumer")]
    assert "**Rank:**" in altbaumer and "values-table" not in altbaumer
    # and its heading promises no values: its cards carry none
    assert "\n## Rank\n" in altbaumer and "values" not in altbaumer.lower(), altbaumer[:600]
    assert "\n## Rank and values\n" in page


def test_the_sheet_follows_the_data(site_data: rulesite.SiteData) -> None:
    changed = copy.copy(site_data)
    changed.variants = copy.deepcopy(site_data.variants)
    changed.variants["bisca-2p"]["deal"]["hand_size"] = 4
    changed.variants["bisca-2p"]["components"]["score"]["win_over"] = 70
    before = summary_pages.summary_pages("bisca", site_data)[paths.summary_path("bisca")]
    after = summary_pages.summary_pages("bisca", changed)[paths.summary_path("bisca")]
    assert "Three cards each" in before and "Four cards each" in after and "Three cards each" not in after
    assert "more than 60 points" in before and "more than 70 points" in after


def test_a_topic_no_group_names_shows_under_also() -> None:
    new = Line("Kitty", "The last card goes to the kitty.", [])
    found = summary_pages.groups([new])
    assert [(g.title, g.lines) for g in found] == [(summary_pages.OTHER_GROUP, [new])]


def test_every_topic_of_the_kit_has_its_heading(site_data: rulesite.SiteData) -> None:
    named = {t for _, topics in summary_pages.GROUPS for t in topics}
    topics = {f.topic for v in site_data.variants.values() if not v.get("abstract") for f in rule_words.facts(v)}
    assert topics <= named, topics - named


def test_the_rulesets_of_a_wording_read_as_an_exception_under_a_common_one() -> None:
    wording = Wording("Clockwise.", ["for four, clockwise"])
    assert Line("Direction", "Anticlockwise.", [wording]).labelled(wording) == "Except for four, clockwise"
    assert Line("Players", None, [wording]).labelled(wording) == "For four, clockwise"
    trait = Wording("Clockwise.", ["clockwise"])
    assert Line("Direction", "Anticlockwise.", [trait]).labelled(trait) == "Clockwise"
    assert summary_pages.ruleset_label("Albastini for two", "Albastini") == "for two"
    assert summary_pages.ruleset_label("Albastini for four, clockwise", "Albastini for four") == "clockwise"
    assert summary_pages.ruleset_label("Albastini for two", "Albastini for two") == "Albastini for two"
    assert summary_pages.ruleset_label("Albastini for twenty", "Albastini for two") == "Albastini for twenty"
    assert summary_pages.ruleset_label("Bisca de Três (two players)", "Bisca") == "Bisca de Três (two players)"
    assert summary_pages.ruleset_label("Altbaumer", "Altbaumer") == "Altbaumer"


def test_each_how_to_play_page_links_its_sheet_and_the_nav_lists_it(site_data: rulesite.SiteData) -> None:
    play = next(item["How to play"] for item in site_build.nav(site_data) if "How to play" in item)
    sheets = next(item["On one page, to print"] for item in play if "On one page, to print" in item)
    # a game's sheet, or the page choosing among its sheets first in its section
    first = {title: value if isinstance(value, str) else value[0] for item in sheets for title, value in item.items()}
    for game in site_data.games():
        prose = rulesite.hand_written_pages()[paths.how_to_play_path(game)]
        target = paths.link(paths.how_to_play_path(game), paths.summary_path(game))
        assert re.search(rf"\]\({re.escape(target)}\)", prose), f"{game}: no link to {target}"
        assert first[site_data.game_title(game)] in (paths.summary_path(game), {"Choose your table": paths.summary_path(game)})


def test_a_ruling_behind_one_wording_is_marked_under_that_wording(site_pages: dict[str, str]) -> None:
    four = site_pages[paths.table_summary_path("albastini", 4)].splitlines()
    scoring = four.index(next(line for line in four if line.startswith("- **Scoring:** The side with the single highest")))
    assert "R7 Which losing sides" in four[scoring + 1] and four[scoring + 1].startswith("    - <span")
    over = next(i for i in range(scoring, len(four)) if four[i].startswith("    - *Over\\-60 scoring to a target:* A side"))
    assert "R8 Over\\-60 scoring" in four[over + 1] and four[over + 1].startswith("        - <span")


def test_a_ruling_behind_what_the_table_draws_is_marked_under_the_table(site_data: rulesite.SiteData) -> None:
    changed = copy.copy(site_data)
    values = {"id": "R99", "title": "What a card counts", "parameter": "values", "clauses": ["albastini.cards.values"],
              "readings": [{"summary": "a"}, {"summary": "b"}]}
    changed.rulings = {**site_data.rulings, "R99": values}
    page = summary_pages.summary_pages("albastini", changed)[paths.table_summary_path("albastini", 2)]
    after_table = page.split("</table>", 1)[1].split("\n## ", 1)[0]
    assert '- <span class="ruling-mark">Our ruling [R99 What a card counts](../rulings.md#R99)' in after_table


def test_every_ruling_is_marked_on_some_page_players_read(site_data: rulesite.SiteData) -> None:
    marked = {
        rid
        for vid, variant in site_data.variants.items()
        if not variant.get("abstract")
        for fact in site_data.facts(vid)
        for rid in ruling_marks.rulings_behind(fact, vid, site_data)
    }
    assert marked == set(site_data.rulings), set(site_data.rulings) - marked


def test_the_match_says_the_targets_tables_usually_agree(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    """The over-60 clause leaves the target to the table, "commonly 5 or 10" (its ``usual``): the words say so."""
    match = next(f.words for f in site_data.facts("albastini-over60-2p") if f.topic == "The match")
    assert match == "The first side to reach the target agreed before play, usually five or ten victory points, wins the match."
    assert str(PageLinks(paths.table_summary_path("albastini", 2), site_data).prose(match)) in site_pages[
        paths.table_summary_path("albastini", 2)
    ]
    plain = next(f.words for f in rule_words.facts(site_data.variants["albastini-over60-2p"]) if f.topic == "The match")
    assert plain.endswith("five victory points unless the table agrees another.")  # with no clause's usual, the variant's
    three = rule_words.facts(site_data.variants["albastini-over60-2p"], {rule_words.TARGET_CHOICE: [5, 7, 10]})
    assert "usually five, seven or ten victory points" in next(f.words for f in three if f.topic == "The match")


def test_what_each_fact_is_about_is_a_parameter_of_the_variant_schema(site_data: rulesite.SiteData) -> None:
    schema = dict(site_data.schemas)["variant.schema.json"]
    for variant in (v for v in site_data.variants.values() if not v.get("abstract")):
        for fact in rule_words.facts(variant):
            assert fact.about, fact.topic
            for path in fact.about:
                node = schema
                for key in path.split("."):
                    assert key in node.get("properties", {}), f"{fact.topic}: {path} is no parameter of a variant"
                    node = node["properties"][key]


def test_a_deal_the_rules_leave_free_is_said_free_and_a_fixed_one_fixed(site_data: rulesite.SiteData) -> None:
    """Albastini's packets are only how a deck order is turned into hands (its clause is an engine note, ruling R3):
    the table deals in any fair way. Altbaumer's packets are a rule of the table."""
    free = next(f.words for f in site_data.facts("albastini-4p") if f.topic == "The deal")
    assert free.startswith("Five cards each, dealt in any fair way (the deals shown on this site give them one at a time")
    fixed = next(f.words for f in site_data.facts("altbaumer-standard") if f.topic == "The deal")
    assert fixed.startswith("Five cards each, dealt in packets of 3 then 2 from the player after the dealer")
    assert "any fair way" not in next(f.words for f in site_data.facts("briscola-2p") if f.topic == "The deal")


def test_the_words_give_what_a_table_asks_at_the_edges(site_data: rulesite.SiteData) -> None:
    """The next dealer when no winning member has dealt yet; a loser exactly on its mrithi line; totals after a round;
    the discard of a card just taken; a stock of one suit; how many trumps clubs make; the player who deals first; the
    order of drawing and the play-out."""
    said = {f.topic: f.words for f in site_data.facts("albastini-4p")}
    assert "one who has not dealt yet comes first, and of several who have not, the first after this deal's dealer" in said[
        "Next dealer"
    ]
    # the mrithi double asks for a side strictly under its line
    assert "under its mrithi line (10 points for each of its players; a side exactly on its line is not under it)" in said[
        "Scoring"
    ]
    said = {f.topic: f.words for f in site_data.facts("altbaumer-standard")}
    assert said["The match"].startswith("Each side's total may fall below 0. A round goes to the first side to 5 points")
    assert "both sides' totals then go back to 0; two rounds win the match" in said["The match"]
    assert "discards as many, any cards of the hand, those just taken included" in said["Trumps"]
    # a sheet read alone says what an ordinary club is where it first names one
    assert "when an ordinary club (any club but a Tree) is led" in said["Play"]
    assert said["Play"].index("ordinary club (any club but a Tree)") == said["Play"].index("ordinary club")
    # the points for tricks read as a sentence, each count with its points, not as a list of "tricks: points"
    assert said["Scoring"].startswith(
        "The side taking most tricks scores one point for three or four tricks, two points for five tricks."
    )
    # a stock of one suit binds forehand after a refusal; on accepting, forehand takes the one card turned
    assert "refuses it. After a refusal the stock is turned on until another suit shows" in said["Trumps"]
    assert "if all four cards prove of one suit, that suit is trumps all the same" in said["Trumps"]
    play = " ".join(rulesite.hand_written_pages()["play/altbaumer.md"].split())
    assert "if, after a refusal, all four stock cards prove to be of one suit, forehand is bound to it" in play
    # the Trees are clubs: with clubs trumps they are not counted again among them (altbaumer.cards.trump-count)
    assert said["Rank"].endswith(
        "(the Trees). With clubs trumps, the queen and jack of clubs count only as those top trumps: six trumps, against"
        " eight with any other suit."
    )
    count = site_data.clauses["altbaumer.cards.trump-count"]["text"]
    assert "When clubs are trumps there MUST be six trumps" in count and "there MUST be eight" in count
    play = " ".join(rulesite.hand_written_pages()["play/altbaumer.md"].split())
    assert "so clubs make six trumps; any other suit makes eight, the Trees included." in play
    # a card deals nobody: the player who draws it does
    assert said["Partners and first dealer"].endswith("make the partnerships, and whoever draws 9C deals first.")
    # the order of drawing, who takes the indicator, and what follows once the stock is gone
    drawing = {
        vid: next(f.words for f in site_data.facts(vid) if f.topic == "Drawing")
        for vid in ("albastini-2p", "albastini-4p", "albastini-5p")
    }
    assert drawing["albastini-4p"] == (
        "After each trick, while the stock lasts, each player draws one card, the trick's winner first, then the others in"
        " the order of play. The indicator, last of the stock, goes to the last player to draw, the player just before the"
        " winner. Then the hands are played out without drawing."
    )
    assert "the trick's winner first, then the other. The indicator" in drawing["albastini-2p"]
    assert "to draw, the trick's loser. Then the hands are played out" in drawing["albastini-2p"]
    assert drawing["albastini-5p"].endswith("nobody. Once it is all the stock holds, the hands are played out without drawing.")


@pytest.mark.parametrize(
    ("vid", "who"),
    [("bisca-2p", "player"), ("briscola-2p", "player"), ("albastini-over60-3p", "player"), ("briscola-4p", "side"),
     ("albastini-over60", "side")],
)  # fmt: skip
def test_over_sixty_scoring_is_said_of_a_player_where_each_plays_alone(
    site_data: rulesite.SiteData, vid: str, who: str
) -> None:
    said = rule_words.score(site_data.variants[vid])
    assert said.startswith(f"A {who} with more than 60 points wins one victory point") and f"When no {who} has" in said


def test_a_wording_counts_its_rulesets_by_id_not_by_label(site_data: rulesite.SiteData) -> None:
    """Two rulesets of one sheet may go by the same title (a house's copy of a kit's table): each still counts
    for the wordings it says, so the wording most of the sheet's rulesets say stays the rule."""
    changed = copy.copy(site_data)
    changed.variants = {**site_data.variants}
    clockwise = site_data.variants["albastini-clockwise"]
    changed.variants["albastini-clockwise"] = {**clockwise, "title": site_data.variants["albastini-4p"]["title"]}
    four = summary_pages.summary_pages("albastini", changed)[paths.table_summary_path("albastini", 4)]
    assert re.search(r"^- \*\*Scoring:\*\* The side with the single highest total", four, re.M), four
    assert re.search(r"^    - \*Over\\-60 scoring to a target:\* A side with more than 60", four, re.M)
