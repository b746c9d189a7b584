"""Each game's one-page summary to print: made from its rulesets' facts, every fact once, every table named.

tests/test_site_browser.py prints each summary in Chromium and counts its pages.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import rulesite
from rulesite import paths, rule_words, summary_pages
from rulesite.escaping import md
from rulesite.links import PageLinks
from rulesite.shortcodes import values_table
from rulesite.summary_pages import Line, Wording, summary_page

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def block_of(page: str, words: str) -> tuple[str, list[str], str]:
    """The sheet's item for a topic that holds ``words``: its first line, its nested lines, and the line with
    the words (the first line when they are the wording every ruleset not named below it says)."""
    lines = page.splitlines()
    at = next((i for i, line in enumerate(lines) if line.endswith(" " + words)), None)
    assert at is not None, f"{words[:60]!r} is not on the sheet"
    start = next(i for i in range(at, -1, -1) if lines[i].startswith("- "))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith("    - ")), len(lines))
    return lines[start], lines[start + 1 : end], lines[at]


def test_every_game_has_its_sheet(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    for game in site_data.games():
        page = site_pages[paths.summary_path(game)]
        assert page.startswith(f"# {site_data.game_title(game)} at the table {{: .print-sheet }}\n")
        assert f"({paths.link(paths.summary_path(game), paths.how_to_play_path(game))})" in page


def test_every_fact_of_every_ruleset_is_on_the_sheet_once(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    for game in site_data.games():
        page = site_pages[paths.summary_path(game)]
        links = PageLinks(paths.summary_path(game), site_data)
        variants = site_data.playable_variants(game)
        table, said = summary_pages.shared_table(variants)
        for vid, variant in variants.items():
            label = str(md(summary_pages.ruleset_label(str(variant["title"]), site_data.game_title(game))))
            for fact in rule_words.facts(variant):
                if fact.topic in said:
                    assert table is not None and str(table) in page
                    continue
                words = str(links.prose(fact.words))
                said_times = sum(line.endswith(" " + words) for line in page.splitlines())
                assert said_times == 1, f"{game}: {fact.topic} of {vid} is said {said_times} times"
                first, nested, own = block_of(page, words)
                assert first.startswith(f"- **{md(fact.topic)}:**"), (fact.topic, first)
                if own in nested:  # said for some rulesets: this one is named
                    assert re.search(rf"\*(Except )?(.*; )?{re.escape(label)}(; .*)?:\*", own, re.I), (vid, own)
                else:  # said for every ruleset not named below: this one is not
                    assert not any(re.search(rf"[*;] ?{re.escape(label)}[;:]", n, re.I) for n in nested), (vid, nested)


def test_a_fact_the_rulesets_differ_on_names_the_tables_of_each_wording(
    site_data: rulesite.SiteData, site_pages: dict[str, str]
) -> None:
    page = site_pages[paths.summary_path("albastini")]
    links = PageLinks(paths.summary_path("albastini"), site_data)
    clockwise = site_data.variants["albastini-clockwise"]
    direction = next(f.words for f in rule_words.facts(clockwise) if f.topic == "Direction")
    _, nested, own = block_of(page, str(links.prose(direction)))
    assert nested == [own] == [f"    - *Except for four, clockwise:* {links.prose(direction)}"]
    two = next(f.words for f in rule_words.facts(site_data.variants["albastini-2p"]) if f.topic == "Players")
    assert re.match(r"    - \*For two[;:]", block_of(page, str(links.prose(two)))[2])


def test_the_shared_rank_and_values_are_drawn_once_as_the_table(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    page = site_pages[paths.summary_path("briscola")]
    assert page.count(values_table(site_data.variants["briscola-2p"])) == 1
    assert "**Values:**" not in page and "**Rank:**" not in page
    # Altbaumer's trumps rank otherwise and count no points: its rank is said, with no table.
    altbaumer = site_pages[paths.summary_path("altbaumer")]
    assert "**Rank:**" in altbaumer and "values-table" not in altbaumer


def test_the_sheet_follows_the_data(site_data: rulesite.SiteData) -> None:
    changed = copy.copy(site_data)
    changed.variants = copy.deepcopy(site_data.variants)
    changed.variants["bisca-2p"]["deal"]["hand_size"] = 4
    changed.variants["bisca-2p"]["components"]["score"]["win_over"] = 70
    before, after = summary_page("bisca", site_data), summary_page("bisca", changed)
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
    assert summary_pages.ruleset_label("Albastini for two", "Albastini") == "for two"
    assert summary_pages.ruleset_label("Bisca de Três (two players)", "Bisca") == "Bisca de Três (two players)"
    assert summary_pages.ruleset_label("Altbaumer", "Altbaumer") == "Altbaumer"


def test_each_how_to_play_page_links_its_sheet_and_the_nav_lists_it(site_data: rulesite.SiteData) -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for game in site_data.games():
        prose = (DOCS / paths.how_to_play_path(game)).read_text(encoding="utf-8")
        target = paths.link(paths.how_to_play_path(game), paths.summary_path(game))
        assert re.search(rf"\]\({re.escape(target)}\)", prose), f"{game}: no link to {target}"
        assert re.search(rf"^\s+- {re.escape(site_data.game_title(game))}: {re.escape(paths.summary_path(game))}$", nav, re.M)
