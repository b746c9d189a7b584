"""What an in-process engine prints: kept out of the kit's own output, and shown with its failures.

A served engine has standard output and error of its own; an engine run in the kit's process
shares the kit's. So while an in-process adapter answers a request, what the answering thread
writes to ``sys.stdout`` or ``sys.stderr`` goes to a small buffer of that request's, not to the
terminal or pytest's report, and the last lines of it go with the request's crash or timeout, as
a served engine's standard error does. A thread that never finishes (it timed out) stays routed
to its buffer, which keeps only its last few KiB. The kit's own writes pass through. Whatever the
engine does to ``sys.stdout`` (closes it, replaces it), the kit's stream is put back once it
answers (while a thread that timed out still runs, the routers stay, passing the kit's writes
through). Out of reach: what the engine writes to the file descriptors themselves (``os.write``,
``sys.stdout.buffer``, a C library): serve such an engine over the protocol.
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


class Printed:
    """What one request's engine code has printed: its last ``KEPT_CHARACTERS``."""

    def __init__(self) -> None:
        self._text = ""
        self.abandoned = False  # its request timed out: the kit no longer waits for its thread

    def write(self, text: str) -> None:
        self._text = (self._text + text)[-KEPT_CHARACTERS:]

    def tail(self) -> str:
        """The last lines printed, as a clause for an error message ("" when nothing was)."""
        lines = [line for line in self._text.splitlines() if line.strip()][-SHOWN_LINES:]
        return "; it printed: " + untrusted.text(" | ".join(lines), 1024) if lines else ""


class _Routed:
    """``sys.stdout`` or ``sys.stderr`` while an in-process engine may run: the answering threads'
    writes go to their ``Printed``, everyone else's to the kit's stream."""

    def __init__(self, kit: TextIO) -> None:
        self.kit = kit

    def write(self, text: str) -> int:
        printed = _answering.get(threading.get_ident())
        if printed is None:
            return self.kit.write(text)
        printed.write(str(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if threading.get_ident() not in _answering:
            self.kit.flush()

    def close(self) -> None:
        """An engine closing ``sys.stdout`` closes nothing of the kit's."""

    def __getattr__(self, name: str) -> Any:  # isatty, encoding, fileno...: the kit's stream's
        return getattr(self.kit, name)


@contextmanager
def kept(printed: Printed) -> Iterator[None]:
    """Route what this thread prints to ``printed`` until the block ends (if it ever does); then
    put ``sys.stdout`` and ``sys.stderr`` back as they were, whatever the engine did to them."""
    saved = sys.stdout, sys.stderr
    routers = tuple(stream if isinstance(stream, _Routed) else _Routed(stream) for stream in saved)
    sys.stdout, sys.stderr = routers
    thread = threading.get_ident()
    outer = _answering.get(thread)  # a Python adapter around an in-process engine: the inner one keeps
    _answering[thread] = printed
    try:
        yield
    finally:
        if outer is None:
            del _answering[thread]
        else:
            _answering[thread] = outer
        # A thread that timed out ends when it ends, and leaves the streams to whoever has them now;
        # while it still runs, the routers stay for it.
        if not printed.abandoned:
            sys.stdout, sys.stderr = routers if _answering else saved
