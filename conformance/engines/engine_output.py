"""What an in-process engine prints: never the kit's output, and shown with its failures.

A served engine has standard output and error of its own; an engine run in the kit's process
shares the kit's. So from the moment an in-process engine the kit did not write is loaded
(``opened``, before its module is imported) to its close (``closed``), ``sys.stdout``,
``sys.stderr`` and ``sys.stdin`` are routers that tell the kit's threads from the engine's:

- a thread answering a request (``prints_to``) writes to that request's ``Printed``: the worker
  answering it, the kit's own thread when there is no timeout, and a worker that timed out, to the
  request it never finished;
- any thread that was not running when the engine was loaded (one the engine started, at import
  or since) writes to the ``Printed`` of the request begun last;
- the rest (the kit's threads, a program's that calls the kit) write to the streams that were there.

To the engine's threads the streams are no terminal, ``reconfigure`` changes nothing, ``buffer``
and ``detach()`` take bytes into the same ``Printed``, and standard input is at its end. The last
lines of a request's ``Printed`` go with its crash or timeout, made safe, as a served engine's
standard error does (``untrusted.tail``). Whatever the engine does to the streams (closes,
replaces, deletes them) while a request is out, the routers are back when it ends, answered or not
(``request``). A stream put in their place between requests (pytest's capture, from one test to
the next) is taken for the kit's and routed at the next request. Once every engine is closed the
kit's streams are back, unless a thread an engine started still runs: then the routers stay, for
its threads alone.

Out of reach in process: what an engine writes to the file descriptors themselves (``os.write``,
a library in C), to ``sys.__stdout__``, through a stream it took before it was loaded, or into
``sys.stdout``'s place from its own thread between requests. Served over the protocol
(conformance/engines/serve.py), all of that reaches the kit as standard error.
"""

from __future__ import annotations

import gc
import sys
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TextIO

from conformance.text import untrusted

# What is kept of one request's output: its last characters, enough for a few lines of a traceback.
KEPT_CHARACTERS = 4096


class Printed:
    """What the engine printed while one request was out: about its last ``KEPT_CHARACTERS``."""

    def __init__(self) -> None:
        self._chunks: list[str] = []
        self._size = 0
        self._lock = threading.Lock()  # the engine's threads may print at once

    def write(self, text: str) -> None:
        with self._lock:
            self._chunks.append(text)
            self._size += len(text)
            if self._size > 2 * KEPT_CHARACTERS:  # joined only now and then: each write costs the same
                last = "".join(self._chunks)[-KEPT_CHARACTERS:]
                self._chunks, self._size = [last], len(last)

    def tail(self) -> str:
        """Its last lines, as a clause for an error message (``; it printed: a | b``, or "")."""
        with self._lock:
            printed = "".join(self._chunks)[-KEPT_CHARACTERS:]
        return untrusted.tail("it printed", printed.splitlines())


_answering: dict[int, Printed] = {}  # the threads answering a request, and what each has printed
_latest: Printed | None = None  # the request begun last: where the engine's own threads print


def _threads() -> set[int]:
    """Every thread running now, those started with ``_thread`` or from C too (``threading`` lists
    only its own)."""
    return set(sys._current_frames())


@dataclass
class _Routing:
    """While the routers are in: the threads taken for the kit's (or the program's that calls it),
    the threads known to be an engine's (still running when its engine was closed), the routers
    themselves, over the streams that were there, and how many in-process engines are open."""

    before: set[int]
    routers: tuple[Any, Any, Any]
    engine_threads: set[int] = field(default_factory=set)
    engines: int = 0


_routing: _Routing | None = None


def _printed() -> Printed | None:
    """Where the calling thread's writes go, or None: to the kit's streams."""
    thread = threading.get_ident()
    printed = _answering.get(thread)
    if printed is not None or _routing is None:
        return printed
    started_by_an_engine = _routing.engines > 0 and thread not in _routing.before
    if started_by_an_engine or thread in _routing.engine_threads:
        return _latest or Printed()  # an engine's thread before any request: nobody reads it
    return None


class _Bytes:
    """``buffer``, or what ``detach()`` gives, to an engine: bytes written go to its ``Printed``."""

    def __init__(self, printed: Printed) -> None:
        self._printed = printed

    def write(self, data: bytes) -> int:
        self._printed.write(bytes(data).decode("utf-8", "replace"))
        return len(data)

    def flush(self) -> None:
        pass

    def writable(self) -> bool:
        return True


class _NoBytes:
    """Standard input's ``buffer``, or what ``detach()`` gives, to an engine: bytes at their end."""

    def read(self, size: int = -1) -> bytes:
        return b""

    def readline(self, size: int = -1) -> bytes:
        return b""

    def readlines(self, hint: int = -1) -> list[bytes]:
        return []

    def __iter__(self) -> Iterator[bytes]:
        return iter(())

    def readable(self) -> bool:
        return True


