"""Finding and reading the files the kit is given: regular files only, read whole up to a bound or a line
at a time, each line bounded; folders walked without going round a link loop. Every refusal is a problem
naming the path."""

from __future__ import annotations

import errno
import functools
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from specreader.limits import mebibytes
from specreader.problems import DataError, Problem

# Opening without waiting: a FIFO put in a file's place opens at once instead of blocking
# for a writer, and the check on the opened file then refuses it.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_CHUNK = 1024 * 1024


def read_bytes(path: Path, limit: int, what: str) -> bytes:
    """The content of a regular file of at most ``limit`` bytes (a link to one is followed).

    FIFOs, devices, sockets and folders are refused before reading, so /dev/zero behind a
    link is never read and a FIFO never waits; ``what`` names the expected file in messages."""
    name = str(path)
    fd = _open_checked(path, limit, what)
    try:
        chunks: list[bytes] = []
        size = 0
        while chunk := os.read(fd, _CHUNK):
            size += len(chunk)
            if size > limit:  # it grew since the check
                raise DataError([_too_big(name, size, limit, what)])
            chunks.append(chunk)
    except OSError as err:
        raise DataError([unreadable(name, err)]) from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def open_bytes(path: Path, what: str) -> IO[bytes]:
    """A regular file of any size opened for reading (a link to one is followed), for a file read a line at a
    time; refused as ``read_bytes`` refuses, before reading: a FIFO, a device, a socket or a folder."""
    return os.fdopen(_open_checked(path, None, what), "rb")


def _open_checked(path: Path, limit: int | None, what: str) -> int:
    """The file opened, once it and the file opened are both a regular file within ``limit`` (None: any size)."""
    name = str(path)
    try:
        _check(name, os.stat(path), limit, what)
        fd = _open_for_reading(path)
    except OSError as err:
        raise DataError([unreadable(name, err)]) from None
    try:
        _check(name, os.fstat(fd), limit, what)  # the file opened is the one checked
    except OSError as err:
        os.close(fd)
        raise DataError([unreadable(name, err)]) from None
    except BaseException:
        os.close(fd)
        raise
    return fd


def bounded_lines(handle: IO[bytes], limit: int) -> Iterator[bytes | None]:
    """Each line of an open file with its line break, or None for one longer than ``limit`` bytes (passed over
    unread, to its end): a long line costs no more memory than the limit. The line break, LF or CRLF, is not
    counted. Each line is the caller's alone once given (no generator waits holding it), so that a copy it makes
    without the line break is the only one held while the line is used."""
    return iter(functools.partial(_bounded_line, handle, limit), b"")


def _bounded_line(handle: IO[bytes], limit: int) -> bytes | None:
    """The next line of ``bounded_lines``, or b"" at the end of the file."""
    chunk = handle.readline(limit + 2)
    content = len(chunk) - (2 if chunk.endswith(b"\r\n") else 1 if chunk.endswith(b"\n") else 0)
    if content <= limit:
        return chunk
    if not chunk.endswith(b"\n"):
        while (rest := handle.readline(limit)) and not rest.endswith(b"\n"):
            pass
    return None


def _open_for_reading(path: Path) -> int:
    return os.open(path, _OPEN_FLAGS)


def _check(name: str, info: os.stat_result, limit: int | None, what: str) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise DataError([Problem(name, 0, 0, (), f"expected a {what}, found {_kind(info.st_mode)}")])
    if limit is not None and info.st_size > limit:
        raise DataError([_too_big(name, info.st_size, limit, what)])


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "something other than a regular file"


def _too_big(name: str, size: int, limit: int, what: str) -> Problem:
    return Problem(name, 1, 1, (), f"expected a {what} of at most {mebibytes(limit)}, found {size / 1024 / 1024:.1f} MiB")


def unreadable(name: str, err: OSError) -> Problem:
    """The problem of a path that could not be opened or read, in words."""
    if err.errno == errno.ENOENT:
        return Problem(name, 0, 0, (), "no such file or directory")
    if err.errno == errno.ELOOP:
        return Problem(name, 0, 0, (), "a loop of symbolic links: expected a link that ends at a file")
    return Problem(name, 0, 0, (), f"cannot read: {err.strerror or err}")


def yaml_files(target: Path) -> tuple[list[Path], list[Problem]]:
    """The ``*.yaml`` files a path stands for, sorted: itself when it is not a folder, else every one
    under it. Each real folder is entered once: a link to a folder already entered (a link back up the
    tree, a loop) is a problem, as is a link to a folder or a file outside the tree, never entered nor read
    (it could lead anywhere: /tmp, /etc/passwd);
    a name ending in .yaml is otherwise listed whatever it is, for read_bytes to judge."""
    if not os.path.lexists(target):
        return [], [Problem(str(target), 0, 0, (), "no such file or directory")]
    if not target.is_dir():  # also a link loop, which the reader reports
        return [target], []
    found: list[Path] = []
    problems: list[Problem] = []
    entered: set[tuple[int, int]] = set()
    inside = os.path.realpath(target)
    folders = [target]
    while folders:
        folder = folders.pop()
        try:
            info = folder.stat()
            if (info.st_dev, info.st_ino) in entered:
                problems.append(Problem(str(folder), 0, 0, (), "a link to a folder read already: expected each folder once"))
                continue
            entered.add((info.st_dev, info.st_ino))
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError as err:
            problems.append(unreadable(str(folder), err))
            continue
        for entry in listed:
            path = folder / entry.name
            if _is_folder(entry):
                if _links_out(entry, path, inside):
                    problems.append(Problem(str(path), 0, 0, (), "a link out of the folder: expected a folder inside it"))
                    continue
                folders.append(path)
            elif entry.name.endswith(".yaml"):
                if _links_out(entry, path, inside):
                    problems.append(Problem(str(path), 0, 0, (), "a link out of the folder: expected a file inside it"))
                    continue
                found.append(path)
    return sorted(found), problems


def _links_out(entry: os.DirEntry[str], path: Path, inside: str) -> bool:
    """Whether an entry is a link ending outside the folder ``inside`` (a real path), or nowhere but outside it."""
    return entry.is_symlink() and not Path(os.path.realpath(path)).is_relative_to(inside)


def _is_folder(entry: os.DirEntry[str]) -> bool:
    """Whether an entry is a folder or a link to one (a link loop is not: the reader reports it by name)."""
    try:
        return entry.is_dir()
    except OSError:
        return False
