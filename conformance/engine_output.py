"""What an in-process engine prints: kept out of the kit's own output, and shown with its failures.

A served engine has standard output and error of its own; an engine run in the kit's process
shares the kit's. So from an in-process adapter's first request (``routed``, on the kit's thread)
to its close, ``sys.stdout`` and ``sys.stderr`` are routers: the kit's thread writes through them, and
every other thread's writes (the answering worker's, threads the engine starts, a thread that
timed out) go to the buffer of the request being answered (``kept``, on the answering thread),
which keeps its last few KiB; its last lines go with the request's crash or timeout, as a served
engine's standard error does. When an engine answers on the kit's own thread (no timeout), that
thread's writes are kept too while it answers. Whatever the engine does to ``sys.stdout`` (closes
it, replaces it), the kit's thread puts its routers back when the request ends, answered or not.
A stream put in their place since (pytest's capture, between tests) is routed at the next request.

Out of reach: what the engine writes to the file descriptors themselves (``os.write``,
``sys.stdout.buffer``, a C library) or through a stream it took before the kit routed them (a
``logging`` handler made at import): serve such an engine over the protocol
(conformance/serve.py sends its answers on a descriptor of its own).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from conformance import untrusted

# What is kept of one request's output: its last characters, enough for a few lines of a traceback.
KEPT_CHARACTERS = 4096
# Its last lines shown with a failure, as a served engine's standard error is (conformance/protocol.py).
SHOWN_LINES = 5

_answering: dict[int, Printed] = {}  # the threads answering a request now, and what each printed
_latest: list[Printed] = []  # the request answered last: where the engine's other threads' writes go
_threads_before: set[int | None] = set()  # the threads alive when the routers went in: none of them the engine's


class Printed:
    """What one request's engine code has printed: its last ``KEPT_CHARACTERS`` or so."""

    def __init__(self) -> None:
        self._chunks: list[str] = []
        self._size = 0

    def write(self, text: str) -> None:
        self._chunks.append(text)
        self._size += len(text)
        if self._size > 2 * KEPT_CHARACTERS:  # joined only now and then: a write costs the same, however many
            kept = "".join(self._chunks)[-KEPT_CHARACTERS:]
            self._chunks, self._size = [kept], len(kept)

    def tail(self) -> str:
        """The last lines printed, as a clause for an error message ("" when nothing was)."""
        text = "".join(self._chunks)[-KEPT_CHARACTERS:]
        lines = [line for line in text.splitlines() if line.strip()][-SHOWN_LINES:]
        return "; it printed: " + untrusted.text(" | ".join(lines), 1024) if lines else ""


class _Router:
    """``sys.stdout`` or ``sys.stderr`` while an in-process engine may run: the kit's thread writes
    to the kit's stream; an answering thread, or any other, to its request's ``Printed``."""

    def __init__(self, kit: TextIO, kit_thread: int) -> None:
        self.kit = kit
        self.kit_thread = kit_thread

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        thread = threading.get_ident()
        printed = _answering.get(thread)
        if printed is None and thread == self.kit_thread:
            return self.kit.write(text)
        if printed is None and _latest:
            printed = _latest[-1]
        if printed is not None:
            printed.write(text)
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if threading.get_ident() == self.kit_thread and threading.get_ident() not in _answering:
            self.kit.flush()

    def close(self) -> None:
        """An engine closing ``sys.stdout`` closes nothing of the kit's."""

    def __getattr__(self, name: str) -> Any:  # isatty, encoding, fileno...: the kit's stream's
        return getattr(self.kit, name)


def _router(stream: Any, thread: int) -> Any:
    if stream is None or isinstance(stream, _Router):  # None: print() writes nothing, as it would
        return stream
    return _Router(stream, thread)


@contextmanager
def routed() -> Iterator[None]:
    """On the kit's thread, around one request to an in-process engine: ``sys.stdout`` and
    ``sys.stderr`` are routers from now on, and are again when it ends, whatever the engine put in
    their place (a thread the engine started may print at any time); ``unrouted`` ends that."""
    thread = threading.get_ident()
    if not isinstance(sys.stdout, _Router):
        _threads_before.clear()
        _threads_before.update(t.ident for t in threading.enumerate())
    routers = _router(sys.stdout, thread), _router(sys.stderr, thread)
    sys.stdout, sys.stderr = routers
    try:
        yield
    finally:
        sys.stdout, sys.stderr = routers


def unrouted() -> None:
    """The kit's streams back in place of the routers (the in-process engine is closed), unless a
    thread started since they went in still runs: the engine's, it may print yet."""
    if any(t.ident not in _threads_before for t in threading.enumerate()):
        return
    if isinstance(sys.stdout, _Router):
        sys.stdout = sys.stdout.kit
    if isinstance(sys.stderr, _Router):
        sys.stderr = sys.stderr.kit


@contextmanager
def kept(printed: Printed) -> Iterator[None]:
    """On the thread answering a request: what it prints goes to ``printed`` until the block ends
    (if it ever does), as does what the engine's other threads print meanwhile."""
    thread = threading.get_ident()
    outer = _answering.get(thread)  # a Python adapter around an in-process engine: the inner one keeps
    _answering[thread] = printed
    _latest[:] = [printed]
    try:
        yield
    finally:
        if outer is None:
            del _answering[thread]
        else:
            _answering[thread] = outer
