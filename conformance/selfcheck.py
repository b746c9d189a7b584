"""`trickspec selfcheck`: how strong is the suite? Mutation testing through the spec itself.

The reference engine reads every game fact from its variant, so changing one parameter of a
variant (two ranks swapped, a line moved by one, a rule component exchanged for another)
gives an engine with exactly one rule bug and no new code. Each such mutant runs the
scenarios of its variant; a mutant that passes them all has *survived*: no scenario would
catch that bug in a third-party engine. Mutants the engine cannot even build are left out.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from conformance import runner, scenarios
from conformance.adapter import InProcessAdapter
from conformance.vocabulary import Outcome
from specreader import spec
from specreader.jsontypes import Json


@dataclass(frozen=True)
class Mutant:
    variant: str
    parameter: str  # dotted path in the resolved variant
    change: str
    data: Json = field(repr=False, compare=False)

    @property
    def name(self) -> str:
        return f"{self.variant}: {self.parameter} {self.change}"


@dataclass
class MutantResult:
    mutant: Mutant
    killed_by: list[str]  # scenario ids that failed; empty when the mutant survived
    scenarios: int

    @property
    def survived(self) -> bool:
        return not self.killed_by


def _at(data: Json, path: str) -> Any:
    node: Any = data
    for part in path.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _with(data: Json, path: str, value: Any) -> Json:
    out = copy.deepcopy(data)
    *parents, last = path.split(".")
    node = out
    for part in parents:
        node = node[part]
    node[last] = value
    return out


def _sequence_swaps(variant: Json, path: str) -> Iterator[tuple[str, Json]]:
    """Each neighbouring pair of an order swapped: the rank bugs (queen above jack, ...)."""
    value = _at(variant, path)
    if isinstance(value, str):
        items, joined = value.split(), True
    elif isinstance(value, list):
        items, joined = list(value), False
    else:
        return
    for i in range(len(items) - 1):
        swapped = [*items[:i], items[i + 1], items[i], *items[i + 2 :]]
        yield f"swaps {items[i]} and {items[i + 1]}", _with(variant, path, " ".join(swapped) if joined else swapped)


def _numbers(variant: Json) -> Iterator[tuple[str, str, Json]]:
    """Every whole-number parameter of a component, one up and one down."""
    for name, component in sorted(variant.get("components", {}).items()):
        for key, value in sorted(component.items()):
            path = f"components.{name}.{key}"
            if isinstance(value, bool):
                yield path, f"{value} -> {not value}", _with(variant, path, not value)
            elif isinstance(value, int):
                for delta in (-1, 1):
                    if value + delta >= 0:
                        yield path, f"{value} -> {value + delta}", _with(variant, path, value + delta)
            elif isinstance(value, dict):
                for sub, number in sorted(value.items()):
                    if isinstance(number, int) and not isinstance(number, bool):
                        for delta in (-1, 1):
                            changed = _with(variant, path, {**value, sub: number + delta})
                            yield f"{path}.{sub}", f"{number} -> {number + delta}", changed


def _values(variant: Json) -> Iterator[tuple[str, str, Json]]:
    for rank, points in sorted(variant.get("values", {}).items()):
        if points:
            yield f"values.{rank}", f"{points} -> {points - 1}", _with(variant, f"values.{rank}", points - 1)


def _rules(variant: Json) -> Iterator[tuple[str, str, Json]]:
    """Each component's rule exchanged for every other rule of the same component the spec uses."""
    used: dict[str, dict[str, Json]] = {}
    for vid in spec.variant_ids():
        for name, component in spec.variant(vid).get("components", {}).items():
            used.setdefault(name, {}).setdefault(component.get("rule"), component)
    for name, component in sorted(variant.get("components", {}).items()):
        for rule, other in sorted(used.get(name, {}).items()):
            if rule != component.get("rule"):
                yield f"components.{name}", f"{component.get('rule')} -> {rule}", _with(variant, f"components.{name}", other)
    draw = variant.get("components", {}).get("draw", {})
    if "indicator" in draw:
        other_indicator = "dead" if draw["indicator"] == "last-drawer" else "last-drawer"
        path = "components.draw.indicator"
        yield path, f"{draw['indicator']} -> {other_indicator}", _with(variant, path, other_indicator)


def _seating(variant: Json) -> Iterator[tuple[str, str, Json]]:
    sides = variant.get("sides", [])
    if len(sides) >= 2 and all(len(side) >= 2 for side in sides):
        # Partners side by side instead of spread round the table.
        n = variant["players"]
        size = len(sides[0])
        regrouped = [list(range(i, i + size)) for i in range(0, n, size)]
        if regrouped != sides:
            yield "sides", f"{sides} -> {regrouped}", _with(variant, "sides", regrouped)


def mutants(variant_id: str) -> Iterator[Mutant]:
    """Every single-parameter mutant of a playable variant."""
    base = spec.variant(variant_id)
    for path in ("ranking.plain_order", "ranking.trump_order", "ranking.top_trumps"):
        for change, data in _sequence_swaps(base, path):
            yield Mutant(variant_id, path, change, data)
    for generator in (_values, _numbers, _rules, _seating):
        for path, change, data in generator(base):
            yield Mutant(variant_id, path, change, data)


Builder = Callable[[Json], Callable[[str, Json], Any]]


def reference_builder(variant: Json) -> Callable[[str, Json], Any]:
    """A factory for the reference engine playing ``variant``, whatever id the scenario names."""
    from reference.engine import Engine, compile_rules

    rules = compile_rules(variant)
    return lambda _variant_id, setup: Engine(rules, setup)


def run_mutants(
    variant_ids: list[str] | None = None, build: Builder = reference_builder, stop_at_first: bool = True
) -> Iterator[MutantResult]:
    """Run each mutant against the scenarios of its variant."""
    chosen = scenarios.kit_scenarios()
    for vid in variant_ids or spec.variant_ids():
        mine = [s for s in chosen if s.variant == vid]
        if not mine:
            continue
        for mutant in mutants(vid):
            try:
                factory = build(mutant.data)
            except ValueError:
                continue  # the engine refuses such a variant outright: nothing to catch
            adapter = InProcessAdapter(factory, {"name": mutant.name}, [vid])
            killed: list[str] = []
            for scenario in mine:
                if runner.run(adapter, scenario).outcome is not Outcome.PASS:
                    killed.append(scenario.id)
                    if stop_at_first:
                        break
            yield MutantResult(mutant, killed, len(mine))
