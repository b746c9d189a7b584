"""Neighbouring variants, and the hybrids between them: a variant with one rule of its neighbour mixed in.

Two playable variants are neighbours when they seat the same number of players and use the same
rule for most of their components (more than half of those either names): the mrithi and the
over-60 tables, six as pairs and as threes, clockwise and anticlockwise, Albastini and the Bisca or
Briscola it shares its trick play with. Altbaumer shares too few of its components' rules with
any other variant to neighbour it (a test holds that). A hybrid takes one thing where the
neighbour differs: a parameter of a component both play by the same rule (and the whole block,
where several differ), a whole component block where the rules differ (its parameters belong to
its rule), any other leaf of the variant.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from specreader.jsontypes import Json, json_copy, value_at
from specreader.spec import Spec

# What names or documents a variant, not a rule it plays by.
_NOT_RULES = frozenset({"id", "game", "title", "sources", "extends", "abstract"})
_ABSENT = object()


def playable(kit: Spec) -> list[str]:
    return sorted(vid for vid, (_, raw) in kit.variants_raw().items() if not raw.get("abstract"))


def _shared_rules(a: Json, b: Json) -> tuple[int, int]:
    """Components both play by the same rule, out of the components either names."""
    ca, cb = a.get("components", {}), b.get("components", {})
    names = set(ca) | set(cb)
    same = sum(1 for name in names if name in ca and name in cb and ca[name].get("rule") == cb[name].get("rule"))
    return same, len(names)


def neighbours(variant_id: str, kit: Spec) -> list[str]:
    """The playable variants neighbouring ``variant_id``, sorted."""
    mine = kit.resolved(variant_id)
    found = []
    for other in playable(kit):
        theirs = kit.resolved(other)
        if other == variant_id or theirs.get("players") != mine.get("players"):
            continue
        same, names = _shared_rules(mine, theirs)
        if 2 * same > names:
            found.append(other)
    return found


def differences(mine: Any, theirs: Any, path: str = "") -> list[str]:
    """The dotted paths where ``theirs`` differs from ``mine``, each the unit a hybrid takes whole."""
    whole_block = path.startswith("components.") and path.count(".") == 1 and (
        not isinstance(mine, dict) or not isinstance(theirs, dict) or mine.get("rule") != theirs.get("rule")
    )
    if isinstance(mine, dict) and isinstance(theirs, dict) and not whole_block:
        out: list[str] = []
        for key in sorted(set(mine) | set(theirs), key=str):
            if not path and key in _NOT_RULES:
                continue
            out += differences(mine.get(key, _ABSENT), theirs.get(key, _ABSENT), f"{path}.{key}" if path else str(key))
        # Parameters of one rule may only make sense together (a double line and its victory points).
        if path.startswith("components.") and path.count(".") == 1 and len(out) > 1:
            out.append(path)
        return out
    return [] if mine == theirs else [path]


def with_leaf(data: Json, path: str, value: Any) -> Json:
    """A copy of the variant with the leaf at a dotted path set to the value (left out where it is absent)."""
    out: Json = json_copy(data)
    *parents, last = path.split(".")
    node = out
    for part in parents:
        node = node[part]
    if value is _ABSENT:
        del node[last]
    else:
        node[last] = json_copy(value)
    return out


def _shown(value: Any) -> str:
    if value is _ABSENT:
        return "absent"
    return value if isinstance(value, str) else json.dumps(value, separators=(", ", ": "))


def _change(mine: Any, theirs: Any) -> str:
    """A change as selfcheck names it: a component by its rule, unless both play by the same one."""
    if isinstance(mine, dict) and isinstance(theirs, dict) and mine.get("rule") != theirs.get("rule"):
        mine, theirs = mine.get("rule", _ABSENT), theirs.get("rule", _ABSENT)
    elif isinstance(mine, dict) and "rule" in mine and theirs is _ABSENT:
        mine = mine["rule"]
    elif isinstance(theirs, dict) and "rule" in theirs and mine is _ABSENT:
        theirs = theirs["rule"]
    return f"{_shown(mine)} -> {_shown(theirs)}"


def hybrids(variant_id: str, kit: Spec) -> Iterator[tuple[str, str, str, Json]]:
    """(neighbour, parameter, change, data) for each hybrid of ``variant_id``: one difference taken from
    one neighbour. A hybrid several neighbours give is made once, from the first of them."""
    mine = kit.resolved(variant_id)
    seen: set[str] = set()
    for other in neighbours(variant_id, kit):
        theirs = kit.resolved(other)
        for path in differences(mine, theirs):
            data = with_leaf(mine, path, value_at(theirs, path, _ABSENT))
            key = json.dumps(data, sort_keys=True)
            if key in seen:
                continue
            seen.add(key)
            yield other, path, _change(value_at(mine, path, _ABSENT), value_at(theirs, path, _ABSENT)), data
