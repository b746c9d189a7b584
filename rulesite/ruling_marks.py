"""Which of the project's rulings stand behind a rule said at a table, and the line that says so where players
read: a player holding an account that says otherwise learns that the accounts differ and what this page follows.

A ruling stands behind a fact of ``rule_words`` when the variant parameter it decides (its ``parameter``) is a
part of what the fact is said from, or holds it, and so is the parameter of one of its clauses that applies to the
ruleset (over-60 scoring's ruling is not behind the mrithi scoring of a ruleset its clauses do not apply to).
"""

from __future__ import annotations

from collections.abc import Iterable

from markupsafe import Markup

from rulesite.links import PageLinks
from rulesite.rule_words import Fact
from rulesite.sitedata import SiteData, clause_applies
from rulesite.templating import render
from specreader.jsontypes import Json


def _within(path: str, outer: str) -> bool:
    return path == outer or path.startswith(outer + ".")


def rulings_behind(fact: Fact, vid: str, data: SiteData) -> list[str]:
    """The ids of the rulings behind ``fact`` as ruleset ``vid`` says it, in the order of the rulings."""
    game = data.variants[vid].get("game")

    def said_from(parameter: object) -> bool:
        return bool(parameter) and any(_within(str(parameter), r) or _within(r, str(parameter)) for r in fact.reads)

    found = []
    for rid, ruling in data.rulings.items():
        clauses = [data.clauses[c] for c in ruling.get("clauses") or [] if data.clause_game.get(c) == game]
        if said_from(ruling.get("parameter")) and any(clause_applies(c, vid) and said_from(c.get("parameter")) for c in clauses):
            found.append(rid)
    return found


def ruling_words(ruling: Json, links: PageLinks) -> Markup:
    """One line of Markdown: this is the project's ruling, where the accounts disagree, what one says otherwise (its
    erratum, or the number of readings), and a link to the whole ruling."""
    errata = ruling.get("errata") or []
    other = (
        f"one account says otherwise (\u201c{' '.join(str(errata[0].get('says', '')).split())}\u201d)"
        if errata else f"the accounts read this {len(ruling.get('readings') or [])} ways"
    )  # fmt: skip
    return Markup(render("ruling_note.md.j2", link=links.ruling(str(ruling["id"]), with_title=True), other=other).strip())


def ruling_lines(rids: Iterable[str], data: SiteData, links: PageLinks) -> list[Markup]:
    return [ruling_words(data.rulings[rid], links) for rid in rids]
