"""How each key of a scenario's ``expect`` is compared with what the engine reported: one comparison per key."""

from __future__ import annotations

import reprlib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from conformance.suite import field_phases, schemas
from conformance.text import untrusted
from specreader.jsontypes import Json


@dataclass(frozen=True)
class Mismatch:
    """One expectation the engine's report did not meet."""

    step: int
    line: int
    what: str
    expected: Any
    observed: Any

    def __post_init__(self) -> None:
        # What was observed is the engine's: made safe here, once, for every report.
        object.__setattr__(self, "observed", untrusted.data(self.observed))

    def to_json(self) -> Json:
        return {"step": self.step, "line": self.line, "what": self.what, "expected": self.expected, "observed": self.observed}


_MISSING = untrusted.MISSING

# How a difference names cards compared whatever their order (``hands.0 (as a set)``), and the legal actions
# compared whole, both sides sorted.
AS_A_SET = " (as a set)"
HOLDS, LACKS = " holds", " lacks"  # what a hand must hold, or must not
LEGAL_ACTIONS = "legal actions"
LEGAL_EXACTLY = f"{LEGAL_ACTIONS} (exactly)"


def action_text(action: Any) -> str:
    """The compact form of an action used by legal-action expectations: '1 play 9D'. The seat is
    written as a JSON value, so the seat ``"1"`` (a string) is not seat 1, while ``1.0`` is. An entry
    that is no action object is written as the JSON the engine sent (``1``, ``"x"``)."""
    if not isinstance(action, dict):
        return _json_text(action)
    text = f"{_json_text(action.get('seat'))} {_word(action.get('type'))}"
    return f"{text} {_word(action['card'])}" if action.get("card") else text


def _word(value: Any) -> str:
    """A type or card: a string as it is; anything else, which no expectation names, as JSON."""
    return value if isinstance(value, str) else _json_text(value)


def _json_text(value: Any) -> str:
    """An engine's value as JSON, made safe and cut as every value it sends."""
    if type(value) is float and value.is_integer():
        value = int(value)  # one JSON number, as in same()
    try:
        return untrusted.json_text(value)
    except (TypeError, ValueError, RecursionError):  # no JSON: an in-process engine's own object, which only Python can show
        return untrusted.text(reprlib.repr(value))


@dataclass(frozen=True)
class _Broken:
    """What a dotted path stops at where the engine's value there has another shape than the path needs (a string
    where ``hands.0`` needs an object): the path so far, the shape it needs, in the kit's words, and the value."""

    where: str
    needed: str
    found: Any


def _field(snapshot: Json, dotted: str) -> Any:
    """The value at a dotted path; ``<missing>`` where the engine did not report it (a key absent, an index past the
    end), a ``_Broken`` where what it reported on the way cannot hold the rest of the path."""
    node: Any = snapshot
    parts = dotted.split(".")
    for depth, part in enumerate(parts):
        if isinstance(node, dict):
            if part not in node:
                return _MISSING
            node = node[part]
        elif isinstance(node, list) and part.isdigit():
            if int(part) >= len(node):
                return _MISSING
            node = node[int(part)]
        else:
            return _Broken(".".join(parts[:depth]), _shape_needed(tuple(parts[:depth]), part), node)
    return node


def _shape_needed(path: tuple[str, ...], part: str) -> str:
    """What the field at ``path`` must be for ``part`` to be read in it: the schema's mapping by seat or list by side
    (``x-per``), else an object for a name and a list for an index."""
    held = next((h for h in field_phases.held_by_seat_or_side() if h.path == path), None)
    if held is not None:
        return f"an object keyed by {held.per}" if held.keyed else f"a list by {held.per}"
    return "a list" if part.isdigit() else "an object"


def _same_cards(expected: list[str], observed: Any) -> bool:
    return isinstance(observed, list) and all(isinstance(c, str) for c in observed) and Counter(expected) == Counter(observed)


def _cards_played(observed: Any) -> Any:
    """The cards of a trick as reported (``[{seat, card}, ...]``), in play order; anything else as it came."""
    if isinstance(observed, list) and all(isinstance(p, dict) for p in observed):
        return [p.get("card") for p in observed]
    return observed


def _hand(snapshot: Json, seat: str) -> Any:
    return _field(snapshot, f"hands.{seat}")


Comparison = Callable[[Any, Json, list[Json]], list[tuple[str, Any, Any]]]


def same(expected: Any, observed: Any) -> bool:
    """Equal as JSON values: ``true`` is not ``1`` nor ``false`` ``0``, as they are in Python; ``1`` and
    ``1.0`` are one JSON number."""
    return bool(expected == observed) and _same_kinds(expected, observed)


def _same_kinds(expected: Any, observed: Any) -> bool:  # of two values already equal in Python
    if isinstance(expected, bool) or isinstance(observed, bool):
        return type(expected) is type(observed)
    if isinstance(expected, dict):
        return all(_same_kinds(value, observed[key]) for key, value in expected.items())
    if isinstance(expected, list):
        return all(_same_kinds(e, o) for e, o in zip(expected, observed, strict=True))
    return True


