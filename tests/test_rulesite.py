"""The rules site generator: anchors, links both ways between clauses and scenarios, escaping, cards, the CLI reference."""

from __future__ import annotations

import ast
import copy
import dataclasses
import json
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from markdown.extensions.toc import slugify
from markupsafe import escape

import rulesite
from conformance import cli
from conformance.suite.scenarios import Scenario, Step, deck_of
from reference import Engine
from rulesite import cli_reference, fields_reference, paths, repository_links, rule_words, table_words, templating, walkthrough
from rulesite.escaping import md, said_plainly
from rulesite.example_pages import examples_index
from rulesite.links import PageLinks
from rulesite.variants_page import COLUMNS, variants_page
from specreader.jsontypes import Json
from specreader.problems import DataError, Problem
from specreader.spec import Spec
from specreader.yamlio import Document

import site_build

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

_ANCHOR = re.compile(r"\{ #([^ }]+) \}|\bid=\"([^\"]+)\"")
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def sentences_saying(words: str, text: str) -> list[str]:
    """The sentences of ``text`` (cut at full stops) holding one of ``words`` (a regular expression) as a word, in
    any case. The word is found first: a pattern for the whole sentence around it is tried from every position."""
    found = []
    for match in re.finditer(rf"\b(?:{words})\b", text, re.I):
        start, end = text.rfind(".", 0, match.start()) + 1, text.find(".", match.end())
        found.append(text[start:end if end >= 0 else len(text)])
    return found


def _slug(heading: str) -> str:
    """The id Python-Markdown's toc gives a heading without one of its own (its #s, markup and escapes gone)."""
    text = re.sub(r"<[^>]+>", "", re.sub(r"\\(.)", r"\1", heading.lstrip("#").strip()))
    return slugify(text, "-")


def anchors(markdown: str) -> set[str]:
    found = {a or b for a, b in _ANCHOR.findall(markdown)}
    return found | {_slug(line) for line in markdown.splitlines() if line.startswith("#") and not line.endswith("}")}


@pytest.fixture(scope="module")
def page_anchors(site_pages: dict[str, str]) -> dict[str, set[str]]:
    """The anchors of every generated page, found once for the tests that follow links."""
    return {page: anchors(text) for page, text in site_pages.items()}


def block(markdown: str, anchor: str) -> str:
    """The text under the heading anchored ``anchor``, up to the next heading of the same or a higher level."""
    lines = markdown.splitlines()
    for i, line in enumerate(lines):
        own = line.endswith(f"{{ #{anchor} }}") or (i > 1 and lines[i - 2] == f'<a id="{anchor}"></a>')
        if line.startswith("#") and (own or (not line.endswith("}") and _slug(line) == anchor)):
            level = len(line) - len(line.lstrip("#"))
            end = next(
                (j for j in range(i + 1, len(lines)) if re.match(rf"^#{{1,{level}}} ", lines[j])),
                len(lines),
            )
            return "\n".join(lines[i:end])
    raise AssertionError(f"no heading anchored {anchor!r}")


def resolve(page: str, target: str) -> tuple[str, str | None]:
    path, _, anchor = target.partition("#")
    if not path:
        return page, anchor or None
    joined = (Path(page).parent / path).as_posix()
    parts: list[str] = []
    for part in joined.split("/"):
        if part == "..":
            parts.pop()
        elif part not in (".", ""):
            parts.append(part)
    return "/".join(parts), anchor or None


# ------------------------------------------------------------------ the kit's own data


