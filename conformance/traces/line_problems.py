"""The problems of one trace line, located only as far as a run lists them.

A line of megabytes can hold hundreds of thousands of problems (a key that names no field, written in every
snapshot): each one located is a walk of the line to its column and an object held and sent on, for a list no
report shows past ``limits.MAX_PROBLEMS``. So a line keeps the first it finds up to that bound (less where the run
already lists that many before it), and past it counts the rest where their messages cost little to make, or else
only learns that there are more.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from specreader import limits
from specreader.jsontypes import JsonPath
from specreader.problems import Problem

Found = tuple[JsonPath, str, bool]  # a problem's path in the line, its message, and whether it is about a key
Item = TypeVar("Item")


@dataclass(frozen=True)
class NoGame:
    """A line that is no game: its problems, located, and how many more it has past them, which were not: their
    number, or (``counted`` off) how many at least."""

    problems: list[Problem]
    more: int = 0
    counted: bool = True


@dataclass
class Tally:
    """The problems of one line as they are found, the first ``room`` of them kept to be located."""

    room: int = field(default_factory=lambda: limits.MAX_PROBLEMS)
    kept: list[Found] = field(default_factory=list)
    more: int = 0
    counted: bool = True  # ``more`` is their number; else how many at least

    def __len__(self) -> int:
        """The problems found, kept or not."""
        return len(self.kept) + self.more

    def add(self, found: Found) -> None:
        """One problem."""
        self.count([found], _as_found)

    def count(self, found: Iterable[Item], said: Callable[[Item], Found]) -> None:
        """Problems that cost little to find but more to say (``said`` makes each one's message): those past the
        room only counted."""
        items = iter(found)
        self.kept += map(said, itertools.islice(items, self._left()))
        self.more += sum(1 for _ in items)

    def looked_for(self, found: list[Found], most: int) -> None:
        """Problems of a search that stopped once it found ``most`` (``wanted()``): that many found, there may be
        more past them, not looked for."""
        left = self._left()
        self.kept += found[:left]
        self.more += len(found[left:])
        if len(found) >= most:
            self.counted = False

    def wanted(self) -> int:
        """How many problems a search should look for: the room left, and one more, which tells whether there are
        more than it holds."""
        return self._left() + 1

    def _left(self) -> int:
        return max(0, self.room - len(self.kept))


def _as_found(found: Found) -> Found:
    return found
