"""Dealing from a pack order (rulings R3, R10), and the ``tree-cut`` rule (Altbaumer's cut).

The pack is dealt from the top, round by round in the variant's packet sizes, starting with
forehand (the player after the dealer) and ending with the dealer; the cards left, in order,
are the stock, top first. Trees taken at the cut come off the bottom of the pack into the
cutter's hand, and the cutter's first packet is short by as many cards.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from operator import itemgetter

from reference import refusals
from reference.params import Params
from reference.refusals import Refusal
from reference.rules import Events, Rule, Rules
from reference.state import Deal, Phase


class Dealing:
    """The automatic deal from ``st.pack`` (nothing to do when the hands were given)."""

    def __init__(self, rules: Rules) -> None:
        self.kinds: dict[Phase, frozenset[str]] = {}
        self.rules = rules
        seats = rules.seats
        # plans[dealer][short]: for each seat, a getter of the pack positions it is dealt (round by
        # round from forehand, the cutter's first packet ``short`` cards short), and the stock's start.
        self.plans: list[list[tuple[list[tuple[int, Callable[[list[int]], tuple[int, ...]]]], int]]] = []
        for dealer in range(seats.n):
            cutter = seats.previous(dealer)
            by_short = []
            for short in range(rules.packets[0] + 1):
                dealt: dict[int, list[int]] = {s: [] for s in range(seats.n)}
                pos = 0
                for r, size in enumerate(rules.packets):
                    for s in seats.order_from(seats.next(dealer)):
                        n = size - short if (r == 0 and s == cutter) else size
                        dealt[s] += range(pos, pos + n)
                        pos += n
                by_short.append(([(s, _getter(dealt[s])) for s in range(seats.n)], pos))
            self.plans.append(by_short)

    def start(self, st: Deal, ev: Events) -> bool:
        pack = st.pack
        if pack is None:
            return False
        hands = st.hands
        plan, stock = self.plans[st.dealer][len(st.trees_taken)]
        for seat, take in plan:
            hand = hands[seat]  # holds the Trees taken at the cut, if any
            hand += take(pack)
            hand.sort()
        st.stock = pack[stock:]
        st.pack = None
        return False

    def legal_ids(self, st: Deal) -> list[int]:
        return []

    def apply(self, st: Deal, kind: str, seat: int, card: int, ev: Events) -> Refusal | bool:
        raise AssertionError("the deal takes no actions")


def _getter(positions: list[int]) -> Callable[[list[int]], tuple[int, ...]]:
    """The cards at ``positions`` of a pack, as a tuple (itemgetter returns a bare item for one)."""
    if len(positions) >= 2:
        return itemgetter(*positions)
    return lambda pack: tuple(pack[p] for p in positions)


class TreeCut(Rule):
    """``cut: tree-cut``: the cutter (the player before the dealer) may take top trumps shown.

    The card shown is the last of the pack; if the cutter takes it and the card before it is
    another top trump, that one is offered too. A declined card stays in the pack.
    """

    def __init__(self, rules: Rules, params: Params) -> None:
        self.kinds = {Phase.CUT: frozenset({"take_tree", "decline"})}
        self.rules = rules

    def _offer(self, st: Deal) -> int | None:
        pack = st.pack
        if pack and self.rules.ranking.is_top[pack[-1]]:
            return pack[-1]
        return None

    def start(self, st: Deal, ev: Events) -> bool:
        if st.pack is None:  # hands given: the cut's outcome is part of the setup
            return False
        st.offer = self._offer(st)
        if st.offer is None:
            return False
        st.phase = Phase.CUT
        st.to_act = self.rules.seats.previous(st.dealer)
        return True

    def legal_ids(self, st: Deal) -> list[int]:
        seat = st.to_act
        assert seat is not None and st.offer is not None
        table = self.rules.actions
        return [table.card_ids["take_tree"][seat][st.offer], table.plain_ids["decline"][seat]]

    def apply(self, st: Deal, kind: str, seat: int, card: int, ev: Events) -> Refusal | bool:
        codes = self.rules.cards.codes
        showing = codes[st.offer] if st.offer is not None else "nothing"
        refused = self.rules.precedence.first(
            Refusal(refusals.NOT_YOUR_TURN, f"seat {st.to_act} cuts, not seat {seat}") if seat != st.to_act else None,
            Refusal(refusals.NO_TREE_TO_TAKE, f"{codes[card]} is not showing at the cut ({showing} is)")
            if kind == "take_tree" and card != st.offer else None,
        )
        if refused is not None:
            return refused
        if kind == "decline":
            ev.append({"type": "declined", "seat": seat})
            st.offer = None
            return True
        assert st.pack is not None
        st.pack.pop()
        insort(st.hands[seat], card)
        st.trees_taken.append(card)
        ev.append({"type": "cut_tree", "seat": seat, "card": codes[card]})
        st.offer = self._offer(st)
        return st.offer is None
