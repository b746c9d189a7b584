"""The rules site's pages, generated from spec/ and scenarios/.

Pure functions from the kit's data to Markdown strings (with inline HTML for
cards and a few tables), one per page, keyed by the page's path under the docs
folder. Nothing here imports a docs tool: ``docs/hooks.py`` hands the pages to
MkDocs, and any other tool could take the same strings.

Every string that comes from YAML passes through :func:`esc` (HTML contexts)
or :func:`md` (Markdown contexts) before it reaches a page, so a title such as
``<script>`` shows as text. Links between pages are written as relative
Markdown links to ``.md`` files so that the docs tool checks them (and their
anchors) when it builds.
"""

from __future__ import annotations

import argparse
import html
import json
import posixpath
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from conformance.scenarios import Scenario, load_files, scenario_files
from specreader import kitdata, yamlio
from specreader.jsontypes import Json
from specreader.problems import DataError, Problem
from specreader.spec import Spec, read

# ---------------------------------------------------------------- page paths

RULINGS_PAGE = "rulings.md"
VARIANTS_PAGE = "variants.md"
GLOSSARY_PAGE = "glossary.md"
SOURCES_PAGE = "sources.md"
EXAMPLES_INDEX = "examples/index.md"
SCHEMAS_PAGE = "reference/schemas.md"
ERRORS_PAGE = "reference/errors.md"


def rules_page_path(game: str) -> str:
    return f"rules/{game}.md"


# ---------------------------------------------------------------- escaping

# Characters Python-Markdown treats as markup and accepts a backslash before.
# (the core set plus "|" for tables); no extension that gives other characters a meaning is enabled.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|])")
_RFC = re.compile(r"\b(MUST NOT|MUST|SHOULD NOT|SHOULD|MAY|SHALL NOT|SHALL|REQUIRED|OPTIONAL)\b")


def esc(text: object) -> str:
    """Text for an HTML context: every markup character escaped."""
    return html.escape(str(text), quote=True)


def md(text: object) -> str:
    """Text for an inline Markdown context: shown exactly as written, on one line.

    Every Markdown punctuation character is backslash-escaped, then ``&``, ``<``
    and ``>`` become entities (so no tag or entity of the source survives; the
    entities hold no escapable character), and runs of whitespace (newlines
    included) become one space so the text cannot start a new block.
    """
    return _md_raw(" ".join(str(text).split()))


def _md_raw(text: str) -> str:
    return html.escape(_MD_SPECIAL.sub(r"\\\1", text), quote=False)


def _keywords(escaped: str) -> str:
    return _RFC.sub(r'<strong class="rfc">\1</strong>', escaped)


def code(text: object) -> str:
    """Inline code for an id or a key (HTML, so no backtick in the text can break out)."""
    return f"<code>{esc(text)}</code>"


def link(from_page: str, to_page: str, anchor: str | None = None) -> str:
    """A relative link target from one generated page to another, with an optional anchor (percent-encoded
    where it holds anything but the characters of the kit's ids, so a bad id cannot break out of the link)."""
    fragment = quote(anchor, safe="/.-_~:") if anchor else None
    if from_page == to_page and fragment:
        return f"#{fragment}"
    target = quote(posixpath.relpath(to_page, posixpath.dirname(from_page) or "."), safe="/.-_~")
    return f"{target}#{fragment}" if fragment else target


def mdlink(label_markdown: str, from_page: str, to_page: str, anchor: str | None = None) -> str:
    """A Markdown link; the label must already be escaped Markdown."""
    return f"[{label_markdown}]({link(from_page, to_page, anchor)})"


