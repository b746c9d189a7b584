"""Field coverage: for each game (or each variant), how many scenarios pin each snapshot field at each phase of a deal.

A step's ``expect`` pins the fields its keys reach (``result: {tie: ...}`` pins ``result.tie``;
``snapshot: {bids: []}`` pins ``bids``; ``holds`` pins ``hands``), at the phase the reference
engine is in when it makes that observation: the scenarios are run on it, in process. A field
that ``conformance.suite.field_phases`` defines at a phase of a game and that no scenario pins there
is a gap.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from conformance.engines import adapter
from conformance.run.runner import request_for
from conformance.suite import field_phases, observing
from conformance.suite.scenarios import Scenario
from specreader.jsontypes import Json, part_of
from specreader.spec import kit_spec, variant_ids

# Keys of ``expect`` that pin a field of another name; ``snapshot`` names its fields by path.
_FIELD_OF_KEY = {"holds": "hands", "lacks": "hands"}
SNAPSHOT_KEY = "snapshot"


@dataclass(frozen=True)
class GameCoverage:
    game: str  # the game, or the variant the row measures
    phases: tuple[str, ...]
    defined: dict[str, dict[str, str]]  # field -> phase -> meaning
    pinned: dict[tuple[str, str], int]  # (field, phase) -> scenarios

    def count(self, path: str, phase: str) -> int:
        return self.pinned.get((path, phase), 0)

    def gaps(self) -> list[tuple[str, str]]:
        return [(p, m) for p, by_phase in self.defined.items() for m in by_phase if not self.count(p, m)]

    @property
    def cells(self) -> int:
        return sum(len(by_phase) for by_phase in self.defined.values())


def _reached(key: str, value: object) -> Iterator[str]:
    """The dotted paths an ``expect`` entry compares."""
    if key == SNAPSHOT_KEY and isinstance(value, dict):
        for path, sub in value.items():
            yield from _reached(str(path), sub)
    elif isinstance(value, dict) and key in ("result", "match"):
        yield from (f"{key}.{sub}" for sub in value)
    else:
        yield _FIELD_OF_KEY.get(key, key)


def pinned_fields(expect: Json, fields: Iterable[str]) -> set[str]:
    """The fields among ``fields`` an ``expect`` block pins: for each path it compares, the
    deepest field holding it (``hands.1`` pins ``hands``). Legal actions are no field."""
    known = sorted(set(fields), key=len, reverse=True)
    out = set()
    for key, value in expect.items():
        for path in _reached(str(key), value):
            holding = next((f for f in known if part_of(path, f)), None)
            if holding is not None:
                out.add(holding)
    return out


def _snapshots(scenario: Scenario, engine: adapter.InProcessAdapter) -> list[Json | None]:
    """The reference's snapshot at each observation (None where it did not build one)."""
    answer = engine.answer(request_for(scenario))
    return [o.get("snapshot") for o in answer.get("observations", [])]


def measure(scenarios: Iterable[Scenario], games: Iterable[str], *, by_variant: bool = False) -> list[GameCoverage]:
    """Each game's fields and phases, and the scenarios pinning each field at each phase; with ``by_variant``, a
    row for each variant of those games, its game's fields counted by its own scenarios alone."""
    fields = {f.path for f in field_phases.fields()} | set(observing.snapshot_fields())
    by_game: dict[str, dict[tuple[str, str], set[str]]] = defaultdict(lambda: defaultdict(set))
    engine = adapter.reference_adapter()
    try:
        for scenario in scenarios:
            if scenario.refuse_setup is not None:
                continue
            snapshots = _snapshots(scenario, engine)
            position = 0
            for step in scenario.steps:
                position += len(step.actions)
                snapshot = snapshots[position] if position < len(snapshots) else None
                if not step.expect or snapshot is None:
                    continue
                phase = field_phases.phase_shown(snapshot)
                for path in pinned_fields(step.expect, fields):
                    by_game[scenario.variant if by_variant else scenario.game][(path, phase)].add(scenario.id)
    finally:
        engine.close()
    rows = [(variant, game) for game in games for variant in variant_ids() if variant_game(variant) == game] if by_variant \
        else [(game, game) for game in games]
    return [
        GameCoverage(
            row,
            field_phases.game_phases(game),
            field_phases.defined(game),
            {cell: len(ids) for cell, ids in by_game[row].items()},
        )
        for row, game in rows
    ]


def variant_game(variant_id: str) -> str:
    return str(kit_spec().resolved(variant_id).get("game", ""))


def table(rows: list[GameCoverage]) -> str:
    """Per game, a field a line and a phase a column: the scenarios pinning it there, ``-`` where the
    field is not defined, ``GAP`` where it is and none does; then the gaps and a total."""
    lines = []
    for g in rows:
        width = max((len(p) for p in g.defined), default=5)
        cols = [max(len(m), 4) for m in g.phases]
        lines.append(f"== {g.game}")
        lines.append(f"{'field':<{width}}  " + "  ".join(f"{m:>{w}}" for m, w in zip(g.phases, cols, strict=True)))
        for path, by_phase in g.defined.items():
            row = []
            for phase, w in zip(g.phases, cols, strict=True):
                n = g.count(path, phase)
                row.append(f"{('-' if phase not in by_phase else n or 'GAP')!s:>{w}}")
            lines.append(f"{path:<{width}}  " + "  ".join(row))
        lines += [f"GAP {g.game}: {path} at {phase}: {g.defined[path][phase]}" for path, phase in g.gaps()]
    cells = sum(g.cells for g in rows)
    done = cells - sum(len(g.gaps()) for g in rows)
    percent = 100.0 * done / cells if cells else 100.0
    lines.append(f"field coverage: {done}/{cells} fields pinned in their phases ({percent:.1f}%)")
    return "\n".join(lines)


def field_report(scenarios: Iterable[Scenario], games: Iterable[str], *, by_variant: bool = False) -> tuple[str, bool]:
    """The table of ``trickspec coverage --fields`` (``--by-variant``), and whether it has no gap."""
    rows = measure(scenarios, games, by_variant=by_variant)
    return table(rows), not any(g.gaps() for g in rows)
