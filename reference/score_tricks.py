"""``score: tricks``: the side taking most tricks scores ``table[tricks]``; losing makers
also score ``makers_lose`` (R13: whatever the defenders took; a lone maker scores like the
side). Losing defenders score nothing.
"""

from __future__ import annotations

from reference.params import Kind, Param, Params
from reference.rules import Rule, Rules
from reference.state import Deal
from specreader.jsontypes import Json


class TrickScore(Rule):
    PARAMETERS = (
        Param("table", Kind.POINTS_TABLE),
        Param("makers_lose", Kind.INTEGER, default=0),
    )
    produces = "deal_score"

    def __init__(self, rules: Rules, params: Params) -> None:
        self.table = params.points_table("table")
        self.makers_lose = params.integer("makers_lose")
        # A side scores from the table if it wins, makers_lose if it made trumps and lost, else 0.
        scores = [*self.table.values(), self.makers_lose, 0]
        self.points_range = (min(scores), max(scores))

    def result(self, st: Deal) -> tuple[Json, int | None]:
        tricks = st.tricks
        best = max(tricks)
        top = [i for i, t in enumerate(tricks) if t == best]
        winner = top[0] if len(top) == 1 else None
        score = [0] * len(tricks)
        if winner is not None:
            score[winner] += self.table.get(best, 0)
        if st.makers is not None and winner != st.makers:
            score[st.makers] += self.makers_lose
        return (
            {
                "winner": winner,
                "tricks": list(tricks),
                "makers": st.makers,
                "lone": st.lone,
                "deal_score": score,
            },
            winner,
        )
