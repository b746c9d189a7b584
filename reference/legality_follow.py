"""``legality: follow-then-trump``: follow suit if able, else trump if able, else anything.

Suits are *effective* suits: a top trump (Tree) is a trump, so a Tree lead is a trump lead.
With ``top_trump_suit_exception`` (Altbaumer's Trees), when an ordinary card of the top
trumps' printed suit (an ordinary club) is led and another suit is trumps:
holding ordinary clubs, play an ordinary club or a Tree; holding none but a Tree, play a
Tree (``must_play_tree``); holding neither, trump if able; else anything.
There is never a duty to overtake.
"""

from __future__ import annotations

from reference import refusals
from reference.errors import VariantError
from reference.params import Kind, Param, Params
from reference.ranking import Tables
from reference.rules import Rule, Rules


class FollowThenTrump(Rule):
    PARAMETERS = (Param("top_trump_suit_exception", Kind.FLAG, default=False),)
    free = False

    def __init__(self, rules: Rules, params: Params) -> None:
        self.exception = params.flag("top_trump_suit_exception")
        ranking = rules.ranking
        self.suit_of = rules.cards.suit_of
        self.is_top = ranking.is_top
        self.top_suit = ranking.top_suit
        if self.exception and self.top_suit is None:
            raise VariantError(
                "top_trump_suit_exception needs top_trumps of one printed suit",
                (*params.path, "top_trump_suit_exception"),
            )

    def allowed(self, hand: list[int], led: int, t: Tables) -> tuple[list[int], str | None]:
        """The cards that may be played and the code for playing another (None: all allowed)."""
        eff = t.eff_suit
        is_trump = t.is_trump
        if self.exception and self.suit_of[led] == self.top_suit and not is_trump[led]:
            # An ordinary club led, another suit trumps.
            clubs = [c for c in hand if self.suit_of[c] == self.top_suit and not is_trump[c]]
            trees = [c for c in hand if self.is_top[c]]
            if clubs:
                return sorted(clubs + trees), refusals.MUST_FOLLOW_SUIT
            if trees:
                return trees, refusals.MUST_PLAY_TREE
        else:
            suit = eff[led]
            follow = [c for c in hand if eff[c] == suit]
            if follow:
                return follow, refusals.MUST_FOLLOW_SUIT
        trumps = [c for c in hand if is_trump[c]]
        if trumps:
            return trumps, refusals.MUST_TRUMP
        return hand, None

    def check(self, hand: list[int], card: int, led: int, t: Tables) -> str | None:
        if t.eff_suit[card] == t.eff_suit[led]:
            return None  # following suit is always allowed (an ordinary club on an ordinary club too)
        allowed, code = self.allowed(hand, led, t)
        return None if card in allowed else code

    def legal(self, hand: list[int], led: int, t: Tables) -> list[int]:
        return self.allowed(hand, led, t)[0]  # in hand order: sorted
