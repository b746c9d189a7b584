"""A worker process sent SIGTERM when the run that started it dies, however it dies (SIGKILL included).

A worker otherwise notices its parent has gone only when it next reads or writes their pipe: one waiting on a hung
engine would go on for as long as its batch takes, and its engines with it. SIGTERM, not SIGKILL, so that the worker
ends its engines on the way out.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
_POLL = 0.5  # seconds between two looks at the parent where the system cannot signal its death


def end_with_parent() -> None:
    """In a worker started by ``multiprocessing``: have SIGTERM sent to it when the process that started it dies; sent
    at once if it has died already. That process must not end the thread that started the worker while the worker
    runs: on Linux, that thread's end counts as its death."""
    parent = multiprocessing.parent_process()
    if sys.platform == "win32" or parent is None or parent.pid is None:  # on Windows, a worker sees its pipe close
        return
    if not _set_pdeathsig():
        threading.Thread(target=_watch, args=(parent.pid,), name="parent-death", daemon=True).start()
    elif os.getppid() != parent.pid:  # it died before the call (the worker has another parent then): nothing would tell
        os.kill(os.getpid(), signal.SIGTERM)


def _set_pdeathsig() -> bool:
    """Linux's own way: the kernel signals the worker as its parent dies, with nothing of the worker's left running."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None)  # the symbols already loaded, the C library's among them: nothing to look up
        return bool(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) == 0)
    except (OSError, AttributeError):  # no C library loaded, or one with no prctl
        return False


def _watch(parent: int) -> None:
    """Elsewhere: a look now and then at the worker's parent, which changes as it dies."""
    while os.getppid() == parent:
        time.sleep(_POLL)
    os.kill(os.getpid(), signal.SIGTERM)
