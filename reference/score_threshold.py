"""``score: over-threshold``: a side with more than ``win_over`` wins ``single`` points, with
more than ``double_over`` (optional, stated together with ``double``) ``double`` points.
Nobody over the line: nobody scores (R8), also on a tie such as 60-60.
"""

from __future__ import annotations

from reference.params import Kind, Param, Params, When
from reference.rules import Rule, Rules
from reference.state import Deal
from specreader.jsontypes import Json


class OverThreshold(Rule):
    PARAMETERS = (
        Param("win_over", Kind.INTEGER, minimum=0),
        Param("double_over", Kind.INTEGER, minimum=0, required_when=When("double")),
        Param("single", Kind.INTEGER, minimum=1),
        Param("double", Kind.INTEGER, minimum=1, required_when=When("double_over")),
    )
    produces = "vp"

    def __init__(self, rules: Rules, params: Params) -> None:
        self.win_over = params.integer("win_over")
        self.double_over = params.optional_integer("double_over")
        self.single = params.integer("single")
        self.double = params.optional_integer("double")
        self.points_range = (0, max(self.single, self.double or 0))

    def result(self, st: Deal) -> tuple[Json, int | None]:
        totals = st.totals
        best = max(totals)
        top = [i for i, t in enumerate(totals) if t == best]
        winner = top[0] if len(top) == 1 and best > self.win_over else None
        double = (
            winner is not None and self.double_over is not None and best > self.double_over
        )
        vp = 0
        if winner is not None:
            vp = self.double if (double and self.double is not None) else self.single
        return (
            {"winner": winner, "tie": len(top) > 1, "vp": vp, "double": double, "totals": list(totals)},
            winner,
        )
