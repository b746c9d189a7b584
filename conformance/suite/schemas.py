"""JSON Schemas of the kit, resolved offline, and their errors turned into located problems."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource

from conformance.text import untrusted
from specreader import kitdata
from specreader.jsontypes import JsonPath
from specreader.problems import Problem
from specreader.yamlio import Document

BASE = "https://trickspec.dev/schemas/"


@cache
def registry() -> Registry[Any]:
    """Every schema in schemas/, by its $id, so references never leave the machine."""
    resources = []
    for path in sorted(kitdata.schemas_dir().glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources)


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not _as_in_json_schema(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@cache
def _as_in_json_schema(pattern: str) -> re.Pattern[str]:
    """A pattern as JSON Schema reads it (ECMA-262): ``$`` ends the text, where Python's also
    matches before a final line break, which would let ``"albastini\n"`` pass as an id."""
    out: list[str] = []
    escaped = in_class = False
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char in "[]":
            in_class = char == "["
        elif char == "$" and not in_class:
            char = r"\Z"
        out.append(char)
    return re.compile("".join(out))


# Draft 2020-12 with patterns anchored as JSON Schema means them.
_Validator: Any = validators.extend(Draft202012Validator, {"pattern": _pattern})  # type: ignore[no-untyped-call]


@cache
def validator(name: str, pointer: str = "") -> Draft202012Validator:
    """A validator for ``<name>.schema.json`` (or one of its ``$defs`` by JSON pointer).

    References are inlined once here: the same checks, without a registry lookup per node.
    """
    uri = BASE + name + ".schema.json" + ("#" + pointer if pointer else "")
    resolved = registry().resolver().lookup(uri)
    schema = _inline(resolved.contents, resolved.resolver, ())
    checker: Draft202012Validator = _Validator(schema, registry=registry())
    return checker


@cache
def quick_validator(name: str, pointer: str = "") -> jsonschema_rs.Validator | None:
    """The same schema compiled by jsonschema-rs, which says "valid" far faster (in Rust); the
    Python validator is kept to explain a failure in the kit's words. None if a reference remains
    (a recursive schema), which only the Python validator resolves offline."""
    schema = validator(name, pointer).schema
    if not isinstance(schema, dict) or "$ref" in json.dumps(schema):
        return None
    return jsonschema_rs.Draft202012Validator(schema, validate_formats=False)


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


def json_kind(value: Any) -> str:
    """What a JSON value is, in the words of the kit's problems (``mapping``, ``array``, ``null``...)."""
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


def _doubled(items: list[Any]) -> str:
    """The items a list holds more than once, the first five in the order they first show, each cut as a value
    found is: found in one pass, for a list of a million names is data an engine may send."""
    seen: dict[str, int] = {}
    for item in items:
        key = json.dumps(item, sort_keys=True)
        seen[key] = seen.get(key, 0) + 1
    named = [key for key, count in seen.items() if count > 1]
    if not named:  # equal as JSON, written apart (1 and 1.0)
        return "an item"
    shown = [_cut(untrusted.text(key)) for key in named[:5]]
    return ", ".join(shown) + (f" and {len(named) - 5:,} more" if len(named) > 5 else "")


