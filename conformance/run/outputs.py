"""Writing the files a command is asked for: every failure is a problem naming the file.

An operating system error does not always carry a path (a full disk reports ENOSPC on write);
these functions add the one being written, so no report ever says where it failed as ``?``.
"""

from __future__ import annotations

import contextlib
import io
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from specreader.problems import DataError, Problem

_TEMPORARY_NAME_KEPT = 200  # bytes of a file's name its temporary file's name keeps, within any system's 255


def cannot_write(path: Path, err: OSError) -> Problem:
    return Problem(str(path), 0, 0, (), f"cannot be written: {err.strerror or err}")


def unwritable(path: Path) -> list[Problem]:
    """What stops a file from being written there, checked before a long run rather than after."""
    if path.is_dir():
        return [Problem(str(path), 0, 0, (), "cannot be written: expected a file name, found a directory")]
    if not path.parent.is_dir():
        return [Problem(str(path), 0, 0, (), "cannot be written: no such directory")]
    return []


def make_folder(path: Path, what: str = "the reports") -> None:
    """Create a folder for outputs (and its parents) unless it is there; ``what`` it is for, as a message says."""
    if path.exists() and not path.is_dir():
        raise DataError([Problem(str(path), 0, 0, (), f"expected a folder for {what}, found a file")])
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise DataError([Problem(str(path), 0, 0, (), f"cannot be created: {err.strerror or err}")]) from None


def write_text(path: Path, text: str) -> None:
    """Write a file whole or not at all: into a new file beside it, then renamed over it, so a reader
    (or a run stopped half-way through writing) never finds half a report. What is there and is not
    a regular file (a device, a FIFO) is written to as it is, never replaced."""
    write_with(path, lambda out: out.write(text))


def write_with(path: Path, write: Callable[[IO[str]], object]) -> None:
    """``write_text`` for a file ``write`` writes a part at a time (a long run's JUnit XML)."""
    if path.exists() and not path.is_file():
        try:
            with path.open("w", encoding="utf-8") as out:
                write(out)
        except OSError as err:
            raise DataError([cannot_write(path, err)]) from None
        return
    # named after the file, cut short: a name as long as the system allows leaves no room to add to it
    beginning = os.fsdecode(os.fsencode(path.name)[:_TEMPORARY_NAME_KEPT])  # any bytes the system allows, as given
    temporary = path.with_name(f".{beginning}.{secrets.token_hex(4)}.tmp")
    try:
        with temporary.open("x", encoding="utf-8") as out:
            write(out)
        os.replace(temporary, path)
    except OSError as err:
        _remove(temporary)
        raise DataError([cannot_write(path, err)]) from None
    except BaseException:
        _remove(temporary)
        raise


def _remove(temporary: Path) -> None:
    """Remove a temporary file if it was made; a failure to is not the error to report (the write's is)."""
    with contextlib.suppress(OSError):
        temporary.unlink(missing_ok=True)


def open_text(path: Path) -> IO[str]:
    """A UTF-8 text file open for writing whose later write errors name it too."""
    try:
        return _NamedTextFile(path.open("wb"), encoding="utf-8")
    except OSError as err:
        raise DataError([cannot_write(path, err)]) from None


class _NamedTextFile(io.TextIOWrapper):
    def write(self, text: str) -> int:
        try:
            return super().write(text)
        except OSError as err:
            raise DataError([cannot_write(Path(self.name), err)]) from None

    def flush(self) -> None:
        try:
            super().flush()
        except OSError as err:
            raise DataError([cannot_write(Path(self.name), err)]) from None


class FileAtFirstWrite:
    """A UTF-8 text file made only when its first line is written: a run that never starts (an engine it
    cannot use, a variant it cannot play) leaves the file a run before wrote as it was."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] | None = None

    def write(self, text: str, /) -> int:
        if self._file is None:
            self._file = open_text(self.path)
        return self._file.write(text)

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()

    def __enter__(self) -> FileAtFirstWrite:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ReaderMayStop:
    """Standard output or error as a command prints to it, where the reader may stop reading early (``| head``,
    a pager closed): what is printed after the pipe closes goes nowhere, so the command goes on to write its
    reports and ends with its own status rather than on the broken pipe."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        self.stopped = False

    def write(self, text: str, /) -> int:
        if not self.stopped:
            try:
                self._stream.write(text)
            except BrokenPipeError:
                self._nowhere()
        return len(text)

    def flush(self) -> None:
        if not self.stopped:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._nowhere()

    def _nowhere(self) -> None:
        """From now on to nowhere: the descriptor too, so what the stream still holds is flushed there as the
        process ends, not reported as an error of its own."""
        self.stopped = True
        with contextlib.suppress(OSError, ValueError):  # a stream with no descriptor holds nothing to flush
            nowhere = os.open(os.devnull, os.O_WRONLY)
            os.dup2(nowhere, self._stream.fileno())
            os.close(nowhere)

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding...: the stream's own
        return getattr(self._stream, name)
