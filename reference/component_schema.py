"""The component blocks of schemas/variant.schema.json, generated from the engine's registry.

The registry (components.py) names every component and rule, and each rule declares its
parameters (params.py); from these come the schema's ``properties.components``, its
``$defs.component_<name>`` blocks, and the component requirements of ``$defs.complete``. The
rest of the schema is written by hand.

    python -m reference.component_schema           # rewrite the committed schema
    python -m reference.component_schema --check   # exit 1, naming each difference, if it is stale
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path

from reference.components import REGISTRY, REQUIRED
from reference.params import Kind, Param, When
from reference.rules import Rule
from specreader import kitdata
from specreader.jsontypes import Json

Registry = dict[str, dict[str, type[Rule]]]

_KIND_SCHEMAS: dict[Kind, Json] = {
    Kind.INTEGER: {"type": "integer"},
    Kind.FLAG: {"type": "boolean"},
    Kind.CARD: {"$ref": "common.schema.json#/$defs/card"},
    Kind.POINTS_TABLE: {
        "type": "object",
        "minProperties": 1,
        "propertyNames": {"pattern": "^[0-9]+$"},
        "additionalProperties": {"type": "integer"},
    },
}


_GENERATED = (
    "Generated, with the $defs.component_* blocks and the component requirements of $defs.complete, "
    "from the reference engine's rule declarations: edit those, then run python -m reference.component_schema."
)


def schema_path() -> Path:
    return kitdata.schemas_dir() / "variant.schema.json"


def param_schema(param: Param) -> Json:
    out: Json = {"enum": list(param.choices)} if param.kind is Kind.TEXT else dict(_KIND_SCHEMAS[param.kind])
    if param.minimum is not None:
        out["minimum"] = param.minimum
    if param.default is not None:
        out["default"] = param.default
    return out


def component_block(name: str, rules: dict[str, type[Rule]]) -> Json:
    """What one file may state for a component: a known rule, and only that rule's parameters."""
    properties: Json = {"rule": {"enum": sorted(rules)}}
    for implementation in rules.values():
        for param in implementation.PARAMETERS:
            schema = param_schema(param)
            if properties.setdefault(param.name, schema) != schema:
                raise ValueError(f"{name} rules declare {param.name!r} differently; rename one")
    return {
        "description": f"The {name} rule component and its parameters.",
        "type": "object",
        "additionalProperties": False,
        "properties": properties,
        "allOf": [
            {
                "if": _rule_is(rule),
                "then": {
                    "properties": {"rule": True, **{p.name: True for p in implementation.PARAMETERS}},
                    "additionalProperties": False,
                },
            }
            for rule, implementation in rules.items()
        ],
    }


def requirements(name: str, rule: str, params: tuple[Param, ...]) -> list[Json]:
    """The parameters a playable variant must state for this rule (``$defs.complete``): the ones
    always required, then each one required under a condition."""
    out = []
    always = [p.name for p in params if p.always_present and p.default is None]
    if always:
        out.append(_required_if(name, _rule_is(rule), always))
    for p in params:
        if p.required_when is not None:
            out.append(_required_if(name, _condition(rule, p.required_when), [p.name]))
    return out


def _rule_is(rule: str) -> Json:
    return {"properties": {"rule": {"const": rule}}, "required": ["rule"]}


def _condition(rule: str, when: When) -> Json:
    condition = _rule_is(rule)
    if when.value is not None:
        condition["properties"][when.param] = {"const": when.value}
    condition["required"].append(when.param)
    return condition


def _required_if(name: str, condition: Json, params: list[str]) -> Json:
    return {
        "if": {"properties": {"components": {"properties": {name: condition}, "required": [name]}}},
        "then": {"properties": {"components": {"properties": {name: {"required": params}}}}},
    }


