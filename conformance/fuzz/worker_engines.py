"""The engines a fuzz worker process runs, published to the campaign's process as they start and end.

A worker ends its engines itself when it is told to stop; killed (by the system out of memory, or from outside), it
cannot, and they would outlive the campaign: a hung engine, or what an engine started, holds on. The campaign ends
them from what the worker last published, each with its process group and session, whatever is left of the worker.
"""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

from conformance.engines import engine_process

# Engines a worker runs at once: the kit's adapters one (protocol.SubprocessAdapter starts the next only once the last
# has ended); the rest is room for an adapter of the user's loaded with --in-process, which may open several.
SLOTS = 32
NO_SLOT = 70  # the exit status of a worker that started an engine it could not list (EX_SOFTWARE: the kit's fault)


class WorkerEngines:
    """One worker's engines by pid, in memory shared with the campaign's process. Each change is one slot written
    (a start where a slot is free, an end where its pid is), so a worker killed at any moment leaves every engine it
    started and has not ended listed; and nothing is locked, so none is left held."""

    def __init__(self, context: Any) -> None:
        self._pids = context.RawArray("q", SLOTS)

    def publish(self) -> None:
        """In the worker: have every engine it starts from now on listed here until it has ended."""
        engine_process.watch(self._changed)

    def _changed(self, pid: int, running: bool) -> None:
        for slot in range(SLOTS):
            if self._pids[slot] == (0 if running else pid):
                self._pids[slot] = pid if running else 0
                return
        if running:  # ended, and the worker with it, rather than run unlisted: a killed worker's engine would outlive the run
            _unlisted(pid)

    def end(self) -> None:
        """In the campaign's process: end every engine listed, with whatever it started (SIGKILL: the worker that
        would have asked them to stop is gone, or deaf to being told)."""
        if sys.platform == "win32":  # no process groups: each engine sees its input close as the worker ends
            return
        for slot in range(SLOTS):
            if pid := self._pids[slot]:
                engine_process.signal_session(pid, signal.SIGKILL)
                self._pids[slot] = 0


def _unlisted(pid: int) -> None:
    """An engine started with every slot taken: ended at once with what it started, then the worker, which the campaign
    says is the kit's fault (a worker going on would leave an engine no one could end were it killed). It takes no
    lock: the list of engines' is held (engine_process.watch)."""
    if sys.platform != "win32":  # elsewhere the engine sees its input close as the worker ends
        engine_process.signal_session(pid, signal.SIGKILL)
    said = f"trickspec: a fuzz worker started more than {SLOTS} engines at once, more than it can list to end: it stops\n"
    os.write(2, said.encode())
    os._exit(NO_SLOT)
