"""A worker process of a run that ended before it answered, told apart by its exit code.

Killed by a signal from outside (the system out of memory, a user), the run stops as that signal would have stopped
it; crashed on its own (SIGSEGV, SIGABRT), it is a fault of the kit's; exited, the kit's code or what it ran ended it.
``trickspec fuzz`` and ``trickspec check-trace`` run worker processes, and both say it so.
"""

from __future__ import annotations

import signal
from typing import Any

# The signals a process raises on itself by a fault of its own; any other ends a worker from outside (the system out
# of memory or past a limit of CPU time or file size, a user, a supervisor).
_OWN_FAULT_NAMES = ("SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT", "SIGSYS", "SIGTRAP")
OWN_FAULT = frozenset(signal.Signals[name] for name in _OWN_FAULT_NAMES if hasattr(signal, name))


class WorkerFailed(RuntimeError):
    """A worker ended without its result (crashed, or exited), or its work raised: a fault of the kit's, said as one
    line; ``where`` holds the traceback of what raised, for a report."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.where = where
        self.batch: Any = None  # the batch it was given and did not answer, where it was given one


class WorkerKilled(WorkerFailed):
    """A worker killed by a signal before it answered: from outside the kit (the system, out of memory, or a user),
    so the run stops as if that signal had stopped it."""

    def __init__(self, message: str, killed_by: signal.Signals) -> None:
        super().__init__(message)
        self.killed_by = killed_by


class WorkerCrashed(WorkerFailed):
    """A worker ended by a signal of its own making (SIGSEGV, SIGABRT): a fault of the kit's."""


def failure(exit_code: int | None) -> WorkerFailed:
    """What ended a worker process before it answered, from its exit code (read once the process is reaped: None if it
    still runs)."""
    if isinstance(exit_code, int) and exit_code < 0:
        try:
            by = signal.Signals(-exit_code)
        except ValueError:  # a signal Python has no name for: none sent from outside is one
            return WorkerCrashed(f"a worker process ended before it answered (signal {-exit_code}: it crashed)")
        if by not in OWN_FAULT:
            said = f"a worker process was killed by {by.name} before it answered (out of memory, or from outside?)"
            return WorkerKilled(said, by)
        return WorkerCrashed(f"a worker process ended before it answered ({by.name}: it crashed)")
    if exit_code is None:  # its end of the pipe closed, and waited for, it has not exited
        return WorkerFailed("a worker process stopped answering and had not ended when waited for")
    return WorkerFailed(f"a worker process ended before it answered (exit code {exit_code})")
