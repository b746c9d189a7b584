"""A game the kit failed to judge: judging it raised, which is a fault of the kit's, never the engine's.

The game's verdict is an error saying so in one line of safe text (the exception's type and message, capped), and
asking for a report with the game's line of the trace, which is all it takes to judge the game again. The traceback
is kept apart, for the terminal to show once: in every game's line of a run log it would bury the reports.
"""

from __future__ import annotations

import traceback

from conformance.engines.adapter import describe_error
from conformance.run.worker_ends import NOT_THE_ENGINE
from conformance.text import untrusted

KIT_FAULT = "kit fault"  # the start of such a verdict's error: the cause the reports group it under


def detail(err: BaseException, doing: str) -> str:
    """The verdict's error: what the kit raised while ``doing`` (judging this game, reading this line)."""
    return (f"{KIT_FAULT}: the kit raised {describe_error(err)} while {doing}, {NOT_THE_ENGINE}: "
            "please report it with this line of the trace")  # fmt: skip


def following(deal: int) -> str:
    """The error of a deal after one of its match the kit failed to judge: the match it starts from is not known."""
    return (f"{KIT_FAULT}: not judged, as it goes on from deal {deal} of the match, which the kit failed to judge, "
            f"{NOT_THE_ENGINE}: please report it with this line of the trace")  # fmt: skip


def traceback_of(err: BaseException) -> str:
    """Where the kit raised, for a report: its frames (the kit's own code) and the exception as ``detail`` says it,
    each line made safe."""
    frames = "".join(traceback.format_tb(err.__traceback__)).splitlines()
    return "\n".join(["Traceback (most recent call last):", *map(untrusted.text, frames), describe_error(err)])
