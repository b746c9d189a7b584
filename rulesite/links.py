"""Links and prose for one page: every link relative to that page, every label escaped.

Templates get a :class:`PageLinks` as ``links`` and call it for each reference they print; the Markup it
returns holds only escaped text, card drawings and link syntax.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from markupsafe import Markup

from conformance.suite.scenarios import Scenario
from rulesite import paths, templating
from rulesite.escaping import code, md, md_chunk, rfc_keywords, said_plainly
from rulesite.sitedata import SiteData
from specreader.jsontypes import Json
from specreader.notation import CARD

# What prose may mention: a clause id, a ruling id, a card code, a refusal code.
_REF = re.compile(
    r"\b([a-z][a-z0-9]*\.[a-z][a-z0-9-]*\.[a-z0-9]+(?:-[a-z0-9]+)*)"
    r"|\b(R[1-9][0-9]*)\b"
    rf"|(?<![A-Za-z0-9])({CARD})(?![A-Za-z0-9])"
    r"|\b([a-z]+(?:_[a-z]+)+)\b"
)
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")
COMMA = Markup(", ")


class PageLinks:
    def __init__(self, page: str, data: SiteData) -> None:
        self.page = page
        self.data = data
        self._card = templating.macro("cards.html.j2", "card")

    def to(self, label: Markup, page: str, anchor: str | None = None) -> Markup:
        """A Markdown link; the label is escaped Markdown already."""
        return Markup("[{}]({})").format(label, paths.link(self.page, page, anchor))

    def source(self, key: str) -> Markup:
        """A source by its title, linked to its entry in the bibliography."""
        titles = {str(s.get("key")): s.get("title") for s in self.data.sources()}
        return self.to(md(titles.get(key) or key), paths.SOURCES_PAGE, key)

    def ruling(self, rid: str, *, with_title: bool = False) -> Markup:
        label = md(rid)
        if with_title and rid in self.data.rulings:
            label += Markup(" ") + md(self.data.rulings[rid].get("title", ""))
        return self.to(label, paths.RULINGS_PAGE, rid)

    def clause(self, cid: str, *, with_title: bool = False) -> Markup:
        game = self.data.clause_game.get(cid, cid.split(".")[0])
        label = code(cid)
        if with_title and cid in self.data.clauses:
            label = md(self.data.clauses[cid].get("title", cid)) + Markup(" ") + label
        return self.to(label, paths.rules_page_path(game), cid)

    def error(self, refusal_code: str) -> Markup:
        return self.to(code(refusal_code), paths.REFUSALS_PAGE, refusal_code)

    def variant(self, vid: str) -> Markup:
        """A variant by its title, linked to its own rules page."""
        found = self.data.variants.get(vid)
        if found is None or found.get("abstract"):
            return self.to(code(vid), paths.VARIANTS_PAGE, vid)
        return self.to(md(found.get("title", vid)), paths.variant_rules_path(vid))

    def scenario(self, scenario: Scenario) -> Markup:
        return self.to(md(scenario.title), self.data.example_page(scenario), scenario.id)

    # Lists of references, as the pages print them.

    def sources(self, keys: Iterable[str]) -> Markup:
        return COMMA.join(self.source(k) for k in keys)

    def rulings(self, rids: Iterable[str], *, with_title: bool = False) -> Markup:
        return COMMA.join(self.ruling(r, with_title=with_title) for r in rids)

    def clauses(self, cids: Iterable[str], *, with_title: bool = False) -> Markup:
        return COMMA.join(self.clause(c, with_title=with_title) for c in cids)

    def refusals(self, codes: Iterable[str], sep: str = ", ") -> Markup:
        return Markup(sep).join(self.error(c) for c in codes)

    def variants(self, vids: Iterable[str]) -> Markup:
        return COMMA.join(self.variant(v) for v in vids)

    def source_text(self, source: str | Json) -> Markup:
        """A scenario's source: an account, a ruling, or a derivation."""
        if isinstance(source, str):
            return Markup("the account ") + self.source(source)
        if "ruling" in source:
            return Markup("ruling ") + self.ruling(str(source["ruling"]))
        if "derived" in source:
            return Markup("derived: ") + md(source["derived"])
        return md(json.dumps(source, ensure_ascii=False))

    def prose(self, text: object, *, rfc: bool = False, titles: bool = False) -> Markup:
        """Escaped prose on one line: the clause ids, ruling ids and refusal codes it mentions linked, its card
        codes drawn as cards, and (with ``rfc``) the requirement keywords in bold; with ``titles``, a clause
        mentioned is named by its title, as players read it, not by its id."""
        flat = " ".join(str(text).split())
        out: list[Markup] = []
        pos = 0

        def plain(chunk: str) -> Markup:
            escaped = md_chunk(chunk)
            return rfc_keywords(escaped) if rfc else escaped

        for m in _REF.finditer(flat):
            cid, rid, card_code, error = m.groups()
            if cid and cid in self.data.clauses and titles:
                title = md(self.data.clauses[cid].get("title", cid))
                target = self.to(Markup("*{}*").format(title), paths.rules_page_path(self.data.clause_game[cid]), cid)
            elif cid and cid in self.data.clauses:
                target = self.clause(cid)
            elif rid and rid in self.data.rulings:
                target = self.ruling(rid)
            elif card_code:
                target = self._card(card_code, coded=paths.for_engines(self.page))
            elif error and error in self.data.refusal_codes:
                target = self.error(error)
            else:
                continue
            out += [plain(flat[pos : m.start()]), target]
            pos = m.end()
        out.append(plain(flat[pos:]))
        return Markup().join(out)

    def rule_text(self, clause: Json) -> Markup:
        """A clause's text as players read it: in plain words (``said_plainly``), a clause it mentions named by its
        title."""
        return self.prose(said_plainly(clause.get("text", "")), titles=True)

    def paragraphs(self, text: object, *, rfc: bool = False) -> Markup:
        """Prose of several paragraphs, each on one line, a blank line between them."""
        parts = [p for p in _PARAGRAPH_BREAK.split(str(text)) if p.strip()]
        return Markup("\n\n").join(self.prose(p, rfc=rfc) for p in parts)
