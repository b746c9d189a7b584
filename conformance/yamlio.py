"""The strict YAML loader: the only way the kit reads YAML.

YAML 1.2 core scalars only (``no``, ``on`` and ``y`` stay strings), mapping keys
are always strings (as in JSON), duplicate keys, tags, anchors and aliases are
errors, and every node keeps its line and column so that later checks can
point at the place in the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.events import AliasEvent, CollectionStartEvent, ScalarEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from conformance.problems import DataError, JsonPath, Problem

MAX_BYTES = 2 * 1024 * 1024

_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"^[-+]?[0-9]+$")
_FLOAT = re.compile(r"^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$")


@dataclass
class Document:
    """Plain JSON-ready data plus the 1-based (line, column) of every node by JSON path."""

    file: str
    data: Any
    marks: dict[JsonPath, tuple[int, int]] = field(default_factory=dict)

    def where(self, path: JsonPath) -> tuple[int, int]:
        """The position of the deepest node on ``path`` that exists."""
        for cut in range(len(path), -1, -1):
            mark = self.marks.get(tuple(path[:cut]))
            if mark is not None:
                return mark
        return (1, 1)

    def problem(self, path: JsonPath, message: str) -> Problem:
        line, column = self.where(path)
        return Problem(self.file, line, column, tuple(path), message)


class _Composer(yaml.SafeLoader):
    """A composer that refuses tags, anchors and aliases before they build anything."""

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        event = self.peek_event()
        mark = event.start_mark
        if isinstance(event, AliasEvent):
            raise _At(mark, "aliases (*name) are not allowed; write the value out")
        if isinstance(event, (ScalarEvent, CollectionStartEvent)):
            if event.anchor is not None:
                raise _At(mark, "anchors (&name) are not allowed; write the value out")
            if event.tag not in (None, "!"):
                raise _At(mark, f"tags are not allowed (found {event.tag})")
        return super().compose_node(parent, index)  # type: ignore[no-any-return]


class _At(Exception):
    def __init__(self, mark: Any, message: str, path: JsonPath = ()) -> None:
        super().__init__(message)
        self.mark = mark
        self.message = message
        self.path = path


def _scalar(node: ScalarNode) -> Any:
    text: str = node.value
    if node.style is not None:  # quoted or block scalars are always strings
        return text
    if _NULL.match(text):
        return None
    if text in _BOOL:
        return _BOOL[text]
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    return text


def _build(node: Node, path: JsonPath, marks: dict[JsonPath, tuple[int, int]]) -> Any:
    marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, ScalarNode):
        return _scalar(node)
    if isinstance(node, SequenceNode):
        return [_build(item, (*path, i), marks) for i, item in enumerate(node.value)]
    if isinstance(node, MappingNode):
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, ScalarNode):
                raise _At(key_node.start_mark, "mapping keys must be plain scalars", path)
            key = key_node.value
            if key == "<<" and key_node.style is None:
                raise _At(key_node.start_mark, "merge keys (<<) are not allowed", path)
            if key in out:
                first = marks[(*path, key)]
                raise _At(
                    key_node.start_mark,
                    f"duplicate key {key!r} (first at line {first[0]}, column {first[1]})",
                    (*path, key),
                )
            out[key] = _build(value_node, (*path, key), marks)
        return out
    raise _At(node.start_mark, f"unsupported node {type(node).__name__}", path)


def loads(text: str, file: str = "<string>") -> Document:
    """Parse one YAML document strictly; raise DataError with located problems."""
    marks: dict[JsonPath, tuple[int, int]] = {}
    try:
        composer = _Composer(text)
        try:
            root = composer.get_single_node()
        finally:
            composer.dispose()
        if root is None:
            raise DataError([Problem(file, 1, 1, (), "expected a YAML mapping, found an empty file")])
        data = _build(root, (), marks)
    except _At as err:
        raise DataError(
            [Problem(file, err.mark.line + 1, err.mark.column + 1, err.path, err.message)]
        ) from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = " ".join(x for x in (err.context, err.problem) if x)
        raise DataError([Problem(file, line, column, (), f"invalid YAML: {what}")]) from None
    except yaml.YAMLError as err:
        raise DataError([Problem(file, 1, 1, (), f"invalid YAML: {err}")]) from None
    return Document(file, data, marks)


def load(path: Path | str) -> Document:
    """Read and parse a YAML file; every failure is a located DataError."""
    path = Path(path)
    name = str(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise DataError([Problem(name, 0, 0, (), "no such file or directory")]) from None
    except OSError as err:
        raise DataError([Problem(name, 0, 0, (), f"cannot read: {err.strerror}")]) from None
    if path.is_dir():
        raise DataError([Problem(name, 0, 0, (), "expected a YAML file, found a directory")])
    if size > MAX_BYTES:
        raise DataError(
            [
                Problem(
                    name, 1, 1, (),
                    f"expected a YAML file of at most {MAX_BYTES // 1024 // 1024} MiB,"
                    f" found {size / 1024 / 1024:.1f} MiB",
                )
            ]
        )
    raw = path.read_bytes()
    if b"\0" in raw:
        raise DataError([Problem(name, 1, 1, (), "expected UTF-8 text, found binary data (NUL byte)")])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        column = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        raise DataError(
            [Problem(name, line, column, (), f"expected UTF-8 text, found byte 0x{raw[err.start]:02x}")]
        ) from None
    return loads(text, name)
