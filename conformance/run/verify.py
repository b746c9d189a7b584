"""A conformance run: every chosen scenario through one engine, into one run log.

Inside ``interrupt.trapped()`` a SIGINT or SIGTERM ends the run early but cleanly: the log gets a
footer naming the signal, and ``verify`` returns it like any other.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import IO, cast

from conformance.engines import interrupt
from conformance.engines.adapter import EngineAdapter, take_late_copies
from conformance.run import runlog, runner
from conformance.run.expectations import Expectations
from conformance.run.kit_faults import Faults
from conformance.run.reports import closing_line
from conformance.run.runlog import Log, ScenarioLine
from conformance.suite.reported import declared
from conformance.suite.scenarios import Scenario
from conformance.text import untrusted
from conformance.vocabulary import Outcome
from specreader.jsontypes import Json


def scenario_line(
    scenario: Scenario, verdict: runner.Verdict | None, reported: Outcome, seconds: float, expected: Json | None, note: str | None
) -> ScenarioLine:
    mismatches = [m.to_json() for m in verdict.mismatches] if verdict else []
    return {
        "type": "scenario",
        "id": scenario.id,
        "outcome": reported,
        "game": scenario.game,
        "variant": scenario.variant,
        "clauses": list(scenario.clauses),
        "file": scenario.file,
        "line": scenario.line,
        "seconds": round(seconds, 6),
        "mismatch": mismatches[0] if mismatches else None,
        "mismatches": mismatches,
        "error": (verdict.reason or None) if verdict else None,
        "expected": expected,
        "note": note,
    }


def verify(
    engine: EngineAdapter,
    chosen: Iterable[Scenario],
    *,
    expectations: Expectations | None = None,
    stream: IO[str] | None = None,
    options: Json | None = None,
    progress: Callable[[int, Counter[str]], None] | None = None,
    faults: Faults | None = None,
) -> Log:
    """Run the scenarios and return the run log, written line by line to ``stream`` if given. A scenario the kit
    fails to judge is an error of the kit's, counted in ``faults`` if given, and the run goes on."""
    chosen = list(chosen)
    expectations = expectations or Expectations()
    faults = faults if faults is not None else Faults()
    hello = untrusted.identity(engine.hello(), {s.variant for s in chosen})  # its name and version reach every report
    supported = set(hello["variants"])
    reports = declared(hello.get("reports"))
    log = Log(header=runlog.header(hello, options or {}, len(chosen)), stream=stream)
    started = time.perf_counter()
    skipped = {s.id for s in chosen if (e := expectations.get(s.id)) is not None and e.outcome is Outcome.SKIPPED}
    verdicts = runner.run_all(engine, [s for s in chosen if s.id not in skipped], supported, reports)
    clock = time.perf_counter()
    try:
        with interrupt.deferred():  # the header whole; a signal after it stops the run as any other, its reports written
            log.start()
        for number, scenario in enumerate(chosen, start=1):
            verdict = None if scenario.id in skipped else next(verdicts)
            now = time.perf_counter()
            try:
                line = _line(scenario, verdict, expectations, now - clock)
            except Exception as err:  # the kit's bug on the verdict's way to the log: this scenario's, the run going on
                verdict = runner.not_judged(scenario, err)
                line = _line(scenario, verdict, expectations, now - clock)
            if verdict is not None and verdict.fault:
                faults.add(scenario.id, verdict.fault, verdict.where, verdict.doing)
            with interrupt.deferred():  # a line is in the log and in the counts, or in neither
                log.add(line)
            clock = now
            if progress is not None:
                progress(number, log.counts())
        with interrupt.deferred():
            log.finish(time.perf_counter() - started, late_copies=take_late_copies(engine))
    except interrupt.Interrupted as stop:
        if log.footer is None:  # else the signal came as the run finished: it stands finished
            log.finish(time.perf_counter() - started, interrupted=stop.signal.name, late_copies=take_late_copies(engine))
    return log


def _line(scenario: Scenario, verdict: runner.Verdict | None, expectations: Expectations, seconds: float) -> ScenarioLine:
    """The scenario's line of the run log (``verdict`` None: skipped), as the log's file will hold it."""
    entry = expectations.get(scenario.id)
    note: str | None
    if verdict is None:
        reported, note = Outcome.SKIPPED, entry.reason if entry else None
    elif verdict.fault:  # the kit's own error: no expectation file may excuse it
        reported, note = Outcome.ERROR, None
    else:
        reported, note = expectations.reported(scenario.id, verdict.outcome, (m.to_json() for m in verdict.mismatches))
    line = scenario_line(scenario, verdict, reported, seconds, entry.to_json() if entry else None, note)
    return cast(ScenarioLine, runlog.read_back(line))  # a value no JSON can hold fails here, not in the log's writing


class Progress:
    """A bar on a terminal; plain lines (every tenth of the run) elsewhere, e.g. in CI."""

    def __init__(self, total: int, stream: IO[str] | None = None) -> None:
        self.total = total
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.step = max(1, total // 10)

    def __call__(self, done: int, counts: Counter[str]) -> None:
        if self.tty:
            width = 30
            filled = width * done // self.total
            bar = "#" * filled + "." * (width - filled)
            self.stream.write(f"\r[{bar}] {done}/{self.total}  {closing_line(counts)}")
            if done == self.total:
                self.stream.write("\n")
            self.stream.flush()
        elif done % self.step == 0 or done == self.total:
            self.stream.write(f"{done}/{self.total} scenarios: {closing_line(counts)}\n")
            self.stream.flush()
