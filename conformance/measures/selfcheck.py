"""`trickspec selfcheck`: how strong is the suite? Mutation testing through the spec itself.

The reference engine reads every game fact from its variant, so changing one parameter of a
variant (two ranks swapped, a line moved by one, a rule component exchanged for another)
gives an engine with exactly one rule bug and no new code. Each such mutant runs the
scenarios of its variant and comes to one ``Fate``. Only a scenario the mutant plays and gets
wrong kills it on the rule: one whose setup it refuses says nothing of how it plays, and the
kill rate counts rule kills alone. Mutants the engine cannot build, and those
spec/selfcheck-equivalents.yaml lists as changing nothing observable, are left out of it.

Hybrids are mutants of a second kind: the variant with one rule or parameter of a neighbouring
variant mixed in (``conformance/measures/neighbours.py``). Each is a rule the spec states for another table,
so the suite must tell every one apart: one that is neither killed nor listed as equivalent fails
the check.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from conformance.engines.adapter import InProcessAdapter
from conformance.measures import neighbours
from conformance.run import runner
from conformance.suite import scenarios
from conformance.vocabulary import ErrorKind, Outcome
from specreader import spec
from specreader.jsontypes import Json, value_at
from specreader.spec import Spec


@dataclass(frozen=True)
class Mutant:
    variant: str
    parameter: str  # dotted path in the resolved variant
    change: str
    data: Json = field(repr=False, compare=False)
    neighbour: str = ""  # for a hybrid: the variant the change is taken from

    @property
    def kind(self) -> str:
        return "hybrid" if self.neighbour else "parameter"

    @property
    def what(self) -> str:
        """The change, and for a hybrid where it comes from."""
        taken = f" from {self.neighbour}" if self.neighbour else ""
        return f"{self.parameter} {self.change}{taken}"

    @property
    def name(self) -> str:
        return f"{self.variant}: {self.what}"

    @property
    def key(self) -> tuple[str, str, str, str]:
        """How spec/selfcheck-equivalents.yaml names it."""
        return self.variant, self.parameter, self.change, self.neighbour


class Fate(StrEnum):
    """What became of one mutant."""

    KILLED = "killed"  # a scenario it played failed: the suite catches this rule bug
    SETUPS_REFUSED = "setups refused"  # it refused scenarios' setups and played the others right
    SURVIVED = "survived"  # every scenario passed: a rule bug the suite would miss
    EQUIVALENT = "equivalent"  # listed as changing nothing observable, and no scenario killed it
    UNBUILDABLE = "cannot build"  # the engine refuses the mutated variant itself


# The fates the kill rate counts: a mutant that only refused setups counts against it.
SCORED = (Fate.KILLED, Fate.SETUPS_REFUSED, Fate.SURVIVED)


@dataclass
class MutantResult:
    mutant: Mutant
    scenarios: int  # of its variant
    killed_by: list[str] = field(default_factory=list)  # scenarios it played and failed
    setup_refused: dict[str, str] = field(default_factory=dict)  # scenario id -> the engine's setup error
    unbuildable: str = ""  # why the engine refused the mutated variant
    equivalent: str = ""  # the reason spec/selfcheck-equivalents.yaml gives

    @property
    def fate(self) -> Fate:
        if self.unbuildable:
            return Fate.UNBUILDABLE
        if self.killed_by:
            return Fate.KILLED
        if self.equivalent:
            return Fate.EQUIVALENT
        return Fate.SETUPS_REFUSED if self.setup_refused else Fate.SURVIVED

    @property
    def survived(self) -> bool:
        return self.fate is Fate.SURVIVED

    @property
    def untold_hybrid(self) -> bool:
        """A neighbour's rule mixed in that no scenario tells apart, and not listed as equivalent."""
        return self.mutant.kind == "hybrid" and self.fate in (Fate.SETUPS_REFUSED, Fate.SURVIVED)

    @property
    def wrongly_equivalent(self) -> bool:
        """Listed as equivalent, yet a scenario killed it: the list is wrong."""
        return bool(self.equivalent) and self.fate is Fate.KILLED


def kill_rate(results: Iterable[MutantResult]) -> tuple[int, int]:
    """Mutants killed on a rule, out of the mutants the score counts."""
    fates = [r.fate for r in results if r.fate in SCORED]
    return fates.count(Fate.KILLED), len(fates)


_with = neighbours.with_leaf  # one mutant and one hybrid are made the same way: a leaf set in a copy


def _sequence_swaps(variant: Json, path: str) -> Iterator[tuple[str, Json]]:
    """Each neighbouring pair of an order swapped: the rank bugs (queen above jack, ...)."""
    value = value_at(variant, path)
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


