"""The order a run with pytest-xdist workers takes the tests in, so that every core stays busy.

Some tests spend most of their time waiting: on an engine's timeout, or on processes they started
(the ``waits`` marker). Under ``-n auto`` the run has ``LANES`` workers more than the machine has
cores (tests/conftest.py), and as many lanes for these: the tests that wait are laid at the head
of the first ``LANES`` shares, so that while they wait the other workers keep every core busy. In
collection order they would all be one worker's share; the others, done first, would take the
rest of it from the end of its queue, and the run end with every worker waiting at once (as
sampling /proc/stat during a run showed: a core idle for most of its last four seconds).

pytest-xdist's ``worksteal`` hands each worker, at the start, an equal run of the collection in
order (``WorkStealingScheduling.check_schedule``); an idle worker later takes half of the longest
queue left. Every worker collects, and must order the tests alike: the order depends on the tests
alone and on the numbers of workers and lanes, which the controller gives every worker.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

MARKER = "waits"
LANES = 2  # workers beyond the cores under -n auto; the tests that wait take about 20 s of a run


class Marked(Protocol):
    """What is read of a test: its markers (a pytest.Item)."""

    def get_closest_marker(self, name: str) -> object | None: ...


T = TypeVar("T", bound=Marked)


def waits(item: Marked) -> bool:
    return item.get_closest_marker(MARKER) is not None


def shares(total: int, workers: int) -> list[int]:
    """How many tests each worker is handed at the start, as worksteal splits ``total`` among idle workers."""
    out: list[int] = []
    for remaining in range(workers, 0, -1):
        out.append((total - sum(out)) // remaining)
    return out


def laid_out(items: Sequence[T], workers: int, lanes: int, last: Callable[[T], bool]) -> list[T]:
    """``items`` in the order to hand them to ``workers`` workers: the tests that wait split into ``lanes``
    runs of about as many tests, each at the head of a worker's share and filled up with tests that compute
    (a run longer than a share goes on into the next); the tests ``last`` picks at the end. Each kind keeps
    its order. For example, four that wait (w), six that compute (c) and two to run last (s), for four
    workers (shares of three) and two lanes: ``w w c | w w c | c c c | c s s``."""
    ending = [item for item in items if last(item)]
    middle = [item for item in items if not last(item)]
    waiting = [item for item in middle if waits(item)]
    computing = [item for item in middle if not waits(item)]
    if lanes < 1 or workers < 2 or not waiting:
        return [*middle, *ending]
    lanes = min(lanes, workers, len(waiting))
    out: list[T] = []
    taken = 0
    for lane, share in enumerate(shares(len(items), workers)[:lanes]):
        run = waiting[lane * len(waiting) // lanes:(lane + 1) * len(waiting) // lanes]
        fill = max(0, share - len(run))
        out += run + computing[taken:taken + fill]
        taken += fill
    return [*out, *computing[taken:], *ending]
