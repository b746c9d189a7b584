"""``trick: highest-trump-else-led-suit``: the highest trump wins; with none, the highest card
of the suit led (its effective suit: a Tree lead is a trump lead). Other suits never win."""

from __future__ import annotations

from reference.ranking import Tables
from reference.rules import Rule


class HighestTrumpElseLedSuit(Rule):
    def winner(self, cards: list[int], t: Tables) -> int:
        key = t.led_key[t.eff_suit[cards[0]]]
        best = best_key = i = 0  # the led card's key is above 0: it wins unless beaten
        for c in cards:  # a counter, not enumerate: cheaper, and this runs on every trick
            k = key[c]
            if k > best_key:
                best, best_key = i, k
            i += 1  # noqa: SIM113
        return best
