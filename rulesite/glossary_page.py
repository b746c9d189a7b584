"""The glossary page: the words of the accounts and of the kit, from docs/glossary.yaml."""

from __future__ import annotations

import re

from rulesite import paths
from rulesite.links import PageLinks
from rulesite.sitedata import SiteData
from rulesite.templating import render
from specreader.jsontypes import Json


def term_anchor(term: Json) -> str:
    given = term.get("id")
    if isinstance(given, str):
        return given
    return re.sub(r"[^a-z0-9]+", "-", str(term["term"]).lower()).strip("-")


def languages(terms: list[Json]) -> list[str]:
    """The languages the glossary's words of the accounts are in, by game, as its terms give them: "Kiswahili and
    French for Albastini"."""
    by_game: dict[str, list[str]] = {}
    for term in terms:
        if isinstance(term.get("language"), str) and isinstance(term.get("game"), str):
            said = by_game.setdefault(term["game"], [])
            if term["language"] not in said:
                said.append(term["language"])
    return [f"{' and '.join(said)} for {game}" for game, said in by_game.items()]


def glossary_page(data: SiteData) -> str:
    terms = sorted(data.glossary, key=lambda t: str(t["term"]).lower().removeprefix("the "))
    return render(
        "glossary.md.j2",
        terms=terms,
        languages=languages(data.glossary),
        anchor_of=term_anchor,
        links=PageLinks(paths.GLOSSARY_PAGE, data),
    )
