"""``legality: free``: any card in hand may be played, always (no duty to follow or to trump)."""

from __future__ import annotations

from reference.ranking import Tables
from reference.rules import Rule


class FreePlay(Rule):
    free = True

    def check(self, hand: list[int], card: int, led: int, t: Tables) -> str | None:
        return None

    def legal(self, hand: list[int], led: int, t: Tables) -> list[int]:
        return list(hand)
