"""What the kit failed to judge: judging an engine's answer raised, which is a fault of the kit's, never the engine's.

A scenario of ``verify``, a deal of ``fuzz`` or a game of ``check-trace`` whose judging raised is an error saying so in
one line of safe text (the exception's type and message, capped), asking for a report with what it takes to judge it
again. The traceback is kept apart, for the terminal to show once: in every line of a run log it would bury the reports.
The run goes on, says it once in its summary, and exits with a status of its own (``commands.exits.EXIT_KIT_FAULT``).
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass

from conformance.engines.adapter import describe_error
from conformance.run.worker_ends import WorkerFailed
from conformance.text import untrusted

NOT_THE_ENGINE = "a fault of the kit's, not the engine's"  # said of a worker's crash, and of what the kit failed to judge
KIT_FAULT = "kit fault"  # the start of such a verdict's error: the cause the reports group it under


def said(what: str, report_with: str) -> str:
    """The error of a verdict the kit failed to give: ``what`` befell it, and what a report of it needs."""
    return f"{KIT_FAULT}: {what}, {NOT_THE_ENGINE}: please report it with {report_with}"


def detail(err: BaseException, doing: str, report_with: str) -> str:
    """The verdict's error: what the kit raised while ``doing`` (judging this scenario, reading this line)."""
    return said(f"the kit raised {describe_error(err)} while {doing}", report_with)


def is_fault(error: object) -> bool:
    """Whether a run log line's error is one of the kit's (an engine's error starts with its kind, never this)."""
    return isinstance(error, str) and error.startswith(f"{KIT_FAULT}: ")


def traceback_of(err: BaseException) -> str:
    """Where the kit raised, for a report: its frames (the kit's own code) and the exception as ``detail`` says it,
    each line made safe."""
    frames = "".join(traceback.format_tb(err.__traceback__)).splitlines()
    return "\n".join(["Traceback (most recent call last):", *map(untrusted.text, frames), describe_error(err)])


def raised(on: str, where: str) -> str:
    """What standard error says once for the run: where the kit failed (``on``: on one of them while doing what, in
    a worker), and the traceback."""
    return f"the kit failed {on} ({NOT_THE_ENGINE}); where it raised, for a report:\n{where}"


@dataclass
class Faults:
    """The scenarios, deals or games of a run the kit failed to judge: how many, and the first of them, by its place
    in the run (its id, its error, what the kit was doing when it raised, and the traceback of what raised)."""

    count: int = 0
    first: str = ""
    detail: str = ""
    where: str = ""
    doing: str = ""

    def add(self, at: str, detail: str, where: str, doing: str) -> None:
        self.count += 1
        if self.count == 1:
            self.first, self.detail, self.where, self.doing = at, detail, where, doing

    def summary(self, noun: str) -> list[str]:
        """The summary's lines, said once whatever their number (``noun``: scenario, deal, game); none where the
        kit judged everything."""
        if not self.count:
            return []
        return [
            f"KIT FAULT {self.count:,} {noun}{'' if self.count == 1 else 's'} not judged (first at {self.first})",
            f"  {self.detail}",
            f"  its traceback is on standard error; each such {noun} is an error in the run log, no verdict on the engine",
        ]

    def raised(self) -> str:
        """What standard error says of the first ("" where the kit judged everything)."""
        return raised(f"on {self.first} while {self.doing}", self.where) if self.count and self.where else ""


def where_raised(faults: Faults, failed: WorkerFailed | None) -> str:
    """Where the kit raised, once for the run: in the first of ``faults``, or else in a worker outside any scenario,
    deal or game (``failed``, where its work raised); "" where it did not."""
    if faults.count:
        return faults.raised()
    return raised("in a worker", failed.where) if failed is not None and failed.where else ""
