"""The rulings page: each disagreement between the accounts, its readings, the decision and the errata."""

from __future__ import annotations

from rulesite import paths
from rulesite.links import PageLinks
from rulesite.sitedata import SiteData
from rulesite.templating import render
from specreader.jsontypes import Json


def rulings_page(data: SiteData) -> str:
    by_game: dict[str, list[Json]] = {}
    for doc in data.spec.ruling_files:
        game = str(doc.data.get("game")) if isinstance(doc.data, dict) else ""
        by_game.setdefault(game, []).extend(r for r in doc.data.get("rulings", []) if isinstance(r, dict))
    games = [(game, data.game_title(game), by_game[game]) for game in data.games() if by_game.get(game)]
    return render("rulings.md.j2", games=games, links=PageLinks(paths.RULINGS_PAGE, data))
