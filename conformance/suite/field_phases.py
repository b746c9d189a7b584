"""What each snapshot field means in each phase of each game: the ``x-phases`` annotations of
``schemas/snapshot.schema.json``, read.

A field's ``x-phases`` maps phases (space-separated, or ``always``) to what the field holds
then. A field is defined in a phase of a game when the phase is one of its keys and the game
plays that phase; a field of an object branch marked ``x-games`` (``result`` scored by card
points or by tricks) only for those games. The phases are the snapshot's, with
``over`` split in two: ``over`` while the match goes on, ``match-over`` once it is won.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from conformance.suite import schemas
from reference.engine import compile_rules
from specreader.jsontypes import Json
from specreader.spec import variant, variant_ids

ANNOTATION = "x-phases"
GAMES = "x-games"
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


def _parse(annotation: Json) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, meaning in annotation.items():
        for phase in phases_and_match_over() if key == ALWAYS else key.split():
            out[phase] = str(meaning)
    return out


@cache
def fields() -> tuple[FieldPhases, ...]:
    """Every annotated field, the schema's order: a top-level field, then the fields of its object
    branches (one entry per branch, so ``result.winner`` twice)."""
    out = []
    for name, node in _snapshot_schema()["properties"].items():
        if ANNOTATION in node:
            out.append(FieldPhases(name, _parse(node[ANNOTATION]), None))
        for branch in _branches(node):
            games = frozenset(branch[GAMES]) if GAMES in branch else None
            for key, child in branch["properties"].items():
                if ANNOTATION in child:
                    out.append(FieldPhases(f"{name}.{key}", _parse(child[ANNOTATION]), games))
    return tuple(out)


def problems() -> list[str]:
    """Where the annotations break their own rules: a phase that does not exist, a top-level field
    left without one, a field of an object some of whose fields have one (``result``, ``match``), or
    a branch of such an object, among several, that names no games."""
    out = []
    known = set(phases_and_match_over())
    top = _snapshot_schema()["properties"]
    for f in fields():
        out += [f"{f.path}: {ANNOTATION} names no phase {m!r}" for m in f.meanings if m not in known]
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
    return out


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
