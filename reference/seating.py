"""Seats, sides, and who comes next.

Seats are numbered 0..N-1 in the order of play, so "next" is always ``seat + 1`` (mod N)
and the variant's ``direction`` (clockwise or anticlockwise) changes only the wording.
"""

from __future__ import annotations

from typing import Any

from reference.errors import SetupError, VariantError
from specreader.jsontypes import JsonPath

DIRECTIONS = ("anticlockwise", "clockwise")
MAX_SEATS = 6  # the seat schema's range 0..5
PLAYERS = "players"  # the part of a variant a seat it does not have breaks (SetupError.parameter)


class Seating:
    """Players, sides (indexed by their position in ``sides``) and play order."""

    def __init__(self, variant: dict[str, Any]) -> None:
        n = variant.get("players")
        if type(n) is not int or not 2 <= n <= MAX_SEATS:
            raise VariantError(f"expected an integer from 2 to {MAX_SEATS}", ("players",))
        self.n: int = n
        self.names: tuple[str, ...] = tuple(str(seat) for seat in range(n))  # the seats as JSON keys (hands)
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
            raise SetupError(f"expected a seat from 0 to {self.n - 1}", path, parameter=PLAYERS)
        return value


def seat_key(key: object, seats: Seating, path: JsonPath) -> int:
    if not isinstance(key, str) or not key.isdigit() or not 0 <= int(key) < seats.n:
        raise SetupError(f"expected a seat key \"0\"..\"{seats.n - 1}\"", path, parameter=PLAYERS)
    return int(key)

