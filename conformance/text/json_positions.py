"""Where things are in one line of JSON text: the column a problem in it is reported at.

json gives no positions for what it parses, so a line is walked here, with json's own scanner
reading each key and scalar; only a line with a problem pays for it. Columns count characters
from 1, as json's own errors do.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from specreader.jsontypes import JsonPath

_SPACE = re.compile(r"[ \t\n\r]*")


class Number(str):
    """A number as the line writes it (NaN and Infinity too, which Python's json reads): never
    converted, as a 5,000-digit one must not reach int()."""


_DECODER = json.JSONDecoder(parse_int=Number, parse_float=Number, parse_constant=Number)
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]  # made by __init__, not typed


@dataclass
class Positions:
    """The column of each value and each key of a line, by JSON path (the first, if a key is there
    twice), the first key found twice in one object, and every key, string and number in the order
    the line has them."""

    values: dict[JsonPath, int] = field(default_factory=dict)
    keys: dict[JsonPath, int] = field(default_factory=dict)
    repeated: tuple[JsonPath, int] | None = None  # its path and the column of its second occurrence
    scalars: list[tuple[JsonPath, int, str]] = field(default_factory=list)  # a key's path is its member's

    def first(self, wrong: Callable[[str], bool]) -> tuple[JsonPath, int] | None:
        """The path and column of the first key, string or number (a ``Number``) that is ``wrong``."""
        return next(((path, column) for path, column, text in self.scalars if wrong(text)), None)

    def column(self, path: JsonPath, *, at_key: bool = False) -> int:
        """The column of ``path``'s key (``at_key``) or value; of the nearest enclosing value it has
        when the line has no such path (a key that is missing)."""
        if at_key and path in self.keys:
            return self.keys[path]
        while path not in self.values and path:
            path = path[:-1]
        return self.values.get(path, 1)


def positions(line: str) -> Positions:
    """The positions in ``line``, a JSON value that json reads (nested within the kit's limits)."""
    found = Positions()
    _value(line, _SPACE.match(line, 0).end(), (), found)  # type: ignore[union-attr]  # the pattern matches anywhere
    return found


def _skip(line: str, at: int) -> int:
    return _SPACE.match(line, at).end()  # type: ignore[union-attr]  # the pattern matches anywhere


def _value(line: str, at: int, path: JsonPath, found: Positions) -> int:
    """Record the value starting at ``at`` and what it holds; return where it ends."""
    found.values.setdefault(path, at + 1)
    opening = line[at]
    if opening == "{":
        return _members(line, _skip(line, at + 1), path, found)
    if opening == "[":
        return _items(line, _skip(line, at + 1), path, found)
    value, end = _SCAN(line, at)
    if isinstance(value, str):
        found.scalars.append((path, at + 1, value))
    return end


def _members(line: str, at: int, path: JsonPath, found: Positions) -> int:
    seen: set[str] = set()
    while line[at] != "}":
        key, after = _SCAN(line, at)
        member = (*path, key)
        if key in seen and found.repeated is None:
            found.repeated = (member, at + 1)
        seen.add(key)
        found.keys.setdefault(member, at + 1)
        found.scalars.append((member, at + 1, key))
        at = _skip(line, _skip(line, after) + 1)  # past the colon
        at = _skip(line, _value(line, at, member, found))
        if line[at] == ",":
            at = _skip(line, at + 1)
    return at + 1


def _items(line: str, at: int, path: JsonPath, found: Positions) -> int:
    index = 0
    while line[at] != "]":
        at = _skip(line, _value(line, at, (*path, index), found))
        if line[at] == ",":
            at = _skip(line, at + 1)
        index += 1
    return at + 1