def anchor_attr(anchor: str) -> str:
    """An attr_list block giving a heading its id."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._/:-]*", anchor):
        raise ValueError(f"unusable anchor id {anchor!r}")
    return f"{{ #{anchor} }}"


# ---------------------------------------------------------------- cards

_CARD = re.compile(r"^([AKQJT98765432])([CDHS])$")
SUITS = {"C": ("♣", "clubs", "black"), "D": ("♦", "diamonds", "red"), "H": ("♥", "hearts", "red"), "S": ("♠", "spades", "black")}
RANKS = {
    "A": ("A", "ace"),
    "K": ("K", "king"),
    "Q": ("Q", "queen"),
    "J": ("J", "jack"),
    "T": ("10", "ten"),
    "9": ("9", "nine"),
    "8": ("8", "eight"),
    "7": ("7", "seven"),
    "6": ("6", "six"),
    "5": ("5", "five"),
    "4": ("4", "four"),
    "3": ("3", "three"),
    "2": ("2", "two"),
}
# U+FE0E asks for the text presentation of the suit symbol, never a colour emoji.
TEXT_PRESENTATION = "\ufe0e"


def is_card(value: object) -> bool:
    return isinstance(value, str) and bool(_CARD.match(value))


def suit_symbol(suit: str) -> str:
    """A suit letter as its symbol, coloured like the cards (HTML)."""
    if suit not in SUITS:
        return esc(suit)
    glyph, name, colour = SUITS[suit]
    return f'<span class="suit suit--{colour}" title="{name}">{glyph}{TEXT_PRESENTATION}</span>'


def card(code_: str, *, extra: str = "") -> str:
    """One card as HTML: rank (T shown as 10) and suit symbol, red or black."""
    m = _CARD.match(code_) if isinstance(code_, str) else None
    if m is None:
        return f'<span class="card card--unknown">{esc(code_)}</span>'
    rank, suit = m.groups()
    shown, rank_name = RANKS[rank]
    glyph, suit_name, colour = SUITS[suit]
    classes = f"card card--{colour}" + (f" {extra}" if extra else "")
    name = f"{rank_name} of {suit_name}"
    return (
        f'<span class="{classes}" role="img" aria-label="{name}" title="{name} ({code_})">'
        f'<span class="card__rank">{shown}</span><span class="card__suit">{glyph}{TEXT_PRESENTATION}</span></span>'
    )


def cards(codes: Iterable[str], *, big: bool = False, marks: Mapping[str, str] | None = None) -> str:
    """A row of cards (inline HTML); ``marks`` adds a class to some cards (the indicator, say)."""
    items = "".join(card(c, extra=(marks or {}).get(c, "")) for c in codes)
    if not items:
        return '<span class="cards cards--empty">no cards</span>'
    return f'<span class="cards{" cards--big" if big else ""}">{items}</span>'


def card_text(text: str) -> str:
    """Escaped Markdown where every card code written as its own word is drawn as a card."""
    return " ".join(card(w) if is_card(w) else md(w) for w in text.split())


# ---------------------------------------------------------------- data


@dataclass
class SiteData:
    """Everything the pages are made from."""

    spec: Spec
    scenarios: Sequence[Scenario]
    glossary: list[Json] = field(default_factory=list)
    schemas: list[tuple[str, Json]] = field(default_factory=list)
    scenarios_root: Path | None = None

    def __post_init__(self) -> None:
        self.clauses: dict[str, Json] = self.spec.clause_index()
        self.clause_game: dict[str, str] = {}
        for doc in self.spec.clause_files:
            game = str(doc.data.get("game")) if isinstance(doc.data, dict) else ""
            for item in doc.data.get("clauses", []) if isinstance(doc.data, dict) else []:
                if isinstance(item, dict):
                    self.clause_game[str(item.get("id"))] = game
        self.rulings: dict[str, Json] = {str(r.get("id")): r for _, _, r in self.spec.rulings()}
        self.error_codes: set[str] = self.spec.error_codes()
        self.variants: dict[str, Json] = {}
        for vid in sorted(self.spec.variants_raw()):
            try:
                self.variants[vid] = self.spec.resolve(vid)
            except (KeyError, ValueError):
                continue
        self.by_clause: dict[str, list[Scenario]] = {}
        for s in self.scenarios:
            for cid in s.clauses:
                self.by_clause.setdefault(cid, []).append(s)

    def games(self) -> list[str]:
        """Games in the order of their clause files, Albastini first."""
        games = self.spec.games()
        return sorted(games, key=lambda g: (g != "albastini", g != "altbaumer", g))

    def game_title(self, game: str) -> str:
        for doc in self.spec.clause_files:
            if isinstance(doc.data, dict) and doc.data.get("game") == game:
                return str(doc.data.get("title", game))
        return game.title()

    def game_clauses(self, game: str) -> list[Json]:
        return [c for cid, c in self.clauses.items() if self.clause_game.get(cid) == game]

    def sources(self) -> list[Json]:
        doc = self.spec.sources_file
        data = doc.data.get("sources", []) if doc is not None and isinstance(doc.data, dict) else []
        return [s for s in data if isinstance(s, dict)]

    def errors(self) -> list[Json]:
        doc = self.spec.errors_file
        data = doc.data.get("errors", []) if doc is not None and isinstance(doc.data, dict) else []
        return [e for e in data if isinstance(e, dict)]

    def example_page(self, scenario: Scenario) -> str:
        return example_page_path(scenario, self.scenarios_root)

    def example_files(self) -> dict[str, list[Scenario]]:
        """Scenarios by worked-example page, pages in path order, scenarios in file order."""
        out: dict[str, list[Scenario]] = {}
        for s in self.scenarios:
            out.setdefault(self.example_page(s), []).append(s)
        return dict(sorted(out.items()))


def example_page_path(scenario: Scenario, root: Path | None = None) -> str:
    """``scenarios/albastini/play/turn.yaml`` becomes ``examples/albastini/play/turn.md``."""
    path = Path(scenario.file)
    rel: tuple[str, ...] = ()
    if root is not None:
        try:
            rel = path.resolve().relative_to(root.resolve()).parts
        except ValueError:
            rel = ()
    if not rel and "scenarios" in path.parts:
        rel = path.parts[len(path.parts) - path.parts[::-1].index("scenarios") :]
    if not rel:
        rel = (*scenario.id.split("/")[:2], "scenarios.yaml")
    stem = posixpath.splitext("/".join(rel))[0]
    return f"examples/{stem}.md"


def load_glossary(path: Path) -> list[Json]:
    """The glossary file: ``terms:`` with term, definition and optional fields, checked for shape."""
    doc = yamlio.load(path)
    terms = doc.data.get("terms") if isinstance(doc.data, dict) else None
    if not isinstance(terms, list):
        raise DataError([doc.problem(("terms",), "expected terms: a list of {term, definition}")])
    allowed = {"term", "id", "language", "meaning", "game", "definition", "clauses", "cards"}
    problems: list[Problem] = []
    for i, item in enumerate(terms):
        if not isinstance(item, dict) or not isinstance(item.get("term"), str) or not isinstance(item.get("definition"), str):
            problems.append(doc.problem(("terms", i), "expected a mapping with term and definition strings"))
            continue
        for key in item:
            if key not in allowed:
                problems.append(doc.problem(("terms", i, key), f"unknown key {key!r}: expected one of {sorted(allowed)}"))
        for j, c in enumerate(item.get("cards", []) or []):
            if not is_card(c):
                problems.append(doc.problem(("terms", i, "cards", j), f"expected a card code such as AH, found {c!r}"))
    if problems:
        raise DataError(problems)
    return [dict(t) for t in terms]


def load_site_data(root: Path | None = None, glossary: Path | None = None) -> SiteData:
    """Read spec/, scenarios/ and schemas/ fresh from ``root`` (the checkout by default)."""
    base = root or kitdata.root()
    spec, problems = read(base / "spec")
    if problems:
        raise DataError(problems)
    scen_root = base / "scenarios"
    found = load_files(scenario_files(scen_root), spec)
    schemas = []
    for path in sorted((base / "schemas").glob("*.json")):
        schemas.append((path.name, json.loads(path.read_text(encoding="utf-8"))))
    terms = load_glossary(glossary) if glossary is not None else []
    data = SiteData(spec, found, terms, schemas, scen_root)
    problems = check_references(data)
    if problems:
        raise DataError(problems)
    return data


def check_references(data: SiteData) -> list[Problem]:
    """What the site links to from hand-written data (the glossary) must exist."""
    problems = []
    for term in data.glossary:
        for cid in term.get("clauses", []) or []:
            if cid not in data.clauses:
                problems.append(Problem("docs/glossary.yaml", 1, 1, ("terms",), f"{term['term']}: unknown clause {cid!r}"))
    return problems


# ---------------------------------------------------------------- small pieces


def source_link(key: str, page: str) -> str:
    return mdlink(md(key), page, SOURCES_PAGE, key)


def ruling_link(rid: str, page: str, data: SiteData, *, with_title: bool = False) -> str:
    label = md(rid)
    if with_title and rid in data.rulings:
        label += " " + md(data.rulings[rid].get("title", ""))
    return mdlink(label, page, RULINGS_PAGE, rid)


def clause_link(cid: str, page: str, data: SiteData, *, with_title: bool = False) -> str:
    game = data.clause_game.get(cid, cid.split(".")[0])
    label = code(cid)
    if with_title and cid in data.clauses:
        label = md(data.clauses[cid].get("title", cid)) + " " + code(cid)
    return mdlink(label, page, rules_page_path(game), cid)


def error_link(code_: str, page: str) -> str:
    return mdlink(code(code_), page, ERRORS_PAGE, code_)


def variant_link(vid: str, page: str) -> str:
    return mdlink(code(vid), page, VARIANTS_PAGE, vid)


def scenario_link(s: Scenario, page: str, data: SiteData) -> str:
    return mdlink(md(s.title), page, data.example_page(s), s.id)


def source_text(source: str | Json, page: str) -> str:
    """A scenario's source: an account, a ruling, or a derivation."""
    if isinstance(source, str):
        return "the account " + source_link(source, page)
    if "ruling" in source:
        return "ruling " + mdlink(md(source["ruling"]), page, RULINGS_PAGE, str(source["ruling"]))
    if "derived" in source:
        return "derived: " + md(source["derived"])
    return md(json.dumps(source, ensure_ascii=False))


