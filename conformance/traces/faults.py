"""A game check-trace failed to judge (conformance/run/kit_faults.py): what a report of it needs is the game's line of
the trace, which is all it takes to judge the game again."""

from __future__ import annotations

from conformance.run import kit_faults

LINE = "this line of the trace"  # what a report of the fault needs


def detail(err: BaseException, doing: str) -> str:
    """The verdict's error: what the kit raised while ``doing`` (judging this game, reading this line)."""
    return kit_faults.detail(err, doing, LINE)


def following(deal: int) -> str:
    """The error of a deal after one of its match the kit failed to judge: the match it starts from is not known."""
    return kit_faults.said(f"not judged, as it goes on from deal {deal} of the match, which the kit failed to judge", LINE)
