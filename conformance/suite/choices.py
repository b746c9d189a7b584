"""The choices a clause leaves to a player or the table (its ``choices`` entries) and what
expresses each: an action type (``action.take_deal``) or a setup field by dotted path
(``setup.match.target``).

``trickspec validate`` checks that each entry names an action type of
schemas/action.schema.json or a field of schemas/setup.schema.json; ``trickspec coverage``,
that some scenario of the clause makes the choice: an accepted action of that type, or a setup
that gives the field.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from typing import Any

from conformance.suite.scenarios import Scenario
from specreader import kitdata

ACTION, SETUP = "action", "setup"


def _schema(name: str) -> Any:
    return json.loads((kitdata.schemas_dir() / f"{name}.schema.json").read_text(encoding="utf-8"))


def _branches(node: Any) -> Iterator[Any]:
    """A schema node and the alternatives it is made of (oneOf, anyOf, allOf), recursively."""
    if not isinstance(node, dict):
        return
    yield node
    for key in ("oneOf", "anyOf", "allOf"):
        for branch in node.get(key, []):
            yield from _branches(branch)


@cache
def action_types() -> frozenset[str]:
    """Every action type the protocol's action schema names."""
    return frozenset(
        kind
        for branch in _branches(_schema("action"))
        for kind in branch.get("properties", {}).get("type", {}).get("enum", [])
    )


def _setup_field(path: list[str]) -> bool:
    nodes = [_schema("setup")]
    for key in path:
        nodes = [b["properties"][key] for n in nodes for b in _branches(n) if key in b.get("properties", {})]
        if not nodes:
            return False
    return True


def problem(entry: str) -> str | None:
    """What is wrong with a ``choices`` entry, or None (its shape is the schema's to check)."""
    where, _, rest = entry.partition(".")
    if where == ACTION and rest not in action_types():
        return f"expected an action type of schemas/action.schema.json ({', '.join(sorted(action_types()))}), found {rest!r}"
    if where == SETUP and not _setup_field(rest.split(".")):
        return f"expected a field of schemas/setup.schema.json by dotted path, found {rest!r}"
    return None


def made_in(entry: str, scenario: Scenario) -> bool:
    """Whether the scenario makes this choice: an action of the type that is accepted, or a setup
    giving the field."""
    where, _, rest = entry.partition(".")
    if where == ACTION:
        return any(not step.refuse and any(a.get("type") == rest for a in step.actions) for step in scenario.steps)
    value: Any = scenario.setup
    for key in rest.split("."):
        if not isinstance(value, dict) or key not in value:
            return False
        value = value[key]
    return True