# What prose may mention: a clause id, a ruling id, a card code, an error code.
_REF = re.compile(
    r"\b([a-z][a-z0-9]*\.[a-z][a-z0-9-]*\.[a-z0-9]+(?:-[a-z0-9]+)*)"
    r"|\b(R[1-9][0-9]*)\b"
    r"|(?<![A-Za-z0-9])([AKQJT98765432][CDHS])(?![A-Za-z0-9])"
    r"|\b([a-z]+(?:_[a-z]+)+)\b"
)


def prose(text: object, page: str, data: SiteData, *, rfc: bool = False) -> str:
    """Escaped prose on one line: the clause ids, ruling ids and error codes it mentions linked, its card codes
    drawn as cards, and (with ``rfc``) the requirement keywords in bold."""
    flat = " ".join(str(text).split())
    out: list[str] = []
    pos = 0

    def plain(chunk: str) -> str:
        escaped = _md_raw(chunk)
        return _keywords(escaped) if rfc else escaped

    for m in _REF.finditer(flat):
        cid, rid, card_code, error = m.groups()
        if cid and cid in data.clauses:
            target = clause_link(cid, page, data)
        elif rid and rid in data.rulings:
            target = mdlink(md(rid), page, RULINGS_PAGE, rid)
        elif card_code:
            target = card(card_code)
        elif error and error in data.error_codes:
            target = error_link(error, page)
        else:
            continue
        out += [plain(flat[pos : m.start()]), target]
        pos = m.end()
    out.append(plain(flat[pos:]))
    return "".join(out)


def prose_paragraphs(text: object, page: str, data: SiteData, indent: str = "", *, rfc: bool = False) -> str:
    parts = [p for p in re.split(r"\n\s*\n", str(text)) if p.strip()]
    return "\n\n".join(indent + prose(p, page, data, rfc=rfc) for p in parts)


def joined(items: Iterable[str], sep: str = ", ") -> str:
    return sep.join(items)


# ---------------------------------------------------------------- rules pages


def rules_page(game: str, data: SiteData) -> str:
    """A game's rules in reading order; every clause anchored by its id."""
    page = rules_page_path(game)
    title = data.game_title(game)
    variants = [v for v, r in data.variants.items() if r.get("game") == game and not r.get("abstract")]
    out = [
        f"# {md(title)} rules",
        "",
        '<p class="lead">The normative rules of '
        + esc(title)
        + ", in reading order. Every clause has a stable id that is also its anchor on this page; "
        "the keywords MUST, SHOULD and MAY carry their usual meaning. Under each clause: the accounts it "
        "rests on, the rulings that settle it, the refusal codes an engine answers when it is broken, and "
        "the worked examples that check it.</p>",
        "",
    ]
    if variants:
        out += ["Variants: " + joined(variant_link(v, page) for v in variants) + ".", ""]
    clauses = data.game_clauses(game)
    for section in data.spec.sections(game):
        sid = str(section.get("id"))
        mine = [c for c in clauses if c.get("section") == sid]
        out += [f"## {md(section.get('title', sid))} {anchor_attr(f'{game}.{sid}')}", ""]
        if section.get("intro"):
            out += [prose_paragraphs(section["intro"], page, data), ""]
        for clause in mine:
            out += clause_block(clause, page, data)
    return "\n".join(out) + "\n"


def clause_block(clause: Json, page: str, data: SiteData) -> list[str]:
    cid = str(clause["id"])
    out = [f"### {md(clause.get('title', cid))} {anchor_attr(cid)}", ""]
    meta = [code(cid)]
    if clause.get("parameter"):
        meta.append("parameter " + code(clause["parameter"]))
    if clause.get("informative"):
        meta.append('<span class="badge badge--info">informative</span>')
    out += [f'<p class="clause-meta">{" · ".join(meta)}</p>', ""]
    out += [prose_paragraphs(clause.get("text", ""), page, data, rfc=True), ""]
    facts = []
    if clause.get("sources"):
        facts.append("- **Sources:** " + joined(source_link(s, page) for s in clause["sources"]))
    if clause.get("rulings"):
        facts.append("- **Rulings:** " + joined(ruling_link(r, page, data, with_title=True) for r in clause["rulings"]))
    if clause.get("rejects"):
        facts.append("- **Refused with:** " + joined(error_link(c, page) for c in clause["rejects"]))
    if clause.get("variants"):
        facts.append("- **Only in:** " + joined(variant_link(v, page) for v in clause["variants"]))
    if facts:
        out += [*facts, ""]
    scenarios = data.by_clause.get(cid, [])
    rejects = set(clause.get("rejects", []) or [])
    if scenarios:
        kind = "???+" if len(scenarios) <= 6 else "???"
        out += [f'{kind} example "Worked examples checking this clause ({len(scenarios)})"', ""]
        for s in scenarios:
            refusal = " · *refusal*" if s.rejects() & rejects else ""
            out.append(f"    - {scenario_link(s, page, data)}{refusal}")
        out.append("")
    elif clause.get("informative"):
        out += ['<p class="clause-none">Informative: it describes rather than constrains play, so no scenario checks it.</p>', ""]
    else:
        out += ['<p class="clause-none">No worked example checks this clause yet.</p>', ""]
    return out


