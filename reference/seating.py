"""Seats, sides, and who comes next; also the ``draw-nines`` setup rule (partners and first dealer).

Seats are numbered 0..N-1 in the order of play, so "next" is always ``seat + 1`` (mod N)
and the variant's ``direction`` (clockwise or anticlockwise) changes only the wording.
"""

from __future__ import annotations

from typing import Any

from reference.cards import Cards
from reference.errors import SetupError, VariantError
from reference.params import Params
from specreader.jsontypes import JsonPath

DIRECTIONS = ("anticlockwise", "clockwise")
MAX_SEATS = 6  # the seat schema's range 0..5


class Seating:
    """Players, sides (indexed by their position in ``sides``) and play order."""

    def __init__(self, variant: dict[str, Any]) -> None:
        n = variant.get("players")
        if type(n) is not int or not 2 <= n <= MAX_SEATS:
            raise VariantError(f"expected an integer from 2 to {MAX_SEATS}", ("players",))
        self.n: int = n
        sides = variant.get("sides")
        if not isinstance(sides, list) or not sides:
            raise VariantError("expected a list of sides, each a list of seats", ("sides",))
        seen: list[int] = []
        for i, side in enumerate(sides):
            if not isinstance(side, list) or not side or any(type(s) is not int for s in side):
                raise VariantError("expected a non-empty list of seats", ("sides", i))
            seen.extend(side)
        if sorted(seen) != list(range(n)):
            raise VariantError(f"every seat 0..{n - 1} must be on exactly one side", ("sides",))
        direction = variant.get("direction", DIRECTIONS[0])
        if direction not in DIRECTIONS:
            raise VariantError(f"expected one of {', '.join(DIRECTIONS)}", ("direction",))
        self.direction: str = direction
        self.sides: tuple[tuple[int, ...], ...] = tuple(tuple(side) for side in sides)
        side_of = [0] * n
        for i, side in enumerate(self.sides):
            for s in side:
                side_of[s] = i
        self.side_of: tuple[int, ...] = tuple(side_of)
        self.teams: bool = any(len(side) > 1 for side in self.sides)

    def next(self, seat: int) -> int:
        return (seat + 1) % self.n

    def previous(self, seat: int) -> int:
        return (seat - 1) % self.n

    def order_from(self, seat: int) -> list[int]:
        """All seats in play order, starting with ``seat``."""
        return [(seat + i) % self.n for i in range(self.n)]

    def partners(self, seat: int) -> list[int]:
        return [s for s in self.sides[self.side_of[seat]] if s != seat]

    def seat(self, value: object, path: JsonPath) -> int:
        """A seat number from setup data."""
        if type(value) is not int or not 0 <= value < self.n:
            raise SetupError(f"expected a seat from 0 to {self.n - 1}", path)
        return value


class DrawNines:
    """``setup: draw-nines``: one card of the first dealer's rank per seat; red against black.

    The seat holding ``first_dealer`` deals first; the holders of red cards must form one
    side and the holders of black cards the other.
    """

    def __init__(self, cards: Cards, seats: Seating, params: Params) -> None:
        self.cards = cards
        self.seats = seats
        self.first_dealer = cards.parse(params.text("first_dealer"), (*params.path, "first_dealer"))
        self.rank = cards.rank_of[self.first_dealer]

    def dealer(self, nines: object, path: JsonPath) -> int:
        cards, seats = self.cards, self.seats
        if not isinstance(nines, dict):
            raise SetupError("expected a mapping seat -> card", path)
        drawn: dict[int, int] = {}
        for key, code in nines.items():
            seat = seat_key(key, seats, (*path, key))
            c = cards.index.get(code) if isinstance(code, str) else None
            if c is None or cards.rank_of[c] != self.rank:
                rank = cards.ranks[self.rank]
                raise SetupError(f"expected a card of rank {rank} from this deck", (*path, key))
            if c in drawn.values():
                raise SetupError(f"{code} is drawn twice", (*path, key))
            drawn[seat] = c
        if sorted(drawn) != list(range(seats.n)):
            raise SetupError(f"expected one card for each seat 0..{seats.n - 1}", path)
        for i, side in enumerate(seats.sides):
            colours = {cards.is_red(drawn[s]) for s in side}
            if len(colours) != 1:
                raise SetupError(f"side {i} {list(side)} mixes red and black cards", path)
        colours_by_side = [cards.is_red(drawn[side[0]]) for side in seats.sides]
        if len(set(colours_by_side)) != len(colours_by_side):
            raise SetupError("red must play against black: two sides drew the same colour", path)
        holder = [s for s, c in drawn.items() if c == self.first_dealer]
        if not holder:
            raise SetupError(f"nobody drew {cards.codes[self.first_dealer]}", path)
        return holder[0]


def seat_key(key: object, seats: Seating, path: JsonPath) -> int:
    if not isinstance(key, str) or not key.isdigit() or not 0 <= int(key) < seats.n:
        raise SetupError(f"expected a seat key \"0\"..\"{seats.n - 1}\"", path)
    return int(key)