def test_every_clause_is_anchored_by_its_id(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    for cid in site_data.clauses:
        page = site_pages[paths.rules_page_path(site_data.clause_game[cid])]
        assert re.search(rf"^### .+ \{{ #{re.escape(cid)} \}}$", page, re.M), cid


def test_clauses_appear_in_reading_order(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    for game in site_data.games():
        page = site_pages[paths.rules_page_path(game)]
        order = [s["id"] for s in site_data.spec.sections(game)]
        expected = sorted(site_data.game_clauses(game), key=lambda c: order.index(c["section"]))
        found = re.findall(r"^### .+ \{ #([^ }]+) \}$", page, re.M)
        assert found == [c["id"] for c in expected]
        headings = re.findall(r"^## .+ \{ #([^ }]+) \}$", page, re.M)
        assert headings == [f"{game}.{s}" for s in order]


def test_every_clause_links_to_the_scenarios_that_check_it(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    checked = 0
    for cid, scenarios in site_data.by_clause.items():
        page_path = paths.rules_page_path(site_data.clause_game[cid])
        text = block(site_pages[page_path], cid)
        targets = {resolve(page_path, t) for t in _LINK.findall(text)}
        for s in scenarios:
            assert (site_data.example_page(s), s.id) in targets, f"{cid} does not link to {s.id}"
        checked += 1
    assert checked > 100


def test_clauses_without_scenarios_say_so(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    for cid in site_data.clauses:
        if cid not in site_data.by_clause:
            text = block(site_pages[paths.rules_page_path(site_data.clause_game[cid])], cid)
            assert "no scenario checks it" in text or "No worked example" in text


def test_every_scenario_is_anchored_and_links_back_to_its_clauses(
    site_data: rulesite.SiteData, site_pages: dict[str, str]
) -> None:
    assert site_data.scenarios
    for s in site_data.scenarios:
        page_path = site_data.example_page(s)
        text = block(site_pages[page_path], s.id)
        targets = {resolve(page_path, t) for t in _LINK.findall(text)}
        for cid in s.clauses:
            assert (paths.rules_page_path(s.game), cid) in targets, f"{s.id} does not link to {cid}"
        assert (paths.variant_rules_path(s.variant), None) in targets


def test_every_link_lands_on_a_page_and_an_anchor(site_pages: dict[str, str], page_anchors: dict[str, set[str]]) -> None:
    handwritten = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")} | set(rulesite.hand_written_pages())
    found = page_anchors
    count = 0
    for page, text in site_pages.items():
        for target in _LINK.findall(text):
            path, anchor = resolve(page, target)
            assert path in found or path in handwritten, f"{page}: link to missing page {target}"
            if anchor and path in found:
                assert anchor in found[path], f"{page}: link to missing anchor {target}"
            count += 1
    assert count > 1000


def test_anchor_ids_are_unique_per_page(site_pages: dict[str, str]) -> None:
    for page, text in site_pages.items():
        ids = [a or b for a, b in _ANCHOR.findall(text)]
        assert len(ids) == len(set(ids)), page


def test_variants_table_has_every_playable_variant(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    page = site_pages[paths.VARIANTS_PAGE]
    for vid, v in site_data.variants.items():
        assert (f'<tr id="{vid}">' in page) == (not v.get("abstract")), vid
    for label, _ in COLUMNS:
        assert f"<th>{label}</th>" in page


def test_rulings_page_has_every_ruling_and_erratum(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    page = site_pages[paths.RULINGS_PAGE]
    for rid, ruling in site_data.rulings.items():
        text = block(page, rid)
        assert "**Question.**" in text and "Decision" in text
        for erratum in ruling.get("errata", []):
            assert "Erratum in" in text and md(erratum["why"])[:40] in text


def test_glossary_defines_the_words_of_the_rules(site_pages: dict[str, str]) -> None:
    page = site_pages[paths.GLOSSARY_PAGE]
    words = ["Dume", "Jike", "Mzungu", "Ngarasha", "kula", "Otea", "mrithi", "ndoa", "kuangalia mkono", "the Trees", "makers"]
    for word in [*words, "forehand"]:
        assert re.search(rf"^## {re.escape(word)}\b", page, re.M), word


def test_the_glossary_defines_for_players_and_keeps_engine_detail_in_its_note(
    site_data: rulesite.SiteData, site_pages: dict[str, str]
) -> None:
    """A seat and a side are defined in table words; how engines number them is the term's engine note, said
    after the definition as the specification says a clause's."""
    page = site_pages[paths.GLOSSARY_PAGE]
    for term in site_data.glossary:
        assert not sentences_saying(r"engines?|scenarios?|numbered|variant lists|seats? (?:\d|X\b)", term["definition"]), term
    noted = [t for t in site_data.glossary if t.get("engine_note")]
    assert {"seat", "side"} <= {t["term"] for t in noted}
    for term in noted:
        entry = page.split(f"\n## {md(term['term'])} ", 1)[1].split("\n## ", 1)[0]
        assert "\n**For engines.** " in entry, entry
        assert "numbered from 0" in entry or term["term"] not in ("seat", "side"), entry


def test_error_and_schema_pages_list_everything(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    errors = anchors(site_pages[paths.REFUSALS_PAGE])
    assert site_data.refusal_codes <= errors
    schemas = site_pages[paths.SCHEMAS_PAGE]
    for name, schema in site_data.schemas:
        assert f"schemas/{name}" in schemas
        assert escape(schema.get("title", "")) in schemas


def test_generator_does_not_import_a_docs_tool() -> None:
    modules = sorted(Path(rulesite.__file__).parent.glob("*.py"))
    assert len(modules) > 5
    for module in modules:
        tree = ast.parse(module.read_text(encoding="utf-8"))
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert not any(name.split(".")[0] in ("mkdocs", "markdown", "material", "pymdownx") for name in imported), module.name


# ------------------------------------------------------------------ cards


def test_cards_are_text_with_the_text_presentation_selector() -> None:
    card = templating.macro("cards.html.j2", "card")
    ten = card("TD")
    assert "card--red" in ten and ">10<" in ten and "♦\ufe0e" in ten
    queen = card("QS")
    assert "card--black" in queen and ">Q<" in queen and "♠\ufe0e" in queen
    assert "card--red" in card("7H") and "card--black" in card("AC")
    assert "card--unknown" in card("<b>")
    assert "<b>" not in card("<b>")


def test_a_kept_fragment_is_written_in_again_whole_and_nested() -> None:
    with templating.fragments_kept() as kept:
        card = templating.macro("cards.html.j2", "card")("TD")
        row = templating.macro("cards.html.j2", "row")(["TD", "QS"])
    assert "<span" not in card and row.count("<span") == 1  # each card a marker, in the row's own span
    assert kept.expand(f"<p>{row}</p>") == f"<p>{templating.macro('cards.html.j2', 'row')(['TD', 'QS'])}</p>"
    nested = kept.keep(f"<b>{card}</b>")
    assert kept.expand(nested) == f"<b>{kept.expand(card)}</b>"
    assert kept.keep(f"<b>{card}</b>") == nested  # one fragment, however often it is drawn


def test_a_marker_is_only_this_build_s_own() -> None:
    """Markers carry a random key: text in the data that looks like one is written as it stands."""
    with templating.fragments_kept() as kept:
        marker = templating.macro("cards.html.j2", "card")("TD")
    with templating.fragments_kept() as other:
        other.keep("<i>another build's</i>")
    forged = re.sub(r"[0-9a-f]{16}", "0" * 16, str(marker))
    assert other.expand(marker) == marker
    assert kept.expand(forged) == forged


def test_pages_with_their_fragments_kept_are_the_pages_once_written_in(
    site_data: rulesite.SiteData, site_pages: dict[str, str]
) -> None:
    """What docs/hooks.py hands MkDocs: the pages with markers for the cards and deals, which make up most
    of the worked examples, and the same pages once the fragments are written in."""
    with templating.fragments_kept() as kept:
        marked = rulesite.pages(site_data)
    assert {path: kept.expand(page) for path, page in marked.items()} == site_pages
    examples = [path for path in marked if path.startswith("examples/")]
    assert sum(len(marked[p]) for p in examples) < sum(len(site_pages[p]) for p in examples) / 2
    assert not any('class="card card--' in marked[p] for p in examples)


def test_the_built_pages_have_their_fragments_written_in(built_site: Path) -> None:
    pages = list(built_site.rglob("*.html"))
    assert len(pages) > 100
    assert not [p for p in pages if "\ue000" in p.read_text(encoding="utf-8")]
    example = (built_site / "examples" / "albastini" / "play" / "trick-winner.html").read_text(encoding="utf-8")
    assert 'class="card card--' in example and '<figure class="deal" data-search-exclude><div class="deal__row">' in example


def test_shortcodes_draw_cards_and_refuse_typos(site_data: rulesite.SiteData) -> None:
    out = rulesite.expand_shortcodes("Anna leads [[cards: AH]] and [[show: Boris:3S]]\n\n[[values: albastini-base]]", site_data)
    assert out.count('class="card card--') == 2 + 9
    assert "The whole pack holds 120 points." in out
    with pytest.raises(ValueError, match="1H"):
        rulesite.expand_shortcodes("[[cards: 1H]]", site_data)
    with pytest.raises(ValueError):
        rulesite.expand_shortcodes("[[values: no-such-variant]]", site_data)


def test_shortcodes_in_code_are_shown_as_written(site_data: rulesite.SiteData) -> None:
    page = (
        "A `[[ruling: R6]]` line, ``[[cards: 1H]]`` and [[cards: AH]].\n\n"
        "- In a list:\n\n    ```markdown\n    [[cards: 1H]] [[ruling: R99]]\n    ```\n\n"
        "~~~~\n[[values: no-such-variant]]\n~~~~\n\nThen [[cards: 3S]] and `code` [[cards: 7H]]\n"
    )
    out = rulesite.expand_shortcodes(page, site_data, "changelog.md")
    assert out.count('class="card card--') == 3
    assert "A `[[ruling: R6]]` line, ``[[cards: 1H]]`` and" in out
    assert "    ```markdown\n    [[cards: 1H]] [[ruling: R99]]\n    ```\n" in out
    assert "~~~~\n[[values: no-such-variant]]\n~~~~\n" in out
    assert "Our ruling" not in out


def test_prose_draws_card_codes_and_links_ids(site_data: rulesite.SiteData) -> None:
    text = PageLinks("rules/albastini.md", site_data).prose("JC beats AD (ruling R6, albastini.play.trick-winner); must_trump")
    assert text.count('class="card card--') == 2
    assert "(../rulings.md#R6)" in text
    assert "(#albastini.play.trick-winner)" in text
    assert "(../reference/refusals.md#must_trump)" in text


# ------------------------------------------------------------------ escaping

EVIL = "<script>alert('x')</script>"


def fabricated() -> rulesite.SiteData:
    """A one-clause game and one scenario whose every text field tries to inject markup."""
    clause_doc = Document(
        "spec/testgame/clauses.yaml",
        {
            "game": "testgame",
            "title": f"Test {EVIL}",
            "sections": [{"id": "sec", "title": f"Section {EVIL}", "intro": "<img src=x onerror=alert(1)>"}],
            "clauses": [
                {
                    "id": "testgame.sec.evil",
                    "title": f"{EVIL} *not bold* [not a link](http://example.org) {{ #fake }}",
                    "section": "sec",
                    "text": "A player MUST see <b>this</b> & &amp; as text, `not code`.",
                    "sources": ["<i>src</i>"],
                }
            ],
        },
    )
    spec = Spec(clause_files=[clause_doc], games_file=Document("spec/games.yaml", {"games": ["testgame"]}))
    scenario = Scenario(
        id="testgame/sec/evil",
        title=EVIL,
        clauses=("testgame.sec.evil",),
        source={"derived": "<b>because</b>"},
        variant="testgame-x",
        game="testgame",
        setup={"dealer": 0, "hands": {"0": ["AH", "TD"]}, "stock": ["3S"], "start": {"phase": "<script>", "trump": "S"}},
        steps=(
            Step(actions=({"type": "play", "seat": 0, "card": "AH"},), expect={"phase": EVIL, "snapshot": {"a<b": "<i>"}}),
            Step(actions=({"type": "<script>", "seat": 0},), refuse=("must_trump",)),
        ),
        file="scenarios/testgame/sec/evil.yaml",
        line=1,
        description=f"Description {EVIL}",
        raw={"steps": [{"note": EVIL}, {}]},
    )
    return rulesite.SiteData(spec, [scenario])


def test_yaml_text_is_escaped_in_the_markdown() -> None:
    data = fabricated()
    site = rulesite.pages(data)
    example = site["examples/testgame/sec/evil.md"]
    rules = site["rules/testgame.md"]
    for text in (example, rules):
        assert not re.search(r"<(script|img|b|i)\b", text), text
    assert "&lt;script&gt;alert\\('x'\\)&lt;/script&gt;" in example
    assert "{ #testgame/sec/evil }" in example
    assert "\\{ \\#fake \\}" in rules


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, site_data: str) -> None:
        self.text.append(site_data)


def test_a_script_title_renders_literally() -> None:
    markdown = pytest.importorskip("markdown")
    data = fabricated()
    site = rulesite.pages(data)
    md = markdown.Markdown(extensions=["toc", "attr_list", "admonition", "tables"])
    html = md.convert(site["examples/testgame/sec/evil.md"])
    parsed = _Text()
    parsed.feed(html)
    assert "script" not in parsed.tags and "img" not in parsed.tags
    text = "".join(parsed.text)
    assert EVIL in text
    assert "Description " + EVIL in text
    assert 'id="testgame/sec/evil"' in html
    names = [t["name"] for t in md.toc_tokens]
    assert any("&lt;script&gt;" in n for n in names) and not any("&amp;" in n for n in names)

    rules = markdown.Markdown(extensions=["toc", "attr_list", "admonition", "tables"]).convert(site["rules/testgame.md"])
    parsed = _Text()
    parsed.feed(rules)
    assert "script" not in parsed.tags and "img" not in parsed.tags and "b" not in parsed.tags
    text = "".join(parsed.text)
    assert f"{EVIL} *not bold* [not a link](http://example.org) {{ #fake }}" in text
    assert "see <b>this</b> & &amp; as text, `not code`." in text
    assert 'id="testgame.sec.evil"' in rules and 'id="fake"' not in rules


@pytest.mark.parametrize(
    "text",
    [
        "a*b*c",
        "_x_ __y__",
        "[l](u) ![i](j)",
        "<b>&amp;</b>",
        "# not a heading",
        "1. not a list",
        "`tick` \\ back",
        "{ #id }",
        "a | b",
    ],
)
def test_md_shows_text_exactly(text: str) -> None:
    markdown = pytest.importorskip("markdown")
    html = markdown.markdown("x " + md(text), extensions=["attr_list", "tables"])
    parsed = _Text()
    parsed.feed(html)
    assert parsed.tags == ["p"]
    assert "".join(parsed.text) == "x " + text


def test_the_site_carries_the_reference_engines_conformance_report() -> None:
    """docs/hooks.py verifies the reference engine at build time and publishes the report."""
    page = site_build.hooks().conformance_report()
    assert page.startswith("# Conformance report: trickspec-reference")
    assert "passed, 0 failed**" in page and "| `albastini` |" in page


def nav_entry(items: list[Any], *titles: str) -> Any:
    """The value of the nav entry reached through ``titles``."""
    found = next(item[titles[0]] for item in items if isinstance(item, dict) and titles[0] in item)
    return nav_entry(found, *titles[1:]) if titles[1:] else found


def nav_titles(items: list[Any]) -> list[str]:
    return [title for item in items if isinstance(item, dict) for title in item]


def test_the_nav_puts_each_sheet_and_each_game_s_fields_under_their_first_page(site_data: rulesite.SiteData) -> None:
    expanded = site_build.nav(site_data)
    entry = nav_entry

    albastini = entry(expanded, "How to play", "On one page, to print", "Albastini")
    assert albastini == [{"Choose your table": "print/albastini.md"}] + [
        {f"For {n}": f"print/albastini-{p}p.md"} for p, n in ((2, "two"), (3, "three"), (4, "four"), (5, "five"), (6, "six"))
    ]
    assert entry(expanded, "How to play", "On one page, to print", "Altbaumer") == "print/altbaumer.md"
    fields = entry(expanded, "Conformance", "Field reference")
    assert fields[0] == {"Overview and types": "reference/fields.md"}
    assert fields[1:] == [{site_data.game_title(g): f"reference/fields/{g}.md"} for g in site_data.games()]


def test_the_site_lists_the_games_in_the_order_the_spec_gives(kit_copy: Path) -> None:
    """spec/games.yaml says the order of the games, and every list of them on the site follows it: the nav's how to
    play, print sheets, rules, worked examples and field reference, the variants compared, the examples' index."""
    order = ["bisca", "altbaumer", "briscola", "albastini"]
    (kit_copy / "spec" / "games.yaml").write_text(f"games: [{', '.join(order)}]\n", encoding="utf-8")
    data = rulesite.load_site_data(kit_copy)
    titles = [data.game_title(game) for game in order]
    assert data.games() == order
    assert [next(iter(entry)) for entry in rulesite.example_nav(data)[1:]] == titles
    assert [next(iter(entry)) for entry in rulesite.fields_nav(data)[paths.FIELDS_PAGE][1:]] == titles
    compared = variants_page(data)
    assert sorted(order, key=lambda game: compared.index(f"{{ #variants-{game} }}")) == order
    index = examples_index(data)
    assert sorted(titles, key=lambda title: index.index(f"\n## {title}")) == titles
    nav = site_build.nav(data)
    for section in (("How to play",), ("How to play", "On one page, to print"), ("Rules",)):
        assert nav_titles(nav_entry(nav, *section))[: len(order)] == titles, section
    assert nav_entry(nav, "Rules", titles[0])[-1] == {"Specification, for engine authors": f"rules/{order[0]}.md"}


def test_the_site_is_not_made_with_a_game_left_out_of_the_order(kit_copy: Path) -> None:
    games = kit_copy / "spec" / "games.yaml"
    games.write_text("games:\n  - albastini\n  - altbaumer\n  - briscola\n", encoding="utf-8")
    with pytest.raises(DataError) as raised:
        rulesite.load_site_data(kit_copy)
    assert str(raised.value) == f"{games}:2:3: $.games: expected every game of the spec, found 'bisca' left out"


def every_file_kind_evil() -> rulesite.SiteData:
    """The fabricated game with a variant, a ruling, a source, an refusal code, a glossary term and a schema,
    each carrying a script wherever it has text."""
    data = fabricated()
    spec = data.spec
    problems: list[Problem] = []
    spec.add(
        Document(
            "spec/testgame/variants/x.yaml",
            {
                "id": "testgame-x",
                "game": "testgame",
                "title": EVIL,
                "players": EVIL,
                "sides": [[0, 2], [1, 3]],
                "direction": EVIL,
                "deck": {"ranks": "A K", "suits": "H S"},
                "values": {"A": EVIL, "K": 4},
                "components": {"trump": {"rule": EVIL, EVIL: [EVIL, {"k": EVIL}]}},
            },
        ),
        ("testgame", "variants", "x.yaml"),
        problems,
    )
    assert not problems
    spec.ruling_files.append(
        Document(
            "spec/testgame/rulings.yaml",
            {
                "game": "testgame",
                "rulings": [
                    {
                        "id": "R1",
                        "title": EVIL,
                        "question": EVIL,
                        "readings": [{"summary": EVIL, "sources": [EVIL]}],
                        "decision": EVIL,
                        "parameter": EVIL,
                        "errata": [{"source": EVIL, "says": EVIL, "why": EVIL}],
                    }
                ],
            },
        )
    )
    spec.sources_file = Document(
        "spec/sources.yaml",
        {"sources": [{"key": "src", "title": EVIL, "author": EVIL, "games": [EVIL], "notes": EVIL}]},
    )
    spec.refusals_file = Document("spec/refusals.yaml", {"refusals": [{"code": "must_trump", "meaning": EVIL}]})
    glossary = [{"term": EVIL, "id": "evil", "language": EVIL, "meaning": EVIL, "game": EVIL, "definition": EVIL}]
    schema = {"$id": EVIL, "title": EVIL, "description": EVIL, "properties": {EVIL: {}}, "required": [EVIL]}
    return rulesite.SiteData(spec, data.scenarios, glossary, [("evil.schema.json", schema)])


def test_a_script_anywhere_in_the_data_comes_out_escaped_on_every_page() -> None:
    data = every_file_kind_evil()
    site = rulesite.pages(data)
    assert set(site) == {
        "rules/testgame.md",
        paths.VARIANTS_PAGE,
        paths.RULINGS_PAGE,
        paths.GLOSSARY_PAGE,
        paths.SOURCES_PAGE,
        paths.REFUSALS_PAGE,
        paths.SCHEMAS_PAGE,
        paths.EXAMPLES_INDEX,
        "examples/testgame/sec/evil.md",
        "rules/testgame-x.md",
        "print/testgame.md",
    }
    for page, text in site.items():
        assert "&lt;script&gt;" in text, f"{page}: the script did not reach the page"
        assert not re.search(r"<script", text, re.I), f"{page}: a script survived"
    shortcodes = rulesite.expand_shortcodes("[[values: testgame-x]] [[show: <script>:AH]]", data)
    assert "&lt;script&gt;" in shortcodes and "<script" not in shortcodes


def test_every_template_autoescapes() -> None:
    env = templating.environment()
    names = env.list_templates()
    assert len(names) > 10 and all(name.endswith(".j2") for name in names)
    for name in names:
        assert env.autoescape is True or env.autoescape(name), name
    option = cli.Option(("--evil",), EVIL, metavar="<b>", choices=(EVIL,))
    table = templating.render("options_table.html.j2", options=[option])
    assert "<script" not in table and "<b>" not in table and "&lt;script&gt;" in table


# ------------------------------------------------------------------ the command-line reference


def cell_text(html: str) -> list[str]:
    parsed = _Text()
    parsed.feed(html)
    return parsed.text


def test_the_cli_page_lists_every_command_and_option_of_the_description() -> None:
    commands = cell_text(rulesite.expand_shortcodes("[[cli:]]"))
    assert commands[2:] == [text for c in cli.COMMANDS for text in (f"trickspec {c.name}", c.help)]
    for command in cli.COMMANDS:
        shown = "\n".join(cell_text(rulesite.expand_shortcodes(f"[[cli: {command.name}]]")))
        for option in command.options:
            assert ", ".join(option.flags) in shown, (command.name, option.flags)
            assert option.help in shown, (command.name, option.flags)
            if option.value_name:
                assert f"{', '.join(option.flags)} {option.value_name}" in shown
            for choice in option.choices or ():
                assert choice in shown
    with pytest.raises(ValueError, match="no such trickspec command"):
        rulesite.expand_shortcodes("[[cli: no-such-command]]")


def test_the_guide_names_the_pytest_plugins_options() -> None:
    options = cli_reference.pytest_options()
    assert [o.flags[0] for o in options] == [
        "--engine", "--engine-in-process", "--engine-cmd", "--engine-timeout", "--validate-protocol", "--expect",
        "--trickspec-spec", "--trickspec-scenarios",
    ]
    shown = "\n".join(cell_text(rulesite.expand_shortcodes("[[pytest-options:]]")))
    assert "--engine-timeout ENGINE_TIMEOUT" in shown and "(default: 10.0)" in shown
    assert all(o.help in shown for o in options)


def test_every_source_can_be_followed_by_a_reader(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    """Each source names its author or publisher; a web page has a link; no page names a file outside the kit."""
    for source in site_data.sources():
        assert source.get("author") or source.get("publisher"), source["key"]
        if source.get("kind") == "web-page":
            assert str(source.get("link", "")).startswith("https://"), source["key"]
    outside = re.compile(r"\b[0-9a-f]{3}_[0-9a-f]{16}\.txt\b|\bdossier\b|\bseeds?/", re.I)
    for page, text in site_pages.items():
        assert not outside.search(text), f"{page} cites something outside the repository: {outside.search(text)}"
    bibliography = site_pages[paths.SOURCES_PAGE]
    assert '<a href="https://www.pagat.com/aceten/albastini.html">' in bibliography


# ------------------------------------------------------------------ for players: how to play, rulesets, table language


@pytest.fixture(scope="module")
def scripts() -> dict[str, Json]:
    return walkthrough.load_scripts(rulesite.DEALS)


def test_every_game_has_a_how_to_play_page_with_a_whole_deal(site_data: rulesite.SiteData, scripts: dict[str, Json]) -> None:
    for game in site_data.games():
        page = rulesite.hand_written_pages()[paths.how_to_play_path(game)]
        assert f"[[walkthrough: {game}]]" in page and f"[[rulesets: {game}]]" in page, game
        walk = walkthrough.play(scripts[game])
        assert walk.game == game
        assert walk.moments[-1].result() is not None, f"{game}: the script does not play the deal to its end"


def test_the_walkthrough_shows_what_the_engine_answered(site_data: rulesite.SiteData, scripts: dict[str, Json]) -> None:
    assert site_data.deals  # read with the deal scripts of rulesite/hand_written/play, as docs/hooks.py reads it
    walk = walkthrough.play(scripts["albastini"])
    text = rulesite.expand_shortcodes("[[walkthrough: albastini]]", site_data, "play/albastini.md")
    tricks = [m.trick() for m in walk.moments if m.trick() is not None]
    assert len(tricks) == 9  # 36 cards, four players
    assert len(re.findall(r"^### Trick \d+: ", text, re.M)) == len(tricks)
    result = walk.moments[-1].result()
    assert result is not None
    said = table_words.result_sentence(result, walk.variant, choice_open=True)
    assert said in text and said.endswith(", unless South takes the deal."), said  # North-South won it
    assert sum(t["points"] for t in tricks) == 120


def test_a_script_the_engine_refuses_fails_naming_the_step(scripts: dict[str, Json]) -> None:
    broken = {**scripts["albastini"], "steps": [{"do": ["bid 6D", "bid 6D"]}]}
    with pytest.raises(ValueError, match=r"step 1: the engine refuses 'bid 6D'"):
        walkthrough.play(broken)
    unfinished = {**scripts["albastini"], "steps": scripts["albastini"]["steps"][:2]}
    with pytest.raises(ValueError, match="ends before the deal does"):
        walkthrough.play(unfinished)


def test_every_playable_variant_has_its_rules_page_with_the_selector(
    site_data: rulesite.SiteData, site_pages: dict[str, str]
) -> None:
    for game in site_data.games():
        variants = site_data.playable_variants(game)
        assert paths.rules_page_path(game) in site_pages
        for vid, variant in variants.items():
            page = site_pages[paths.variant_rules_path(vid)]
            assert page.splitlines()[0] == f"# {md(variant['title'])}"
            assert "{: .ruleset-selector }" in page
            others = [v for v in variants if v != vid]
            assert all(paths.link(paths.variant_rules_path(vid), paths.variant_rules_path(o)) in page for o in others)


def test_a_ruleset_page_states_its_parameters_in_words_and_only_its_rules(
    site_data: rulesite.SiteData, site_pages: dict[str, str]
) -> None:
    five, four = site_pages[paths.variant_rules_path("albastini-5p")], site_pages[paths.variant_rules_path("albastini-4p")]
    def table(page: str) -> str:  # the page's "At this table" summary
        return page.split("\n## ", 2)[1]

    assert "never drawn" in table(five) and "never drawn" not in table(four)
    assert "Partners' look" in four and "Partners' look" not in five  # no partners, no look, in the facts or the rules
    # in the words players use: the specification's RFC 2119 capitals are for engine authors
    assert "MUST" not in four and " must " in four and '<strong class="rfc">MUST</strong>' in site_pages["rules/albastini.md"]
    # a move the rules forbid is "not allowed" to a player; an engine "refuses" it (the specification's words)
    rulesets = [site_pages[paths.variant_rules_path(v)] for g in site_data.games() for v in site_data.playable_variants(g)]
    assert not [page for page in rulesets if " refused" in page] and "is not allowed" in four
    assert '<strong class="rfc">MUST</strong> be refused' in site_pages["rules/albastini.md"]
    plain = said_plainly("A bid MUST be refused; a card is refused too.")
    assert plain == "A bid is not allowed; a card is not allowed either."
    assert "{:" not in four.split("## ", 2)[2].split("\n## ")[0]  # the facts table carries no stray attribute line
    assert rule_words.players(site_data.variants["albastini-4p"]) == (
        "Four players in two pairs, partners sitting opposite (North-South, East-West)."
    )
    assert md(rule_words.players(site_data.variants["albastini-4p"])) in four
    # what a table needs to deal, bid and stop, said on the sheet rather than left to a ruling's link
    altbaumer, two = site_data.variants["altbaumer-standard"], site_data.variants["albastini-2p"]
    assert rule_words.deal(altbaumer) == (
        "Five cards each, dealt in packets of 3 then 2 from the player after the dealer round to the dealer;"
        " four cards are left as the stock."
    )
    assert rule_words.trump(two).startswith("Otea: the dealer's opponents each have one turn, starting from the player"
                                            " after the dealer, to lay a card face up as a bid, of a suit nobody has bid,"
                                            " or to pass.")
    assert rule_words.match(two, {}).endswith("the game names no winner unless the table agrees a target before play.")
    # the deal sentence holds no parameter: every variant's reference deal bears it out, the first card to the
    # player after the dealer, the last dealt to the dealer
    for vid in (v for g in site_data.games() for v in site_data.playable_variants(g)):
        deck, n = deck_of(site_data.variants[vid]), site_data.variants[vid]["players"]
        engine = Engine.new(vid, {"dealer": 0, "deck": deck})
        while engine.snapshot()["phase"] == "cut":  # no Tree taken: every card dealt in order
            engine.apply(next(a for a in engine.legal_actions() if a["type"] == "decline"))
        hands = engine.snapshot()["hands"]
        assert deck[0] in hands["1" if n > 1 else "0"] and deck[0] not in hands["0"], vid
        assert "from the player after the dealer round to the dealer" in rule_words.deal(site_data.variants[vid])
    # first names say no place at the table by themselves: where partners are named by them, their order is said
    assert rule_words.players(site_data.variants["albastini-6p-pairs"]).endswith(
        "(Anna and Dawit, Boris and Esther, Carla and Faraji). The names go round the table in the order of play: "
        "Anna, Boris, Carla, Dawit, Esther and Faraji."
    )
    only_five = [  # the clauses of the five-player tables alone (mrithi and over-60 scoring)
        cid for cid, c in site_data.clauses.items()
        if c.get("variants") and all(site_data.variants[v]["players"] == 5 for v in c["variants"])
    ]
    assert only_five
    for cid in only_five:
        rule = f'<span class="rule__clause">[<code>{cid}</code>]'
        assert rule in five and rule not in four


def rule_title(line: str) -> str:
    """A rule's title on a ruleset page, the link to its clause taken off: ``**[Title](spec.md#id).**``."""
    return re.sub(r"^\[(.*)\]\([^)]*\)(\.?)$", r"\1\2", line.split("**")[1])


def test_a_rule_on_a_ruleset_page_names_the_rulings_that_decide_it(
    site_data: rulesite.SiteData, site_pages: dict[str, str]
) -> None:
    """The table's summary says how the cards are dealt; the rule says the accounts fix no packet size: the
    ruling that decides it is named beside the rule, so that a player sees why, and every other rule's too."""
    two = site_pages[paths.variant_rules_path("albastini-2p")]
    lines = {rule_title(line): line for line in two.splitlines() if line.startswith("**")}
    clause = "[<code>albastini.deal.five-each</code>](albastini.md#albastini.deal.five-each)"
    ruling = "[R3 How the cards are dealt](../rulings.md#R3)"
    five = lines["Five cards each, the rest is the stock."]
    assert five.endswith(f'<span class="rule__ruling">Ruling {ruling}.</span> <span class="rule__clause">{clause}</span>')
    assert "rule__ruling" not in lines["Two to six players."]
    checked = set()
    for game in site_data.games():
        for vid in site_data.playable_variants(game):
            page = site_pages[paths.variant_rules_path(vid)]
            shown = {rule_title(line): line for line in page.splitlines() if line.startswith("**")}
            for clause in site_data.game_clauses(game):
                line = shown.get(md(str(clause.get("title"))) + ".")
                if line is None:  # a rule of other tables
                    continue
                checked.add(clause["id"])
                marked = line.rsplit('<span class="rule__ruling">', 1)[1] if "rule__ruling" in line else ""
                named = re.findall(r"\[(R\d+) [^]]+\]\(\.\./rulings\.md#\1\)", marked)
                assert named == list(clause.get("rulings", [])), (vid, clause["id"])
    # every rule players read is on some table's page, and was looked at there
    assert checked == {cid for cid, c in site_data.clauses.items() if c.get("text")}


def test_a_ruleset_page_leads_with_the_table_in_plain_words_its_rulings_marked(
    site_data: rulesite.SiteData, site_pages: dict[str, str]
) -> None:
    page = site_pages[paths.variant_rules_path("albastini-4p")]
    lead, summary, rules = page.index("{: .lead }"), page.index("## At this table"), page.index("## Every rule")
    assert lead < page.index('??? abstract "The other rulesets of Albastini"') < summary < rules
    rows = {row.split(" | ")[0].removeprefix("| "): row for row in page[summary:rules].splitlines() if row.startswith("| ")}
    assert "Our ruling [R6 Who draws the indicator](../rulings.md#R6)" in rows["Drawing"]
    assert "ruling-mark" not in rows["Pack"]
    # where the account's sentence names the same player as the ruling, no account says otherwise
    for vid in ("albastini-2p", "albastini-over60-2p", "albastini-clockwise"):
        assert "Our ruling [R6 Who draws" not in site_pages[paths.variant_rules_path(vid)], vid
    pack = next(line for line in page[rules:].splitlines() if line.startswith("**"))
    assert pack.startswith("**[A 36\\-card pack](albastini.md#albastini.cards.pack).**"), pack  # the title links its clause
    # the clause ids are there for those who ask: each behind the page's one toggle
    assert page.count('<input type="checkbox" id="show-clause-ids">') == 1
    assert page.index('id="show-clause-ids"') < page.index('<span class="rule__clause">')


def test_what_a_clause_asks_of_engines_alone_is_on_the_specification_page_and_no_ruleset(
    site_data: rulesite.SiteData, site_pages: dict[str, str]
) -> None:
    """A clause's engine_note (how a given deal is read, what may be reported) follows its text on the specification
    page; the rulesets leave it out, and leave out whole a clause with no text, so no page a player reads speaks of
    engines or scenarios, or names a clause by its id."""
    notes = {cid: c for cid, c in site_data.clauses.items() if c.get("engine_note")}
    alone = [cid for cid, c in notes.items() if not c.get("text")]
    assert notes and alone  # both shapes are in the kit's spec
    rulesets = {v: site_pages[paths.variant_rules_path(v)] for g in site_data.games() for v in site_data.playable_variants(g)}
    for cid in notes:
        spec_page = site_pages[paths.rules_page_path(site_data.clause_game[cid])]
        assert re.search(rf"^### .+ \{{ #{re.escape(cid)} \}}\n\n(.+\n\n)?\*\*For engines\.\*\* ", spec_page, re.M), cid
        rule = f'<span class="rule__clause">[<code>{cid}</code>]'
        shown = [v for v, page in rulesets.items() if rule in page]
        assert bool(shown) == (cid not in alone), cid
    for vid, page in rulesets.items():
        words = re.sub(r"<[^>]+>|\]\([^)]*\)", " ", page)  # the text a player reads, without tags or link targets
        spoken = sentences_saying(r"engines?|scenarios?", words)
        assert not spoken, (vid, spoken)
        # a clause a rule mentions is named by its title; the clause's id is only in the rule's own reference
        mentions = [line.split('<span class="rule__clause">')[0] for line in page.splitlines() if line.startswith("**")]
        assert not [m for m in mentions if "<code>" in m], vid
        rules = "\n".join(line for line in words.splitlines() if line.startswith("**"))  # the rules, not the lead
        spoken = sentences_saying(r"specification|implemented|set up|seats? (?:are |must be )?numbered|seats? (?:\d|i\b)", rules)
        assert not spoken, (vid, spoken)


def test_the_facts_of_a_table_name_only_what_is_played_there(site_data: rulesite.SiteData) -> None:
    def fact(vid: str, topic: str) -> str:
        return next(f.words for f in site_data.facts(vid) if f.topic == topic)

    assert fact("altbaumer-standard", "Direction").startswith("Dealing and play go anticlockwise")  # no bids, no drawing
    assert fact("albastini-4p", "Direction").startswith("Dealing, bidding, play and drawing go anticlockwise")
    assert fact("briscola-2p", "Direction").startswith("Dealing, play and drawing go")
    assert "takes the turned card, and the bid card goes face up under the stock" in fact("albastini-4p", "Trumps")
    assert "ordinary club (any club but a Tree) is led" in fact("altbaumer-standard", "Play")
    assert "a winning side names which member" in fact("albastini-4p", "Next dealer")
    assert "nobody over 60" in fact("albastini-over60-3p", "Next dealer")
    assert fact("albastini-over60", "The match") == (
        "The first side to reach the target agreed before play, usually five or ten victory points, wins the match."
    )
    playable = [vid for vid, v in site_data.variants.items() if not v.get("abstract")]
    alone = [vid for vid in playable if "lone" in site_data.variants[vid].get("components", {})]
    assert alone and all("laid aside for a partner playing alone, the next player" in fact(vid, "The trick") for vid in alone)
    others = [vid for vid in playable if vid not in alone]
    assert all(fact(vid, "The trick").startswith("The player after the dealer leads first.") for vid in others)


def test_results_read_as_sentences_in_table_language(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    four = site_data.variants["albastini-4p"]
    assert table_words.result_sentence({"winner": 0, "vp": 1, "double": False, "totals": [72, 48]}, four) == (
        "North-South win 72 to 48: one victory point."
    )
    two = site_data.variants["albastini-2p"]
    assert table_words.seat_names(two) == ["Anna", "Boris"]
    assert table_words.result_sentence({"winner": None, "tie": True, "vp": 0, "totals": [60, 60]}, two).startswith("Nobody wins")
    example = site_pages["examples/albastini/score/deal-winner.md"]
    assert "North\\-South win 72 to 48: one victory point\\." in example
    assert "deal result: {" not in example and "Seat 0" not in example


def test_a_result_says_only_what_it_states_and_who_deals_next(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    two = site_data.variants["albastini-2p"]
    assert table_words.result_sentence({"winner": 1, "next_dealer": 1, "totals": [40, 80]}, two) == (
        "Boris wins 80 to 40. Boris deals next."
    )
    with_vp = {"winner": 1, "vp": 1, "next_dealer": 0, "totals": [40, 80]}
    assert table_words.result_sentence(with_vp, two) == "Boris wins 80 to 40: one victory point. Anna deals next."
    example = site_pages["examples/albastini/dealer/next-dealer.md"]
    assert "Boris wins 80 to 40\\. Boris deals next\\." in example
    # A winning side that chooses its dealer: the one named deals unless a partner takes the deal, said only
    # where the choice is still open (a how-to page's deal just played), not where a scenario may have made it.
    four, threes = site_data.variants["albastini-4p"], site_data.variants["albastini-6p-threes"]
    won = {"winner": 0, "next_dealer": 2, "totals": [80, 40]}
    assert table_words.result_sentence(won, four, choice_open=True).endswith("North deals next, unless South takes the deal.")
    assert table_words.result_sentence(won, four).endswith("North deals next.")
    assert table_words.result_sentence({**won, "next_dealer": 0}, threes, choice_open=True).endswith(
        "Anna deals next, unless Carla or Esther takes the deal.")
    assert table_words.result_sentence(with_vp, two, choice_open=True).endswith("Anna deals next.")  # no partner
    altbaumer = site_data.variants["altbaumer-standard"]
    assert table_words.result_sentence({"winner": 0, "next_dealer": 1}, altbaumer, choice_open=True).endswith("East deals next.")
    assert "no victory points" not in "".join(p for path, p in site_pages.items() if path.startswith("examples/"))


def test_an_example_names_the_seats_and_sides_it_speaks_of(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    from rulesite.example_pages import example

    (scenario,) = [s for s in site_data.scenarios if s.id == "albastini/dealer/two-winner-deals"]
    ex = example(scenario, site_data.variants[scenario.variant])
    assert ex.told("Two players: seat 1 wins the deal dealt by Seat 0; side 1 leads") == (
        "Two players: Boris (seat 1) wins the deal dealt by Anna (seat 0); Boris leads"
    )
    assert ex.told("seat 7 and side 9 are no seats of this table") == "seat 7 and side 9 are no seats of this table"
    assert ex.told("Anna (seat 0, the dealer) and then seat 1") == "Anna (seat 0, the dealer) and then Boris (seat 1)"
    # inside brackets, or just before them, a seat is its name alone: brackets never nest
    assert ex.told("the dealer (seat 1), then seat 0 (the leader)") == "the dealer (Boris), then Anna (the leader)"
    assert ex.told("(seat 0 wins) and seat 1") == "(Anna wins) and Boris (seat 1)"
    assert ex.told("step 1) seat 0 leads") == "step 1) Anna (seat 0) leads"  # a bracket closing none opens none
    assert ex.told("Boris (side 1) and side 0") == "Boris (side 1) and Anna"  # a name written with its side, kept
    # the dealer and a list of seats are named as the table names them too, never left as bare numbers
    assert ex.told("Dealer 0; seats 1 and 0 pass") == "Dealer Anna (seat 0); Boris and Anna (seats 1 and 0) pass"
    assert ex.told("dealer 1, so seat 0 leads") == "dealer Boris (seat 1), so Anna (seat 0) leads"
    assert ex.told("(dealer 1; seats 0, 1 play)") == "(dealer Boris; Anna and Boris play)"
    assert ex.told("Dealer 1 (the winner)") == "Dealer Boris (the winner)"
    # "seats" as the verb, the places themselves, seats explaining a side, and seats this table has not are kept
    kept = "The variant seats 0 and 1; they sit at seats 0 and 1"
    assert ex.told(kept) == kept
    assert ex.told("(side 1: seats 1 and 0)") == "(Boris: seats 1 and 0)"
    assert ex.told("seats 1 and 2, dealer 2") == "seats 1 and 2, dealer 2"

    def nested(text: str) -> bool:
        depth = 0
        for char in text:
            depth += {"(": 1, ")": -1}.get(char, 0)
            if depth > 1:
                return True
        return False

    told = []
    for s in site_data.scenarios:
        each = example(s, site_data.variants.get(s.variant))
        told += [each.told(t) for t in (s.title, s.description, *(note for note in each.notes if note))]
    doubled = re.compile(r"(\b[A-Z][\w-]*) \(\1\)")  # "North-South (North-South)"
    assert [t for t in told if nested(t) or ") (" in t or doubled.search(t)] == []
    # nor is a seat left a bare number out of the names' reach: a draw "then 2 AH, 3 7H", a pair "2+5", an order
    # "the draw goes 2, 3, 0" (in brackets, beside the names, the seats' numbers belong)
    bare = re.compile(
        r"(?<![\w.+-])[0-5] [AKQJT2-9][CDHS]\b|\b[0-5]\+[0-5]\b"
        r"|\b(?:goes|go|round|played|sequence|by|then)(?: to)? [0-5], [0-5]\b"
    )
    for unnamed in ("then 2 AH, 3 7H", "the pair 2+5 wins", "the draw goes 2, 3, 0", "after deals by 0, 2, 1"):
        assert bare.search(ex.told(unnamed)), unnamed
    assert not bare.search(re.sub(r"\([^()]*\)", "", ex.told("seat 1 draws 7H; the draw goes seats 1, 0")))
    assert [t for t in told if bare.search(re.sub(r"\([^()]*\)", "", t))] == []
    assert "Boris \\(seat 1\\) wins the deal dealt by Anna \\(seat 0\\)" in site_pages["examples/albastini/dealer/next-dealer.md"]
    examples = "".join(page for path, page in site_pages.items() if path.startswith("examples/"))
    assert re.findall(r"\b[Dd]ealer \d+\b", examples) == []


def test_an_example_keeps_the_match_in_the_table_s_words(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    from rulesite.example_pages import example

    four = next(s for s in site_data.scenarios if s.variant == "albastini-4p")
    ex = example(four, site_data.variants["albastini-4p"])
    assert ex.match_words({"vp": [4, 5], "sheet": {"0": 4, "1": 5}, "target": 5, "winner": 1}) == (
        "victory points: North-South 4, East-West 5; score sheet: South 4, East 5; target 5; East-West win the match"
    )
    assert ex.match_words({"scores": [2, 0], "rounds": [0, 1], "round_winner": None, "decider": False}) == (
        "running totals: North-South 2, East-West 0; rounds won: North-South 0, East-West 1; nobody has won the round"
        " yet; not the deciding deal"
    )
    assert ex.match_words({"vp": [1, 0], "something new": 1}) is None  # shown as it stands rather than half said
    assert ex.dealers_words([2, 0]) == "dealt before, first to last: North, South"
    examples = "".join(page for path, page in site_pages.items() if path.startswith("examples/"))
    assert "match: {" not in examples and "dealer history:" not in examples


def test_the_examples_follow_the_order_of_play(site_data: rulesite.SiteData) -> None:
    from rulesite.example_pages import page_labels

    sections = [str(s.get("id")) for s in site_data.spec.sections("albastini")]
    folders = [p.split("/")[2] for p in page_labels(site_data) if p.startswith("examples/albastini/")]
    placed = [sections.index(f) for f in dict.fromkeys(folders) if f in sections]
    assert placed == sorted(placed) and placed[0] == sections.index("cards")
    assert folders.index("otea") < folders.index("play") < folders.index("score") < folders.index("match")
    # A topic of no section of its own follows the section its examples check first: the Anna and Boris trick
    # after the play, the refusals' precedence after the bidding.
    last = {folder: i for i, folder in enumerate(folders)}
    assert last["play"] < folders.index("trick") <= last["trick"] < folders.index("draw")
    assert last["otea"] < folders.index("refusals") <= last["refusals"] < folders.index("look")
    assert folders.index("fields") > last["events"]  # a deal's every field, checking every part of it: last


def test_each_page_of_examples_is_named_for_a_reader(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    """A file's own title names its page; a page of a folder that is no section is filed under the section its file
    names, else under the whole game; the pages of one rule are listed together under it, each told apart."""
    from rulesite.example_pages import page_labels

    labels = page_labels(site_data)
    trick = labels["examples/albastini/trick/anna-boris.md"]
    assert (trick.topic, trick.title) == ("Playing the tricks", "The Anna and Boris trick")
    assert labels["examples/albastini/refusals/precedence.md"].topic == "Choosing trumps (Otea)"
    for game in ("albastini", "altbaumer", "bisca", "briscola"):  # whatever the clauses its examples check first
        assert labels[f"examples/{game}/fields/every-field.md"].topic == "Across the game"
    heading = "# Albastini examples: Playing the tricks: The Anna and Boris trick\n"
    assert heading in site_pages["examples/albastini/trick/anna-boris.md"]
    assert_titles_told_apart(labels)
    albastini = site_pages["examples/index.md"].split("\n## Altbaumer")[0]
    rank = labels["examples/albastini/cards/rank-order.md"]
    assert (rank.label, rank.told_apart) == ("Rank order", "several tables")
    assert albastini.count("\n- Rank order\n") == 1 and "\n    - [several tables](albastini/cards/rank-order.md)" in albastini


def test_pages_of_one_rule_in_one_topic_never_share_a_title(site_data: rulesite.SiteData) -> None:
    """Two files of the same rule and the same name, in two folders filed under one section, are told apart by
    their folder: the refused setups of the deal, and the same again in a folder of no section that names it."""
    from rulesite.example_pages import page_labels

    copies = [
        dataclasses.replace(s, id=s.id + "-again", file=s.file.replace("/deal/", "/dealing/"), file_section="deal")
        for s in site_data.scenarios
        if s.file == "scenarios/albastini/deal/refused-setups.yaml"
    ]
    assert copies
    data = rulesite.SiteData(site_data.spec, [*site_data.scenarios, *copies], scenarios_root=site_data.scenarios_root)
    labels = page_labels(data)
    first, again = labels["examples/albastini/deal/refused-setups.md"], labels["examples/albastini/dealing/refused-setups.md"]
    assert (first.topic, first.label) == (again.topic, again.label) == ("The deal", "Five cards each, the rest is the stock")
    assert (first.told_apart, again.told_apart) == ("refused setups, deal", "refused setups, dealing")
    assert_titles_told_apart(labels)


def assert_titles_told_apart(labels: dict[str, Any]) -> None:
    titles = [(named.game, named.topic, named.title) for named in labels.values()]
    assert len(titles) == len(set(titles)), "two pages of examples with one title in one topic"
    grouped = Counter((named.game, named.topic, named.label) for named in labels.values())
    for named in labels.values():
        assert bool(named.told_apart) == (grouped[(named.game, named.topic, named.label)] > 1), named
        assert not _same_words_told(named.told_apart, named.label), named  # never "Rank order (rank order)"
    order = [(n.game, n.topic, n.label) for n in labels.values()]
    runs = [key for i, key in enumerate(order) if i == 0 or order[i - 1] != key]
    assert len(runs) == len(set(runs))  # each label's pages in one run


def _same_words_told(told: str, label: str) -> bool:
    return told.strip().lower() == label.strip().lower()


# ------------------------------------------------------------------ the protocol page's files and fields

# A file of the kit named in running text: `schemas/x.schema.json`, `spec/refusals.yaml`, `docs/scenarios.md`.
_NAMED_FILE = re.compile(r"(\[)?`((?:schemas|spec|docs|scenarios)/[\w./-]+\.(?:json|yaml|md))`(\]\(([^)\s]+)\))?")


def test_every_file_the_protocol_page_names_is_a_link_that_lands(
    site_data: rulesite.SiteData, site_pages: dict[str, str], page_anchors: dict[str, set[str]]
) -> None:
    source = repository_links.to_site((DOCS / "protocol.md").read_text(encoding="utf-8"), "protocol.md")  # as the site has it
    prose = re.sub(r"^```.*?^```", "", source, flags=re.MULTILINE | re.DOTALL)
    named = _NAMED_FILE.findall(prose)
    assert len(named) >= 6
    unlinked = [name for bracket, name, link, _ in named if not (bracket and link)]
    assert not unlinked, f"docs/protocol.md names files without a link: {unlinked}"
    page = rulesite.expand_shortcodes(source, site_data, "protocol.md")
    handwritten = {p.relative_to(DOCS).as_posix(): p.read_text(encoding="utf-8") for p in DOCS.rglob("*.md")}
    handwritten |= rulesite.hand_written_pages()
    headings = {path: {_slug(h) for h in re.findall(r"^#+ (.*)$", text, re.MULTILINE)} for path, text in handwritten.items()}
    own = anchors(page) | headings["protocol.md"]
    for target in [t for *_, t in named] + _LINK.findall(page):
        path, anchor = resolve("protocol.md", target)
        if path == "protocol.md":
            assert anchor in own, target
        elif path in site_pages:
            assert anchor is None or anchor in page_anchors[path], target
        else:
            assert path in handwritten and (anchor is None or anchor in headings[path]), target


@pytest.fixture(scope="module")
def game_fields(site_data: rulesite.SiteData) -> dict[str, fields_reference.GameFields]:
    schemas = fields_reference.Schemas(site_data)
    return {g: fields_reference.game_fields(schemas, site_data, g) for g in site_data.games()}


def test_the_field_reference_has_every_snapshot_field_of_each_game_with_its_meaning(
    site_data: rulesite.SiteData, game_fields: dict[str, fields_reference.GameFields]
) -> None:
    snapshot = dict(site_data.schemas)["snapshot.schema.json"]["properties"]
    assert set(game_fields) == {"albastini", "altbaumer", "briscola", "bisca"}
    for game, found in game_fields.items():
        top = [r.path for r in found.snapshot if "." not in r.path and "[]" not in r.path]
        assert sorted(top + found.undecided + [k for k, _ in found.left_empty]) == sorted(snapshot), game
        assert [r.path for r in found.observation] == ["rejected", "rejected.code", "rejected.message", "snapshot", "legal"]
        blank = [r.path for r in (*found.observation, *found.snapshot) if not r.description.strip()]
        assert not blank, f"{game}: the schemas give no description for {blank}"


def test_the_field_reference_files_every_observed_field_under_its_clauses(
    site_data: rulesite.SiteData, game_fields: dict[str, fields_reference.GameFields]
) -> None:
    for game, found in game_fields.items():
        decided = {cid for r in (*found.observation, *found.snapshot) for cid in r.decided_by}
        clauses = [c for c in site_data.game_clauses(game) if not c.get("informative")]
        actions = [c for c in clauses if set(c.get("refuses_with", [])) - site_data.spec.setup_codes()]
        observing_clauses = {str(c["id"]) for c in clauses if c.get("observes")} | {str(c["id"]) for c in actions}
        assert decided == observing_clauses, game
    albastini = {r.path: r for r in game_fields["albastini"].snapshot}
    assert "albastini.play.trick-winner" in albastini["last_trick.winner"].decided_by
    assert albastini["hands"].decided_by["albastini.deal.five-each"] == ["after setup"]
    # Each game's result in the shape its scoring gives: card points for Albastini, tricks for Altbaumer.
    assert "result.vp" in albastini and "result.deal_score" not in albastini
    altbaumer = {r.path: r for r in game_fields["altbaumer"].snapshot}
    assert "result.deal_score" in altbaumer and "result.vp" not in altbaumer and "match.rounds" in altbaumer
    # A field no clause of the game decides is listed still, with what it holds in each phase (x-phases).
    briscola = {r.path: r for r in game_fields["briscola"].snapshot}
    assert not briscola["dealer"].decided_by and briscola["dealer"].phases and "makers" in altbaumer
    # A field only other games fill is listed apart, with the empty value it always holds; a branch of result or
    # match that only other games report is not listed.
    assert "makers" not in briscola and ("makers", "null") in game_fields["briscola"].left_empty
    assert ("bids", "[]") in game_fields["altbaumer"].left_empty and "match.decider" not in briscola
    legal = {r.path: r for r in game_fields["altbaumer"].observation}["legal"]
    assert "in the cut phase" in legal.decided_by["altbaumer.deal.cutter"]
    assert "must_trump" in game_fields["altbaumer"].codes
    # Briscola's free play refuses only a card out of turn, not held, or after the last trick (briscola.play.in-turn).
    assert sorted(game_fields["briscola"].codes) == ["card_not_in_hand", "invalid_action", "not_your_turn", "wrong_phase"]
    for found in game_fields.values():  # a refused setup has no observation to carry its code
        assert not set(found.codes) & site_data.spec.setup_codes() and set(found.setup_codes) <= site_data.spec.setup_codes()
    assert {r.path: r for r in game_fields["albastini"].snapshot}["hands"].type == "{seat: card[]}"


def test_a_game_s_phase_field_names_the_phases_its_deals_pass_through(
    game_fields: dict[str, fields_reference.GameFields],
) -> None:
    phase = {game: {r.path: r for r in found.snapshot}["phase"].type for game, found in game_fields.items()}
    assert phase["briscola"] == phase["bisca"] == '"play" | "over"'  # not the cut, the bids or the trump of others
    assert phase["albastini"] == '"bidding" | "play" | "over"'
    assert phase["altbaumer"].startswith('"cut" | "trump"') and '"bidding"' not in phase["altbaumer"]


def test_each_game_has_its_own_field_page_with_the_deciding_clauses_folded(site_data: rulesite.SiteData) -> None:
    pages = fields_reference.fields_pages(site_data)
    assert sorted(pages) == sorted([paths.FIELDS_PAGE] + [paths.game_fields_path(g) for g in site_data.games()])
    index = pages[paths.FIELDS_PAGE]
    for game in site_data.games():
        assert f"]({paths.link(paths.FIELDS_PAGE, paths.game_fields_path(game))})" in index
        page = pages[paths.game_fields_path(game)]
        assert page.startswith(f"# {site_data.game_title(game)} fields\n")
        others = [g for g in site_data.games() if g != game]
        assert not any(f"rules/{g}.md#" in page for g in others), game  # one game's clauses to a page
    altbaumer = pages[paths.game_fields_path("altbaumer")]
    row = next(line for line in altbaumer.splitlines() if line.startswith("| <code>last\\_trick\\.winner</code>"))
    folded = row.split(" | ")[-1]
    assert folded.startswith('<details class="decided-by"><summary>') and folded.endswith("</details> |"), folded
    count = int(folded.split("<summary>")[1].split(" ")[0])
    assert count == folded.count("](../../rules/altbaumer.md#") >= 1


def test_a_field_added_to_the_snapshot_schema_shows_in_every_games_reference(site_data: rulesite.SiteData) -> None:
    schemas = [(name, copy.deepcopy(s)) for name, s in site_data.schemas]
    snapshot = dict(schemas)["snapshot.schema.json"]
    card = {"$ref": "common.schema.json#/$defs/card"}
    snapshot["properties"]["hints"] = {"description": "A <b>hint</b> for MR7H.", "type": "array", "items": card}
    pages = fields_reference.fields_pages(dataclasses.replace(site_data, schemas=schemas))
    for game in site_data.games():
        section = pages[paths.game_fields_path(game)].split("## The snapshot")[1]
        assert "| <code>hints</code> | <code>card\\[\\]</code> | A &lt;b&gt;hint&lt;/b&gt; for MR7H\\. |" in section, game


def test_a_deal_begun_part_way_says_where_it_stands_in_a_player_s_words(site_data: rulesite.SiteData) -> None:
    """Each phase a setup may start in has its words in the drawing of a deal, and none reads "the play phase"."""
    from rulesite.example_pages import example

    phase = dict(site_data.schemas)["setup.schema.json"]["properties"]["start"]["properties"]["phase"]
    phases = phase["enum"] if "enum" in phase else [phase["const"]]
    begins = templating.environment().get_template("deal.html.j2").module.begins  # type: ignore[attr-defined]
    assert sorted(begins) == sorted(phases)
    draw = templating.macro("deal.html.j2", "deal")
    begun = [s for s in site_data.scenarios if isinstance(s.setup.get("start"), dict)]
    assert begun
    for scenario in begun[:3]:
        with templating.fragments_kept() as kept:
            drawn = kept.expand(str(draw(example(scenario, site_data.variants[scenario.variant]))))
        assert f"<li>{escape(begins[scenario.setup['start']['phase']])}</li>" in drawn and " phase<" not in drawn


def test_an_engine_s_name_and_homepage_in_a_run_log_make_no_markup_on_the_implementations_page(
    site_data: rulesite.SiteData, tmp_path: Path
) -> None:
    """A run log is data anyone may have written: its engine's name is text, and a homepage of another scheme than
    http(s) (javascript:) is no link."""
    from rulesite.implementations import implementations_page

    for log in (ROOT / "docs" / "implementations").glob("*.jsonl"):
        lines = log.read_text(encoding="utf-8").splitlines()
        header = json.loads(lines[0])
        if log.stem == "libbisca":
            header["engine"].update(name="**x** | y [click](javascript:alert(2))", homepage="javascript:alert(1)")
        (tmp_path / log.name).write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    page = implementations_page(site_data, tmp_path)
    row = next(line for line in page.splitlines() if "click" in line)
    assert "javascript:alert(1)" not in page and "<a href" not in row
    assert "\\*\\*x\\*\\* \\| y \\[click\\]\\(javascript:alert\\(2\\)\\)" in row  # said as text, the cell not split
    first, *rest = (ROOT / "docs" / "implementations" / "libbisca.jsonl").read_text(encoding="utf-8").splitlines()
    for address in ("https://x.example/a|b", "https://x.example/a b", "https://x.example/\u202e"):  # a cell's end
        header = json.loads(first)
        header["engine"]["homepage"] = address
        (tmp_path / "libbisca.jsonl").write_text("\n".join([json.dumps(header), *rest]) + "\n", encoding="utf-8")
        shown = implementations_page(site_data, tmp_path)
        row = next(line for line in shown.splitlines() if line.startswith("| **libbisca**"))
        assert "x.example" not in shown and "<a href" not in row, address  # the name stands, as text, not a link
    naipes = next(line for line in page.splitlines() if "naipes" in line and "<a href" in line)
    assert '<a href="https://github.com/naipes-com/naipes"><strong>naipes</strong></a>' in naipes  # http(s): a link


def test_the_implementations_page_lists_the_games_in_their_order(site_data: rulesite.SiteData) -> None:
    from rulesite.implementations import implementations_page

    page = implementations_page(site_data, ROOT / "docs" / "implementations")
    rows = [cell for line in page.splitlines() if (cell := line.split(" |")[0].removeprefix("| ")) in site_data.games()]
    assert rows == site_data.games()


def test_the_glossary_names_the_languages_its_words_are_in(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    """The intro names, for each game, the languages of the words the glossary holds, and no other."""
    intro = site_pages[paths.GLOSSARY_PAGE].split("\n## ", 1)[0]
    assert "The words of the accounts (Kiswahili and French for Albastini) and the kit's own terms" in intro
    assert "German" not in intro
    held = {str(t["language"]) for t in site_data.glossary if t.get("language")}
    named = set(re.findall(r"\b([A-Z][a-z]+)(?= and | for )", intro.split("(", 1)[1].split(")", 1)[0]))
    assert named == held
