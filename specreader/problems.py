"""Located problems: every complaint about data names file, line, column and JSON path."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from specreader.jsontypes import JsonPath


def format_path(path: JsonPath) -> str:
    """Render a path as JSONPath: ``$.components.trump[0]``."""
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.replace("-", "").replace("_", "").isalnum() and not part[:1].isdigit():
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
        return f"{shown_file(self.file)}:{self.line}:{self.column}: {format_path(self.path)}: {self.message}"


def shown_file(name: str) -> str:
    """A file's name as a problem line shows it: as it is, unless it holds what a terminal would act on (an escape,
    a line break, a bidi control), which is then escaped, as a JSON string escapes it."""
    return name if name.isprintable() else json.dumps(name)[1:-1]


class DataError(Exception):
    """Raised when data cannot be used; carries every problem found."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = sorted(set(problems))
        super().__init__("\n".join(str(p) for p in self.problems))
