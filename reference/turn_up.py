"""``trump: turn-up``: Altbaumer's making of trumps from the stock (ruling R11).

The top stock card is turned. Forehand accepts (its suit is trumps; forehand takes it) or
refuses: stock cards are turned until one of a suit different from the first turned card's
suit shows; that suit is trumps and forehand takes that card. If no such card shows, the
stock is all one suit, which is compulsory: forehand takes every stock card. A card's suit
here is its printed suit (a turned Tree counts as a club). Stock cards not taken are dead.
Forehand then discards as many cards as were taken, one per action, any card in hand
(``discard: any``). Forehand's side are the makers.
"""

from __future__ import annotations

from bisect import insort

from reference import refusals
from reference.params import Kind, Param, Params
from reference.refusals import Refusal
from reference.rules import Events, Misplaced, Rule, Rules
from reference.state import Deal, Phase

DISCARD_CHOICES = ("any",)


class TurnUp(Rule):
    PARAMETERS = (Param("discard", Kind.TEXT, choices=DISCARD_CHOICES, default="any"),)

    def __init__(self, rules: Rules, params: Params) -> None:
        self.kinds = {Phase.TRUMP: frozenset({"accept", "refuse"}), Phase.DISCARD: frozenset({"discard"})}
        self.names_makers = True  # forehand's side, by accepting or refusing
        self.out_of_play = rules.stock_size  # the stock cards not taken, and as many discarded as were taken
        self.rules = rules
        self.discard = params.text("discard")

    def unturnable(self, turned: list[int], trump: int, indicator: int | None) -> tuple[int, str] | None:
        """The top stock card, then, on a refusal, the next ones until a card of another suit than the first shows,
        or the whole stock where none does: never more than the stock, and the last card turned is the one forehand
        takes, whose suit is trumps."""
        cards = self.rules.cards
        suit_of = cards.suit_of
        stock = self.rules.stock_size
        if len(turned) > stock:
            return stock, f"at most the {stock} stock cards are turned, not {len(turned)}"
        if not turned:
            return None
        first = suit_of[turned[0]]
        last = len(turned) - 1
        for i in range(1, last):
            if suit_of[turned[i]] != first:
                return i, f"turning stops at {cards.codes[turned[i]]}, the first card of another suit than the first"
        taken = turned[last]
        if suit_of[taken] != trump:
            said = f"{cards.codes[taken]}, the last card turned, is taken and makes {cards.suits[suit_of[taken]]} trumps"
            return last, f"{said}, not {cards.suits[trump]}"
        if 0 < last < stock - 1 and suit_of[taken] == first:
            return last, "after a card of the first card's suit, turning goes on until another suit shows or the stock is out"
        return None

    def wrong_makers(self, st: Deal, makers: int) -> str | None:
        side = self._makers(st)
        return None if makers == side else f"forehand, seat {st.forehand}, makes trumps: the makers are side {side}, not {makers}"

    def _makers(self, st: Deal) -> int:
        """Forehand's side, whether forehand accepted, refused or was bound by a stock all of one suit."""
        return self.rules.seats.side_of[st.forehand]

    def misplaced(self, st: Deal) -> Misplaced | None:
        """Forehand takes the last card turned, or the whole stock where it is all one suit; the other cards turned
        are dead. A card taken is in forehand's hand, or out of play (discarded, or set aside with forehand's hand),
        or played by forehand: on the table as its card, or in a pile while forehand plays. A card taken and lying
        elsewhere is put on the rule that had forehand take it: on accepting, on refusing, or bound by the stock."""
        turned = st.turned
        if not turned:
            return None
        taken, how, choices_left = self._taking(turned)
        forehand = st.forehand
        codes = self.rules.cards.codes
        played = {c for c, seat in zip(st.trick_cards, st.trick_seats, strict=True) if seat == forehand}
        if st.active[forehand]:
            played.update(c for pile in st.piles for c in pile)
        for c in turned:
            if c in st.dead:
                continue
            if c not in taken:
                return Misplaced(c, f"{codes[c]} was turned and not taken, so it is out of play (dead)", f"dead@{Phase.TRUMP}")
            if c not in st.hands[forehand] and c not in played:
                lies = "in its hand, out of play (dead) or in a trick it played" if st.active[forehand] else "out of play (dead)"
                said = f"{codes[c]} was turned and taken by forehand, seat {forehand}, {how}, so it lies {lies}"
                return Misplaced(c, said, f"hands@{Phase.TRUMP}", choices_left)
        return None

    def _taking(self, turned: list[int]) -> tuple[list[int], str, frozenset[str]]:
        """The cards forehand took, as ``turned`` (which ``unturnable`` allows) records them, how, and the actions the
        rule that had it take them leaves to choose (SetupError.choices_left): one card turned was accepted; after a
        refusal, forehand took the last card turned, or every card where the stock is all of one suit, a rule that
        leaves no choice."""
        if len(turned) == 1:
            return turned, "on accepting its suit", frozenset({"accept"})
        suit_of = self.rules.cards.suit_of
        if len(turned) == self.rules.stock_size and all(suit_of[c] == suit_of[turned[0]] for c in turned):
            return turned, "bound to take the whole stock, all of one suit", frozenset()
        return turned[-1:], "on refusing, as the first card of another suit", frozenset({"refuse"})

    def start(self, st: Deal, ev: Events) -> bool:
        if not st.stock:
            raise AssertionError("no stock to turn")  # the variant check rules this out
        st.turned = [st.stock[0]]
        ev.append({"type": "turned", "card": self.rules.cards.codes[st.stock[0]]})
        st.phase = Phase.TRUMP
        st.to_act = st.forehand
        return True

    def legal_ids(self, st: Deal) -> list[int]:
        seat = st.to_act
        assert seat is not None
        table = self.rules.actions
        if st.phase == Phase.TRUMP:
            return [table.plain_ids["accept"][seat], table.plain_ids["refuse"][seat]]
        discards = table.card_ids["discard"][seat]
        return [discards[c] for c in st.hands[seat]]

    def apply(self, st: Deal, kind: str, seat: int, card: int, ev: Events) -> Refusal | bool:
        cards = self.rules.cards
        codes = cards.codes
        refused = self.rules.precedence.first(
            Refusal(refusals.NOT_YOUR_TURN, f"seat {st.to_act} is to act, not seat {seat}") if seat != st.to_act else None,
            Refusal(refusals.CARD_NOT_IN_HAND, f"seat {seat} does not hold {codes[card]}")
            if kind == "discard" and card not in st.hands[seat] else None,
        )
        if refused is not None:
            return refused
        if kind == "discard":
            hand = st.hands[seat]
            hand.remove(card)
            st.dead.append(card)
            ev.append({"type": "discarded", "seat": seat, "card": codes[card]})
            st.owed -= 1
            return st.owed == 0
        stock = st.stock
        suit_of = cards.suit_of
        compulsory = False
        if kind == "accept":
            ev.append({"type": "accepted", "seat": seat})
            taken = [stock[0]]
        else:
            ev.append({"type": "refused", "seat": seat})
            first = suit_of[stock[0]]
            k = next((i for i in range(1, len(stock)) if suit_of[stock[i]] != first), None)
            shown = stock[1:] if k is None else stock[1 : k + 1]
            st.turned.extend(shown)
            ev.extend({"type": "turned", "card": codes[c]} for c in shown)
            compulsory = k is None
            taken = list(stock) if k is None else [stock[k]]
        trump = suit_of[taken[-1]]
        st.trump = trump
        st.tables = self.rules.ranking.tables(trump)
        st.makers = self._makers(st)
        hand = st.hands[seat]
        for c in taken:
            insort(hand, c)
        st.dead.extend(c for c in stock if c not in taken)
        st.stock = []
        st.owed = len(taken)
        st.phase = Phase.DISCARD
        ev.append(
            {
                "type": "trump_made",
                "seat": seat,
                "suit": cards.suits[trump],
                "took": cards.code_list(taken),
                "compulsory": compulsory,
            }
        )
        return False