# ---------------------------------------------------------------- variants

COLUMNS = (
    ("Players", "players"),
    ("Sides", "sides"),
    ("Direction", "direction"),
    ("Trump procedure", "trump"),
    ("Legality", "legality"),
    ("Drawing", "draw"),
    ("Scoring", "score"),
    ("Dealer", "dealer"),
    ("Match", "match"),
)


def _sides(sides: Any) -> str:
    if not isinstance(sides, list):
        return esc(sides)
    if all(isinstance(s, list) and len(s) == 1 for s in sides):
        return f"{len(sides)} sides of one: everyone alone"
    return " vs ".join("+".join(esc(x) for x in s) if isinstance(s, list) else esc(s) for s in sides)


def _param(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{esc(k)}: {_param(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_param(v) for v in value) + "]"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return esc(value)


def component_cell(component: Any) -> str:
    """A rule component as HTML: its rule name, then its parameters."""
    if not isinstance(component, dict):
        return '<span class="none">none</span>'
    parts = [f"<code>{esc(component.get('rule', '?'))}</code>"]
    parts += [f"{esc(k)}: {_param(v)}" for k, v in component.items() if k != "rule"]
    return "<br>".join(parts)


def variants_page(data: SiteData) -> str:
    """The comparison table of every playable variant, from the resolved variants."""
    out = [
        "---",
        "hide: [navigation, toc]",
        "---",
        "",
        "# Variants",
        "",
        "A variant is a set of parameters over named rule components (`spec/<game>/variants/*.yaml`); a variant may "
        "extend another, and the table shows each one resolved, with everything it inherits. The names in code are "
        "the components the reference engine implements, one module each.",
        "",
    ]
    for game in data.games():
        rows = [(v, r) for v, r in data.variants.items() if r.get("game") == game and not r.get("abstract")]
        if not rows:
            continue
        out += [f"## {md(data.game_title(game))} {anchor_attr('variants-' + game)}", ""]
        head = "".join(f"<th>{esc(label)}</th>" for label, _ in COLUMNS)
        body = []
        for vid, v in rows:
            comps = v.get("components", {}) if isinstance(v.get("components"), dict) else {}
            cells = []
            for _, key in COLUMNS:
                if key == "players":
                    cells.append(esc(v.get("players", "")))
                elif key == "sides":
                    cells.append(_sides(v.get("sides")))
                elif key == "direction":
                    cells.append(esc(v.get("direction", "")))
                else:
                    cells.append(component_cell(comps.get(key)))
            first = f'<td class="variant-name"><strong>{esc(v.get("title", vid))}</strong><br><code>{esc(vid)}</code></td>'
            body.append(f'<tr id="{esc(vid)}">{first}' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        out += [
            '<div class="variant-table">',
            f"<table><thead><tr><th>Variant</th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>",
            "</div>",
            "",
        ]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- rulings


def rulings_page(data: SiteData) -> str:
    page = RULINGS_PAGE
    out = [
        "# Rulings",
        "",
        "Where the accounts disagree or fall silent, a ruling records the question, each reading with the sources "
        "behind it, and the decision this kit takes. Errata name sentences of an account that the kit does not follow, "
        "and why.",
        "",
    ]
    by_game: dict[str, list[Json]] = {}
    for doc in data.spec.ruling_files:
        game = str(doc.data.get("game")) if isinstance(doc.data, dict) else ""
        by_game.setdefault(game, []).extend(r for r in doc.data.get("rulings", []) if isinstance(r, dict))
    for game in data.games():
        rulings = by_game.get(game, [])
        if not rulings:
            continue
        out += [f"## {md(data.game_title(game))} {anchor_attr('rulings-' + game)}", ""]
        for r in rulings:
            rid = str(r["id"])
            out += [f"### {md(rid)}: {md(r.get('title', ''))} {anchor_attr(rid)}", ""]
            out += ["**Question.** " + prose(r.get("question", ""), page, data), ""]
            out += ["**Readings:**", ""]
            for i, reading in enumerate(r.get("readings", []) or [], start=1):
                srcs = joined(source_link(s, page) for s in reading.get("sources", []) or [])
                out.append(f"{i}. {prose(reading.get('summary', ''), page, data)} ({srcs})")
            out += ["", '!!! success "Decision"', "", "    " + prose(r.get("decision", ""), page, data), ""]
            if r.get("parameter"):
                out += ["**Parameter:** " + code(r["parameter"]), ""]
            if r.get("clauses"):
                out += ["**Clauses:** " + joined(clause_link(c, page, data, with_title=True) for c in r["clauses"]), ""]
            for erratum in r.get("errata", []) or []:
                out += [
                    f'!!! warning "Erratum in {md(erratum.get("source", ""))}"',
                    "",
                    "    "
                    + source_link(str(erratum.get("source", "")), page)
                    + " says: *"
                    + prose(erratum.get("says", ""), page, data)
                    + "*",
                    "",
                    "    " + prose(erratum.get("why", ""), page, data),
                    "",
                ]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- glossary, sources


def term_anchor(term: Json) -> str:
    given = term.get("id")
    if isinstance(given, str):
        return given
    return re.sub(r"[^a-z0-9]+", "-", str(term["term"]).lower()).strip("-")


def glossary_page(data: SiteData) -> str:
    page = GLOSSARY_PAGE
    out = [
        "# Glossary",
        "",
        "The words of the accounts (Kiswahili for Albastini, German for Altbaumer) and the kit's own terms, in our "
        "words. Each entry points to the clauses where the word matters.",
        "",
    ]
    for term in sorted(data.glossary, key=lambda t: str(t["term"]).lower().removeprefix("the ")):
        out += [f"## {md(term['term'])} {anchor_attr(term_anchor(term))}", ""]
        meta = []
        if term.get("language"):
            meta.append(esc(term["language"]))
        if term.get("meaning"):
            meta.append("“" + esc(term["meaning"]) + "”")
        if term.get("game"):
            meta.append(esc(term["game"]))
        if meta:
            out += [f'<p class="clause-meta">{" · ".join(meta)}</p>', ""]
        if term.get("cards"):
            out += ['<p class="term-cards">' + cards(term["cards"], big=True) + "</p>", ""]
        out += [prose_paragraphs(term["definition"], page, data), ""]
        if term.get("clauses"):
            out += ["See: " + joined(clause_link(c, page, data, with_title=True) for c in term["clauses"]), ""]
    return "\n".join(out) + "\n"


def sources_page(data: SiteData) -> str:
    page = SOURCES_PAGE
    out = [
        "# Bibliography",
        "",
        "The accounts and related games that the clauses and rulings cite, by key. The kit's text is written "
        "afresh in its own words; the accounts are cited, never copied.",
        "",
    ]
    citing: dict[str, list[str]] = {}
    for cid, clause in data.clauses.items():
        for key in clause.get("sources", []) or []:
            citing.setdefault(key, []).append(cid)
    for s in data.sources():
        key = str(s.get("key"))
        out += [f"## {md(s.get('title', key))} {anchor_attr(key)}", ""]
        facts = [code(key)]
        for label in ("author", "kind", "language"):
            if s.get(label):
                facts.append(f"{label}: {esc(s[label])}")
        if s.get("games"):
            facts.append("games: " + ", ".join(esc(g) for g in s["games"]))
        if s.get("seed"):
            facts.append("seed text " + code(s["seed"]))
        out += [f'<p class="clause-meta">{" · ".join(facts)}</p>', ""]
        if s.get("notes"):
            out += [prose_paragraphs(s["notes"], page, data), ""]
        cited = citing.get(key, [])
        if cited:
            out += [f'??? quote "Cited by {len(cited)} clause{"s" if len(cited) != 1 else ""}"', ""]
            out += [f"    - {clause_link(c, page, data, with_title=True)}" for c in cited]
            out.append("")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- reference pages


def errors_page(data: SiteData) -> str:
    page = ERRORS_PAGE
    out = [
        "# Error codes",
        "",
        "The closed list of codes (`spec/errors.yaml`) an engine answers with when it refuses an action. A refused "
        "action must leave the engine's state exactly as it was; the kit checks both.",
        "",
    ]
    rejecting: dict[str, list[str]] = {}
    for cid, clause in data.clauses.items():
        for c in clause.get("rejects", []) or []:
            rejecting.setdefault(c, []).append(cid)
    tested: dict[str, int] = {}
    for s in data.scenarios:
        for c in s.rejects():
            tested[c] = tested.get(c, 0) + 1
    for e in data.errors():
        c = str(e.get("code"))
        out += [f"## {md(c)} {anchor_attr(c)}", "", prose(e.get("meaning", ""), page, data), ""]
        if rejecting.get(c):
            out += ["Clauses refusing with it: " + joined(clause_link(x, page, data) for x in rejecting[c]), ""]
        out += [f"Scenarios expecting it: {tested.get(c, 0)}.", ""]
    return "\n".join(out) + "\n"


def schemas_page(data: SiteData) -> str:
    out = [
        "# Schemas",
        "",
        "Every file kind and every message of the kit has a JSON Schema (draft 2020-12) in `schemas/`, with a stable "
        "`$id` under `https://trickspec.dev/schemas/`. The kit resolves them offline; the `$id` is a name, not a "
        "place to download from. A scenario file names its schema in its first line for editors:",
        "",
        "```yaml",
        "# yaml-language-server: $schema=../../../schemas/scenario.schema.json",
        "```",
        "",
        '<table class="schema-table"><thead><tr><th>File</th><th>Title</th><th>Describes</th></tr></thead><tbody>',
    ]
    for name, schema in data.schemas:
        sid = "schema-" + name.removesuffix(".schema.json")
        props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        required = set(schema.get("required", []) or [])
        desc = esc(schema.get("description", ""))
        if props:
            keys = ", ".join(f"<code>{esc(k)}</code>" + ("*" if k in required else "") for k in props)
            desc += (" " if desc else "") + f'<span class="schema-keys">Top-level keys: {keys}</span>'
        elif isinstance(schema.get("$defs"), dict):
            keys = ", ".join(f"<code>{esc(k)}</code>" for k in schema["$defs"])
            desc += (" " if desc else "") + f'<span class="schema-keys">Definitions: {keys}</span>'
        out.append(
            f'<tr id="{esc(sid)}"><td><code>schemas/{esc(name)}</code><br><span class="schema-id">{esc(schema.get("$id", ""))}'
            f"</span></td><td>{esc(schema.get('title', ''))}</td><td>{desc}</td></tr>"
        )
    out += ["</tbody></table>", "", "Keys marked * are required.", ""]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- worked examples

_ACTION_WORDS = {
    "play": "plays",
    "bid": "bids",
    "discard": "discards",
    "take_tree": "takes the Tree",
    "pass": "passes",
    "decline": "declines the Tree",
    "accept": "accepts the turned suit",
    "refuse": "refuses the turned suit",
    "alone": "goes alone",
}


def action_html(action: Json) -> str:
    seat = action.get("seat")
    kind = str(action.get("type"))
    words = md(_ACTION_WORDS.get(kind, kind))
    text = f"seat {esc(seat)} {words}"
    if action.get("card") is not None:
        text += " " + card(str(action["card"]))
    return text


def legal_text(entry: str) -> str:
    """``"1 play 9D"`` as seat, action and a drawn card."""
    parts = entry.split()
    if len(parts) in (2, 3) and parts[0].isdigit():
        out = f"seat {esc(parts[0])} {md(parts[1])}"
        return out + (" " + (card(parts[2]) if is_card(parts[2]) else md(parts[2])) if len(parts) == 3 else "")
    return md(entry)


def value_html(value: Any) -> str:
    """Any expected value: cards drawn, everything else as escaped text."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if is_card(value):
        return card(value)
    if isinstance(value, list):
        if value and all(is_card(v) for v in value):
            return cards(value)
        if not value:
            return "none"
        return "[" + ", ".join(value_html(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + "; ".join(f"{md(k)}: {value_html(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str):
        return md(value)
    return esc(value)


_LABELS = {
    "phase": "phase",
    "to_act": "to act",
    "dealer": "dealer",
    "forehand": "forehand",
    "trump": "trumps",
    "indicator": "indicator",
    "stock_count": "cards in stock",
    "stock": "stock, top first",
    "legal": "legal actions",
    "last_trick": "last trick",
    "trick": "on the table",
    "hands": "hands",
    "holds": "holds",
    "lacks": "lacks",
    "piles": "piles",
    "totals": "points",
    "tricks": "tricks",
    "dead": "out of play",
    "makers": "makers",
    "lone": "playing alone",
    "result": "deal result",
    "match": "match",
    "snapshot": "snapshot fields",
}
_PER_SEAT = {"hands", "holds", "lacks"}
_PER_SIDE = {"piles"}
_SIDE_LISTS = {"totals", "tricks"}


def expectation_html(key: str, value: Any) -> str:
    label = md(_LABELS.get(key, key))
    if key in ("to_act", "dealer", "forehand", "lone") and isinstance(value, int):
        shown = f"seat {value}"
    elif key == "makers" and isinstance(value, int):
        shown = f"side {value}"
    elif key == "trump" and isinstance(value, str):
        shown = suit_symbol(value)
    elif key in _PER_SEAT | _PER_SIDE and isinstance(value, dict):
        who = "seat" if key in _PER_SEAT else "side"
        shown = "; ".join(f"{who} {md(k)}: {value_html(v)}" for k, v in value.items())
    elif key in _SIDE_LISTS and isinstance(value, list):
        shown = ", ".join(f"side {i}: {value_html(v)}" for i, v in enumerate(value))
    elif key == "legal" and isinstance(value, dict):
        shown = "; ".join(
            f"{md(k)}: " + (", ".join(legal_text(str(e)) for e in v) if isinstance(v, list) and v else "none")
            for k, v in value.items()
        )
    elif key == "last_trick" and isinstance(value, dict):
        bits = []
        if "winner" in value:
            bits.append(f"won by seat {esc(value['winner'])}")
        if "points" in value:
            bits.append(f"{esc(value['points'])} points")
        if "cards" in value:
            bits.append(value_html(value["cards"]))
        bits += [f"{md(k)}: {value_html(v)}" for k, v in value.items() if k not in ("winner", "points", "cards")]
        shown = ", ".join(bits)
    elif key == "snapshot" and isinstance(value, dict):
        shown = "; ".join(f"{code(k)} = {value_html(v)}" for k, v in value.items())
    else:
        shown = value_html(value)
    return f"{label}: {shown}"


def _seat_roles(scenario: Scenario, variant: Json | None) -> dict[int, list[str]]:
    roles: dict[int, list[str]] = {}
    sides = variant.get("sides") if variant else None
    if isinstance(sides, list) and any(isinstance(s, list) and len(s) > 1 for s in sides):
        for i, side in enumerate(sides):
            for seat in side if isinstance(side, list) else []:
                roles.setdefault(int(seat), []).append(f"side {i}")
    dealer = scenario.setup.get("dealer")
    if isinstance(dealer, int):
        roles.setdefault(dealer, []).append("dealer")
    return roles


def setup_html(scenario: Scenario, variant: Json | None) -> str:
    """The starting position drawn as cards: hands by seat, the stock or deck, and the facts of the start."""
    setup = scenario.setup
    start: Json = setup["start"] if isinstance(setup.get("start"), dict) else {}
    indicator = start.get("indicator")
    marks = {str(indicator): "card--indicator"} if is_card(indicator) else {}
    roles = _seat_roles(scenario, variant)
    rows = []
    hands: Json = setup["hands"] if isinstance(setup.get("hands"), dict) else {}
    for seat_key in sorted(hands, key=lambda k: int(k) if str(k).isdigit() else 99):
        seat = int(seat_key) if str(seat_key).isdigit() else -1
        role = roles.get(seat, [])
        label = f"Seat {esc(seat_key)}" + (f' <span class="deal__role">{esc(", ".join(role))}</span>' if role else "")
        rows.append(f'<div class="deal__row"><span class="deal__label">{label}</span>{cards(hands[seat_key], big=True)}</div>')
    if isinstance(setup.get("stock"), list):
        stock = setup["stock"]
        label = f'Stock <span class="deal__role">{len(stock)}, top first</span>'
        rows.append(f'<div class="deal__row"><span class="deal__label">{label}</span>{cards(stock, marks=marks)}</div>')
    if isinstance(setup.get("deck"), list):
        deck = setup["deck"]
        label = f'Deck <span class="deal__role">{len(deck)}, top first</span>'
        rows.append(f'<div class="deal__row"><span class="deal__label">{label}</span>{cards(deck)}</div>')
    facts = []
    if "dealer" in setup:
        facts.append(f"dealer: seat {esc(setup['dealer'])}")
    if isinstance(setup.get("nines"), dict):
        facts.append("nines drawn: " + "; ".join(f"seat {esc(k)} {card(str(v))}" for k, v in setup["nines"].items()))
    if start:
        facts.append(f"starts in phase {esc(start.get('phase', '?'))}")
        if start.get("trump"):
            facts.append("trumps " + suit_symbol(str(start["trump"])))
        if "to_act" in start:
            facts.append(f"seat {esc(start['to_act'])} to act" if start["to_act"] is not None else "nobody to act")
        if is_card(indicator):
            facts.append("indicator " + card(str(indicator), extra="card--indicator"))
        if start.get("trick"):
            facts.append(
                "on the table: "
                + ", ".join(
                    f"seat {esc(t.get('seat'))} {card(str(t.get('card')))}" if isinstance(t, dict) else esc(t)
                    for t in start["trick"]
                )
            )
        if start.get("piles"):
            facts.append("won so far: " + "; ".join(f"side {esc(k)} {value_html(v)}" for k, v in start["piles"].items()))
        if start.get("tricks"):
            facts.append("tricks so far: " + ", ".join(f"side {i}: {esc(v)}" for i, v in enumerate(start["tricks"])))
        if start.get("makers") is not None:
            facts.append(f"makers: side {esc(start['makers'])}")
        if start.get("lone") is not None:
            facts.append(f"alone: seat {esc(start['lone'])}")
        if start.get("dead"):
            facts.append("out of play: " + value_html(start["dead"]))
    for key in ("dealer_history", "trees_taken", "match"):
        if key in setup:
            facts.append(f"{esc(key.replace('_', ' '))}: {value_html(setup[key])}")
    known = {"dealer", "hands", "stock", "deck", "start", "nines", "dealer_history", "trees_taken", "match"}
    for key in setup:
        if key not in known:
            facts.append(f"{esc(key)}: {value_html(setup[key])}")
    fact_html = "".join(f"<li>{f}</li>" for f in facts)
    return f'<div class="deal">{"".join(rows)}<ul class="deal__facts">{fact_html}</ul></div>'


def steps_markdown(scenario: Scenario, page: str) -> list[str]:
    raw_steps = scenario.raw.get("steps", []) if isinstance(scenario.raw.get("steps"), list) else []
    out = []
    for i, step in enumerate(scenario.steps):
        raw = raw_steps[i] if i < len(raw_steps) and isinstance(raw_steps[i], dict) else {}
        if step.actions:
            head = "; ".join(action_html(a) for a in step.actions)
            head = head[:1].upper() + head[1:] if head.startswith("seat") else head
        else:
            head = "Position after setup" if i == 0 else "Position now"
        if step.reject:
            head += ': <span class="refused">must be refused</span> with ' + " or ".join(error_link(c, page) for c in step.reject)
            head += ", leaving the position exactly as it was"
        out.append(f"1. {head}.")
        if raw.get("note"):
            out.append(f"    <br>*{md(raw['note'])}*")
        if step.expect:
            out.append("")
            out += [f"    - {expectation_html(str(k), v)}" for k, v in step.expect.items()]
            out.append("")
    return out


def scenario_block(scenario: Scenario, page: str, data: SiteData) -> list[str]:
    variant = data.variants.get(scenario.variant)
    out = [f"## {md(scenario.title)} {anchor_attr(scenario.id)}", ""]
    out += [
        f'<p class="clause-meta">{code(scenario.id)}</p>',
        "",
        "- **Variant:** " + variant_link(scenario.variant, page),
        "- **Source:** " + source_text(scenario.source, page),
        "- **Checks:** " + joined(clause_link(c, page, data, with_title=True) for c in scenario.clauses),
        "",
    ]
    if scenario.description:
        out += [prose_paragraphs(scenario.description, page, data), ""]
    out += [setup_html(scenario, variant), "", "**Steps**", ""]
    out += steps_markdown(scenario, page)
    out.append("")
    return out


def example_page(page: str, scenarios: Sequence[Scenario], data: SiteData) -> str:
    """One scenario file as a page of worked examples, each anchored by its scenario id."""
    first = scenarios[0]
    game_title = data.game_title(first.game) if first.game else first.game
    parts = page.removeprefix("examples/").removesuffix(".md").split("/")
    topic = " · ".join(p.replace("-", " ").capitalize() for p in parts[1:]) or page
    source_file = "scenarios/" + "/".join(parts) + ".yaml"
    out = [
        f"# {md(game_title)}: {md(topic)}",
        "",
        f"Worked examples from {code(source_file)}: each starts from the position drawn, applies the steps in order, "
        "and shows what a correct engine reports after them. Every example names the clauses it checks.",
        "",
    ]
    for s in scenarios:
        out += scenario_block(s, page, data)
    return "\n".join(out) + "\n"


def examples_index(data: SiteData) -> str:
    page = EXAMPLES_INDEX
    files = data.example_files()
    out = [
        "# Worked examples",
        "",
        f"All {len(data.scenarios)} conformance scenarios, one page per scenario file. Each example draws its "
        "starting hands and stock as cards, lists the actions with the refusals they must meet, shows what is "
        "expected after each step, and links back to the clauses it checks. The format is described in "
        + mdlink("Writing scenarios", page, "scenarios.md")
        + ".",
        "",
    ]
    by_game: dict[str, list[tuple[str, list[Scenario]]]] = {}
    for path, group in files.items():
        by_game.setdefault(path.split("/")[1], []).append((path, group))
    for game in sorted(by_game, key=lambda g: (g != "albastini", g != "altbaumer", g)):
        out += [f"## {md(data.game_title(game))} {anchor_attr('examples-' + game)}", ""]
        for path, group in by_game[game]:
            parts = path.removeprefix(f"examples/{game}/").removesuffix(".md")
            label = md(parts.replace("/", " · ").replace("-", " "))
            out.append(f"- {mdlink(label, page, path)}: {len(group)} example{'s' if len(group) != 1 else ''}")
        out.append("")
    return "\n".join(out) + "\n"


def example_nav(data: SiteData) -> list[Any]:
    """The nav entries for the worked examples: game, then topic, then file."""
    nav: list[Any] = [{"Overview": EXAMPLES_INDEX}]
    games: dict[str, dict[str, list[Any]]] = {}
    for path in data.example_files():
        parts = path.removeprefix("examples/").removesuffix(".md").split("/")
        game, topic, name = parts[0], "/".join(parts[1:-1]) or "other", parts[-1]
        games.setdefault(game, {}).setdefault(topic, []).append({name.replace("-", " ").capitalize(): path})
    for game in sorted(games, key=lambda g: (g != "albastini", g != "altbaumer", g)):
        topics = [{topic.replace("-", " ").capitalize(): entries} for topic, entries in games[game].items()]
        nav.append({data.game_title(game): topics})
    return nav


# ---------------------------------------------------------------- shortcodes for hand-written pages

_SHORTCODE = re.compile(r"\[\[(cards|hand|show|values|cli|pytest-options|limits):\s*([^\]]*)\]\]")


def labelled_cards(items: Sequence[tuple[str, str]]) -> str:
    """Big cards, each with a caption under it (a trick, a bid and the turned card...)."""
    cells = "".join(
        f'<span class="labelled"><span class="cards cards--big">{card(c)}</span>'
        f'<span class="labelled__label">{esc(label)}</span></span>'
        for label, c in items
    )
    return f'<span class="labelled-row">{cells}</span>'


def values_table(variant: Json) -> str:
    """A variant's ranks, highest first, drawn in hearts with each card's value."""
    order = str(variant.get("ranking", {}).get("plain_order", variant.get("deck", {}).get("ranks", ""))).split()
    values = variant.get("values", {}) if isinstance(variant.get("values"), dict) else {}
    head = "".join(f"<th>{card(r + 'H')}</th>" for r in order)
    vals = "".join(f"<td>{esc(values.get(r, ''))}</td>" for r in order)
    total = sum(int(v) for v in values.values() if isinstance(v, int)) * len(
        str(variant.get("deck", {}).get("suits", "")).split()
    )
    return (
        '<table class="values-table"><thead><tr><th>Rank, highest first</th>'
        f"{head}</tr></thead><tbody><tr><th>Value</th>{vals}</tr></tbody></table>"
        f'<p class="values-total">The whole pack holds {total} points.</p>'
    )


def expand_shortcodes(markdown: str, data: SiteData | None = None) -> str:
    """Draw cards in hand-written pages.

    ``[[cards: AH 3S]]`` draws cards inline, ``[[hand: ...]]`` a row of big cards, ``[[show: Anna:AH Boris:3S]]``
    big cards with captions (``_`` for a space), ``[[values: VARIANT]]`` the variant's ranks and values.
    ``[[cli: verify]]`` lists a ``trickspec`` command's options (``[[cli:]]`` the commands) and
    ``[[pytest-options:]]`` the pytest plugin's, and ``[[limits:]]`` the data limits, all read from the code
    so the guide cannot drift from it.

    A bad card code or an unknown variant is an error, so a typo fails the build.
    """

    def replace(m: re.Match[str]) -> str:
        kind, arg = m.group(1), m.group(2).split()
        if kind == "cli":
            return cli_reference(arg[0] if arg else None)
        if kind == "pytest-options":
            return pytest_options()
        if kind == "limits":
            return data_limits()
        if kind == "show":
            pairs = [a.rpartition(":") for a in arg]
            bad = [a for a, (label, _, c) in zip(arg, pairs, strict=True) if not label or not is_card(c)]
            if bad:
                raise ValueError(f"[[show: ...]]: expected Label:CARD items, found {', '.join(bad)}")
            return labelled_cards([(label.replace("_", " "), c) for label, _, c in pairs])
        if kind in ("cards", "hand"):
            bad = [c for c in arg if not is_card(c)]
            if bad:
                raise ValueError(f"[[{kind}: ...]]: not card codes: {', '.join(bad)}")
            return cards(arg, big=kind == "hand")
        if data is None or len(arg) != 1 or arg[0] not in data.variants:
            raise ValueError(f"[[values: ...]]: expected one known variant id, found {' '.join(arg)!r}")
        return values_table(data.variants[arg[0]])

    return _SHORTCODE.sub(replace, markdown)


# ---------------------------------------------------------------- command reference, read from the code


def _option_rows(actions: Iterable[argparse.Action]) -> list[str]:
    rows = []
    for action in actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        names = ", ".join(action.option_strings) or action.dest
        if action.option_strings and action.nargs != 0:
            names += " " + (action.metavar if isinstance(action.metavar, str) else action.dest.upper())
        helptext = action.help or ""
        if action.default not in (None, False, argparse.SUPPRESS) and action.option_strings and "default" not in helptext:
            helptext += f" (default: {action.default})"
        if action.choices and action.option_strings:
            helptext += " (one of: " + ", ".join(str(c) for c in action.choices) + ")"
        rows.append(f"<tr><td><code>{esc(names)}</code></td><td>{esc(helptext)}</td></tr>")
    return rows


def _table(head: tuple[str, str], rows: list[str]) -> str:
    cells = "".join(f"<th>{esc(h)}</th>" for h in head)
    return f'<table class="cli-table"><thead><tr>{cells}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def cli_reference(command: str | None = None) -> str:
    """The ``trickspec`` commands (``command`` None) or one command's options, as an HTML table."""
    from conformance import cli

    top = cli.parser()
    subs = next((a for a in top._actions if isinstance(a, argparse._SubParsersAction)), None)
    if subs is None:
        raise ValueError("trickspec has no subcommands")
    if command is None:
        helps = {c.dest: c.help or "" for c in subs._choices_actions}
        rows = [f"<tr><td><code>trickspec {esc(n)}</code></td><td>{esc(helps.get(n, ''))}</td></tr>" for n in subs.choices]
        return _table(("Command", "Does"), rows)
    if command not in subs.choices:
        raise ValueError(f"[[cli: {command}]]: no such trickspec command (known: {', '.join(subs.choices)})")
    rows = _option_rows(subs.choices[command]._actions)
    return _table(("Option", "Meaning"), rows)


class _OptionRecorder:
    """Stands in for pytest's parser: records what the plugin's ``pytest_addoption`` adds."""

    def __init__(self) -> None:
        self.parser = argparse.ArgumentParser(add_help=False)

    def getgroup(self, *args: Any, **kwargs: Any) -> _OptionRecorder:
        return self

    def addoption(self, *names: str, **kwargs: Any) -> None:
        self.parser.add_argument(*names, **kwargs)

    def addini(self, *args: Any, **kwargs: Any) -> None:
        pass


def pytest_options() -> str:
    """The pytest plugin's command-line options, as an HTML table."""
    from conformance import plugin

    recorder = _OptionRecorder()
    plugin.pytest_addoption(recorder)  # type: ignore[arg-type]
    rows = _option_rows(recorder.parser._actions)
    return _table(("Option", "Meaning"), rows)


def data_limits() -> str:
    """The limits on data the kit reads (specreader/limits.py), as an HTML table."""
    from specreader import limits

    rows = [f"<tr><td>{esc(what)}</td><td>{_code_spans(bound)}</td></tr>" for what, bound in limits.described()]
    return _table(("Limit", "Bound"), rows)


def _code_spans(text: str) -> str:
    """Escaped text with its `backticked` parts as code."""
    return re.sub(r"`([^`]*)`", r"<code>\1</code>", esc(text))


# ---------------------------------------------------------------- the whole site


def pages(data: SiteData) -> dict[str, str]:
    """Every generated page, by path under the docs folder."""
    out = {rules_page_path(game): rules_page(game, data) for game in data.games()}
    out[VARIANTS_PAGE] = variants_page(data)
    out[RULINGS_PAGE] = rulings_page(data)
    out[GLOSSARY_PAGE] = glossary_page(data)
    out[SOURCES_PAGE] = sources_page(data)
    out[ERRORS_PAGE] = errors_page(data)
    out[SCHEMAS_PAGE] = schemas_page(data)
    out[EXAMPLES_INDEX] = examples_index(data)
    for path, group in data.example_files().items():
        out[path] = example_page(path, group, data)
    return out