def _cut(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


def _found(value: Any) -> str:
    if value is None:
        return "found null"
    # Control and format characters escaped: a bidi override in a value would reorder the message.
    text = _cut(untrusted.text(json.dumps(value, ensure_ascii=False)))
    return f"found {json_kind(value)} {text}"


def leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The most specific errors: descend into if/then, allOf and $ref wrappers."""
    if error.context:
        for sub in error.context:
            yield from leaves(sub)
    else:
        yield error


def _type_names(expected: Any) -> str:
    """JSON Schema type names as _kind words them: 'string or null', 'mapping'."""
    names = expected if isinstance(expected, list) else [expected]
    return " or ".join("mapping" if name == "object" else str(name) for name in names)


# Size keywords: what they count, and which way they bound it.
_SIZES = {
    "minItems": ("item", "at least"),
    "minProperties": ("key", "at least"),
    "minLength": ("character", "at least"),
    "maxItems": ("item", "at most"),
    "maxProperties": ("key", "at most"),
    "maxLength": ("character", "at most"),
}


def _explain(error: ValidationError) -> Iterator[tuple[JsonPath, str, bool]]:
    """Each problem a leaf error stands for, as it is asked for: its path, a message saying what was expected, and
    whether it is about the key itself (an unknown or misspelt key) rather than the value."""
    path: JsonPath = tuple(error.absolute_path)
    value = error.instance
    if "propertyNames" in error.relative_schema_path and isinstance(value, str):
        # jsonschema checks a key as if it were the value at its mapping: say it is the key.
        for _, message, _ in _explain_value(error, path):
            yield (*path, value), f"unexpected key {value!r}: {message}", True
    else:
        yield from _explain_value(error, path)


def _explain_value(error: ValidationError, path: JsonPath) -> Iterator[tuple[JsonPath, str, bool]]:
    schema = error.schema if isinstance(error.schema, dict) else {}
    what = schema.get("description")
    value = error.instance
    kind = error.validator
    expected: Any = error.validator_value
    if kind == "additionalProperties":  # a problem each unknown key: said only as far as they are taken (``most``)
        allowed = sorted(schema.get("properties", {}))
        hint = f"; expected one of: {', '.join(allowed)}" if allowed else ""
        extra = sorted(set(value) - set(allowed)) if isinstance(value, dict) else []
        yield from (((*path, key), f"unknown key {key!r}{hint}", True) for key in extra or ["?"])
        return
    if kind == "required":
        present = value if isinstance(value, dict) else {}
        message = "missing required key " + ", ".join(repr(k) for k in expected if k not in present)
    elif kind == "type":
        message = f"expected {_type_names(expected)}, {_found(value)}"
    elif kind == "pattern":
        wanted = what or f"a string matching {expected}"
        message = f"expected {wanted[0].lower() + wanted[1:].rstrip('.')}, {_found(value)}"
    elif kind in ("enum", "const"):
        options = list(expected) if kind == "enum" else [expected]
        message = f"expected one of {', '.join(map(str, options))}, {_found(value)}"
    elif kind in _SIZES:
        unit, bound = _SIZES[kind]
        message = f"expected {bound} {expected} {unit}{'s' if expected != 1 else ''}, {_found(value)}"
    elif kind in ("minimum", "maximum"):
        message = f"expected {'at least' if kind == 'minimum' else 'at most'} {expected}, {_found(value)}"
    elif kind == "uniqueItems" and isinstance(value, list):
        message = f"expected each item once, found more than once: {_doubled(value)}"
    elif kind == "not" and isinstance(expected, dict) and list(expected) == ["required"]:
        keys = list(expected["required"])
        if len(keys) == 1:  # a key this object must not have
            message = f"expected no key {keys[0]!r} here, found one" + (f" ({what.rstrip('.')})" if what else "")
        else:
            message = f"expected only one of {', '.join(map(repr, keys))}, found them together"
    else:
        message = error.message + (f" (expected {what.rstrip('.')})" if what else "")
    yield path, message, False


def explain(name: str, instance: Any, pointer: str = "", *, most: int | None = None) -> list[tuple[JsonPath, str, bool]]:
    """Every problem of ``instance`` against ``<name>.schema.json`` (or one of its ``$defs``), each
    once: (JSON path, what was expected, whether it is about a key); the first ``most`` of them only, where given,
    looked for no further (an engine's answer may hold hundreds of thousands).

    jsonschema reports each missing key of one ``required`` apart, and _explain names them all each time.
    """
    quick = quick_validator(name, pointer)
    if quick is not None and quick.is_valid(instance):
        return []
    errors = validator(name, pointer).iter_errors(instance)
    found = (item for error in errors for item in _problems(error))
    return list(itertools.islice(_once(found), most))


def _once(items: Iterator[tuple[JsonPath, str, bool]]) -> Iterator[tuple[JsonPath, str, bool]]:
    seen: set[tuple[JsonPath, str, bool]] = set()
    for item in items:
        if item not in seen:
            seen.add(item)
            yield item


def _problems(error: ValidationError) -> Iterator[tuple[JsonPath, str, bool]]:
    """What _explain says of each leaf of ``error``; but a choice of keys (``anyOf`` of ``required``s: a text or an
    engine_note, an author or a publisher) met by none is one problem naming them all, not one per branch."""
    keys = _alternative_keys(error)
    if keys:
        yield tuple(error.absolute_path), "missing required key: expected " + " or ".join(map(repr, keys)), False
    elif error.context:
        for sub in _meant(error):
            yield from _problems(sub)
    else:
        yield from _explain(error)


def _meant(error: ValidationError) -> list[ValidationError]:
    """The errors of the branches of an ``anyOf``/``oneOf`` that the instance was meant for: not those that want
    another JSON type where it stands (null, where it is an object), nor those whose tag it does not carry (an
    action of another type, told by a ``const`` or an ``enum`` on one of its keys); all of them where that leaves
    none (a tag misspelt is wrong in every branch)."""
    branches: dict[object, list[ValidationError]] = {}
    for sub in error.context or []:
        branches.setdefault(sub.relative_schema_path[0] if sub.relative_schema_path else None, []).append(sub)
    here = len(error.absolute_path)
    kept = [b for b in branches.values() if not all(s.validator == "type" and len(s.absolute_path) == here for s in b)]
    kept = kept or list(branches.values())
    tagged = [b for b in kept if not any(s.validator in ("const", "enum") and len(s.absolute_path) == here + 1 for s in b)]
    return [sub for branch in tagged or kept for sub in branch]


def _alternative_keys(error: ValidationError) -> list[str]:
    """The keys of an ``anyOf``/``oneOf`` whose every branch asks for one key alone and failed for want of it; []
    for any other error (a branch asking for several keys is explained as it is)."""
    branches = error.context or []
    if error.validator not in ("anyOf", "oneOf") or not branches:
        return []
    keys: list[str] = []
    for branch in branches:
        wanted = branch.validator_value
        if branch.validator != "required" or branch.context or branch.absolute_path != error.absolute_path:
            return []
        if not isinstance(wanted, list) or len(wanted) != 1 or not isinstance(branch.schema, dict):
            return []
        if set(branch.schema) != {"required"}:  # a branch that asks for more than its key
            return []
        keys.append(str(wanted[0]))
    return list(dict.fromkeys(keys))


def missing_keys(name: str, instance: Any, pointer: str = "") -> set[JsonPath]:
    """The path of every key a ``required`` of ``<name>.schema.json`` (or one of its ``$defs``) finds
    missing, one by one; jsonschema-rs first, as in ``explain``."""
    missing: set[JsonPath] = set()
    quick = quick_validator(name, pointer)
    if quick is not None and quick.is_valid(instance):
        return missing
    for error in validator(name, pointer).iter_errors(instance):
        for leaf in leaves(error):
            required = leaf.validator_value
            if leaf.validator == "required" and isinstance(leaf.instance, dict) and isinstance(required, list):
                at = tuple(leaf.absolute_path)
                missing.update((*at, key) for key in required if key not in leaf.instance)
    return missing


def check(doc: Document, name: str, pointer: str = "", data: Any = None) -> list[Problem]:
    """Validate a document (or ``data`` located by ``doc``) against a kit schema."""
    instance = doc.data if data is None else data
    found = explain(name, instance, pointer)
    return sorted({doc.problem(path, message, at_key=at_key) for path, message, at_key in found})
