"""Batches judged in worker processes, their results given back in the order the batches were read.

Written here rather than taken from ``multiprocessing.Pool``: a pool's workers share one task queue behind a lock,
and one killed while holding it (Ctrl-C can come at any moment) leaves the ending pool waiting for ever. Here each
worker has a pipe of its own and one batch at a time, and shares nothing else: on a stop every worker is killed,
and nothing anyone waits for goes with it.
"""

from __future__ import annotations

import contextlib
import signal
from collections import deque
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from typing import Any, Generic, TypeVar

from conformance.engines import interrupt
from conformance.engines.adapter import describe_error
from conformance.run import kit_faults, parent_death, worker_ends
from conformance.run.worker_ends import WorkerFailed

Batch = TypeVar("Batch")
Result = TypeVar("Result")

_STOP = None  # what a worker is sent when no batch is left
_JOIN_SECONDS = 5.0  # how long an ending worker is waited for before it is killed


def _serve(work: Callable[[Any], Any], link: Connection, parents: list[Connection]) -> None:
    """A worker process: a batch in, its result out, until told to stop, or until its parent is gone (ended by the
    SIGTERM that says so, even mid-batch)."""
    for end in parents:  # the parent's ends of the pipes, copied in as it forked: held here, a pipe would never tell
        end.close()  # the worker that its parent was killed outright, and it would wait for ever
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it kills the workers
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the parent's trap, inherited, would raise here and print it
    interrupt.unblock_signals()  # started with every signal blocked; taken again once handled so
    parent_death.end_with_parent()  # the pipe tells only between batches: one of long matches goes on long after
    try:
        while (batch := link.recv()) is not _STOP:
            try:
                answer: tuple[str, Any] = ("done", work(batch))
            except Exception as err:
                answer = ("raised", (describe_error(err), kit_faults.traceback_of(err)))
            link.send(answer)
    except (EOFError, OSError):  # the parent is gone: no one is left to answer
        return


class Workers(Generic[Batch, Result]):
    """``jobs`` worker processes running ``work`` (a function a worker can be given: module-level, or a partial
    of one) on batches."""

    def __init__(self, context: Any, jobs: int, work: Callable[[Batch], Result]) -> None:
        self._context, self._jobs, self._work = context, jobs, work
        self._links: list[Connection] = []
        self._processes: list[Any] = []
        self._given: dict[int, Batch] = {}  # each worker's last batch: the one a failure leaves unanswered

    def start(self) -> None:
        """Start the workers: called once the caller holds this object, so that a stop (held back while they start,
        and taken as soon as they have) or a failed start still finds every one started, to end it."""
        try:
            with interrupt.signals_blocked():  # a worker takes signals only once its own handlers are set
                for _ in range(self._jobs):
                    mine, theirs = self._context.Pipe()
                    parents = [*self._links, mine]
                    process = self._context.Process(target=_serve, args=(self._work, theirs, parents), daemon=True)
                    self._links.append(mine)
                    self._processes.append(process)
                    process.start()
                    theirs.close()
        except BaseException:
            self.kill()
            raise

    def results(self, batches: Iterator[Batch]) -> Iterator[Result]:
        """Each batch's result, in the order of the batches: each idle worker is given the next batch, and the
        oldest batch's result is awaited first."""
        idle = deque(range(len(self._links)))
        pending: deque[int] = deque()
        left = True
        while True:
            while idle and left:
                batch = next(batches, None)
                if batch is None:
                    left = False
                    break
                worker = idle.popleft()
                self._given[worker] = batch
                try:
                    self._links[worker].send(batch)
                except OSError:  # it ended while the batch was on its way
                    raise self._failed(worker, self._ended(worker)) from None
                pending.append(worker)
            if not pending:
                return
            worker = pending.popleft()
            yield self._answer(worker)
            idle.append(worker)

    def _answer(self, worker: int) -> Result:
        try:
            kind, value = self._links[worker].recv()
        except (EOFError, OSError):
            raise self._failed(worker, self._ended(worker)) from None
        if kind == "raised":
            said, where = value
            raise self._failed(worker, WorkerFailed(f"a worker's judging raised {said}", where))
        return value  # type: ignore[no-any-return]

    def _failed(self, worker: int, failed: WorkerFailed) -> WorkerFailed:
        failed.batch = self._given.get(worker)
        return failed

    def _ended(self, worker: int) -> WorkerFailed:
        process = self._processes[worker]
        process.join(_JOIN_SECONDS)  # reaped, so that its exit code is known
        return worker_ends.failure(process.exitcode)

    def close(self) -> None:
        """Tell each worker to stop and wait for it; killed if it does not end, or if a stop comes meanwhile."""
        try:
            for link in self._links:
                with contextlib.suppress(OSError):  # it ended already
                    link.send(_STOP)
            for process in self._processes:
                process.join(_JOIN_SECONDS)
        finally:
            self.kill()

    def kill(self) -> None:
        """End every worker now, whatever it is doing."""
        for process in self._processes:
            if process.is_alive():
                process.kill()
        for process in self._processes:
            if process.pid is not None:  # one whose start failed has nothing to wait for
                process.join()
        for link in self._links:
            link.close()
        self._processes, self._links = [], []