@cache
def flag_fields() -> frozenset[str]:
    """The snapshot's fields that may hold a true or false somewhere, as schemas/snapshot.schema.json says (its
    references followed)."""

    def holds_flag(node: Any) -> bool:
        if isinstance(node, dict):
            kind, named = node.get("type"), [node.get("const"), *(node.get("enum") or [])]
            said = kind == "boolean" or (isinstance(kind, list) and "boolean" in kind) or any(isinstance(v, bool) for v in named)
            return said or any(map(holds_flag, node.values()))
        return isinstance(node, list) and any(map(holds_flag, node))

    snapshot: Any = schemas.validator("snapshot").schema
    return frozenset(key for key, node in snapshot["properties"].items() if holds_flag(node))


def flags_in(value: Any) -> int:
    """How many true and false a JSON value holds."""
    if value is True or value is False:
        return 1
    kind = type(value)
    if kind is not dict and kind is not list:
        return 0
    found = 0
    for item in value.values() if kind is dict else value:  # a call for each list or mapping, none for a leaf
        if item is True or item is False:
            found += 1
        elif type(item) is dict or type(item) is list:
            found += flags_in(item)
    return found


def kinds_agree(reference: Any, observed: Any) -> bool:
    """Of a value the reference engine made and one an engine reported, already equal in Python: whether no
    true or false of one stands for a number of the other. ``same`` for the fast paths that compare a whole
    report at once: the reference's lists each hold one kind of item, so a list of strings (cards) is passed
    over whole, as only a string equals a string; a key the engine did not report is not looked at."""
    return flags_agreed(reference, observed) is not None


def flags_agreed(reference: Any, observed: Any) -> int | None:
    """``kinds_agree``, counting: None where the two disagree in kind, else how many of the reference's true and
    false the engine reported (each one a true or false of its own)."""
    if type(reference) is dict:
        pairs: Any = ((value, observed[key]) for key, value in reference.items() if key in observed)
    elif type(reference) is list:
        if not reference or type(reference[0]) is str:
            return 0
        pairs = zip(reference, observed, strict=False)  # of one length, being equal
    else:
        flag = type(reference) is bool
        return (1 if flag else 0) if flag is (type(observed) is bool) else None
    found = 0
    for value, seen in pairs:
        kind = type(value)
        if kind is str:
            continue
        if kind is dict or kind is list:
            inner = flags_agreed(value, seen)
            if inner is None:
                return None
            found += inner
        elif kind is bool:
            if type(seen) is not bool:
                return None
            found += 1
        elif type(seen) is bool:
            return None
    return found


def _equal(key: str) -> Comparison:
    def comparison(expected: Any, snapshot: Json, legal: list[Json]) -> list[tuple[str, Any, Any]]:
        observed = _field(snapshot, key)
        return [] if same(expected, observed) else [(key, expected, observed)]

    return comparison


def _partial(key: str) -> Comparison:
    """Only the keys the scenario names are compared."""

    def comparison(expected: Any, snapshot: Json, legal: list[Json]) -> list[tuple[str, Any, Any]]:
        out = []
        for sub, value in expected.items():
            observed = _field(snapshot, f"{key}.{sub}")
            if not same(value, observed):
                out.append((f"{key}.{sub}", value, observed))
        return out

    return comparison


def _hands(expected: Any, snapshot: Json, legal: list[Json]) -> list[tuple[str, Any, Any]]:
    out = []
    for seat, cards in expected.items():
        observed = _hand(snapshot, seat)
        if not _same_cards(cards, observed):
            out.append((f"hands.{seat}{AS_A_SET}", sorted(cards), observed))
    return out


def _holds(expected: Any, snapshot: Json, legal: list[Json]) -> list[tuple[str, Any, Any]]:
    out = []
    for seat, cards in expected.items():
        observed = _hand(snapshot, seat)
        hand = observed if isinstance(observed, list) else []
        missing = [c for c in cards if c not in hand]
        if missing:
            out.append((f"hands.{seat}{HOLDS}", cards, observed))
    return out


def _lacks(expected: Any, snapshot: Json, legal: list[Json]) -> list[tuple[str, Any, Any]]:
    out = []
    for seat, cards in expected.items():
        observed = _hand(snapshot, seat)
        hand = observed if isinstance(observed, list) else []
        present = [c for c in cards if c in hand]
        if present or not isinstance(observed, list):
            out.append((f"hands.{seat}{LACKS}", cards, observed))
    return out


