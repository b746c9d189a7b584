"""The refusal an action breaking several rules is answered with: the first of them in the
precedence spec/errors.yaml states for the variant's game.

Each stage finds every refusal that applies to an action and hands them here, so the order is
the data's alone. The engine reads an action (``invalid_action``) and its phase
(``wrong_phase``) before any stage sees it; an order that puts another code before those two
is one the engine cannot follow, and it says so instead of answering against it.
"""

from __future__ import annotations

from collections.abc import Sequence

from reference import errors
from reference.errors import Rejected, VariantError
from specreader.spec import load_spec_errors

# The codes that refuse an action (a setup's refusal comes before any action and is not ordered).
ACTION_CODES: tuple[str, ...] = tuple(e["code"] for e in load_spec_errors() if e.get("refuses", "action") == "action")

_READ_FIRST = (errors.INVALID_ACTION, errors.WRONG_PHASE)  # in the order the engine checks them


class Precedence:
    """An order of the action codes, every one of them exactly once."""

    __slots__ = ("order", "rank")

    def __init__(self, order: Sequence[str]) -> None:
        missing = [code for code in ACTION_CODES if code not in order]
        extra = [code for code in order if code not in ACTION_CODES]
        if missing or extra or len(set(order)) != len(order):
            raise VariantError(
                f"the refusal precedence must order every action code once (missing: {missing}, unknown: {extra})"
            )
        if tuple(order[: len(_READ_FIRST)]) != _READ_FIRST:
            raise VariantError(
                f"the refusal precedence must begin {', '.join(_READ_FIRST)}: the engine reads an action and"
                " its phase before any rule looks at it"
            )
        self.order = tuple(order)
        self.rank = {code: i for i, code in enumerate(order)}

    def first(self, *refusals: Rejected | None) -> Rejected | None:
        """Of the refusals that apply (None: that one does not), the one the order puts first."""
        rank = self.rank
        best: Rejected | None = None
        for refusal in refusals:
            if refusal is not None and (best is None or rank[refusal.code] < rank[best.code]):
                best = refusal
        return best
