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


def glossary_page(data: SiteData) -> str:
    terms = sorted(data.glossary, key=lambda t: str(t["term"]).lower().removeprefix("the "))
    return render("glossary.md.j2", terms=terms, anchor_of=term_anchor, links=PageLinks(paths.GLOSSARY_PAGE, data))