def _cards_in(key: str, expected: Any, observed: Any) -> list[tuple[str, Any, Any]]:
    """Cards at ``key``: the whole set (a list), or only those it ``holds`` and ``lacks`` (a mapping)."""
    if isinstance(expected, list):
        return [] if _same_cards(expected, observed) else [(f"{key}{AS_A_SET}", sorted(expected), observed)]
    cards = observed if isinstance(observed, list) else []
    out = []
    if any(c not in cards for c in expected.get("holds", [])):
        out.append((f"{key}{HOLDS}", expected["holds"], observed))
    if "lacks" in expected and (any(c in cards for c in expected["lacks"]) or not isinstance(observed, list)):
        out.append((f"{key}{LACKS}", expected["lacks"], observed))
    return out


def _piles(expected: Any, snapshot: Json, legal: list[Json]) -> list[tuple[str, Any, Any]]:
    return [m for side, cards in expected.items() for m in _cards_in(f"piles.{side}", cards, _field(snapshot, f"piles.{side}"))]


def _dead(expected: Any, snapshot: Json, legal: list[Json]) -> list[tuple[str, Any, Any]]:
    return _cards_in("dead", expected, _field(snapshot, "dead"))


def _trick(expected: Any, snapshot: Json, legal: list[Json]) -> list[tuple[str, Any, Any]]:
    cards = _cards_played(_field(snapshot, "trick"))
    return [] if same(expected, cards) else [("trick", expected, cards)]


def _last_trick(expected: Any, snapshot: Json, legal: list[Json]) -> list[tuple[str, Any, Any]]:
    out = []
    last = _field(snapshot, "last_trick")
    if not isinstance(last, dict):
        return [("last_trick", expected, last)]
    for key, value in expected.items():
        observed = last.get(key, _MISSING)
        if key == "cards":
            cards = _cards_played(observed)
            if not same(value, cards):
                out.append(("last_trick.cards", value, cards))
        elif not same(value, observed):
            out.append((f"last_trick.{key}", value, observed))
    return out


def _legal(expected: Any, snapshot: Json, legal: list[Json]) -> list[tuple[str, Any, Any]]:
    observed = sorted(action_text(a) for a in legal)
    have = set(observed)
    out = []
    if "exactly" in expected and sorted(expected["exactly"]) != observed:
        out.append((LEGAL_EXACTLY, sorted(expected["exactly"]), observed))
    missing = [a for a in expected.get("includes", []) if a not in have]
    if missing:
        out.append((f"{LEGAL_ACTIONS} include", missing, observed))
    present = [a for a in expected.get("excludes", []) if a in have]
    if present:
        out.append((f"{LEGAL_ACTIONS} exclude", present, observed))
    return out


def _snapshot_paths(expected: Any, snapshot: Json, legal: list[Json]) -> list[tuple[str, Any, Any]]:
    out = []
    for path, value in expected.items():
        observed = _field(snapshot, path)
        if not same(value, observed):
            out.append((path, value, observed))
    return out


def _shapes_said(comparison: Comparison) -> Comparison:
    """A comparison whose differences at a path broken on the way are said where it broke: ``hands.0`` of a
    ``hands`` that is a string is a difference in ``hands`` (which ``distinct`` then says once, not once a seat)."""

    def said(expected: Any, snapshot: Json, legal: list[Json]) -> list[tuple[str, Any, Any]]:
        found = comparison(expected, snapshot, legal)
        return [(g.where, untrusted.kind(g.needed), g.found) if isinstance(g, _Broken) else (w, e, g) for w, e, g in found]

    return said


_COMPARED: dict[str, Comparison] = {
    **{
        key: _equal(key)
        for key in (
            "phase",
            "to_act",
            "dealer",
            "forehand",
            "trump",
            "indicator",
            "stock_count",
            "stock",
            "totals",
            "tricks",
            "makers",
            "lone",
        )
    },
    "dead": _dead,
    "hands": _hands,
    "holds": _holds,
    "lacks": _lacks,
    "piles": _piles,
    "trick": _trick,
    "last_trick": _last_trick,
    "legal": _legal,
    "result": _partial("result"),
    "match": _partial("match"),
    "snapshot": _snapshot_paths,
}
COMPARISONS: dict[str, Comparison] = {key: _shapes_said(comparison) for key, comparison in _COMPARED.items()}


def compare(expect: Json, snapshot: Json, legal: list[Json], step: int, line: int) -> list[Mismatch]:
    """Every way the report differs from the expectation."""
    found = (Mismatch(step, line, what, want, got) for key, expected in expect.items()
             for what, want, got in COMPARISONS[key](expected, snapshot, legal))  # fmt: skip
    return list(distinct(found))


def distinct(mismatches: Iterable[Mismatch]) -> tuple[Mismatch, ...]:
    """Each mismatch once: a field broken on the way is one difference, however many expectations read through it
    (``hands`` a string, read by ``hands`` and ``holds``, or by one expectation a seat)."""
    out: list[Mismatch] = []
    for mismatch in mismatches:
        if mismatch not in out:
            out.append(mismatch)
    return tuple(out)
