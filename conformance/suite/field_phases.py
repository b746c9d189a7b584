"""What each snapshot field means in each phase of each game: the ``x-phases`` annotations of
``schemas/snapshot.schema.json``, read.

A field's ``x-phases`` maps phases (space-separated, or ``always``) to what the field holds
then. A field is defined in a phase of a game when the phase is one of its keys and the game
plays that phase. A field marked ``x-games`` (the Otea ``bids``, Altbaumer's ``makers``) is
defined only for those games, and in any other game is always empty (``left_empty``); so is a
field of an object branch marked so (``result`` scored by card points or by tricks). The phases
are the snapshot's, with ``over`` split in two: ``over`` while the match goes on, ``match-over``
once it is won. A field held by seat or by side (``hands``, ``totals``, ``match.sheet``) says
which in ``x-per``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from conformance.suite import schemas
from reference.engine import compile_rules
from specreader.jsontypes import Json
from specreader.spec import kit_spec, variant, variant_ids

ANNOTATION = "x-phases"
GAMES = "x-games"
PER = "x-per"  # a field held by seat or by side: which, its keys (a mapping's) or its items (a list's) are
SEAT, SIDE = "seat", "side"
ALWAYS = "always"
OVER = "over"
MATCH_OVER = "match-over"  # the deal over and the match won: the snapshot's phase is over


@dataclass(frozen=True)
class FieldPhases:
    """One field (``hands``, ``result.tie``), what it means by phase, and the games it belongs to
    (None: every game)."""

    path: str
    meanings: dict[str, str]
    games: frozenset[str] | None

    def meaning(self, phase: str) -> str | None:
        return self.meanings.get(phase)


@cache
def _snapshot_schema() -> Json:
    schema: Json = schemas.registry().resolver().lookup(schemas.BASE + "snapshot.schema.json").contents
    return schema


@cache
def phases_and_match_over() -> tuple[str, ...]:
    """Every phase a field is defined at, in the order of a deal."""
    return (*_snapshot_schema()["properties"]["phase"]["enum"], MATCH_OVER)


def phase_shown(snapshot: Json) -> str:
    """The phase a snapshot shows: its phase, or ``match-over`` once the match has a winner."""
    phase = str(snapshot.get("phase"))
    match = snapshot.get("match")
    if phase == OVER and isinstance(match, dict) and match.get("winner") is not None:
        return MATCH_OVER
    return phase


def _branches(node: Json) -> Iterator[Json]:
    for key in ("oneOf", "anyOf"):
        for branch in node.get(key, []):
            yield from _branches(branch)
    if "properties" in node:
        yield node


def _parse(annotation: Json, games: frozenset[str] | None) -> dict[str, str]:
    """The meanings by phase; ``always``, for a field of some games, only at the phases those games play."""
    every = phases_and_match_over()
    if games is not None:
        played = {p for g in games for p in game_phases(g)}
        every = tuple(p for p in every if p in played)
    out: dict[str, str] = {}
    for key, meaning in annotation.items():
        for phase in every if key == ALWAYS else key.split():
            out[phase] = str(meaning)
    return out


@cache
def fields() -> tuple[FieldPhases, ...]:
    """Every annotated field, the schema's order: a top-level field, then the fields of its object
    branches (one entry per branch, so ``result.winner`` twice)."""
    out = []
    for name, node in _snapshot_schema()["properties"].items():
        if ANNOTATION in node:
            games = frozenset(node[GAMES]) if GAMES in node else None
            out.append(FieldPhases(name, _parse(node[ANNOTATION], games), games))
        for branch in _branches(node):
            games = frozenset(branch[GAMES]) if GAMES in branch else None
            for key, child in branch["properties"].items():
                if ANNOTATION in child:
                    out.append(FieldPhases(f"{name}.{key}", _parse(child[ANNOTATION], games), games))
    return tuple(out)


def field_of(path: str) -> str:
    """The field a checked path names, without the seat, side or place in a list it is checked at (``piles.0``,
    ``stock.33``): one bug shows at any seat."""
    return ".".join(part for part in path.split(".") if not part.isdigit())


@cache
def field_keys(game: str | None = None) -> Mapping[str, frozenset[str] | None]:
    """Every top-level snapshot field, with the keys its objects may hold where it is an object of named keys
    (``last_trick``, ``result``, ``match``; None for any other field): in ``game``, those of the branches it plays (a
    branch naming its games in x-games is another game's elsewhere); in any game, where none is given."""
    out: dict[str, frozenset[str] | None] = {}
    for name, node in _snapshot_schema()["properties"].items():
        branches = list(_branches(node))
        played = [b for b in branches if game is None or GAMES not in b or game in b[GAMES]]
        out[name] = frozenset(key for branch in played for key in branch["properties"]) if branches else None
    return out


@dataclass(frozen=True)
class HeldBy:
    """A field held by seat or by side (``x-per``): a mapping keyed by their numbers (``hands``), or a list of one
    item each, in order (``totals``)."""

    path: tuple[str, ...]
    per: str
    keyed: bool


@cache
def held_by_seat_or_side() -> tuple[HeldBy, ...]:
    """Every field held by seat or by side, top-level or of an object's branch (``match.sheet``), the schema's
    order; a field of several branches once."""
    out: dict[tuple[str, ...], HeldBy] = {}
    for name, node in _snapshot_schema()["properties"].items():
        nodes = [((name,), node), *(((name, key), child) for b in _branches(node) for key, child in b["properties"].items())]
        for path, held in nodes:
            if PER in held:
                out.setdefault(path, HeldBy(path, str(held[PER]), held.get("type") == "object"))
    return tuple(out.values())


def problems() -> list[str]:
    """Where the annotations break their own rules: a phase that does not exist, or that none of a
    field's games plays, a game that does not exist, a top-level field left without x-phases, a field
    of an object some of whose fields have one (``result``, ``match``), a branch of such an object,
    among several, that names no games, a field of some games that has no empty value, or an ``x-per`` naming
    neither seats nor sides."""
    out = []
    known = set(phases_and_match_over())
    games = kit_spec().clause_games()
    top = _snapshot_schema()["properties"]
    for name, node in top.items():  # once for a node, not for each of its fields
        described = [(f"{name} branch {b.get('description', '')!r}", b) for b in _branches(node) if b is not node]
        for where, named in [(name, node), *described]:
            out += [f"{where}: {GAMES} names no game {g!r}" for g in sorted(named.get(GAMES, ())) if g not in games]
    for f in fields():
        out += [f"{f.path}: {ANNOTATION} names no phase {m!r}" for m in f.meanings if m not in known]
        played = {p for g in f.games or () if g in games for p in game_phases(g)}
        unplayed = [m for m in f.meanings if m in known and f.games is not None and m not in played]
        out += [f"{f.path}: {ANNOTATION} names {m!r}, a phase none of its games plays" for m in unplayed]
    for held in held_by_seat_or_side():
        if held.per not in (SEAT, SIDE):
            out.append(f"{'.'.join(held.path)}: {PER} names {held.per!r}, neither {SEAT!r} nor {SIDE!r}")
    annotated = {f.path for f in fields()}
    for name, node in top.items():
        subfields = [f"{name}.{k}" for b in _branches(node) for k in b["properties"]]
        if name not in annotated and not subfields:
            out.append(f"{name}: no {ANNOTATION}")
        if any(p in annotated for p in subfields):  # compared key by key: each key is a field of its own
            out += [f"{p}: no {ANNOTATION}" for p in subfields if p not in annotated]
            branches = list(_branches(node))
            if len(branches) > 1:  # a game reports one of them: which, the branch says
                out += [f"{name}: a branch without {GAMES}: {b.get('description', '')}" for b in branches if GAMES not in b]
        if GAMES in node and _empty(name) is _NONE:
            out.append(f"{name}: {GAMES} on a field that is neither a list nor ever null, so has no empty value")
    return out


_NONE = object()  # a field with no empty value


def _kinds(node: Json) -> set[object]:
    """The JSON types a schema node allows, its branches' included."""
    kind = node.get("type")
    found: set[object] = set(kind) if isinstance(kind, list) else {kind}
    for key in ("allOf", "oneOf", "anyOf"):
        for branch in node.get(key, []):
            found |= _kinds(branch)
    return found


def _empty(name: str) -> Any:
    """What a top-level field holds in a game that does not fill it: null where it may be null, else [] for a
    list (read in the snapshot schema with its references inlined, as the validator has it)."""
    snapshot: Any = schemas.validator("snapshot").schema
    kinds = _kinds(snapshot["properties"].get(name, {}))
    if "null" in kinds:
        return None
    return [] if "array" in kinds else _NONE


@cache
def left_empty(game: str) -> dict[str, Json]:
    """The top-level fields only other games fill (``x-games``), each with the empty value it always holds in
    this game's snapshots."""
    top = _snapshot_schema()["properties"]
    return {name: _empty(name) for name, node in top.items() if GAMES in node and game not in node[GAMES]}


@cache
def game_phases(game: str) -> tuple[str, ...]:
    """The phases a game's deals pass through: the phases some playable variant of it waits in for
    an action (as the reference engine compiles the variants), then over and match-over."""
    waiting: set[str] = set()
    for variant_id in variant_ids():
        resolved = variant(variant_id)
        if resolved.get("game") == game:
            waiting |= {str(phase) for stage in compile_rules(resolved).stages for phase in stage.kinds}
    return tuple(m for m in phases_and_match_over() if m in waiting or m in (OVER, MATCH_OVER))


def defined(game: str) -> dict[str, dict[str, str]]:
    """The fields of a game, each with what it means at each phase it is defined at."""
    out: dict[str, dict[str, str]] = {}
    for f in fields():
        if f.games is not None and game not in f.games:
            continue
        for phase in game_phases(game):
            meaning = f.meaning(phase)
            if meaning is not None:
                out.setdefault(f.path, {})[phase] = meaning
    return out
