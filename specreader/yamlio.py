"""The strict YAML loader: the only way the kit reads YAML.

YAML 1.2 core scalars only (``no``, ``on`` and ``y`` stay strings), mapping keys
are always strings (as in JSON), duplicate keys, tags, anchors and aliases are
errors, and every node keeps its line and column so that later checks can
point at the place in the file.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    MappingEndEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)

from specreader import files, limits
from specreader.jsontypes import JsonPath
from specreader.problems import DataError, Problem

_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"^[-+]?[0-9]+$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")
_NOT_FINITE = re.compile(r"^(?:[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")


@dataclass
class Document:
    """Plain JSON-ready data plus the 1-based (line, column) of every node by JSON path."""

    file: str
    data: Any
    marks: dict[JsonPath, tuple[int, int]] = field(default_factory=dict)
    key_marks: dict[JsonPath, tuple[int, int]] = field(default_factory=dict)

    def where(self, path: JsonPath) -> tuple[int, int]:
        """The position of the deepest node on ``path`` that exists."""
        for cut in range(len(path), -1, -1):
            mark = self.marks.get(tuple(path[:cut]))
            if mark is not None:
                return mark
        return (1, 1)

    def problem(self, path: JsonPath, message: str, *, at_key: bool = False) -> Problem:
        """A problem at the node on ``path`` (or at its key, for complaints about the key itself)."""
        line, column = self.key_marks.get(tuple(path), self.where(path)) if at_key else self.where(path)
        return Problem(self.file, line, column, tuple(path), message)


# libyaml's parser when present (the same events, much faster), else PyYAML's own.
_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _At(Exception):
    def __init__(self, mark: Any, message: str, path: JsonPath = ()) -> None:
        super().__init__(message)
        self.mark = mark
        self.message = message
        self.path = path


def _scalar(event: ScalarEvent) -> Any:
    text: str = event.value
    if not event.implicit[0]:  # quoted or block scalars are always strings
        return text
    if text and text[0] not in _STARTS_OTHER_THAN_TEXT:  # most scalars: spared the patterns below
        return text
    return plain_scalar(text)


# The first characters of every plain scalar plain_scalar reads as something other than a string
# (null, a boolean, a number); the empty one is null.
_STARTS_OTHER_THAN_TEXT = frozenset("~nNtTfF+-.0123456789")


def plain_scalar(text: str) -> Any:
    """What an unquoted scalar means here (YAML 1.2 core): null, a boolean, a number, or the string itself.

    Raises ValueError, saying what was expected, for a number beyond the kit's limits (specreader/limits.py)."""
    if _NULL.match(text):
        return None
    if text in _BOOL:
        return _BOOL[text]
    if _INT.match(text):
        _refuse(limits.integer_problem(text))  # before int(), which a long digit string would cost or crash
        return int(text)
    if _FLOAT.match(text):
        _refuse(limits.float_problem(text))
        return float(text)
    if _NOT_FINITE.match(text):  # YAML 1.2 reads these as numbers, which JSON cannot carry
        _refuse(f"expected a finite number, found {text} (quote it if it is text)")
    return text


def _refuse(problem: str | None) -> None:
    if problem is not None:
        raise ValueError(problem)


def reads_as_string(text: str) -> bool:
    """Whether ``text`` written unquoted reads back as this same string (else it needs quotes)."""
    try:
        return isinstance(plain_scalar(text), str)
    except ValueError:
        return False


