"""The worked examples: one page per scenario file, each scenario drawn and its steps told; their index; their nav."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from conformance.scenarios import Scenario
from rulesite import paths
from rulesite.links import PageLinks
from rulesite.sitedata import SiteData, game_order
from rulesite.templating import render
from specreader.jsontypes import Json


@dataclass(frozen=True)
class Example:
    """A scenario with what its drawing needs beside the scenario itself."""

    scenario: Scenario
    start: Json  # setup.start, or empty
    hands: list[tuple[str, list[str], list[str]]]  # seat key, cards, roles at the table ("side 0", "dealer")
    notes: list[object]  # each step's note as written, or None


def example(scenario: Scenario, variant: Json | None) -> Example:
    setup = scenario.setup
    start = setup["start"] if isinstance(setup.get("start"), dict) else {}
    roles = seat_roles(scenario, variant)
    hands: Json = setup["hands"] if isinstance(setup.get("hands"), dict) else {}
    seats = sorted(hands, key=lambda k: int(k) if str(k).isdigit() else 99)
    drawn = [(k, hands[k], roles.get(int(k) if str(k).isdigit() else -1, [])) for k in seats]
    raw_steps = scenario.raw.get("steps")
    notes = [raw.get("note") if isinstance(raw, dict) else None for raw in raw_steps] if isinstance(raw_steps, list) else []
    notes += [None] * (len(scenario.steps) - len(notes))
    return Example(scenario, start, drawn, notes)


def seat_roles(scenario: Scenario, variant: Json | None) -> dict[int, list[str]]:
    """Each seat's side (when sides have partners) and the dealer."""
    roles: dict[int, list[str]] = {}
    sides = variant.get("sides") if variant else None
    if isinstance(sides, list) and any(isinstance(s, list) and len(s) > 1 for s in sides):
        for i, side in enumerate(sides):
            for seat in side if isinstance(side, list) else []:
                roles.setdefault(int(seat), []).append(f"side {i}")
    dealer = scenario.setup.get("dealer")
    if isinstance(dealer, int):
        roles.setdefault(dealer, []).append("dealer")
    return roles


def example_page(page: str, scenarios: Sequence[Scenario], data: SiteData) -> str:
    """One scenario file as a page of worked examples, each anchored by its scenario id."""
    first = scenarios[0]
    parts = page.removeprefix("examples/").removesuffix(".md").split("/")
    return render(
        "example.md.j2",
        game_title=data.game_title(first.game) if first.game else first.game,
        topic=" · ".join(p.replace("-", " ").capitalize() for p in parts[1:]) or page,
        source_file="scenarios/" + "/".join(parts) + ".yaml",
        examples=[example(s, data.variants.get(s.variant)) for s in scenarios],
        links=PageLinks(page, data),
    )


def examples_index(data: SiteData) -> str:
    by_game: dict[str, list[tuple[str, str, int]]] = {}
    for path, group in data.example_files().items():
        game = path.split("/")[1]
        label = path.removeprefix(f"examples/{game}/").removesuffix(".md").replace("/", " · ").replace("-", " ")
        by_game.setdefault(game, []).append((label, path, len(group)))
    games = [(game, data.game_title(game), by_game[game]) for game in sorted(by_game, key=game_order)]
    return render(
        "examples_index.md.j2",
        count=len(data.scenarios),
        games=games,
        format_page=paths.SCENARIO_FORMAT_PAGE,
        links=PageLinks(paths.EXAMPLES_INDEX, data),
    )


def example_nav(data: SiteData) -> list[Any]:
    """The nav entries for the worked examples: game, then topic, then file."""
    nav: list[Any] = [{"Overview": paths.EXAMPLES_INDEX}]
    games: dict[str, dict[str, list[Any]]] = {}
    for path in data.example_files():
        parts = path.removeprefix("examples/").removesuffix(".md").split("/")
        game, topic, name = parts[0], "/".join(parts[1:-1]) or "other", parts[-1]
        games.setdefault(game, {}).setdefault(topic, []).append({name.replace("-", " ").capitalize(): path})
    for game in sorted(games, key=game_order):
        topics = [{topic.replace("-", " ").capitalize(): entries} for topic, entries in games[game].items()]
        nav.append({data.game_title(game): topics})
    return nav
