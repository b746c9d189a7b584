"""``score: over-threshold``: a side with more than ``win_over`` wins ``single`` points, with
more than ``double_over`` (optional) ``double`` points. Nobody over the line: nobody scores
(R8), also on a tie such as 60-60.
"""

from __future__ import annotations

from reference.params import Params
from reference.rules import Rules
from reference.state import Deal
from specreader.jsontypes import Json


class OverThreshold:
    produces = "vp"

    def __init__(self, rules: Rules, params: Params) -> None:
        self.win_over = params.integer("win_over")
        self.double_over = params.opt_integer("double_over")
        self.single = params.integer("single")
        self.double = params.integer("double") if self.double_over is not None else None
        params.done()

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
