"""Threads an in-process engine leaves running: Python's exit waits for every thread that is no daemon,
so one an engine started and left (a worker pool, a loop that never ends) would keep the kit's process
from ever exiting once its run is over. The process ends without it instead, as Python's exit would
end it but for that wait: the ``atexit`` handlers run, the streams are flushed, and the status is the
one the run chose.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import NoReturn

from conformance.engines import engine_output

GRACE_SECONDS = 2.0  # under pytest, for the threads taken for an engine's to end by themselves
_exit_status = 0  # for the exit of a pytest process: the status of the session that ended last
_watching = False


def threads_left(*, only_the_engines: bool) -> int:
    """How many threads, no daemon, still run beside this one: those an engine started, or with
    ``only_the_engines=False`` any (in a process the kit owns, whose own threads are all daemons)."""
    if only_the_engines:
        return len(_engine_threads())
    return sum(1 for thread in threading.enumerate() if not thread.daemon and thread is not threading.current_thread())


def _engine_threads() -> list[threading.Thread]:
    engines = engine_output.engine_threads()
    return [thread for thread in threading.enumerate() if not thread.daemon and thread.ident in engines]


def end_now(status: int, left: int) -> NoReturn:
    """End the process with ``status``, as Python's exit would, but without waiting for ``left`` threads."""
    print(f"note: {left} thread(s) an engine started still run; the process ends without waiting for them", file=sys.stderr)
    atexit._run_exitfuncs()  # what os._exit would skip: engines to end, data to save
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(status)


def end_at_exit_without_engine_threads(status: int) -> None:
    """At this process's exit, end it with ``status`` if threads an engine started would hold it up.
    For the pytest plugin, in a process it does not own: only the engine's threads count, and the
    status is that of the last session to end (an outer one ends after any run inside it)."""
    global _exit_status, _watching
    _exit_status = status
    # threading's own hook, called as Python's exit begins and before it waits for the threads
    # (what concurrent.futures uses); atexit's handlers would come only after that wait.
    register: Callable[[Callable[[], None]], None] | None = getattr(threading, "_register_atexit", None)
    if _watching or register is None:
        return
    with contextlib.suppress(RuntimeError):  # the exit has begun already
        register(_at_exit)
        _watching = True


def _at_exit() -> None:
    # A thread the program itself started while the engine was open is taken for the engine's too
    # (engine_output: nothing tells them apart), so each is given a few seconds to end first.
    deadline = time.monotonic() + GRACE_SECONDS
    for thread in _engine_threads():
        thread.join(max(0.0, deadline - time.monotonic()))
    left = threads_left(only_the_engines=True)
    if left:
        end_now(_exit_status, left)
