"""A rules page per playable variant: the game at that table in words, then every rule that applies to it,
the rule text leading and each linked to its clause in the specification; and the ruleset selector that
every page of a game carries."""

from __future__ import annotations

from markupsafe import Markup

from rulesite import paths, ruling_marks
from rulesite.links import PageLinks
from rulesite.sitedata import SiteData, clause_applies
from rulesite.templating import render
from specreader.jsontypes import Json


def for_players(clause: Json) -> bool:
    """Whether a clause is a rule players read: one with a text (a clause with only an engine_note is for engines
    alone, and a ruleset shows no engine_note)."""
    return bool(clause.get("text"))


def variant_page(vid: str, data: SiteData) -> str:
    variant = data.variants[vid]
    game = str(variant.get("game"))
    page = paths.variant_rules_path(vid)
    links = PageLinks(page, data)
    sections = []
    for section in data.spec.sections(game):
        mine = [
            c
            for c in data.game_clauses(game)
            if c.get("section") == section.get("id") and clause_applies(c, vid) and for_players(c)
        ]
        if mine:
            sections.append((section, mine))
    listed = {str(c.get("id")) for _, clauses in sections for c in clauses}
    # A fact in a clause's own words is read under that clause's title below: said once, there.
    facts = [f for f in data.facts(vid) if f.clause not in listed]
    return render(
        "variant_rules.md.j2",
        vid=vid,
        title=str(variant.get("title", vid)),
        game_title=data.game_title(game),
        facts=facts,
        rulings={f.topic: ruling_marks.ruling_lines(ruling_marks.rulings_behind(f, vid, data), data, links, vid) for f in facts},
        sections=sections,
        selector=selector(game, page, data, current=vid),
        game_page=paths.rules_page_path(game),
        how_to_play=paths.how_to_play_path(game),
        links=links,
    )


def selector(game: str, page: str, data: SiteData, current: str | None = None) -> Markup:
    """Links to every ruleset of a game, the current one marked."""
    items = [
        (str(v.get("title", vid)), paths.link(page, paths.variant_rules_path(vid)), vid == current)
        for vid, v in data.playable_variants(game).items()
    ]
    return Markup(render("selector.md.j2", game_title=data.game_title(game), items=items))


def rules_nav(data: SiteData) -> dict[str, list[dict[str, str]]]:
    """For each game's specification page, the nav entries that put its rulesets beside it."""
    out = {}
    for game in data.games():
        # The rulesets first, for players; the clause-by-clause specification after them, for engine authors.
        entries = [{str(v.get("title", vid)): paths.variant_rules_path(vid)} for vid, v in data.playable_variants(game).items()]
        entries += [{"Specification, for engine authors": paths.rules_page_path(game)}]
        out[paths.rules_page_path(game)] = entries
    return out
