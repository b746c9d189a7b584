"""The fields a trace reports by seat or by side (``hands``, ``piles``, ``totals``, ``match.sheet``...: the snapshot
schema's ``x-per``) held to the variant's table as a line is read.

Judging compares the seats and sides the reference reports: a seat the table does not have (``hands.7`` at a table
of two), a key that names none (``hands.seat0``) or a field in a shape it never has (``hands`` as a list, read by
a seat's place in it) would be compared nowhere, or not as the field is, and the game pass; a list of one item per
side that is too long (a third side's ``totals``) would fail the game on a side the rules have nowhere. Each is a
problem of the line instead. A mapping by seat or side is given only where the snapshot has one, or where a trace
may give a list's items in part (``piles: {"0": [...]}``, as a scenario writes it). What leaves a seat or side out
(a hand given for one seat, a list too short) names none the table lacks: it is compared.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import chain
from operator import itemgetter
from typing import Any

from conformance.suite import field_phases
from conformance.suite.reported import BY_PART
from conformance.suite.schemas import json_kind
from conformance.traces.line_problems import Found
from specreader.jsontypes import Json, JsonPath
from specreader.spec import kit_spec


@dataclass(frozen=True)
class _Held:
    """A field held by seat or by side at one variant's table."""

    path: tuple[str, ...]
    per: str  # seat or side
    count: int  # the table's seats or sides
    keys: frozenset[str]  # their numbers as a mapping's keys
    keyed: bool  # a mapping by their numbers, else a list of one item each
    in_part: bool  # a list a trace may give as a mapping by their numbers too, compared in part


@cache
def _held(variant_id: str) -> tuple[_Held, ...]:
    """The fields held by seat or by side, with the number of each at the variant's table."""
    resolved = kit_spec().resolved(variant_id)
    counts = {field_phases.SEAT: int(resolved["players"]), field_phases.SIDE: len(resolved["sides"])}
    out = []
    for held in field_phases.held_by_seat_or_side():
        count = counts[held.per]
        in_part = not held.keyed and len(held.path) == 1 and held.path[0] in BY_PART
        out.append(_Held(held.path, held.per, count, frozenset(map(str, range(count))), held.keyed, in_part))
    return tuple(out)


@cache
def _alike(variant_id: str) -> tuple[tuple[_Held, tuple[tuple[str, ...], ...]], ...]:
    """The fields held alike (of one shape, by as many seats or sides), each kind once with the paths of its fields:
    checked together where the game has no problem."""
    kinds: dict[tuple[int, bool, bool], list[_Held]] = {}
    for held in _held(variant_id):
        kinds.setdefault((held.count, held.keyed, held.in_part), []).append(held)
    return tuple((alike[0], tuple(held.path for held in alike)) for alike in kinds.values())


def problems(
    variant_id: str, observations: Sequence[Json | None], snapshots: list[Json], objects: Mapping[str, list[Json]]
) -> Iterator[Found]:
    """Where the observations' snapshots give a field held by seat or by side a seat or side the table does not
    have, or a shape the field never has, found as they are asked for. ``snapshots``: those that are mappings;
    ``objects``: of each field of named keys (``match``), its values that are mappings, where the fields of ``match``
    and ``result`` are."""
    # every value of the fields held alike in the game at once (the games without a problem, nearly all, are read
    # once so), and only where that finds one, each field of each snapshot
    found: dict[tuple[str, ...], list[Any]] = {(key,): values for key, values in objects.items()}
    if all(
        _fits(list(chain.from_iterable(_values(snapshots, path, found) for path in paths)), held)
        for held, paths in _alike(variant_id)
    ):
        return
    for i, observation in enumerate(observations):
        snapshot = observation.get("snapshot") if isinstance(observation, dict) else None
        if not isinstance(snapshot, dict):
            continue
        for held in _held(variant_id):
            parent: Any = snapshot
            for part in held.path[:-1]:
                parent = parent.get(part) if isinstance(parent, dict) else None
            if isinstance(parent, dict) and held.path[-1] in parent:
                yield from _said(("observations", i, "snapshot", *held.path), parent[held.path[-1]], held)


def _values(snapshots: list[Json], path: tuple[str, ...], found: dict[tuple[str, ...], list[Any]]) -> list[Any]:
    """The values at ``path`` in the snapshots, where given (those at each part of it kept in ``found``: a field's
    part is looked for in its values that are mappings, which ``found`` holds from the start)."""
    if path in found:
        return found[path]
    within = snapshots if len(path) == 1 else _values(snapshots, path[:-1], found)
    key = path[-1]
    try:  # in every one, as a field an engine reports is in nearly every game: taken without a loop of this module's
        values = list(map(itemgetter(key), within))
    except (KeyError, IndexError, TypeError):  # not in every one, or not every one a mapping
        values = [value[key] for value in within if type(value) is dict and key in value]
    found[path] = values
    return values


def _fits(values: list[Any], held: _Held) -> bool:
    """Whether every value has a shape the field (and those held alike) has and only the table's seats or sides:
    told from the set of their kinds, lengths and keys, no value looked at on its own."""
    kinds = set(map(type, values))
    if kinds <= {list} and not held.keyed:
        return max(map(len, values), default=0) <= held.count
    if kinds <= {dict} and (held.keyed or held.in_part):
        return set().union(*values) <= held.keys
    if not held.in_part or not kinds <= {list, dict}:
        return False
    longest = max((len(value) for value in values if type(value) is list), default=0)
    return longest <= held.count and set().union(*(value for value in values if type(value) is dict)) <= held.keys


def _said(at: JsonPath, value: Any, held: _Held) -> Iterator[Found]:
    """The problems of one field's value, where they are in the line."""
    per, count = held.per, held.count
    numbers = f'"0".."{count - 1}"'
    if type(value) is dict and (held.keyed or held.in_part):
        wrong = (key for key in value if key not in held.keys)
        yield from (((*at, key), f"expected a {per} of the table, {numbers}, found {key!r}", True) for key in wrong)
    elif type(value) is list and not held.keyed:
        if len(value) > count:  # one too short is compared: the reference's items it lacks differ
            said = f"expected {count} items, one per {per} of the table, found {len(value)}: it has no {per} {count}"
            yield (*at, count), said, False
    else:
        by_key = f"a mapping keyed by {per}, {numbers}"
        wanted = by_key if held.keyed else f"a list of {count} items, one per {per}"
        if held.in_part:
            wanted += f", or {by_key}, given in part"
        yield at, f"expected {wanted}, found {_kind(value)}", False


_KINDS = {"array": "a list", "mapping": "a mapping", "null": "null", "integer": "an integer"}


def _kind(value: Any) -> str:
    """What a JSON value is, as a problem here says it."""
    kind = json_kind(value)
    return _KINDS.get(kind, f"a {kind}")
