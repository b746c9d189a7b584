"""Playing the tricks: turn order, the legality rule, the trick rule, drawing, deal end.

The first lead is forehand's (the player after the dealer), or, if forehand sits out, the
next active player's (R12). Every active player plays one card in play order; the trick
rule names the winner, whose side takes the cards on its pile; the draw rule (if any)
refills the hands; the winner leads next. The deal ends when the hands are empty.
"""

from __future__ import annotations

from reference import refusals
from reference.refusals import Refusal
from reference.rules import Events, Rules
from reference.state import Deal, Phase
from specreader.jsontypes import Json


class Play:
    def __init__(self, rules: Rules) -> None:
        self.kinds = {Phase.PLAY: frozenset({"play"})}
        self.rules = rules
        self.legality = rules.legality
        self.free = rules.legality.free
        self.trick = rules.trick
        self.draw = rules.draw
        self.codes = rules.cards.codes
        self.value = rules.cards.value
        self.side_of = rules.seats.side_of
        self.ndoa_partner = rules.ranking.ndoa_partner
        self.play_ids = rules.actions.card_ids["play"]
        # Per seat and card: the "played" event record, built once (records are immutable).
        self.played = [[(_played, seat, code) for code in self.codes] for seat in range(rules.seats.n)]

    def start(self, st: Deal, ev: Events) -> bool:
        st.phase = Phase.PLAY
        st.to_act = st.first_leader()
        return True

    def legal_ids(self, st: Deal) -> list[int]:
        seat = st.to_act
        assert seat is not None
        hand = st.hands[seat]
        plays = self.play_ids[seat]
        # Any card leads, and any card follows in free play.
        free = self.free or not st.trick_cards
        legal = hand if free else self.legality.legal(hand, st.trick_cards[0], st.tables)
        ids = []
        for card in legal:  # a loop, not a comprehension: see the speed measures in engine.py
            ids.append(plays[card])
        return ids

    def apply(self, st: Deal, kind: str, seat: int, card: int, ev: Events) -> Refusal | bool:
        hand = st.hands[seat]
        trick = st.trick_cards
        # Each condition once, on the way of every play; the refusal is put together only when one holds.
        if (
            seat != st.to_act
            or card not in hand
            or (trick and not self.free and self.legality.check(hand, card, trick[0], st.tables) is not None)
        ):
            return self._refusal(st, seat, card)
        hand.remove(card)
        trick.append(card)
        st.trick_seats.append(seat)
        ev.append(self.played[seat][card])
        if len(trick) < st.n_active:
            st.to_act = st.next_active[seat]
            return False
        return self._close(st, trick, ev)

    def _refusal(self, st: Deal, seat: int, card: int) -> Refusal:
        """Of every refusal that applies to the play, the one the precedence puts first."""
        codes = self.codes
        hand = st.hands[seat]
        trick = st.trick_cards
        illegal = self.legality.check(hand, card, trick[0], st.tables) if trick and not self.free else None
        refused = self.rules.precedence.first(
            Refusal(refusals.NOT_YOUR_TURN, f"seat {st.to_act} plays now, not seat {seat}") if seat != st.to_act else None,
            Refusal(refusals.CARD_NOT_IN_HAND, f"seat {seat} does not hold {codes[card]}") if card not in hand else None,
            Refusal(illegal, _explain(illegal, codes[card], codes[trick[0]])) if illegal is not None else None,
        )
        assert refused is not None
        return refused

    def _close(self, st: Deal, cards: list[int], ev: Events) -> bool:
        """The trick is complete: the winner's side takes it, the hands are refilled, and the winner
        leads the next trick; True when that was the last."""
        seats = st.trick_seats
        i = self.trick.winner(cards, st.tables)
        winner = seats[i]
        side = self.side_of[winner]
        value = self.value
        points = 0
        for c in cards:
            points += value[c]
        st.piles[side] += cards
        st.totals[side] += points
        st.tricks[side] += 1
        ev.append((_trick_won, winner, side, self.codes, cards, points))
        married = self.ndoa_partner[cards[i]]
        if married >= 0 and married in cards:
            ev.append({"type": "ndoa", "seat": winner, "card": self.codes[married]})
        st.last_trick = (seats, cards, winner, points)  # these lists are not touched again
        st.trick_cards = []
        st.trick_seats = []
        if st.stock and self.draw is not None:
            self.draw.after_trick(st, winner, ev)
        if st.hands[winner]:  # every active hand holds as many cards after a trick
            st.to_act = winner
            return False
        st.to_act = None
        return True


# Event records (see rules.Events): built into JSON only when read.
def _played(seat: int, card: str) -> Json:
    return {"type": "played", "seat": seat, "card": card}


def _trick_won(winner: int, side: int, codes: tuple[str, ...], cards: list[int], points: int) -> Json:
    return {"type": "trick_won", "winner": winner, "side": side, "cards": [codes[c] for c in cards], "points": points}


def _explain(code: str, card: str, led: str) -> str:
    return {
        refusals.MUST_FOLLOW_SUIT: f"{card} does not follow {led}, and the seat can follow",
        refusals.MUST_TRUMP: f"{card} is not a trump, the seat cannot follow {led} but holds a trump",
        refusals.MUST_PLAY_TREE: f"{card} is not a Tree; with no ordinary club, a Tree must go on {led}",
    }.get(code, f"{card} may not be played to {led}")
