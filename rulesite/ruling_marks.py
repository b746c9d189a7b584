"""Which of the project's rulings stand behind a rule said at a table, and the line that says so where players
read: a player holding an account that says otherwise learns that the accounts differ and what this page follows.

A ruling stands behind a fact of ``rule_words`` when the variant parameter it decides (its ``parameter``) is a
part of one the fact is about, or holds one, and so is the parameter of one of its clauses that applies to the
ruleset (over-60 scoring's ruling is not behind the mrithi scoring of a ruleset its clauses do not apply to). A
ruling with no parameter is marked nowhere; tests/test_print_summary.py holds every ruling of the kit marked.

A ruling whose disagreement is an erratum is marked only at the tables where the erratum's sentence names something
else than the ruling: those its ``differs_when`` describes (the indicator's erratum names the same player as the
ruling at a table of two, or played clockwise), or every table when it says none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from markupsafe import Markup

from rulesite import table_words
from rulesite.escaping import md
from rulesite.links import PageLinks
from rulesite.rule_words import Fact
from rulesite.sitedata import SiteData, clause_applies
from rulesite.templating import render
from specreader.jsontypes import Json, overlap, value_at


def differs_at(erratum: Json, variant: Json) -> bool:
    """Whether the erratum's sentence says otherwise than the ruling at the table of ``variant``: every parameter of
    its ``differs_when`` has the value given there, or at least its ``min``."""
    when = erratum.get("differs_when")
    if not isinstance(when, dict):
        return True
    for path, wanted in when.items():
        value = value_at(variant, str(path))
        if isinstance(wanted, dict):
            if not isinstance(value, int) or isinstance(value, bool) or value < int(wanted.get("min", 0)):
                return False
        elif value != wanted:
            return False
    return True


def disagreeing_errata(ruling: Json, variant: Json | None) -> list[Json]:
    """The ruling's errata whose sentences say otherwise at the table of ``variant`` (all of them without one)."""
    errata = [e for e in ruling.get("errata") or [] if isinstance(e, dict)]
    return errata if variant is None else [e for e in errata if differs_at(e, variant)]


def rulings_behind(fact: Fact, vid: str, data: SiteData) -> list[str]:
    """The ids of the rulings behind ``fact`` as ruleset ``vid`` says it, in the order of the rulings."""
    game = data.variants[vid].get("game")

    def said_from(parameter: object) -> bool:
        return bool(parameter) and any(overlap(str(parameter), a) for a in fact.about)

    found = []
    for rid, ruling in data.rulings.items():
        if ruling.get("errata") and not disagreeing_errata(ruling, data.variants[vid]):
            continue  # no account says otherwise at this table
        clauses = [data.clauses[c] for c in ruling.get("clauses") or [] if data.clause_game.get(c) == game]
        if said_from(ruling.get("parameter")) and any(clause_applies(c, vid) and said_from(c.get("parameter")) for c in clauses):
            found.append(rid)
    return found


def readings_words(ruling: Json) -> str:
    """What the accounts leave open, counted only as the readings tell it: a reading that records an account's
    silence (``silent``), or that is background to another (``background``: where it comes from), is no way of
    reading the rule, and readings of different parts of the question (``part``)
    answer separate questions, so they are counted as questions left open, not as rival readings of one rule. A
    reading that names no part answers the question whole: a rival in every part, never a question of its own."""
    readings = [
        r for r in ruling.get("readings") or [] if isinstance(r, dict) and not r.get("silent") and not r.get("background")
    ]
    accounts = {str(s) for r in readings for s in r.get("sources") or []}
    # one account read several ways is no disagreement between accounts
    several = len(accounts) > 1
    parts = {str(r["part"]) for r in readings if r.get("part")}
    if len(parts) > 1:
        leave = "the accounts leave" if several else "the account leaves"
        return f"{leave} {table_words.number(len(parts))} questions open"
    if len(readings) < 2:
        return "the accounts leave this open" if several else "the account leaves this open"
    who = "the accounts read this" if several else "the account can be read"
    return f"{who} {table_words.number(len(readings))} ways"


def ruling_words(ruling: Json, links: PageLinks, variant: Json | None = None) -> Markup:
    """One line of Markdown: this is the project's ruling, where the accounts disagree, what one says otherwise (its
    erratum, at the table of ``variant`` when given, or the number of readings), and a link to the whole ruling."""
    errata = disagreeing_errata(ruling, variant)
    if errata:
        # What the erratum says is the kit's paraphrase: only the account's own words, quoted in it, are in quotes.
        says = re.sub(r'"([^"]*)"', "\u201c\\1\u201d", " ".join(str(errata[0].get("says", "")).split()))
        other = Markup("one account says otherwise ({})").format(md(says))
    else:
        other = Markup(readings_words(ruling))
    return Markup(render("ruling_note.md.j2", link=links.ruling(str(ruling["id"]), with_title=True), other=other).strip())


def ruling_lines(rids: Iterable[str], data: SiteData, links: PageLinks, vid: str | None = None) -> list[Markup]:
    variant = data.variants[vid] if vid is not None else None
    return [ruling_words(data.rulings[rid], links, variant) for rid in rids]
