"""Who deals next.

``deal-winner`` (Albastini): the deal's winner deals; on a deal nobody won the same dealer
deals again (``on_tie: same-dealer``). A winning side of several chooses
(R2): once the deal is over any member may take the next deal for the side (``take_deal``), and
until one does the default stands (``team_choice: least-recent``): the member who dealt least
recently by the dealer history (never = least recent), ties going to the first in play order
after the last dealer. The choice is an action only in a variant with a side of several members.
``next-in-play-order`` (Altbaumer): the player after the dealer.
"""

from __future__ import annotations

from reference import refusals
from reference.params import Kind, Param, Params
from reference.refusals import Refusal
from reference.rules import Events, Rule, Rules
from reference.state import Deal


class DealWinner(Rule):
    PARAMETERS = (
        Param("on_tie", Kind.TEXT, choices=("same-dealer",), default="same-dealer"),
        Param("team_choice", Kind.TEXT, choices=("least-recent",), default="least-recent"),
    )

    def __init__(self, rules: Rules, params: Params) -> None:
        self.seats = rules.seats
        self.precedence = rules.precedence
        self.on_tie = params.text("on_tie")
        self.team_choice = params.text("team_choice")
        self.choice = any(len(side) > 1 for side in self.seats.sides)

    def choosers(self, winner: int | None) -> tuple[int, ...]:
        """The seats that may take the next deal once the deal is over: the winning side's."""
        return self.seats.sides[winner] if self.choice and winner is not None else ()

    def take_deal(self, st: Deal, seat: int, ev: Events) -> Refusal | None:
        """The winning side names ``seat`` its next dealer, once; the result says so from now on."""
        refused = self.precedence.first(
            None if seat in st.winners else Refusal(
                refusals.NOT_A_WINNER,
                f"seat {seat} is not of the winning side" if st.winners else "nobody won the deal: the dealer deals again",
            ),
            Refusal(refusals.ALREADY_ACTED, "the winning side has already named its dealer") if st.dealer_chosen else None,
        )
        if refused is not None:
            return refused
        assert st.result is not None
        st.result = {**st.result, "next_dealer": seat}  # a new result: the deal_over event keeps the old one
        st.dealer_chosen = True
        ev.append({"type": "dealer_chosen", "seat": seat})
        return None

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
    choice = False  # nobody chooses

    def __init__(self, rules: Rules, params: Params) -> None:
        self.seats = rules.seats

    def choosers(self, winner: int | None) -> tuple[int, ...]:
        return ()

    def take_deal(self, st: Deal, seat: int, ev: Events) -> Refusal | None:
        raise AssertionError("nobody chooses the next dealer in this variant")

    def next_dealer(self, st: Deal, winner: int | None) -> int:
        return self.seats.next(st.dealer)