class _Builder:
    """Builds plain data straight from parser events, refusing what could construct objects."""

    def __init__(self, text: str) -> None:
        self.loader = _Loader(text)
        self.next: Callable[[], Any] = self.loader.get_event  # bound once: called for every event
        self.marks: dict[JsonPath, tuple[int, int]] = {}
        self.keys: dict[JsonPath, tuple[int, int]] = {}
        self.root_mark: Any = None

    def document(self) -> Any:
        try:
            self.next()  # stream start
            if isinstance(self.loader.peek_event(), StreamEndEvent):
                return _EMPTY
            self.next()  # document start
            root = self.next()
            self.root_mark = root.start_mark
            data = self.node(root, ())
            self.next()  # document end
            extra = self.next()
            if not isinstance(extra, StreamEndEvent):
                raise _At(extra.start_mark, "expected one YAML document, found another after ---")
            return data
        finally:
            self.loader.dispose()

    def node(self, event: Any, path: JsonPath) -> Any:
        mark = event.start_mark
        self.marks[path] = (mark.line + 1, mark.column + 1)
        if isinstance(event, AliasEvent):
            raise _At(mark, "aliases (*name) are not allowed; write the value out", path)
        if event.anchor is not None:
            raise _At(mark, "anchors (&name) are not allowed; write the value out", path)
        if event.tag not in (None, "!"):
            raise _At(mark, f"tags are not allowed (found {event.tag})", path)
        if isinstance(event, ScalarEvent):
            try:
                return _scalar(event)
            except ValueError as err:
                raise _At(mark, str(err), path) from None
        if len(path) >= limits.MAX_DEPTH:  # checked before descending: nesting costs recursion here and in every reader
            raise _At(mark, limits.depth_problem(), path)
        if isinstance(event, SequenceStartEvent):
            items: list[Any] = []
            while not isinstance(item := self.next(), SequenceEndEvent):
                items.append(self.node(item, (*path, len(items))))
            return items
        return self.mapping(path)

    def mapping(self, path: JsonPath) -> dict[str, Any]:
        out: dict[str, Any] = {}
        while not isinstance(key_event := self.next(), MappingEndEvent):
            mark = key_event.start_mark
            if not isinstance(key_event, ScalarEvent) or key_event.anchor or key_event.tag not in (None, "!"):
                raise _At(mark, "mapping keys must be plain scalars", path)
            key = key_event.value
            if key == "<<" and key_event.implicit[0]:
                raise _At(mark, "merge keys (<<) are not allowed", path)
            at = (*path, key)
            if key in out:
                first = self.keys[at]
                raise _At(mark, f"duplicate key {key!r} (first at line {first[0]}, column {first[1]})", at)
            self.keys[at] = (mark.line + 1, mark.column + 1)
            out[key] = self.node(self.next(), at)
        return out


_EMPTY = object()


def loads(text: str, file: str = "<string>") -> Document:
    """Parse one YAML document strictly; raise DataError with located problems."""
    builder = _Builder(text)
    try:
        data = builder.document()
    except _At as err:
        raise DataError([Problem(file, *_place(text, err.mark), err.path, err.message)]) from None
    except yaml.reader.ReaderError as err:  # a character YAML forbids; located by its offset in the text
        line, column = _line_column(text, err.position)
        raise DataError([Problem(file, line, column, (), f"invalid YAML: {_reader_problem(err)}")]) from None
    except yaml.MarkedYAMLError as err:
        where = _place(text, err.problem_mark or err.context_mark)
        what = " ".join(x for x in (err.context, err.problem) if x)
        if "maximum nesting depth" in what:  # libyaml's own limit, met while it looks ahead in flow style
            raise DataError([Problem(file, *where, (), limits.depth_problem())]) from None
        raise DataError([Problem(file, *where, (), f"invalid YAML: {what}")]) from None
    except yaml.YAMLError as err:
        raise DataError([Problem(file, 1, 1, (), f"invalid YAML: {err}")]) from None
    if data is _EMPTY:
        raise DataError([Problem(file, 1, 1, (), "expected a YAML mapping, found an empty file")])
    if data is None:
        raise DataError([Problem(file, *_place(text, builder.root_mark), (), "expected a YAML mapping, found null")])
    return Document(file, data, builder.marks, builder.keys)


def _place(text: str, mark: Any) -> tuple[int, int]:
    """1-based line and column of a parser mark; one at the end of the text, past a last line
    without a line break, is placed at the end of that line, inside the file."""
    if mark is None:
        return (1, 1)
    if mark.index >= len(text):
        return _line_column(text, len(text))
    return (mark.line + 1, mark.column + 1)


def _line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def _reader_problem(err: yaml.reader.ReaderError) -> str:
    character = err.character if isinstance(err.character, str) else chr(err.character)
    return f"unacceptable character #x{ord(character):04x}: {err.reason}"


def load(path: Path | str) -> Document:
    """Read and parse a YAML file; every failure is a located DataError."""
    path = Path(path)
    return load_bytes(read_bytes(path), str(path))


def read_bytes(path: Path) -> bytes:
    """The bytes of a YAML file, refused as ``load`` refuses what is not a bounded regular file."""
    return files.read_bytes(path, limits.MAX_YAML_BYTES, "YAML file")


def load_bytes(raw: bytes, name: str) -> Document:
    """Parse the bytes of a YAML file read as ``name``, as ``load`` does."""
    return _load_bytes(raw, name)


Marks = dict[JsonPath, tuple[int, int]]




def _load_bytes(raw: bytes, name: str) -> Document:
    if b"\0" in raw:
        raise DataError([Problem(name, 1, 1, (), "expected UTF-8 text, found binary data (NUL byte)")])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        column = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        raise DataError([Problem(name, line, column, (), f"expected UTF-8 text, found byte 0x{raw[err.start]:02x}")]) from None
    return loads(text, name)