class _Router:
    """``sys.stdout`` or ``sys.stderr`` while an in-process engine may print: each write goes where
    its thread's writes go (the module's docstring says where). To an engine's thread it is no
    terminal, its ``buffer`` (or what ``detach`` gives) takes bytes into the same ``Printed``, and
    ``reconfigure`` changes nothing: the kit's own stream is never the engine's to change."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream  # what was there before: the kit's

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        printed = _printed()
        if printed is None:
            return self._stream.write(text)
        printed.write(text)
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if _printed() is None:
            self._stream.flush()

    def close(self) -> None:
        """An engine closing ``sys.stdout`` closes nothing of the kit's."""

    def isatty(self) -> bool:
        return _printed() is None and self._stream.isatty()

    def reconfigure(self, **options: Any) -> None:
        if _printed() is None:
            self._stream.reconfigure(**options)  # type: ignore[attr-defined]

    def detach(self) -> Any:
        printed = _printed()
        return self._stream.detach() if printed is None else _Bytes(printed)  # type: ignore[attr-defined]

    @property
    def buffer(self) -> Any:
        printed = _printed()
        return self._stream.buffer if printed is None else _Bytes(printed)

    def __getattr__(self, name: str) -> Any:  # fileno, encoding, writable...: the stream's
        return getattr(self._stream, name)


class _Input:
    """``sys.stdin`` while an in-process engine may run: to an engine's thread, at its end at once
    (``input()`` raises EOFError), so it neither waits on the kit's terminal nor takes what was
    meant for the kit; to the kit's threads, the stream that was there."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def read(self, size: int = -1) -> str:
        return self._stream.read(size) if _printed() is None else ""

    def readline(self, size: int = -1) -> str:
        return self._stream.readline(size) if _printed() is None else ""

    def readlines(self, hint: int = -1) -> list[str]:
        return self._stream.readlines(hint) if _printed() is None else []

    @property
    def buffer(self) -> Any:
        return self._stream.buffer if _printed() is None else _NoBytes()

    def detach(self) -> Any:
        return self._stream.detach() if _printed() is None else _NoBytes()  # type: ignore[attr-defined]

    def __iter__(self) -> Iterator[str]:
        return iter(self._stream) if _printed() is None else iter(())

    def isatty(self) -> bool:
        return _printed() is None and self._stream.isatty()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _router(stream: Any, kind: type) -> Any:
    if stream is None or isinstance(stream, kind):  # None (no stream at all): print() writes nothing
        return stream
    return kind(stream)


def _route() -> tuple[Any, Any, Any]:
    global _routing
    sys.stdout, sys.stderr, sys.stdin = routers = (
        _router(sys.stdout, _Router), _router(sys.stderr, _Router), _router(sys.stdin, _Input))
    if _routing is None:
        _routing = _Routing(_threads(), routers)
    else:  # new streams since the last request (pytest's capture of the next test) are now the kit's
        _routing.routers = routers
    return routers


@contextmanager
def request() -> Iterator[None]:
    """On the kit's thread, around one request to an in-process engine (or one call of a Python
    adapter): the standard streams are routers from its start, and again at its end, whatever the
    engine put in their place (or took away) meanwhile. They stay routers after it, until ``closed``."""
    routers = _route()
    try:
        yield
    finally:
        if _routing is not None:  # not unrouted meanwhile (a Python adapter closing its in-process engine)
            sys.stdout, sys.stderr, sys.stdin = routers


def opened_for(owner: object) -> Callable[[], None]:
    """``opened``, for ``owner`` (an adapter); the ``closed`` to call when it closes, called once, and
    by itself if the owner is collected unclosed (a test's adapter, dropped)."""
    opened()
    return weakref.finalize(owner, closed)


def opened() -> None:
    """An in-process engine the kit did not write is being opened (before its module is imported,
    so that threads it starts then are known for its): the streams are routed until it is closed."""
    _route()
    assert _routing is not None
    if _routing.engines == 0:  # the threads started since the last engine closed are the program's
        _routing.before = _threads() - _routing.engine_threads
    else:  # a program's thread that has ended may lend its ident to one this engine starts: it is not kept
        _routing.before &= _threads()
    _routing.engines += 1


def closed() -> None:
    """An engine ``opened`` is closed. Once none is open, the streams the routers went in over are
    back, in place of the routers or of whatever an engine's thread put there; unless a thread an
    engine started still runs, which may print yet: then the routers stay, for its threads alone."""
    global _routing
    if _routing is None:
        return
    if _routing.engines > 1:
        _routing.engines -= 1
        return
    # What the engine left in cycles goes now, its __del__ printing where it should (and, this once,
    # what the kit's own collection would print with it). Its threads are known for its before the
    # count falls to none: until then they print as an open engine's, never onto the kit's streams.
    with prints_to(Printed()):
        gc.collect()
    if _routing is None:  # closed meanwhile, by a finalizer the collection ran
        return
    running = _threads()
    _routing.engine_threads = (_routing.engine_threads | (running - _routing.before)) & running
    _routing.engines = 0
    if _routing.engine_threads:
        sys.stdout, sys.stderr, sys.stdin = _routing.routers
        return
    sys.stdout, sys.stderr, sys.stdin = (getattr(stream, "_stream", stream) for stream in _routing.routers)
    _routing = None


def engine_threads() -> frozenset[int]:
    """The threads known to be an engine's, still running when its engine was closed (by ident)."""
    return frozenset(_routing.engine_threads) if _routing is not None else frozenset()


@contextmanager
def prints_to(printed: Printed) -> Iterator[None]:
    """On the thread answering a request: what it prints goes to ``printed`` until the block ends
    (if it ever does), and what the engine's own threads print meanwhile."""
    global _latest
    thread = threading.get_ident()
    outer = _answering.get(thread)  # a Python adapter around an in-process engine: the inner one keeps it
    _answering[thread] = _latest = printed
    try:
        yield
    finally:
        if outer is None:
            del _answering[thread]
        else:
            _answering[thread] = outer
