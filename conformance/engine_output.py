"""What an in-process engine prints: never the kit's output, and shown with its failures.

A served engine has standard output and error of its own; an engine run in the kit's process
shares the kit's. So from an in-process adapter's first request (``route``) to its close
(``unroute``), ``sys.stdout`` and ``sys.stderr`` are routers that tell the kit's writes from the
engine's by thread:

- a thread answering a request (``kept``) writes to that request's ``Printed``: the worker
  answering it, the kit's own thread when there is no timeout, and a worker that timed out, to the
  request it never finished;
- any thread that was not running when the routers went in (one the engine started) writes to the
  ``Printed`` of the request answered last;
- the rest (the kit's threads, a program's that calls the kit) write to the streams that were there.

The last lines of a request's ``Printed`` go with its crash or timeout, made safe, as a served
engine's standard error does (``untrusted.tail``). Whatever the engine does to ``sys.stdout`` or
``sys.stderr`` (closes, replaces, deletes them) while a request is out, the routers are put back
when it ends, answered or not (``put_back``). A stream put in their place between requests (pytest's
capture, from one test to the next) is routed at the next request.

Out of reach in process: what an engine writes to the file descriptors themselves (``os.write``,
``sys.stdout.buffer``, a library in C), through a stream it took before the routers went in (a
``logging`` handler made at import), or into ``sys.stdout`` from its own thread between requests.
Served over the protocol (conformance/serve.py), all of that reaches the kit as standard error.
"""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TextIO

from conformance import untrusted

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
_latest: Printed | None = None  # the request answered last: where the engine's own threads print


def _threads() -> set[int]:
    """Every thread running now, those started with ``_thread`` or from C too (``threading`` lists
    only its own)."""
    return set(sys._current_frames())


@dataclass
class _Routing:
    """While the routers are in: the threads running when they went in (none of them the engine's)
    and the routers themselves, over the streams that were there."""

    before: set[int]
    routers: tuple[Any, Any]


_routing: _Routing | None = None

# What an engine's thread may ask of a router: what it tells about the stream. Anything else
# (detach, reconfigure, buffer) would act on the kit's own stream, so it is not there for the engine.
_TELLS = frozenset({"encoding", "errors", "newlines", "name", "mode", "closed", "line_buffering", "write_through"})


class _Router:
    """``sys.stdout`` or ``sys.stderr`` while an in-process engine may print: each write goes where
    its thread's writes go (the module's docstring says where)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream  # what was there before: the kit's

    def _printed(self) -> Printed | None:
        """Where this thread's writes are kept, or None: the stream's."""
        thread = threading.get_ident()
        printed = _answering.get(thread)
        if printed is None and _routing is not None and thread not in _routing.before:
            return _latest or Printed()  # an engine's thread before any request: nobody reads it
        return printed

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        printed = self._printed()
        if printed is None:
            return self.stream.write(text)
        printed.write(text)
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if self._printed() is None:
            self.stream.flush()

    def close(self) -> None:
        """An engine closing ``sys.stdout`` closes nothing of the kit's."""

    def isatty(self) -> bool:
        """To the engine, never a terminal: its prompt would reach the screen, and its reads the keyboard."""
        return self._printed() is None and self.stream.isatty()

    def __getattr__(self, name: str) -> Any:  # fileno, encoding...: the stream's, for the kit
        if name in _TELLS or self._printed() is None:
            return getattr(self.stream, name)
        raise AttributeError(f"{name!r}: not for an engine run in the kit's process (conformance/engine_output.py)")


def _router(stream: Any) -> Any:
    if stream is None or isinstance(stream, _Router):  # None (no stream at all): print() writes nothing
        return stream
    return _Router(stream)


def route() -> tuple[Any, Any]:
    """Make ``sys.stdout`` and ``sys.stderr`` routers, on the kit's thread as a request to an
    in-process engine begins; the two, for ``put_back`` as it ends."""
    global _routing
    sys.stdout, sys.stderr = routers = _router(sys.stdout), _router(sys.stderr)
    if _routing is None:
        _routing = _Routing(_threads(), routers)
    else:  # new streams since the last request (pytest's capture of the next test) are now the kit's
        _routing.routers = routers
    return routers


def put_back(routers: tuple[Any, Any]) -> None:
    """The routers ``route`` made in place again, whatever the engine put there (or took away) meanwhile."""
    if _routing is not None:  # not unrouted meanwhile (a Python adapter closing its in-process engine)
        sys.stdout, sys.stderr = routers


def unroute() -> None:
    """The streams the routers went in over, back (the in-process engine is closed): in place of the
    routers, or of whatever an engine's thread put there; or, while a thread started since they
    went in still runs (the engine's, which may print yet), the routers themselves."""
    global _routing
    if _routing is None:
        return
    printed = Printed()
    with kept(printed):  # what the engine left in cycles goes now, its __del__ printing where it should
        gc.collect()
    if _threads() - _routing.before:
        sys.stdout, sys.stderr = _routing.routers
        return
    sys.stdout, sys.stderr = (getattr(stream, "stream", stream) for stream in _routing.routers)
    _routing = None


@contextmanager
def kept(printed: Printed) -> Iterator[None]:
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
