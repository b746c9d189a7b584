"""``trump: otea``: bids in distinct suits, then the dealer turns the top stock card (R4).

Bidders (``bidders``): ``dealer-opponents`` (every seat not on the dealer's side, each once,
from the player after the dealer in play order) or ``none`` (no bids: the card is turned
at once, as in Briscola). A bid lays a card face up; each bid must be in a suit not bid
yet. After the last bidder's turn the dealer turns the top stock card: its suit is trumps.
A bid in that suit is exchanged (the bidder takes the turned card, the bid card becomes the
indicator); the other bids go back to their owners. The indicator goes face up under the
stock: its last card (whether it is ever drawn is the draw rule's business).
"""

from __future__ import annotations

from bisect import insort

from reference import refusals
from reference.errors import AS_DEALT
from reference.params import Kind, Param, Params
from reference.refusals import Refusal
from reference.rules import Events, Misplaced, Rule, Rules
from reference.state import Deal, Phase

BIDDERS = ("dealer-opponents", "none")


class Otea(Rule):
    PARAMETERS = (Param("bidders", Kind.TEXT, choices=BIDDERS),)

    def __init__(self, rules: Rules, params: Params) -> None:
        self.bidders = params.text("bidders")
        # Without bidders the stage never waits, and takes no action (none gets an action id).
        self.kinds = {Phase.BIDDING: frozenset({"bid", "pass"})} if self.bidders != "none" else {}
        self.names_makers = False  # the card turned makes trumps, whoever bid
        self.out_of_play = 0  # the card turned and the bids stay in play
        self.rules = rules
        self.suit_of = rules.cards.suit_of
        # Where the card is turned: as the last bidder acts, or as the deal is dealt where no one bids.
        self.turned_at = Phase.BIDDING if self.kinds else AS_DEALT
        self.bid_ids = rules.actions.card_ids["bid"]
        self.pass_ids = rules.actions.plain_ids["pass"]
        seats = rules.seats
        # The bidders in turn order, for each dealer.
        self.order: list[list[int]] = [
            [s for s in seats.order_from(seats.next(dealer)) if self._eligible(dealer, s)]
            for dealer in range(seats.n)
        ]

    def _eligible(self, dealer: int, seat: int) -> bool:
        side_of = self.rules.seats.side_of
        return self.bidders == "dealer-opponents" and side_of[seat] != side_of[dealer]

    def eligible(self, st: Deal, seat: int) -> bool:
        return seat in self.order[st.dealer]

    def unturnable(self, turned: list[int], trump: int, indicator: int | None) -> tuple[int, str] | None:
        """The dealer turns one card, and its suit is trumps; where no one bids, nothing can take its place as the
        indicator (the compulsory exchange puts a bid card there), so it is the indicator."""
        cards = self.rules.cards
        if len(turned) > 1:
            return 1, f"the dealer turns one card, not {len(turned)}"
        if turned and self.suit_of[turned[0]] != trump:
            turned_suit = cards.suits[self.suit_of[turned[0]]]
            return 0, f"{cards.codes[turned[0]]} turned makes {turned_suit} trumps, not {cards.suits[trump]}"
        if turned and indicator is not None and not any(self.order) and turned[0] != indicator:
            return 0, f"the card turned is the indicator, {cards.codes[indicator]}, where no one bids to exchange it"
        return None

    def wrong_makers(self, st: Deal, makers: int) -> str | None:
        return None  # no side makes trumps here (names_makers), which a setup is refused for first

    def misplaced(self, st: Deal) -> Misplaced | None:
        """The card turned is the indicator, face up under the stock (its last card) until it is drawn, where the
        start gives it; exchanged for a bid card, which is the indicator then, it went into a bidder's hand, to be
        played from there. Drawn or played, it may lie anywhere, out of play too."""
        if not st.turned:
            return None
        turned = st.turned[0]
        if st.indicator is not None and st.indicator != turned:
            return self._exchanged_lie(st, turned, st.indicator)
        return self._indicator_lie(st, turned)

    def _exchanged_lie(self, st: Deal, turned: int, indicator: int) -> Misplaced | None:
        """Exchanged, the card turned is in no stock, and held or played by a seat that bids."""
        codes = self.rules.cards.codes
        took = f"{codes[turned]} was exchanged for {codes[indicator]}, the indicator: a bidder took it into hand"
        if turned in st.stock:
            return Misplaced(turned, f"{took}, so it lies in no stock", f"hands@{self.turned_at}")
        holder = next((seat for seat, hand in enumerate(st.hands) if turned in hand), None)
        if holder is None and turned in st.trick_cards:
            holder = st.trick_seats[st.trick_cards.index(turned)]
        if holder is None or self.eligible(st, holder):
            return None  # a bidder's, or in a pile or out of play, won by anyone
        *others, last = self.order[st.dealer]
        bidder = f"one of seats {', '.join(map(str, others))} and {last}" if others else f"seat {last}"
        return Misplaced(turned, f"{took}, so {bidder} holds or played it, not seat {holder}", f"hands@{self.turned_at}")

    def _indicator_lie(self, st: Deal, turned: int) -> Misplaced | None:
        """Not exchanged (or, with no indicator given, maybe exchanged), the card turned lies under the stock as its
        last card while the stock lasts, and the start gives it as the indicator; an exchange puts the bid card
        there, given as the indicator too."""
        stock, indicator = st.stock, st.indicator
        code = self.rules.cards.codes[turned]
        said, placed = f"{code}, the card turned,", f"stock@{self.turned_at}"
        if turned in stock:
            if turned != stock[-1]:
                above = "on top of" if turned == stock[0] else "inside"
                return Misplaced(turned, f"{said} lies under the stock, its last card, until it is drawn, not {above} it", placed)
            if indicator is None:
                why = f"{said} lies under the stock as the trump indicator: expected start.indicator {code}"
                return Misplaced(turned, why, placed)
            return None
        if not stock:
            return None  # drawn (an indicator given while the stock lasts is its last card: setup.py says so first)
        if self.order[st.dealer]:
            why = f"{said} lies under the stock as the trump indicator, or a bid card exchanged for it does"
            return Misplaced(turned, f"{why}: expected start.indicator", f"indicator@{self.turned_at}")
        return Misplaced(turned, f"{said} lies under the stock as the trump indicator until the stock is drawn out", placed)

    def start(self, st: Deal, ev: Events) -> bool:
        st.pending = list(self.order[st.dealer])
        if st.pending:
            st.phase = Phase.BIDDING
            st.to_act = st.pending[0]
            return True
        self._turn(st, ev)
        return False

    def legal_ids(self, st: Deal) -> list[int]:
        seat = st.to_act
        assert seat is not None
        bids = self.bid_ids[seat]
        out = [self.pass_ids[seat]]
        if st.bids:
            suit_of = self.suit_of
            used = {suit_of[c] for _, c in st.bids}
            out += [bids[c] for c in st.hands[seat] if suit_of[c] not in used]
        else:
            out += [bids[c] for c in st.hands[seat]]
        return out

    def _refusal(self, st: Deal, kind: str, seat: int, card: int) -> Refusal | None:
        """Of every refusal that applies to the action, the one the precedence puts first (None: none does)."""
        cards = self.rules.cards
        eligible = self.eligible(st, seat)
        bid = kind == "bid"
        return self.rules.precedence.first(
            None if eligible else Refusal(
                refusals.NOT_ALLOWED_TO_BID,
                f"seat {seat} is the dealer or on the dealer's side and takes no part in the bidding",
            ),
            # A seat that takes no part never had a turn to have taken.
            Refusal(refusals.ALREADY_ACTED, f"seat {seat} has had its turn in the bidding")
            if eligible and seat not in st.pending else None,
            Refusal(refusals.NOT_YOUR_TURN, f"seat {st.to_act} bids now, not seat {seat}") if seat != st.to_act else None,
            Refusal(refusals.CARD_NOT_IN_HAND, f"seat {seat} does not hold {cards.codes[card]}")
            if bid and card not in st.hands[seat] else None,
            Refusal(refusals.SUIT_ALREADY_BID, f"a bid in suit {cards.suits[cards.suit_of[card]]} was already made")
            if bid and any(cards.suit_of[b] == cards.suit_of[card] for _, b in st.bids) else None,
        )

    def apply(self, st: Deal, kind: str, seat: int, card: int, ev: Events) -> Refusal | bool:
        refused = self._refusal(st, kind, seat, card)
        if refused is not None:
            return refused
        codes = self.rules.cards.codes
        if kind == "bid":
            hand = st.hands[seat]
            hand.remove(card)
            st.bids.append((seat, card))
            ev.append({"type": "bid", "seat": seat, "card": codes[card]})
        else:
            ev.append({"type": "pass", "seat": seat})
        st.pending.pop(0)
        if st.pending:
            st.to_act = st.pending[0]
            return False
        self._turn(st, ev)
        return True

    def _turn(self, st: Deal, ev: Events) -> None:
        rules = self.rules
        cards = rules.cards
        codes = cards.codes
        if not st.stock:
            raise AssertionError("no stock to turn a trump card from")  # the setup checks this
        turned = st.stock.pop(0)
        trump = cards.suit_of[turned]
        st.trump = trump
        st.tables = rules.ranking.tables(trump)
        st.turned = [turned]
        st.to_act = None
        ev.append({"type": "trump_turned", "card": codes[turned], "suit": cards.suits[trump]})
        indicator = turned
        outcomes: list[str] = []
        for seat, bid in st.bids:
            if cards.suit_of[bid] == trump:
                insort(st.hands[seat], turned)
                indicator = bid
                outcomes.append("exchanged")
                ev.append(
                    {"type": "exchanged", "seat": seat, "gave": codes[bid], "took": codes[turned]}
                )
            else:
                insort(st.hands[seat], bid)
                outcomes.append("returned")
                ev.append({"type": "bid_returned", "seat": seat, "card": codes[bid]})
        st.bid_outcomes = outcomes
        st.indicator = indicator
        st.stock.append(indicator)
        ev.append({"type": "indicator", "card": codes[indicator]})
