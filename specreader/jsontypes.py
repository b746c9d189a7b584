"""The two shapes every layer passes around, a JSON object and a path into one; a copy of JSON data, and the
value at a dotted path of it."""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]
JsonPath = tuple[str | int, ...]


def json_copy(value: Any) -> Any:
    """A deep copy of JSON data (objects and arrays copied, the rest shared: it is immutable), several
    times quicker than ``copy.deepcopy``."""
    if isinstance(value, dict):
        return {key: json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [json_copy(item) for item in value]
    return value


def part_of(path: str, whole: str) -> bool:
    """Whether the dotted path ``path`` is ``whole`` or a part of it (``result.vp`` of ``result``; not ``result_x``)."""
    return path == whole or path.startswith(whole + ".")


def overlap(a: str, b: str) -> bool:
    """Whether one dotted path is the other or lies inside it (``result`` and ``result.vp``, either way round)."""
    return part_of(a, b) or part_of(b, a)


def value_at(data: Any, dotted: str, absent: Any = None) -> Any:
    """The value at a dotted path of JSON objects (``components.draw.indicator``); ``absent`` where a key on the way
    is absent or leads to no object."""
    node = data
    for part in dotted.split("."):
        node = node.get(part, absent) if isinstance(node, dict) else absent
    return node
