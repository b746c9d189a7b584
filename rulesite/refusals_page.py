"""The refusal codes page: which code answers when several apply (the precedence), then each code of
spec/refusals.yaml, the clauses refusing with it, the scenarios expecting it."""

from __future__ import annotations

from collections import Counter

from rulesite import paths
from rulesite.links import PageLinks
from rulesite.sitedata import SiteData
from rulesite.templating import render


def refusals_page(data: SiteData) -> str:
    rejecting: dict[str, list[str]] = {}
    for cid, clause in data.clauses.items():
        for code in clause.get("refuses_with", []) or []:
            rejecting.setdefault(code, []).append(cid)
    tested = Counter(code for s in data.scenarios for code in s.refusals())
    return render(
        "refusals.md.j2",
        refusals=data.refusals(),
        rejecting=rejecting,
        tested=tested,
        precedence=_precedence(data),
        links=PageLinks(paths.REFUSALS_PAGE, data),
    )


def _precedence(data: SiteData) -> list[tuple[str, list[str], str]]:
    """The refusal orders as stated: (game, or "" for the common one; its codes; its reason)."""
    doc = data.spec.refusals_file
    stated = doc.data.get("precedence") if doc is not None and isinstance(doc.data, dict) else None
    if not isinstance(stated, dict):
        return []
    games = stated.get("games")
    named = [("", stated), *sorted(games.items() if isinstance(games, dict) else [], key=lambda own: data.game_place(own[0]))]
    return [
        (game, [str(code) for code in part.get("order") or []], str(part.get("reason", "")))
        for game, part in named
        if isinstance(part, dict)
    ]
