"""Cards: codes such as ``7H`` and the compact ints the engine uses, and the deck a variant states.

A card is the int ``suit_index * len(ranks) + rank_index``, both indexes in the order the
variant's ``deck`` lists them, so sorting ints gives the canonical order (suits in deck
order, then ranks in the deck's order).
"""

from __future__ import annotations

from typing import Any

from reference.errors import VariantError
from specreader.notation import RANK_LETTERS, SUIT_LETTERS

__all__ = ["RANK_LETTERS", "RED_SUITS", "SUIT_LETTERS", "Cards", "letters"]
# Colours of the French suits, used by rules that pair red against black.
RED_SUITS = frozenset("DH")


def letters(text: object, alphabet: str, path: tuple[str, ...]) -> tuple[str, ...]:
    if not isinstance(text, str):
        raise VariantError("expected a space-separated string", path)
    items = tuple(text.split())
    bad = [x for x in items if len(x) != 1 or x not in alphabet]
    if bad:
        raise VariantError(f"expected letters from {alphabet!r}; found {bad[0]!r}", path)
    if len(set(items)) != len(items) or not items:
        raise VariantError("expected distinct letters, at least one", path)
    return items


class Cards:
    """The deck of one variant, compiled into lookup tables."""

    def __init__(self, variant: dict[str, Any]) -> None:
        deck = variant.get("deck")
        if not isinstance(deck, dict):
            raise VariantError("expected a mapping with suits and ranks", ("deck",))
        self.suits = letters(deck.get("suits"), SUIT_LETTERS, ("deck", "suits"))
        self.ranks = letters(deck.get("ranks"), RANK_LETTERS, ("deck", "ranks"))
        nr = len(self.ranks)
        self.codes: tuple[str, ...] = tuple(r + s for s in self.suits for r in self.ranks)
        self.size = len(self.codes)
        self.index: dict[str, int] = {code: i for i, code in enumerate(self.codes)}
        self.suit_of: tuple[int, ...] = tuple(i // nr for i in range(self.size))
        self.rank_of: tuple[int, ...] = tuple(i % nr for i in range(self.size))
        values = variant.get("values", {})
        if not isinstance(values, dict):
            raise VariantError("expected a mapping rank -> points", ("values",))
        values = {str(rank): points for rank, points in values.items()}
        for rank, points in values.items():
            if rank not in self.ranks:
                raise VariantError(f"rank {rank!r} is not in deck.ranks", ("values", rank))
            if type(points) is not int or points < 0:
                raise VariantError("expected a non-negative integer", ("values", rank))
        self.value: tuple[int, ...] = tuple(
            values.get(self.ranks[self.rank_of[c]], 0) for c in range(self.size)
        )
        self.total = sum(self.value)

    def card(self, rank: str, suit: int) -> int:
        return suit * len(self.ranks) + self.ranks.index(rank)

    def suit_index(self, letter: str) -> int | None:
        return self.suits.index(letter) if letter in self.suits else None

    def code_list(self, cards: list[int] | tuple[int, ...]) -> list[str]:
        codes = self.codes
        return [codes[c] for c in cards]

    def parse(self, code: object, path: tuple[str | int, ...]) -> int:
        """A card of this variant's deck from its code (for variant data)."""
        c = self.index.get(code) if isinstance(code, str) else None
        if c is None:
            raise VariantError(f"{code!r} is not a card of this deck", path)
        return c

    def is_red(self, c: int) -> bool:
        return self.suits[self.suit_of[c]] in RED_SUITS