def generated(schema: Json, registry: Registry = REGISTRY) -> Json:
    """``schema`` with its component blocks made from ``registry``; the rest as it is."""
    out = copy.deepcopy(schema)
    defs = {k: v for k, v in out["$defs"].items() if not k.startswith("component_")}
    out["properties"]["components"] = {
        "$comment": _GENERATED,
        "type": "object",
        "additionalProperties": False,
        "properties": {name: {"$ref": f"#/$defs/component_{name}"} for name in registry},
    }
    complete = defs.pop("complete")
    defs.update({f"component_{name}": component_block(name, rules) for name, rules in registry.items()})
    complete["properties"]["components"] = {
        "required": [name for name in REQUIRED if name in registry],
        # Once inherited, each component names its rule, so its block holds it to that rule's parameters:
        # a file may state a parameter and inherit the rule it belongs to from its parent.
        "properties": {name: {"required": ["rule"], "$ref": f"#/$defs/component_{name}"} for name in registry},
    }
    complete["allOf"] = [
        entry
        for name, rules in registry.items()
        for rule, implementation in rules.items()
        for entry in requirements(name, rule, implementation.PARAMETERS)
    ]
    out["$defs"] = {**defs, "complete": complete}
    return out


def text(schema: Json) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def facts(schema: Json) -> dict[str, str]:
    """What a variant schema says of the components, one readable fact per key."""
    out: dict[str, str] = {}
    defs = _get(schema, "$defs")
    complete = _get(defs, "complete")
    required_components = _get(complete, "properties", "components").get("required", [])
    for name, ref in _get(schema, "properties", "components", "properties").items():
        out[f"component {name}"] = "required" if name in required_components else "optional"
        block = _get(defs, str(ref.get("$ref", "")).removeprefix("#/$defs/"))
        declared = _get(block, "properties")
        for rule in _get(declared, "rule").get("enum", []):
            out[f"{name} rule {rule}"] = "known"
        for entry in block.get("allOf", []):
            rule = _get(entry, "if", "properties", "rule").get("const")
            for param in _get(entry, "then", "properties"):
                if param != "rule":
                    out[f"{name} rule {rule}: parameter {param}"] = json.dumps(declared.get(param), sort_keys=True)
    for entry in complete.get("allOf", []):
        for name, condition in _get(entry, "if", "properties", "components", "properties").items():
            rule = _get(condition, "properties", "rule").get("const")
            given = [p for p in condition.get("required", []) if p != "rule"]
            values = {p: _get(condition, "properties", p).get("const") for p in given}
            when = "".join(f" when {p} is {v}" if v is not None else f" when {p} is given" for p, v in values.items())
            for param in _get(entry, "then", "properties", "components", "properties", name).get("required", []):
                out[f"{name} rule {rule}: parameter {param} required{when}"] = "yes"
    return out


def _get(node: object, *keys: str) -> Json:
    """``node[k1][k2]...`` when each is a mapping, else an empty mapping."""
    for key in keys:
        node = node.get(key) if isinstance(node, dict) else None
    return node if isinstance(node, dict) else {}


def drift(committed: Json, expected: Json) -> list[str]:
    """How the committed schema's component blocks differ from what the engine declares."""
    have, want = facts(committed), facts(expected)
    out = [f"{key}: in the schema, not in the engine" for key in have if key not in want]
    out += [f"{key}: in the engine, not in the schema" for key in want if key not in have]
    changed = [key for key, value in have.items() if want.get(key, value) != value]
    out += [f"{key}: the schema says {have[key]}, the engine {want[key]}" for key in changed]
    if not out and text(committed) != text(expected):
        out.append("the same components, written differently (order or layout)")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report whether the committed schema is up to date")
    args = parser.parse_args(argv)
    path = schema_path()
    committed = json.loads(path.read_text(encoding="utf-8"))
    expected = generated(committed)
    if args.check:
        differences = drift(committed, expected)
        for line in differences:
            print(f"{path}: {line}", file=sys.stderr)
        return 1 if differences else 0
    path.write_text(text(expected), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
