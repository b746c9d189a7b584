"""The well-shaped parts of data the schema may have found problems in: cross-file checks look only at
these, and a missing list or an item of another type is the schema's to report."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from specreader.jsontypes import Json


def strings(node: Any, key: str) -> Iterator[tuple[int, str]]:
    """The strings listed under ``key``, with their indexes."""
    items = node.get(key) if isinstance(node, dict) else None
    for i, item in enumerate(items if isinstance(items, list) else []):
        if isinstance(item, str):
            yield i, item


def mappings(node: Json, key: str) -> Iterator[tuple[int, Json]]:
    """The mappings listed under ``key``, with their indexes."""
    items = node.get(key)
    for i, item in enumerate(items if isinstance(items, list) else []):
        if isinstance(item, dict):
            yield i, item


def mapping(node: Json, key: str) -> Json:
    """``node[key]`` when it is a mapping, else an empty one."""
    value = node.get(key)
    return value if isinstance(value, dict) else {}


def words(node: Json, key: str) -> list[str]:
    """A space-separated sequence such as ``ranks: A 7 K``, split; empty when it is not a string."""
    value = node.get(key)
    return value.split() if isinstance(value, str) else []
