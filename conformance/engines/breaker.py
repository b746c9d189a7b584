"""The circuit breaker: after a few stalls in a row an engine is given up on, and the run ends quickly.

A stall is a scenario that timed out or a restart that failed. An engine that hangs on everything
would otherwise cost the full timeout for every scenario left; once the breaker opens, each of them
is answered at once as ``engine-unavailable``.
"""

from __future__ import annotations

from conformance.vocabulary import EngineError, ErrorKind

# Stalls in a row after which the engine is given up on (--give-up-after).
GIVE_UP_AFTER = 3


class Breaker:
    def __init__(self, limit: int = GIVE_UP_AFTER) -> None:
        if limit < 1:
            raise ValueError(f"expected at least 1 stall before giving up, found {limit}")
        self.limit = limit
        self._stalls = 0
        self._last = ""

    def stall(self, why: str) -> None:
        """The engine timed out, or could not be restarted."""
        self._stalls += 1
        self._last = why

    def answered(self) -> None:
        """The engine answered something: it is alive, and the count starts again."""
        self._stalls = 0

    @property
    def open(self) -> EngineError | None:
        """Once the engine is given up on, the error every scenario left is answered with."""
        if self._stalls < self.limit:
            return None
        return EngineError(
            ErrorKind.UNAVAILABLE,
            f"not run: the engine stalled {self._stalls} times in a row (timeouts or failed restarts), "
            f"so the kit gave up on it; the last: {self._last}",
        )
