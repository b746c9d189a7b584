"""Who deals next.

``deal-winner`` (Albastini): the deal's winner deals; on a deal nobody won the same dealer
deals again (``on_tie: same-dealer``). A winning side of several chooses
(``team_choice: least-recent``, R2): the member who dealt least recently by the dealer
history (never = least recent), ties going to the first in play order after the last dealer.
``next-in-play-order`` (Altbaumer): the player after the dealer.
"""

from __future__ import annotations

from reference.params import Kind, Param, Params
from reference.rules import Rule, Rules
from reference.state import Deal


class DealWinner(Rule):
    PARAMETERS = (
        Param("on_tie", Kind.TEXT, choices=("same-dealer",), default="same-dealer"),
        Param("team_choice", Kind.TEXT, choices=("least-recent",), default="least-recent"),
    )

    def __init__(self, rules: Rules, params: Params) -> None:
        self.seats = rules.seats
        self.on_tie = params.text("on_tie")
        self.team_choice = params.text("team_choice")

    def next_dealer(self, st: Deal, winner: int | None) -> int:
        if winner is None:
            return st.dealer
        members = self.seats.sides[winner]
        if len(members) == 1:
            return members[0]
        history = st.history
        last_dealt = {seat: i for i, seat in enumerate(history)}
        last = history[-1]
        n = self.seats.n
        return min(members, key=lambda m: (last_dealt.get(m, -1), (m - last - 1) % n))


class NextInPlayOrder(Rule):
    def __init__(self, rules: Rules, params: Params) -> None:
        self.seats = rules.seats

    def next_dealer(self, st: Deal, winner: int | None) -> int:
        return self.seats.next(st.dealer)
