"""The error codes page: each code of spec/errors.yaml, the clauses refusing with it, the scenarios expecting it."""

from __future__ import annotations

from collections import Counter

from rulesite import paths
from rulesite.links import PageLinks
from rulesite.sitedata import SiteData
from rulesite.templating import render


def errors_page(data: SiteData) -> str:
    rejecting: dict[str, list[str]] = {}
    for cid, clause in data.clauses.items():
        for code in clause.get("rejects", []) or []:
            rejecting.setdefault(code, []).append(cid)
    tested = Counter(code for s in data.scenarios for code in s.refusals())
    return render(
        "errors.md.j2", errors=data.errors(), rejecting=rejecting, tested=tested, links=PageLinks(paths.ERRORS_PAGE, data)
    )