def _rules(variant: Json, kit: Spec) -> Iterator[tuple[str, str, Json]]:
    """Each component's rule exchanged for every other rule of the same component the spec uses."""
    used: dict[str, dict[str, Json]] = {}
    for vid in neighbours.playable(kit):
        for name, component in kit.resolved(vid).get("components", {}).items():
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


def mutants(variant_id: str, kit: Spec | None = None, hybrids: bool = True) -> Iterator[Mutant]:
    """Every single-parameter mutant of a playable variant (of the kit's spec by default), then with
    ``hybrids`` each hybrid of it and a neighbour."""
    kit = kit or spec.kit_spec()
    base = kit.resolve(variant_id)
    for path in ("ranking.plain_order", "ranking.trump_order", "ranking.top_trumps"):
        for change, data in _sequence_swaps(base, path):
            yield Mutant(variant_id, path, change, data)
    for generator in (_values, _numbers, lambda variant: _rules(variant, kit), _seating):
        for path, change, data in generator(base):
            yield Mutant(variant_id, path, change, data)
    if hybrids:
        for neighbour, path, change, data in neighbours.hybrids(variant_id, kit):
            yield Mutant(variant_id, path, change, data, neighbour)


def equivalents(kit: Spec | None = None) -> dict[tuple[str, str, str, str], str]:
    """(variant, parameter, change, neighbour) -> the reason, for each mutant spec/selfcheck-equivalents.yaml
    lists (the neighbour empty but for a hybrid)."""
    doc = (kit or spec.kit_spec()).equivalents_file
    entries = doc.data.get("equivalents") if doc is not None and isinstance(doc.data, dict) else None
    listed = {}
    for entry in entries if isinstance(entries, list) else []:  # a malformed entry is validate's to report
        if isinstance(entry, dict) and isinstance(entry.get("variants"), list):
            for variant in entry["variants"]:
                key = (variant, str(entry.get("parameter")), str(entry.get("change")), str(entry.get("neighbour", "")))
                listed[key] = str(entry.get("reason"))
    return listed


Builder = Callable[[Json], Callable[[str, Json], Any]]


def reference_builder(variant: Json) -> Callable[[str, Json], Any]:
    """A factory for the reference engine playing ``variant``, whatever id the scenario names."""
    from reference.engine import Engine, compile_rules

    rules = compile_rules(variant)
    return lambda _variant_id, setup: Engine(rules, setup)


def run_mutants(
    variant_ids: list[str] | None = None,
    build: Builder = reference_builder,
    stop_at_first: bool = True,
    hybrids: bool = True,
) -> Iterator[MutantResult]:
    """Run each mutant (hybrids too, with ``hybrids``) against the scenarios of its variant;
    ``stop_at_first``: up to its first rule kill."""
    chosen = scenarios.kit_scenarios()
    listed = equivalents()
    for vid in variant_ids or spec.variant_ids():
        mine = [s for s in chosen if s.variant == vid]
        if not mine:
            continue
        # A hybrid may be the very variant a parameter mutant is (a neighbour's rule the spec also
        # uses elsewhere): it plays the same, so it is run once.
        fates: dict[str, MutantResult] = {}
        for mutant in mutants(vid, hybrids=hybrids):
            result = MutantResult(mutant, len(mine), equivalent=listed.get(mutant.key, ""))
            same = fates.setdefault(json.dumps(mutant.data, sort_keys=True), result)
            if same is result:
                _play(result, mine, build, stop_at_first)
            else:
                result.killed_by = list(same.killed_by)
                result.setup_refused = dict(same.setup_refused)
                result.unbuildable = same.unbuildable
            yield result


def _play(result: MutantResult, mine: list[scenarios.Scenario], build: Builder, stop_at_first: bool) -> None:
    """Run one mutant against its variant's scenarios, recording what became of it in ``result``."""
    mutant = result.mutant
    try:
        factory = build(mutant.data)
    except ValueError as err:  # the engine refuses such a variant outright: nothing to catch
        result.unbuildable = str(err)
        return
    adapter = InProcessAdapter(factory, {"name": mutant.name}, [mutant.variant])  # the kit's own engine, one rule changed
    for scenario in mine:
        verdict = runner.run(adapter, scenario)
        if verdict.outcome is Outcome.PASS:
            continue
        if verdict.error is not None and verdict.error.kind == ErrorKind.SETUP:
            result.setup_refused[scenario.id] = verdict.error.message
            continue
        result.killed_by.append(scenario.id)
        if stop_at_first:
            break
