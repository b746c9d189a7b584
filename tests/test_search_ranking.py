"""The site search puts the rules before the worked examples, and keeps the examples' boilerplate out.

Reads the search index of a ``mkdocs build --strict`` of this checkout (tests/site_build.py) and ranks queries the way the
theme's search does in the browser (tests/lunr_ranking.py; tests/test_site_browser.py holds that model to the
browser's own order).
"""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest
from lunr_ranking import SearchIndex

from rulesite.search_weights import search_settings

# Words of the rules that the example pages repeat in their titles.
RULE_WORDS = ("mrithi", "Jike", "Otea", "Tree")
# The pages of the nav's "How to play" and "Rules" sections.
RULE_PAGE_PREFIXES = ("play/", "print/", "rules/", "glossary.html", "rulings.html", "variants.html", "sources.html")
EXAMPLES = "examples/"
# Sentences and labels that example.md.j2 and deal.html.j2 print on every example page, whatever it shows.
BOILERPLATE = (
    "Worked examples from",
    "each starts from the position drawn",
    "Every example names the clauses it checks",
    "Variant:",
    "Source:",
    "derived from the rules it checks",
    "Checks:",
    "Steps",
    "leaving the position exactly as it was",
    "cards, face down",
)
_TAG = re.compile(r"<[^>]*>")


def is_rule_page(page: str) -> bool:
    return page.startswith(RULE_PAGE_PREFIXES)


def text_of(html: str) -> str:
    return " ".join(_TAG.sub(" ", html).split())


@pytest.fixture(scope="module")
def index(built_site: Path) -> SearchIndex:
    return SearchIndex.read(built_site)


def test_rule_and_how_to_play_pages_weigh_more_than_examples(index: SearchIndex) -> None:
    def boosts(prefix: str) -> set[float]:
        return {float(d.get("boost", 1)) for d in index.docs if d["location"].startswith(prefix)}

    examples = boosts(EXAMPLES)
    assert examples, "no example page in the index"
    for prefix in ("play/", "rules/", "glossary.html"):
        found = boosts(prefix)
        assert found, f"no {prefix} page in the index"
        assert min(found) > max(examples), (prefix, found, examples)
    assert min(boosts("play/")) >= max(boosts("rules/")), "how to play comes first for players"


@pytest.mark.parametrize("word", RULE_WORDS)
def test_rule_pages_come_first_for_rule_words(index: SearchIndex, word: str) -> None:
    pages = index.pages(word)
    assert pages, f"nothing found for {word!r}"
    assert is_rule_page(pages[0]), f"{word!r}: the first result is {pages[0]}"
    # Every rule page naming the word in a heading ranks above every example page.
    titled = {h.page for h in index.search(word) if any(t.startswith(word.lower()) for t in index.tokens(h.title))}
    titled_rules = [p for p in pages if p in titled and is_rule_page(p)]
    assert titled_rules, f"no rule page has {word!r} in a heading"
    first_example = next((i for i, p in enumerate(pages) if p.startswith(EXAMPLES)), len(pages))
    late = [p for p in titled_rules if pages.index(p) > first_example]
    assert not late, f"{word!r}: {late} rank below the example page {pages[first_example]}"


# The game's words a player looks up ("follow" for following suit: the search ranks single words).
PLAYER_WORDS = ("indicator", "follow", "trump", "ndoa", "Otea", "mrithi", "Tree")


@pytest.mark.parametrize("word", PLAYER_WORDS)
def test_a_player_s_word_finds_how_to_play_or_the_glossary_first(index: SearchIndex, word: str) -> None:
    pages = index.pages(word)
    assert pages and pages[0].startswith(("play/", "glossary.html")), f"{word!r}: {pages[:5]}"


def test_the_rulesets_stay_out_of_the_index(index: SearchIndex) -> None:
    """A ruleset is the specification again for one table: thirteen copies would bury every other page."""
    located = {d["location"].split("#")[0] for d in index.docs}
    assert "rules/albastini.html" in located and "rules/altbaumer.html" in located
    assert not [page for page in located if page.startswith("rules/") and page.count("-")], sorted(located)


def test_the_search_splits_words_at_punctuation(index: SearchIndex) -> None:
    """The headings "Scoring a deal (mrithi)" and "Otea: choosing trumps" hold the words mrithi and Otea."""
    assert index.tokens("Scoring a deal (mrithi)") == ["scoring", "a", "deal", "mrithi"]
    assert index.tokens("3. Otea: choosing trumps") == ["3", "otea", "choosing", "trumps"]
    assert index.tokens("albastini.play.first-lead, version 0.1.0") == ["albastini", "play", "first", "lead", "version", "0.1.0"]


def test_example_boilerplate_is_on_the_pages_but_not_in_the_index(built_site: Path, index: SearchIndex) -> None:
    pages = "\n".join(text_of(p.read_text(encoding="utf-8")) for p in (built_site / "examples").rglob("*.html"))
    entries = [d for d in index.docs if d["location"].startswith(EXAMPLES)]
    for phrase in BOILERPLATE:
        assert phrase in pages, f"{phrase!r} is on no example page: update BOILERPLATE to the templates"
        found = [d["location"] for d in entries if re.search(rf"\b{re.escape(phrase)}", text_of(d["text"]))]
        assert not found, f"{phrase!r} is indexed: {found[:3]}"


def test_each_example_keeps_its_own_words_in_the_index(index: SearchIndex) -> None:
    sections = [d for d in index.docs if d["location"].startswith(EXAMPLES) and "#" in d["location"]]
    assert len(sections) > 100
    for d in sections:
        scenario_id = d["location"].partition("#")[2]
        own = text_of(d["text"]).replace(scenario_id, "").strip()
        assert len(own) > 20, f"{d['location']}: only {own!r} is indexed"


def test_weights_by_kind_of_page_and_the_front_matter_wins() -> None:
    games = ["albastini"]
    # how to play, the specification, a ruleset, a guide, a worked example: each weighs less than the one before
    kinds = ("play/albastini.md", "rules/albastini.md", "rules/albastini-2p.md", "guide/running.md", "examples/a/b.md")
    weights = [float(str(search_settings(path, None, games)["boost"])) for path in kinds]
    assert all(a > b for a, b in pairwise(weights)), dict(zip(kinds, weights, strict=True))
    assert search_settings("examples/x.md", {"exclude": True}, games) == {"boost": 0.1, "exclude": True}
    assert search_settings("examples/x.md", {"boost": 3}, games) == {"boost": 3}
