"""Where things are in one line of JSON text: the column a problem in it is reported at.

json gives no positions for what it parses, so a line is walked here, with json's own scanner
reading each key and scalar; only a line with a problem pays for it. Columns count characters
from 1, as json's own errors do.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Collection, Generator, Iterator, Sequence
from typing import Any

from specreader.jsontypes import JsonPath

_SPACE = re.compile(r"[ \t\n\r]*")


class Number(str):
    """A number as the line writes it (NaN and Infinity too, which Python's json reads): never
    converted, as a 5,000-digit one must not reach int()."""


_DECODER = json.JSONDecoder(parse_int=Number, parse_float=Number, parse_constant=Number)
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]  # made by __init__, not typed
# json's scanner without hooks, all in C: where a value ends, for a value nothing is asked of
_PASS: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


_VALUE, _KEY, _SCALAR, _REPEATED = "value", "key", "scalar", "repeated"
Found = tuple[str, JsonPath, int, str]  # what the walk meets: its kind, path, column and (a key or scalar's) text


class Positions:
    """Where things are in one line: the column of a value or a key by JSON path (the first, if a key
    is there twice), the first key found twice in one object, the first key, string or number that is
    wrong. Each question walks the line only as far as its answer: a line of the kit's length limit
    can hold tens of millions of values, too many to keep a record of each."""

    def __init__(self, line: str) -> None:
        self._line = line

    def _walk(self, within: Collection[JsonPath] | None = None) -> Iterator[Found]:
        """What the line holds, in its order; only inside the values at ``within``'s paths, where given."""
        line = self._line
        yield from _value(line, _skip(line, 0), (), within)

    def first(self, wrong: Callable[[str], bool]) -> tuple[JsonPath, int] | None:
        """The path and column of the first key, string or number (a ``Number``) that is ``wrong``."""
        return next(((path, column) for kind, path, column, text in self._walk() if kind == _SCALAR and wrong(text)), None)

    @functools.cached_property
    def repeated(self) -> tuple[JsonPath, int] | None:
        """The path of the first key found twice in one object, and the column of its second occurrence."""
        return next(((path, column) for kind, path, column, _ in self._walk() if kind == _REPEATED), None)

    def columns(self, wanted: Sequence[tuple[JsonPath, bool]]) -> list[int]:
        """The column of each (path, at_key) as ``column`` gives it, all in one walk of the line: a line with many
        problems is walked once, not once a problem, and into no value that holds none of them."""
        open_ = set(wanted)
        found: dict[tuple[JsonPath, bool], tuple[int, int]] = {q: (1, -1) for q in open_}  # column, depth matched
        by_prefix: dict[JsonPath, list[tuple[JsonPath, bool]]] = {}
        for q in open_:
            for n in range(len(q[0]) + 1):
                by_prefix.setdefault(q[0][:n], []).append(q)
        for kind, at, column, _ in self._walk(by_prefix.keys()):
            if not open_:
                break
            if kind == _KEY and (at, True) in open_:
                found[(at, True)] = (column, len(at) + 1)
                open_.discard((at, True))
            elif kind == _VALUE:
                for q in by_prefix.get(at, ()):
                    if q in open_ and len(at) > found[q][1]:
                        found[q] = (column, len(at))
                        if at == q[0]:
                            open_.discard(q)
        return [found[q][0] for q in wanted]

    def column(self, path: JsonPath, *, at_key: bool = False) -> int:
        """The column of ``path``'s key (``at_key``) or value; of the nearest enclosing value it has
        when the line has no such path (a key that is missing)."""
        nearest, depth = 1, -1
        for kind, at, column, _ in self._walk():
            if kind == _KEY and at_key and at == path:
                return column
            if kind == _VALUE and len(at) > depth and path[: len(at)] == at:
                if at == path:
                    return column
                nearest, depth = column, len(at)
        return nearest


def positions(line: str) -> Positions:
    """The positions in ``line``, a JSON value that json reads (nested within the kit's limits)."""
    return Positions(line)


def _skip(line: str, at: int) -> int:
    return _SPACE.match(line, at).end()  # type: ignore[union-attr]  # the pattern matches anywhere


def _value(line: str, at: int, path: JsonPath, within: Collection[JsonPath] | None) -> Generator[Found, None, int]:
    """What the value starting at ``at`` holds, in the line's order (nothing, if it is not at one of ``within``'s
    paths, where given); the generator returns where it ends."""
    yield _VALUE, path, at + 1, ""
    if within is not None and path not in within:
        try:
            return _PASS(line, at)[1]
        except ValueError:  # a number int() refuses (thousands of digits): walked to its end instead
            return (yield from _value(line, at, path, None))
    opening = line[at]
    if opening == "{":
        return (yield from _members(line, _skip(line, at + 1), path, within))
    if opening == "[":
        return (yield from _items(line, _skip(line, at + 1), path, within))
    value, end = _SCAN(line, at)
    if isinstance(value, str):
        yield _SCALAR, path, at + 1, value
    return end


def _members(line: str, at: int, path: JsonPath, within: Collection[JsonPath] | None) -> Generator[Found, None, int]:
    seen: set[str] = set()
    while line[at] != "}":
        key, after = _SCAN(line, at)
        member = (*path, key)
        if key in seen:
            yield _REPEATED, member, at + 1, key
        seen.add(key)
        yield _KEY, member, at + 1, key
        yield _SCALAR, member, at + 1, key
        at = _skip(line, _skip(line, after) + 1)  # past the colon
        at = _skip(line, (yield from _value(line, at, member, within)))
        if line[at] == ",":
            at = _skip(line, at + 1)
    return at + 1


def _items(line: str, at: int, path: JsonPath, within: Collection[JsonPath] | None) -> Generator[Found, None, int]:
    index = 0
    while line[at] != "]":
        at = _skip(line, (yield from _value(line, at, (*path, index), within)))
        if line[at] == ",":
            at = _skip(line, at + 1)
        index += 1
    return at + 1
