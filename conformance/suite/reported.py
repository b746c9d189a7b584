"""What an engine reports: the snapshot fields it declares it keeps (``reports`` in its handshake or
its trace's header), and the parts of an expectation that rest on them.

An engine that keeps no dealer, no match or no game points is judged on what it keeps: each
expectation is narrowed to the declared fields, and a scenario with nothing left to judge is
unsupported, saying which fields it rests on. Nothing masks anything: a declared field is judged
wherever a scenario expects it, and every difference of a step is reported. An engine keeping part
of a field (a result's winner and tie, not its victory points) is judged where the field has no
value yet too: it reports none (null, or the field left out), not a result before the end.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Iterable, Mapping
from functools import lru_cache
from typing import Any

from conformance.suite.field_phases import field_keys
from specreader.jsontypes import Json, overlap, part_of

Reports = frozenset[str] | None  # the declared field paths, and "legal" for the legal actions; None: everything

LEGAL = "legal"
_INDEX = re.compile("0|[1-9][0-9]*")  # a seat or side as the snapshot keys it: hands.0, never hands.00

# The fields compared part by part (a seat, a side or a key), each part resting on its own path (``hands.1``,
# ``last_trick.winner``).
BY_PART = ("hands", "piles", "result", "match", "last_trick")

# The expect keys whose value maps a part to what is expected of it, and the field the parts belong to.
_PARTS = {**{name: name for name in BY_PART}, "holds": "hands", "lacks": "hands"}


def paths(key: str, value: Any) -> list[tuple[str | None, str]]:
    """The parts of one expect entry (None: the entry is one whole) and the snapshot path each rests on."""
    if key == "snapshot" and isinstance(value, dict):
        return [(str(path), str(path)) for path in value]
    if key in _PARTS and isinstance(value, dict):
        return [(str(part), f"{_PARTS[key]}.{part}") for part in value]
    return [(None, key)]


def covers(reports: Reports, path: str) -> bool:
    """Whether the declared fields hold ``path``: the field itself, or a field it is part of."""
    return reports is None or any(part_of(path, field) for field in reports)


def judged(reports: Reports, path: str, *, no_value: bool = False) -> bool:
    """Whether an expectation on ``path`` is judged: the engine reports the field, or, where the field has no value
    yet (``no_value``: it is null), some part of it, which then has none either (a result's winner before the end)."""
    return covers(reports, path) or (no_value and reports is not None and any(f.startswith(path + ".") for f in reports))


@lru_cache(maxsize=64)  # a run's trace files may each declare their own
def in_part(reports: frozenset[str]) -> Mapping[str, frozenset[str]]:
    """The fields a declaration names parts of (``last_trick`` of ``last_trick.winner``), each with what it declares
    of the field (the field too, where it declares it whole as well): judged part by part. Any other field is
    judged whole where it is declared, else not at all."""
    fields = {path.split(".", 1)[0] for path in reports if "." in path}
    return {field: frozenset(path for path in reports if part_of(path, field)) for field in fields}


def given_paths(snapshots: Iterable[Json], fields: Collection[str]) -> dict[str, bool]:
    """The paths some snapshots give of these fields, as they are judged: a field compared part by part and given
    so, each part given (``last_trick.winner``, ``hands.0``); any other whole. A field given whole maps to whether
    the snapshots give it only as null, which an engine keeping a part of it is judged on too (``judged``); a part,
    to False."""
    parts: dict[str, set[object]] = {name: set() for name in fields if name in BY_PART}
    valued: set[str] = set()  # given whole, once at least with a value
    null: set[str] = set()  # given whole as null
    for snapshot in snapshots:
        for name in fields:
            value = snapshot.get(name, ...)
            if value is ...:
                continue
            if name in parts and type(value) is dict:
                parts[name].update(value)
            elif name in parts and type(value) is list:
                parts[name].update(range(len(value)))
            else:
                (null if value is None else valued).add(name)
    out = {f"{name}.{part}": False for name, given in parts.items() for part in given}
    return out | {name: name not in valued for name in null | valued}


def unjudged(reports: frozenset[str], given: Mapping[str, bool]) -> set[str]:
    """Of the paths given (``given_paths``), those the declared fields leave unjudged, each named as finely as the
    declaration names its field: whole where it names no part of it (``totals``), else the part given
    (``last_trick.points`` beside a declared ``last_trick.winner``)."""
    parted = in_part(reports)
    out: set[str] = set()
    for path, null in given.items():
        field = path.split(".", 1)[0]
        named = parted.get(field)
        if named is None and field not in reports:
            out.add(field)
        elif named is not None and not judged(named, path, no_value=null):
            out.add(path)
    return out


def declared_given(reports: frozenset[str], given: Iterable[str]) -> set[str]:
    """The declared fields of which some path given is the whole or a part (``last_trick.winner`` is not given by
    ``last_trick.points``)."""
    parted = in_part(reports)
    out: set[str] = set()
    for path in given:
        field = path.split(".", 1)[0]
        out.update(named for named in parted.get(field, reports & {field}) if overlap(named, path))
    return out


def as_judged(snapshot: Json, reports: Reports) -> Json:
    """An engine's snapshot as it is judged: a field it reports only parts of, left out, has no value yet (null)."""
    if reports is None:
        return snapshot
    left_out = {f.split(".", 1)[0] for f in reports if "." in f} - reports - snapshot.keys()
    return {**snapshot, **dict.fromkeys(sorted(left_out))} if left_out else snapshot


def within(expect: Json, reports: Reports) -> tuple[Json, list[str]]:
    """The expectation narrowed to what the engine reports, and the paths it leaves out."""
    if reports is None:
        return expect, []
    kept: Json = {}
    left: list[str] = []
    for key, value in expect.items():
        parts = paths(key, value)
        if parts[0][0] is None:
            if judged(reports, parts[0][1], no_value=value is None):
                kept[key] = value
            else:
                left.append(parts[0][1])
            continue
        narrowed: Json = {}
        for part, path in parts:
            if part is not None and judged(reports, path, no_value=value.get(part, ...) is None):
                narrowed[part] = value[part]
            else:
                left.append(path)
        if narrowed:
            kept[key] = narrowed
    return kept, left


def declared(value: object) -> Reports:
    """The ``reports`` an engine sent, as the kit keeps it: a list of field paths, else None (everything).
    Untrusted: anything but a list of short strings is taken as no declaration."""
    if not isinstance(value, list) or not all(isinstance(v, str) and 0 < len(v) <= 100 for v in value):
        return None
    return frozenset(value)


def declaration_problem(value: object, where: str) -> str | None:
    """What is wrong with a declaration of the fields an engine keeps (``where`` names it: its handshake's
    ``implementation.reports``), if anything: given, it must be a list of field paths, else it would be taken for
    none and every field judged."""
    if value is None:
        return None
    fields = declared(value)
    if fields is None:
        return f"expected {where} to list the snapshot fields the engine keeps, found {type(value).__name__} {value!r:.80}"
    unknown = sorted(path for path in fields if compared_as(path) is None)
    if unknown:  # a field misspelt would be judged nowhere, and every other field not at all
        named = [repr(path) for path in unknown[:5]]
        close = difflib.get_close_matches(unknown[0], _field_names(), n=1)
        named[0] += f" (did you mean {close[0]!r}?)" if close else ""  # beside the name it is about
        return f"expected {where} to name snapshot fields (or legal), found {', '.join(named)}"
    if finer := too_fine(fields):
        return f"expected {where} to name fields as the kit compares them, {finer}"
    return None


def too_fine(paths: Iterable[str]) -> str | None:
    """Where a path names a part of a field the kit compares whole, which would be judged nowhere: the first such,
    and what to name instead (``found 'totals.0', a part of totals, ...``)."""
    finer = sorted((path, whole) for path in paths if (whole := compared_as(path)) is not None and whole != path)
    if not finer:
        return None
    path, whole = finer[0]
    return f"found {path!r}, a part of {whole}, which is compared whole: name {whole!r}"


def _field_names() -> list[str]:
    """What a declaration may name, but a seat's part: each field, each key of a field of named keys, and legal."""
    names = [LEGAL]
    for top, keys in field_keys().items():
        names += [top, *(f"{top}.{key}" for key in sorted(keys or ()))]
    return names


def compared_as(path: str) -> str | None:
    """The part of the snapshot a declared path stands for, as the kit compares it: the path itself where it names a
    field, or the legal actions, or one part of a field compared part by part (``BY_PART``: a key, ``result.tie``, or
    a seat's or side's, ``hands.0``); the field or key holding it where it names a finer part, which is compared with
    that whole (``totals`` of ``totals.0``, ``match.sheet`` of ``match.sheet.0``); None where it names no field."""
    top, *parts = path.split(".")
    if top == LEGAL or top not in field_keys():
        return LEGAL if top == LEGAL and not parts else None
    keys = field_keys()[top]
    named = [top]
    if parts and keys is not None:
        if parts[0] not in keys:
            return None
        named, parts = [top, parts[0]], parts[1:]
    if not all(_INDEX.fullmatch(part) for part in parts):
        return None
    if parts and keys is None and top in BY_PART:
        named.append(parts[0])
    return ".".join(named) if top in BY_PART else top


def every_path(expects: Iterable[Json]) -> set[str]:
    """Every snapshot path (and ``legal``) some of these expectations rest on."""
    return {path for expect in expects for key, value in expect.items() for _, path in paths(key, value)}
