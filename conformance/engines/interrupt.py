"""Ctrl-C (SIGINT) and SIGTERM during a run become one ``Interrupted``, raised where the kit can stop cleanly.

Inside ``trapped()`` the first of these signals raises ``Interrupted`` in the main thread; later ones
are ignored while the kit closes its log and writes its reports. Code inside ``deferred()`` is never
cut in half: a signal arriving there is raised when it ends (a log line is written whole, an engine
started is registered to be ended). A SIGHUP (the terminal closed) ends the engines, then the kit as
the signal ends a process: there is no one left to read a report.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

SIGNALS = (signal.SIGINT, signal.SIGTERM)
HANGUP: signal.Signals | None = getattr(signal, "SIGHUP", None)  # none on Windows


class Interrupted(BaseException):
    """The run was stopped by a signal. A BaseException, so no ``except Exception`` takes it for an engine's failure."""

    def __init__(self, signum: int) -> None:
        self.signal = signal.Signals(signum)
        super().__init__(f"interrupted by {self.signal.name}")

    @property
    def exit_status(self) -> int:
        return exit_status(self.signal.name)


def exit_status(signal_name: str) -> int:
    """What a shell reports for a process ended by this signal: 130 for SIGINT, 143 for SIGTERM."""
    return 128 + int(signal.Signals[signal_name])


class _State:
    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.trapping = False
        self.deferring = 0
        self.pending: int | None = None
        self.raised = False


_state = _State()


def _on_signal(signum: int, frame: FrameType | None) -> None:
    if _state.raised or _state.pending is not None:
        return  # the run is already stopping
    _state.pending = signum
    if not _state.deferring:
        _raise_pending()


def _on_hangup(signum: int, frame: FrameType | None) -> None:
    """The engines run in sessions of their own, which a terminal's hangup never reaches: the kit ends them, then
    itself as the signal would have (it skips ``atexit``, which would have ended them)."""
    from conformance.engines import engine_process  # here: it imports this module

    engine_process.killed_by(signum)


def _raise_pending() -> None:
    signum = _state.pending
    if signum is not None and not _state.raised:
        _state.raised = True
        raise Interrupted(signum)


def stopping() -> bool:
    """Whether a signal trapped by ``trapped()`` is stopping the run: an engine is then ended at once, not asked to
    stop and given time to."""
    return _state.raised or _state.pending is not None


@contextmanager
def trapped() -> Iterator[None]:
    """SIGINT and SIGTERM raise ``Interrupted`` inside, and SIGHUP ends the engines, then the kit; the handlers before
    are restored after.
    A signal ignored on entry stays ignored (a shell ignores SIGINT for the jobs it runs in the background)."""
    if threading.current_thread() is not threading.main_thread() or _state.trapping:
        yield  # signals reach only the main thread's handlers, and one trap is enough
        return
    previous = {signum: signal.signal(signum, _on_signal) for signum in SIGNALS if signal.getsignal(signum) != signal.SIG_IGN}
    if HANGUP is not None and signal.getsignal(HANGUP) != signal.SIG_IGN:  # nohup's is left ignored
        previous[HANGUP] = signal.signal(HANGUP, _on_hangup)
    _state.trapping = True
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        _state.reset()


@contextmanager
def deferred() -> Iterator[None]:
    """A signal arriving inside is raised when the block ends, not in the middle of it."""
    _state.deferring += 1
    try:
        yield
    finally:
        _state.deferring -= 1
        if not _state.deferring:
            _raise_pending()  # even over an exception from the block: the signal must not be lost


@contextmanager
def signals_blocked() -> Iterator[None]:
    """Threads and processes started inside take no signal (they inherit the mask), the main thread's own mask
    restored after. The kernel gives a process's signal to any thread not blocking it, and Python runs handlers
    only in the main thread: taken by another thread, a signal waits, unseen, while the main thread blocks."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal goes to a thread of one's choosing
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def unblock_signals() -> None:
    """Take signals again: in a process started inside ``signals_blocked``."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, signal.valid_signals())
