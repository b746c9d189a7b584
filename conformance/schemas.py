"""JSON Schemas of the kit, resolved offline, and their errors turned into located problems."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource

from conformance import kitdata
from conformance.problems import JsonPath, Problem
from conformance.yamlio import Document

BASE = "https://trickspec.dev/schemas/"


@cache
def registry() -> Registry[Any]:
    """Every schema in schemas/, by its $id, so references never leave the machine."""
    resources = []
    for path in sorted(kitdata.schemas_dir().glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources)


@cache
def validator(name: str, pointer: str = "") -> Draft202012Validator:
    """A validator for ``<name>.schema.json`` (or one of its ``$defs`` by JSON pointer).

    References are inlined once here: the same checks, without a registry lookup per node.
    """
    uri = BASE + name + ".schema.json" + ("#" + pointer if pointer else "")
    resolved = registry().resolver().lookup(uri)
    schema = _inline(resolved.contents, resolved.resolver, ())
    return Draft202012Validator(schema, registry=registry())


def _inline(node: Any, resolver: Any, stack: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_inline(item, resolver, stack) for item in node]
    if not isinstance(node, dict):
        return node
    if "$id" in node:
        resolver = resolver.in_subresource(Resource.from_contents(node))
    ref = node.get("$ref")
    out = {k: _inline(v, resolver, stack) for k, v in node.items() if k != "$ref" and k not in ("$id", "$schema")}
    if not isinstance(ref, str):
        return out
    target = resolver.lookup(ref)
    key = str(id(target.contents))
    if key in stack:  # a recursive schema keeps its reference
        return {**out, "$ref": ref}
    inlined = _inline(target.contents, target.resolver, (*stack, key))
    if not out:
        return inlined
    return {**out, "allOf": [inlined]}


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "mapping"


def _found(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"found {_kind(value)} {text}"


def leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The most specific errors: descend into if/then, allOf and $ref wrappers."""
    if error.context:
        for sub in error.context:
            yield from leaves(sub)
    else:
        yield error


def _explain(error: ValidationError) -> tuple[JsonPath, str]:
    path: JsonPath = tuple(error.absolute_path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    what = schema.get("description")
    value = error.instance
    kind = error.validator
    if kind == "additionalProperties":
        allowed = sorted(schema.get("properties", {}))
        extra = sorted(set(value) - set(allowed)) if isinstance(value, dict) else []
        key = extra[0] if extra else "?"
        hint = f"; expected one of: {', '.join(allowed)}" if allowed else ""
        return (*path, key), f"unknown key {key!r}{hint}"
    if kind == "required":
        present = value if isinstance(value, dict) else {}
        missing = [k for k in error.validator_value if k not in present]  # type: ignore[union-attr]
        return path, "missing required key " + ", ".join(repr(k) for k in missing)
    if kind == "type":
        return path, f"expected {error.validator_value}, {_found(value)}"
    if kind == "pattern":
        expected = what or f"a string matching {error.validator_value}"
        return path, f"expected {expected[0].lower() + expected[1:].rstrip('.')}, {_found(value)}"
    if kind in ("enum", "const"):
        options = list(error.validator_value) if kind == "enum" else [error.validator_value]  # type: ignore[arg-type]
        return path, f"expected one of {', '.join(map(str, options))}, {_found(value)}"
    if kind == "propertyNames":
        return path, f"unexpected key {value!r}: {error.message}"
    return path, f"{error.message}" + (f" (expected {what.rstrip('.')})" if what else "")


def check(doc: Document, name: str, pointer: str = "", data: Any = None) -> list[Problem]:
    """Validate a document (or ``data`` located by ``doc``) against a kit schema."""
    instance = doc.data if data is None else data
    problems = []
    for error in validator(name, pointer).iter_errors(instance):
        for leaf in leaves(error):
            path, message = _explain(leaf)
            problems.append(doc.problem(path, message, at_key=leaf.validator == "additionalProperties"))
    return sorted(set(problems))
