"""``draw: winner-first``: after each trick, while the stock lasts, every active player draws
one card, the winner first and then in play order.

The trump indicator lies face up under the stock (the trump rule puts it there).
``indicator: last-drawer``: it is drawn like any stock card, so the last drawer of the last
round takes it (the player before the winner, R6). ``indicator: dead`` (five players): it is
never drawn; drawing stops when only the indicator is left, it stays under the stock for the
whole deal and, like any card still in the stock when the deal ends, is then out of play
(``dead``), counting for nobody.
"""

from __future__ import annotations

from bisect import insort

from reference.params import Kind, Param, Params
from reference.rules import Events, Rule, Rules
from reference.state import Deal
from specreader.jsontypes import Json

INDICATOR = ("last-drawer", "dead")


class WinnerFirst(Rule):
    PARAMETERS = (Param("indicator", Kind.TEXT, choices=INDICATOR),)

    def __init__(self, rules: Rules, params: Params) -> None:
        self.codes = rules.cards.codes
        # Per seat and card: the "drew" event record, built once (records are immutable).
        self.drew = [[(_drew, seat, code) for code in self.codes] for seat in range(rules.seats.n)]
        self.indicator_dead = params.text("indicator") == "dead"

    def drawable(self, stock: int) -> int:
        """Of a stock just made (the indicator under it), the cards that will be drawn."""
        return stock - (1 if self.indicator_dead else 0)

    def left_to_draw(self, st: Deal) -> int:
        stock = st.stock
        if self.indicator_dead and stock and stock[-1] == st.indicator:
            return len(stock) - 1
        return len(stock)

    def after_trick(self, st: Deal, winner: int, ev: Events) -> None:
        n = st.n_active
        stock = st.stock
        # Only a dead indicator, under the stock, is ever left out of the draw.
        if (self.left_to_draw(st) if self.indicator_dead else len(stock)) < n:
            return
        hands = st.hands
        drew = self.drew
        next_active = st.next_active
        seat = winner
        for c in stock[:n]:
            insort(hands[seat], c)
            ev.append(drew[seat][c])
            seat = next_active[seat]
        del stock[:n]


def _drew(seat: int, card: str) -> Json:  # an event record (see rules.Events)
    return {"type": "drew", "seat": seat, "card": card}
