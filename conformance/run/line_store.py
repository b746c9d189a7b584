"""A run's scenario lines, in the order judged, in bounded memory.

A check of a game site's logs judges millions of games, and every report is rendered from their lines.
``Lines`` keeps the most recent lines in memory and writes the others, a batch at a time, to a
temporary file that goes with it; reading them back is a pass over the file. Either way a line is held once,
never as its text beside its value: its text is written and read back a line at a time. A run of a few thousand
lines (every verify of the kit's suite) never writes one. The standard library has no list kept on
disk: shelve and sqlite3 store by key, and a run's lines are only ever appended and read in order.
"""

from __future__ import annotations

import itertools
import json
import tempfile
from collections.abc import Iterable, Iterator
from typing import IO, Any

KEPT = 20_000  # lines held in memory before a batch is written out


class Lines:
    """The lines appended (JSON values: what is read back is what JSON makes of them), in order: ``len``,
    iteration (as many times as wanted), and an item by index, which reads the lines up to it (no slices)."""

    def __init__(self, lines: Iterable[Any] = (), kept: int | None = None) -> None:
        self._kept = KEPT if kept is None else kept
        if self._kept < 1:
            raise ValueError(f"expected at least one line kept in memory, found {kept}")
        self._recent: list[Any] = []
        self._file: IO[bytes] | None = None  # removed when the lines are collected, or the process ends
        self._batches: list[tuple[int, int]] = []  # (offset, length) of each batch written, in order
        self._written = 0  # lines in the file
        for line in lines:
            self.append(line)

    def append(self, line: Any) -> None:
        self._recent.append(line)
        if len(self._recent) >= self._kept:
            self._write_out()

    def _write_out(self) -> None:
        try:
            if self._file is None:
                self._file = tempfile.TemporaryFile()  # noqa: SIM115  # open for the lines' life, removed with them
            offset = self._file.seek(0, 2)
            for line in self._recent:  # a line's text at a time: the batch is never held as text beside its lines
                self._file.write(json.dumps(line, separators=(",", ":")).encode() + b"\n")
            length = self._file.tell() - offset
        except OSError as err:  # said as the temporary folder's, not as a file the command was given
            where = f"writing a run's lines to a temporary file in {tempfile.gettempdir()} (TMPDIR names the folder)"
            raise OSError(err.errno, f"{err.strerror or err}: {where}") from None
        self._batches.append((offset, length))
        self._written += len(self._recent)
        self._recent = []

    def __iter__(self) -> Iterator[Any]:
        """The lines there are now, read back a line at a time (a line appended meanwhile is not among them)."""
        return self._lines(list(self._batches), list(self._recent))

    def _lines(self, batches: list[tuple[int, int]], recent: list[Any]) -> Iterator[Any]:
        for offset, length in batches:
            assert self._file is not None
            at, end = offset, offset + length
            while at < end:  # a line read at a time, from where this reading left it (another may read meanwhile)
                self._file.seek(at)
                raw = self._file.readline()
                at += len(raw)
                yield json.loads(raw)
        yield from recent

    def __len__(self) -> int:
        return self._written + len(self._recent)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __getitem__(self, index: int) -> Any:
        at = index + len(self) if index < 0 else index
        if not 0 <= at < len(self):
            raise IndexError(index)
        return next(itertools.islice(iter(self), at, None))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Lines | list | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, as a list is

    def __repr__(self) -> str:
        return f"Lines({len(self)} lines, {self._written} of them on disk)"
