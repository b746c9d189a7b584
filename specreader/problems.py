"""Located problems: every complaint about data names file, line, column and JSON path."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

from specreader.jsontypes import JsonPath

# A key JSONPath may write after a dot (RFC 9535's member-name-shorthand, its ASCII part): any other, such as a
# seat "-1" or a variant id "albastini-2p", is written as a quoted name in brackets.
_SHORTHAND = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def format_path(path: JsonPath) -> str:
    """Render a path as JSONPath: ``$.components.trump[0]``, ``$.hands["-1"]``."""
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _SHORTHAND.fullmatch(part):
            out += f".{part}"
        else:
            out += "[" + _quoted(part) + "]"
    return out


def _quoted(key: str) -> str:
    """A key as a JSON string: readable, and all on one line (what is not printable is escaped)."""
    text = json.dumps(key, ensure_ascii=False)
    return text if text.isprintable() else json.dumps(key)


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the data, where it is, and what was expected."""

    file: str
    line: int
    column: int
    path: JsonPath
    message: str

    def __str__(self) -> str:
        message = _cut(self.message, _MESSAGE_SHOWN)  # a key of megabytes in a file is said, not printed whole
        if self.line == 0 and not self.path:  # the file as a whole (missing, unreadable, of another kind)
            return shown(f"{self.file}: {message}")
        return shown(f"{self.file}:{self.line}:{self.column}: {_cut(format_path(self.path), _PATH_SHOWN)}: {message}")


_MESSAGE_SHOWN, _PATH_SHOWN = 2_000, 500  # characters of a problem's message and JSON path shown


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else f"{text[:most]} [cut: {len(text):,} characters in all]"


def shown(text: str) -> str:
    """A problem's line as it is shown: every character a terminal would act on (an escape, a line break, a bidi
    control), wherever it comes from (a file's name, in the file column or in a message), escaped, and nothing
    else changed, so a name in any script reads as it is."""
    return text if text.isprintable() else "".join(char if char.isprintable() else _escape(char) for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


class DataError(Exception):
    """Raised when data cannot be used; carries every problem found."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = sorted(set(problems))
        super().__init__("\n".join(str(p) for p in self.problems))
