"""Trick strength from the variant's ``ranking``: top trumps, trump order, plain order (and the ndoa's ranks).

A top trump (an Altbaumer Tree) belongs to the trump suit whatever its printed suit: its
*effective suit* is the trump suit. Strength tables are built once per possible trump suit.
"""

from __future__ import annotations

from typing import Any

from reference.cards import RANK_LETTERS, Cards, letters
from reference.errors import VariantError

_TOP = 10_000  # above every ordinary trump
_TRUMP = 1_000  # above every plain card


class Tables:
    """Everything a trick needs to know about the cards once ``trump`` is fixed (None: no trump)."""

    __slots__ = ("eff_suit", "is_trump", "led_key", "trump")

    def __init__(
        self,
        trump: int | None,
        eff_suit: tuple[int, ...],
        is_trump: tuple[bool, ...],
        led_key: tuple[tuple[int, ...], ...],
    ) -> None:
        self.trump = trump
        self.eff_suit = eff_suit
        self.is_trump = is_trump
        # led_key[s][c]: strength of card c in a trick whose led card has effective suit s;
        # 0 means the card cannot win that trick (another non-trump suit).
        self.led_key = led_key


class Ranking:
    """The ranking of one variant, compiled into one ``Tables`` per trump suit."""

    def __init__(self, cards: Cards, variant: dict[str, Any]) -> None:
        spec = variant.get("ranking")
        if not isinstance(spec, dict):
            raise VariantError("expected a mapping with plain_order", ("ranking",))
        self.cards = cards
        plain = self._order(spec.get("plain_order"), "plain_order")
        trump = self._order(spec.get("trump_order", spec.get("plain_order")), "trump_order")
        tops = spec.get("top_trumps", [])
        if not isinstance(tops, list):
            raise VariantError("expected a list of card codes", ("ranking", "top_trumps"))
        self.top_trumps: tuple[int, ...] = tuple(
            cards.parse(code, ("ranking", "top_trumps", i)) for i, code in enumerate(tops)
        )
        if len(set(self.top_trumps)) != len(self.top_trumps):
            raise VariantError("a card is listed twice", ("ranking", "top_trumps"))
        top_suits = {cards.suit_of[c] for c in self.top_trumps}
        # The printed suit of the top trumps ("clubs" for the Trees), when they share one.
        self.top_suit: int | None = top_suits.pop() if len(top_suits) == 1 else None
        self.is_top: tuple[bool, ...] = tuple(c in self.top_trumps for c in range(cards.size))
        self.plain_order = plain
        self.trump_order = trump
        self._tables: dict[int | None, Tables] = {
            t: self._build(t) for t in (None, *range(len(cards.suits)))
        }
        # ndoa: the taker's card winning a trick that holds the taken card of its own suit (a variant that names them)
        partner = [-1] * cards.size
        if "ndoa" in spec:
            taker, taken = self._pair(spec["ndoa"], "ndoa")
            for s in range(len(cards.suits)):
                partner[cards.card(taker, s)] = cards.card(taken, s)
        self.ndoa_partner: tuple[int, ...] = tuple(partner)

    def _pair(self, text: object, key: str) -> tuple[str, str]:
        pair = letters(text, RANK_LETTERS, ("ranking", key))
        if len(pair) != 2 or not set(pair) <= set(self.cards.ranks):
            raise VariantError("expected two different ranks of deck.ranks, the taker first", ("ranking", key))
        return pair[0], pair[1]

    def _order(self, text: object, key: str) -> tuple[str, ...]:
        order = letters(text, RANK_LETTERS, ("ranking", key))
        if sorted(order) != sorted(self.cards.ranks):
            raise VariantError("expected exactly the ranks of deck.ranks, in any order", ("ranking", key))
        return order

    def _build(self, trump: int | None) -> Tables:
        cards = self.cards
        n = cards.size
        eff = tuple(
            trump if (trump is not None and self.is_top[c]) else cards.suit_of[c] for c in range(n)
        )
        is_trump = tuple(trump is not None and eff[c] == trump for c in range(n))
        tops = self.top_trumps
        power = [0] * n
        for c in range(n):
            rank = cards.ranks[cards.rank_of[c]]
            if is_trump[c]:
                if self.is_top[c]:
                    power[c] = _TOP + len(tops) - tops.index(c)
                else:
                    power[c] = _TRUMP + len(self.trump_order) - self.trump_order.index(rank)
            else:
                power[c] = len(self.plain_order) - self.plain_order.index(rank)
        led_key = tuple(
            tuple(
                power[c] if (is_trump[c] or eff[c] == led) else 0 for c in range(n)
            )
            for led in range(len(cards.suits))
        )
        return Tables(trump, eff, is_trump, led_key)

    def tables(self, trump: int | None) -> Tables:
        return self._tables[trump]
