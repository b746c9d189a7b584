"""An engine that lets a player play any card held, with no duty to follow suit or to trump: the reference
with its legal actions widened in the play phase (its refusals unchanged)."""

from __future__ import annotations

from typing import Any

from wrapped_engine import Wrapped


class FreePlay(Wrapped):
    def legal_actions(self) -> list[Any]:
        legal = self.engine.legal_actions()
        seen = self.engine.snapshot()
        if seen["phase"] != "play" or not legal:
            return legal
        seat = legal[0]["seat"]
        return [{"type": "play", "seat": seat, "card": card} for card in seen["hands"][str(seat)]]
