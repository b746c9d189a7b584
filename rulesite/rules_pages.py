"""A game's rules page: its clauses in reading order, each anchored by its id, with its sources, rulings,
refusal codes and the worked examples that check it."""

from __future__ import annotations

from dataclasses import dataclass

from conformance.suite.scenarios import Scenario
from rulesite import paths
from rulesite.links import PageLinks
from rulesite.sitedata import SiteData
from rulesite.templating import render
from rulesite.variant_pages import selector
from specreader.jsontypes import Json


@dataclass(frozen=True)
class Clause:
    data: Json  # as written in clauses.yaml
    examples: list[tuple[Scenario, bool]]  # each scenario checking it, and whether it checks a refusal of it


def rules_page(game: str, data: SiteData) -> str:
    clauses = data.game_clauses(game)
    sections = []
    for section in data.spec.sections(game):
        mine = [c for c in clauses if c.get("section") == section.get("id")]
        sections.append((section, [Clause(c, _examples(c, data)) for c in mine]))
    page = paths.rules_page_path(game)
    return render(
        "rules.md.j2",
        game=game,
        title=data.game_title(game),
        variants=list(data.playable_variants(game)),
        sections=sections,
        links=PageLinks(page, data),
        selector=selector(game, page, data),
        how_to_play=paths.how_to_play_path(game),
    )


def _examples(clause: Json, data: SiteData) -> list[tuple[Scenario, bool]]:
    refuses_with = set(clause.get("refuses_with", []) or [])
    return [(s, bool(s.refusals() & refuses_with)) for s in data.by_clause.get(str(clause["id"]), [])]
