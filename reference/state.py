"""The mutable state of one deal. Cards are ints (see cards.py); hands are kept sorted.

Components are shared by every engine of a variant and keep nothing themselves: all
per-deal data lives here. Cards are in exactly one *place*: a hand, the undealt pack, the
stock, a bid on the table (while the bidding lasts), the current trick, a side's pile, or
``dead``. ``indicator``, ``turned``, ``trees_taken`` and settled ``bids`` only name cards
that are somewhere else.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from reference.ranking import Tables
from specreader.jsontypes import json_copy


class Phase(StrEnum):
    """What the deal waits for (the snapshot's ``phase``)."""

    CUT = "cut"  # the cutter takes or declines a top trump shown
    BIDDING = "bidding"
    TRUMP = "trump"  # forehand accepts or refuses the turned card
    DISCARD = "discard"
    LONE = "lone"  # makers decide whether to play alone
    PLAY = "play"
    OVER = "over"


class Deal:
    __slots__ = (
        "active",
        "bid_outcomes",
        "bids",
        "dead",
        "dealer",
        "dealer_chosen",
        "forehand",
        "hands",
        "history",
        "indicator",
        "last_trick",
        "lone",
        "makers",
        "match",
        "n_active",
        "next_active",
        "offer",
        "owed",
        "pack",
        "pending",
        "phase",
        "piles",
        "result",
        "stage",
        "stock",
        "tables",
        "to_act",
        "totals",
        "trees_taken",
        "trick_cards",
        "trick_seats",
        "tricks",
        "trump",
        "turned",
        "winners",
    )

    phase: Phase  # set by the first stage that waits for an action, or by the end of the deal

    def __init__(self, players: int, sides: int, dealer: int, tables: Tables) -> None:
        self.stage = 0  # index of the current stage in the engine's pipeline
        self.to_act: int | None = None
        self.dealer = dealer
        self.forehand = (dealer + 1) % players
        self.history: list[int] = [dealer]  # dealers, oldest first, ending with this one
        self.pack: list[int] | None = None  # the undealt pack, top first (before the deal)
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.stock: list[int] = []  # top first
        self.dead: list[int] = []
        self.trump: int | None = None
        self.tables = tables  # strength tables for ``trump``
        self.indicator: int | None = None
        self.bids: list[tuple[int, int]] = []  # (seat, card) in bid order
        self.bid_outcomes: list[str] | None = None  # set when the bids are settled
        self.turned: list[int] = []
        self.pending: list[int] = []  # seats still to take their one turn in this phase
        self.owed = 0  # discards still owed
        self.offer: int | None = None  # the Tree showing at the cut
        self.trees_taken: list[int] = []
        self.makers: int | None = None
        self.lone: int | None = None
        self.active: list[bool] = [True] * players
        self.next_active: list[int] = [*range(1, players), 0]  # seat s is followed by s + 1
        self.n_active = players
        self.trick_seats: list[int] = []
        self.trick_cards: list[int] = []
        self.piles: list[list[int]] = [[] for _ in range(sides)]
        self.totals: list[int] = [0] * sides
        self.tricks: list[int] = [0] * sides
        self.last_trick: tuple[list[int], list[int], int, int] | None = None  # seats, cards, winner, points
        self.result: dict[str, Any] | None = None
        # Once the deal is over: the winning side's members, who may name its next dealer (R2).
        self.winners: tuple[int, ...] = ()
        self.dealer_chosen = False
        self.match: dict[str, Any] = {}

    def copy(self) -> Deal:
        """An independent copy of the deal, for a clone (a tree search clones at every step).

        Written out because ``copy.deepcopy`` walks every card: a list is copied with the lists of
        cards in it, the match record and the result as JSON; ints, tuples and the strength tables
        are never changed in place, so they are shared."""
        twin = Deal.__new__(Deal)
        for name in Deal.__slots__:
            value = getattr(self, name)
            if type(value) is list:
                value = [list(item) if type(item) is list else item for item in value]
            elif type(value) is dict:
                value = json_copy(value)
            setattr(twin, name, value)
        return twin

    def first_leader(self) -> int:
        """Who leads the first trick: forehand, or the next active player if forehand sits out (R12)."""
        return self.forehand if self.active[self.forehand] else self.next_active[self.forehand]

    def set_active(self, active: list[bool]) -> None:
        """Seats that play this deal (a lone player's partner sits out)."""
        n = len(active)
        self.active = active
        self.n_active = sum(active)
        self.next_active = [
            next((s + i) % n for i in range(1, n + 1) if active[(s + i) % n]) for s in range(n)
        ]
