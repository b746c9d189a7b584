"""The bibliography page: each account the clauses and rulings cite, and the clauses citing it."""

from __future__ import annotations

from rulesite import paths
from rulesite.links import PageLinks
from rulesite.sitedata import SiteData
from rulesite.templating import render


def sources_page(data: SiteData) -> str:
    citing: dict[str, list[str]] = {}
    for cid, clause in data.clauses.items():
        for key in clause.get("sources", []) or []:
            citing.setdefault(key, []).append(cid)
    return render("sources.md.j2", sources=data.sources(), citing=citing, links=PageLinks(paths.SOURCES_PAGE, data))
