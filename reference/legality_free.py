"""``legality: free``: any card in hand may be played, always (no duty to follow or to trump)."""

from __future__ import annotations

from reference.params import Params
from reference.ranking import Tables
from reference.rules import Rules


class FreePlay:
    free = True

    def __init__(self, rules: Rules, params: Params) -> None:
        params.done()

    def check(self, hand: list[int], card: int, led: int, t: Tables) -> str | None:
        return None

    def legal(self, hand: list[int], led: int, t: Tables) -> list[int]:
        return list(hand)
