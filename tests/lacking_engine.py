"""Engines that keep no dealer, no match and no victory points in a deal's result, and say so
(``REPORTS``): the reference with those fields left out, and the same with a planted bug in
``result.tie`` (a tie given to seat 0's side); and the reference in full with a deal's flags written as numbers.

    trickspec verify --engine lacking_engine:Lacking      # from tests/, or with tests/ on the path
"""

from __future__ import annotations

from typing import Any

from wrapped_engine import Wrapped

LEFT_OUT = ("dealer", "match")

# Every snapshot field but those, and result.vp: the fields these engines report, and the legal actions.
REPORTS = [
    "variant", "phase", "to_act", "forehand", "trump", "indicator", "stock", "stock_count", "hands", "sides", "piles",
    "totals", "dead", "bids", "turned", "trick", "last_trick", "tricks", "makers", "lone", "trees_taken",
    "result.winner", "result.tie", "result.double", "result.totals", "result.next_dealer", "legal",
]  # fmt: skip


class Lacking(Wrapped):
    REPORTS = REPORTS

    def snapshot(self) -> dict[str, Any]:
        kept = {k: v for k, v in super().snapshot().items() if k not in LEFT_OUT}
        if kept.get("result"):
            kept["result"] = {k: v for k, v in kept["result"].items() if k != "vp"}
        return kept


class TieBug(Lacking):
    """A deal that ends level is given to seat 0's side."""

    def snapshot(self) -> dict[str, Any]:
        kept = super().snapshot()
        if kept.get("result") and kept["result"].get("tie"):
            kept["result"] = {**kept["result"], "tie": False, "winner": 0}
        return kept


class TieBugOtherSide(Lacking):
    """The same bug, a level deal given to seat 1's side instead: a known failure failing another way."""

    def snapshot(self) -> dict[str, Any]:
        kept = super().snapshot()
        if kept.get("result") and kept["result"].get("tie"):
            kept["result"] = {**kept["result"], "tie": False, "winner": 1}
        return kept


class NumbersForFlags(Wrapped):
    """The reference in full, as an engine of a language without booleans would report it: a deal's tie and
    double as 0 and 1."""

    def snapshot(self) -> dict[str, Any]:
        kept = super().snapshot()
        if kept.get("result"):
            kept["result"] = {k: int(v) if isinstance(v, bool) else v for k, v in kept["result"].items()}
        return kept


class LeftOut(Lacking):
    """No result at all until the deal ends, as an engine keeping a result only once there is one reports it."""

    def snapshot(self) -> dict[str, Any]:
        kept = super().snapshot()
        if kept.get("result") is None:
            del kept["result"]
        return kept


class EarlyResult(Lacking):
    """A result given once the first trick is taken, while the deal goes on."""

    def snapshot(self) -> dict[str, Any]:
        kept = super().snapshot()
        if kept.get("result") is None and kept.get("last_trick") is not None:
            kept["result"] = {"winner": 0, "tie": False}
        return kept
