"""``trick: highest-trump-else-led-suit``: the highest trump wins; with none, the highest card
of the suit led (its effective suit: a Tree lead is a trump lead). Other suits never win."""

from __future__ import annotations

from reference.ranking import Tables
from reference.rules import Rule


class HighestTrumpElseLedSuit(Rule):
    def winner(self, cards: list[int], t: Tables) -> int:
        strength = t.led_key[t.eff_suit[cards[0]]]  # 0 for a card that cannot win this trick
        best = cards[0]
        for card in cards:
            if strength[card] > strength[best]:
                best = card
        return cards.index(best)
