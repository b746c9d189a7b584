"""A deal's position as a drawn table: each seat at its place round the table, with its name, role and hand,
and the stock, indicator and trumps in the middle. templates/table.html.j2 draws it."""

from __future__ import annotations

from dataclasses import dataclass

from rulesite import cards, table_words
from specreader.jsontypes import Json

# Places round the table, seats in the order of play from seat 0 at the bottom: anticlockwise play moves
# to the right of the drawing first (South, East, North, West), clockwise to the left.
PLACES = {
    2: ("bottom", "top"),
    3: ("bottom", "right", "left"),
    4: ("bottom", "right", "top", "left"),
}
MIRROR = {"right": "left", "left": "right"}


@dataclass(frozen=True)
class SeatView:
    name: str
    place: str  # bottom, right, top, left; "row" when the table is drawn as a list
    roles: list[str]  # "dealer", the side's name, "plays alone"...
    hand: list[str]
    out: bool  # out of this deal (a lone player's partner)


@dataclass(frozen=True)
class TableView:
    seats: list[SeatView]
    direction: str
    stock_count: int
    indicator: str | None
    trump: str | None
    turned: list[str]
    drawn_round: bool  # seats placed round a table (else listed in the order of play)

    def label(self) -> str:
        """The whole drawing in words, for readers who do not see it."""
        parts = []
        for s in self.seats:
            roles = f" ({', '.join(s.roles)})" if s.roles else ""
            hand = f"{len(s.hand)} cards" if s.hand else "no cards"
            parts.append(f"{s.name}{roles}: {hand}")
        card = cards.face(self.indicator)
        indicator = card.name if card is not None else self.indicator  # "six of diamonds", as the card's own label
        middle = f"stock of {self.stock_count}" + (f", indicator {indicator}" if indicator else "")
        return f"The table, play passing {self.direction}: " + "; ".join(parts) + f"; {middle}."


def places(players: int, direction: str) -> list[str]:
    found = PLACES.get(players)
    if found is None:
        return ["row"] * players
    return [MIRROR.get(p, p) for p in found] if direction == "clockwise" else list(found)


def table_view(snapshot: Json, variant: Json) -> TableView:
    names = table_words.seat_names(variant)
    sides = table_words.side_names(variant)
    side_of = {seat: i for i, side in enumerate(table_words.sides_of(variant)) for seat in side}
    partners = table_words.has_partners(variant)
    direction = str(variant.get("direction", "anticlockwise"))
    hands = snapshot.get("hands") if isinstance(snapshot.get("hands"), dict) else {}
    lone = snapshot.get("lone")
    seats = []
    for seat, place in enumerate(places(len(names), direction)):
        roles = []
        if snapshot.get("dealer") == seat:
            roles.append("dealer")
        if partners and seat in side_of:
            roles.append(sides[side_of[seat]])
        out = isinstance(lone, int) and lone != seat and side_of.get(lone) == side_of.get(seat)
        if lone == seat:
            roles.append("plays alone")
        if out:
            roles.append("out of this deal")
        hand = hands.get(str(seat), []) if isinstance(hands, dict) else []
        seats.append(SeatView(names[seat], place, roles, [str(c) for c in hand], out))
    indicator = snapshot.get("indicator")
    trump = snapshot.get("trump")
    turned = snapshot.get("turned")
    return TableView(
        seats,
        direction,
        int(snapshot.get("stock_count", 0)),
        str(indicator) if indicator else None,
        str(trump) if trump else None,
        [str(c) for c in turned] if isinstance(turned, list) else [],
        len(names) in PLACES,
    )
