"""``first_dealer: draw-nines``: one card of the first dealer's rank per seat; red against black.

The seat holding the ``card`` deals first; the holders of red cards must form one side
and the holders of black cards the other.
"""

from __future__ import annotations

from reference.errors import SetupError
from reference.params import Kind, Param, Params
from reference.rules import Rule, Rules
from reference.seating import seat_key
from specreader.jsontypes import JsonPath


class DrawNines(Rule):
    PARAMETERS = (Param("card", Kind.CARD),)

    def __init__(self, rules: Rules, params: Params) -> None:
        self.cards = cards = rules.cards
        self.seats = rules.seats
        self.first_dealer = cards.parse(params.card("card"), (*params.path, "card"))
        self.rank = cards.rank_of[self.first_dealer]
        self.parameter = params.stated()  # what a draw the rules do not allow breaks (SetupError.parameter)

    def dealer(self, nines: object, path: JsonPath) -> int:
        """The first dealer, from the card each seat drew (setup ``nines``)."""
        cards, seats, parameter = self.cards, self.seats, self.parameter
        if not isinstance(nines, dict):
            raise SetupError("expected a mapping seat -> card", path)
        drawn: dict[int, int] = {}
        for key, code in nines.items():
            seat = seat_key(key, seats, (*path, key))
            c = cards.index.get(code) if isinstance(code, str) else None
            if c is None or cards.rank_of[c] != self.rank:
                rank = cards.ranks[self.rank]
                raise SetupError(f"expected a card of rank {rank} from this deck", (*path, key), parameter=parameter)
            if c in drawn.values():
                raise SetupError(f"{code} is drawn twice", (*path, key), parameter=parameter)
            drawn[seat] = c
        if sorted(drawn) != list(range(seats.n)):
            raise SetupError(f"expected one card for each seat 0..{seats.n - 1}", path, parameter=parameter)
        for i, side in enumerate(seats.sides):
            colours = {cards.is_red(drawn[s]) for s in side}
            if len(colours) != 1:
                raise SetupError(f"side {i} {list(side)} mixes red and black cards", path, parameter=parameter)
        colours_by_side = [cards.is_red(drawn[side[0]]) for side in seats.sides]
        if len(set(colours_by_side)) != len(colours_by_side):
            raise SetupError("red must play against black: two sides drew the same colour", path, parameter=parameter)
        holder = [s for s, c in drawn.items() if c == self.first_dealer]
        if not holder:
            raise SetupError(f"nobody drew {cards.codes[self.first_dealer]}", path, parameter=parameter)
        return holder[0]
