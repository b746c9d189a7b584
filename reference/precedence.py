"""The refusal an action breaking several rules is answered with: the first of them in the
precedence spec/refusals.yaml states for the variant's game.

Each stage finds every refusal that applies to an action and hands them here, so the order is
the data's alone. The engine reads an action (``invalid_action``) and its phase
(``wrong_phase``) before any stage sees it; an order that puts another code before those two
is one the engine cannot follow, and it says so instead of answering against it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from reference import refusals
from reference.errors import VariantError
from reference.refusals import Refusal
from specreader.spec import own_spec

# What every order begins with, in the order the engine checks them: it reads an action and its
# phase before any stage sees it. `trickspec validate` holds spec/refusals.yaml to it (order_faults).
READ_FIRST: tuple[str, ...] = (refusals.INVALID_ACTION, refusals.WRONG_PHASE)


class OrderFault(NamedTuple):
    """Why an order is not a refusal precedence."""

    at: int | None  # the entry of the order at fault; None: the order as a whole
    message: str
    repeat: bool = False  # a code ordered twice (an order's schema says so too: uniqueItems)


def order_faults(order: Sequence[object], codes: Sequence[str]) -> list[OrderFault]:
    """What keeps ``order`` from ordering every one of the action ``codes`` exactly once, beginning
    with READ_FIRST; nothing if it does. Entries that are not strings are left to the schema."""
    faults = []
    seen: set[str] = set()
    for i, code in enumerate(order):
        if not isinstance(code, str):
            continue
        if code not in codes:
            message = f"{code!r} is not a code refusing an action: expected one of the errors list's action codes"
            faults.append(OrderFault(i, message))
        elif code in seen:
            faults.append(OrderFault(i, f"{code!r} is ordered twice: expected every code exactly once", repeat=True))
        seen.add(code)
    missing = [code for code in codes if code not in order]
    if missing:
        faults.append(OrderFault(None, f"expected every code exactly once; missing: {', '.join(missing)}"))
    begins = list(order[: len(READ_FIRST)])
    if begins != list(READ_FIRST):
        at = next((i for i, code in enumerate(begins) if code != READ_FIRST[i]), None)  # None: too short
        found = f"found {begins[at]!r}" if at is not None else f"found only {len(begins)} code(s)"
        message = (
            f"expected the order to begin {', '.join(READ_FIRST)}, {found}: the engine reads an action and its"
            " phase before any rule looks at it"
        )
        faults.append(OrderFault(at, message))
    return faults


class Precedence:
    """An order of the action codes, every one of them exactly once, beginning with READ_FIRST."""

    __slots__ = ("order", "rank")

    def __init__(self, order: Sequence[str]) -> None:
        # the codes that refuse an action: a setup's refusal comes before any action and is not ordered
        faults = order_faults(order, own_spec().action_codes())
        if faults:
            said = "; ".join(f.message if f.at is None else f"[{f.at}] {f.message}" for f in faults)
            raise VariantError(f"the refusal precedence cannot be followed: {said}")
        self.order = tuple(order)
        self.rank = {code: i for i, code in enumerate(order)}

    def first(self, *refusals: Refusal | None) -> Refusal | None:
        """Of the refusals that apply (None: that one does not), the one the order puts first."""
        rank = self.rank
        best: Refusal | None = None
        for refusal in refusals:
            if refusal is not None and (best is None or rank[refusal.code] < rank[best.code]):
                best = refusal
        return best
