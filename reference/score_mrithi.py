"""``score: mrithi``: the single highest pile total wins the deal.

It scores ``single`` victory points, or ``double`` if any non-winning side is strictly under
its mrithi line, ``line_per_member`` times its number of members (R7). A tie for the highest
total scores nothing for anybody.
"""

from __future__ import annotations

from reference.params import Kind, Param, Params
from reference.rules import Rule, Rules
from reference.state import Deal
from specreader.jsontypes import Json


class Mrithi(Rule):
    PARAMETERS = (
        Param("line_per_member", Kind.INTEGER, minimum=0),
        Param("single", Kind.INTEGER, minimum=1),
        Param("double", Kind.INTEGER, minimum=1),
    )
    produces = "vp"

    def __init__(self, rules: Rules, params: Params) -> None:
        self.sides = rules.seats.sides
        self.line_per_member = params.integer("line_per_member")
        self.single = params.integer("single")
        self.double = params.integer("double")
        self.points_range = (0, max(self.single, self.double))
        self.lines = [self.line_per_member * len(side) for side in self.sides]  # each side's mrithi line

    def result(self, st: Deal) -> tuple[Json, int | None]:
        totals = st.totals
        best = max(totals)
        winner = totals.index(best) if totals.count(best) == 1 else None
        double = winner is not None and any(
            totals[i] < line for i, line in enumerate(self.lines) if i != winner
        )
        vp = 0 if winner is None else (self.double if double else self.single)
        return (
            {"winner": winner, "tie": winner is None, "vp": vp, "double": double, "totals": list(totals)},
            winner,
        )
