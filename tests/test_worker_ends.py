"""What ended a worker process of fuzz or check-trace before it answered, told by its exit code."""

from __future__ import annotations

import signal

import pytest

from conformance.run.worker_ends import WorkerCrashed, WorkerFailed, WorkerKilled, failure


@pytest.mark.parametrize(
    ("exit_code", "kind", "said"),
    [
        (-signal.SIGKILL, WorkerKilled, "a worker process was killed by SIGKILL before it answered (out of memory, or from "
                                        "outside?)"),
        (-signal.SIGSEGV, WorkerCrashed, "a worker process ended before it answered (SIGSEGV: it crashed)"),
        (-signal.SIGBUS, WorkerCrashed, "a worker process ended before it answered (SIGBUS: it crashed)"),
        # the system past a CPU-time limit, a user or a supervisor: from outside, as SIGKILL is
        (-signal.SIGXCPU, WorkerKilled, "a worker process was killed by SIGXCPU before it answered (out of memory, or "
                                        "from outside?)"),
        (-signal.SIGUSR1, WorkerKilled, "a worker process was killed by SIGUSR1 before it answered (out of memory, or "
                                        "from outside?)"),
        (3, WorkerFailed, "a worker process ended before it answered (exit code 3)"),
        (None, WorkerFailed, "a worker process stopped answering and had not ended when waited for"),
    ],
)
def test_a_worker_s_end_is_told_by_its_exit_code(exit_code: int | None, kind: type[WorkerFailed], said: str) -> None:
    """None is a worker that still runs: it is never said to have ended."""
    ended = failure(exit_code)
    assert type(ended) is kind and str(ended) == said
