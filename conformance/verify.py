"""A conformance run: every chosen scenario through one engine, logged line by line."""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import IO

from conformance import runlog, runner
from conformance.adapter import EngineAdapter
from conformance.expectations import Expectations
from conformance.scenarios import Scenario
from specreader.jsontypes import Json


def _raw_outcome(outcome: runner.Outcome) -> str:
    if outcome.status == runner.ERROR and outcome.error.startswith("timeout:"):
        return "timeout"
    return outcome.status


def scenario_line(
    scenario: Scenario, outcome: runner.Outcome | None, reported: str, seconds: float, expected: Json | None, note: str | None
) -> Json:
    mismatches = [m.to_json() for m in outcome.mismatches] if outcome else []
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
        "error": (outcome.error or None) if outcome else None,
        "expected": expected,
        "note": note,
    }


@dataclass
class Run:
    """What a run produced: the scenario lines in order and the counts."""

    header: Json = field(default_factory=dict)
    lines: list[Json] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0

    def log(self) -> runlog.Log:
        return runlog.Log(self.header, self.lines, {"type": "footer", "counts": dict(self.counts)})

    @property
    def failed(self) -> int:
        return sum(self.counts[k] for k in runlog.FAILING)


def verify(
    engine: EngineAdapter,
    chosen: Iterable[Scenario],
    *,
    expectations: Expectations | None = None,
    log: runlog.Writer | None = None,
    options: Json | None = None,
    progress: Callable[[int, Counter[str]], None] | None = None,
) -> Run:
    chosen = list(chosen)
    expectations = expectations or Expectations()
    hello = engine.hello()
    supported = set(hello.get("variants", []))
    run = Run(
        header={
            "type": "header",
            "kit": {"name": "trickspec", "version": runlog.kit_version()},
            "spec_version": runlog.spec_version(),
            "engine": hello,
            "options": options or {},
            "started": runlog.now(),
            "scenarios": len(chosen),
        }
    )
    if log is not None:
        log.write(run.header)
    started = time.perf_counter()
    skipped = {s.id for s in chosen if (e := expectations.get(s.id)) is not None and e.outcome == "skip"}
    outcomes = runner.run_all(engine, [s for s in chosen if s.id not in skipped], supported)
    clock = time.perf_counter()
    for number, scenario in enumerate(chosen, start=1):
        entry = expectations.get(scenario.id)
        outcome: runner.Outcome | None = None
        note: str | None
        if scenario.id in skipped:
            reported, note = "skipped", entry.reason if entry else None
        else:
            outcome = next(outcomes)
            reported, note = expectations.judge(scenario.id, _raw_outcome(outcome))
        now = time.perf_counter()
        line = scenario_line(scenario, outcome, reported, now - clock, entry.to_json() if entry else None, note)
        clock = now
        run.lines.append(line)
        run.counts[reported] += 1
        if log is not None:
            log.write(line)
        if progress is not None:
            progress(number, run.counts)
    run.seconds = time.perf_counter() - started
    if log is not None:
        log.write({"type": "footer", "counts": dict(run.counts), "seconds": round(run.seconds, 3), "finished": runlog.now()})
    return run


class Progress:
    """A bar on a terminal; plain lines (every tenth of the run) elsewhere, e.g. in CI."""

    def __init__(self, total: int, stream: IO[str] = sys.stderr) -> None:
        self.total = total
        self.stream = stream
        self.tty = stream.isatty()
        self.step = max(1, total // 10)

    def __call__(self, done: int, counts: Counter[str]) -> None:
        failed = sum(counts[k] for k in runlog.FAILING)
        if self.tty:
            width = 30
            filled = width * done // self.total
            bar = "#" * filled + "." * (width - filled)
            self.stream.write(f"\r[{bar}] {done}/{self.total}  {counts['pass']} passed  {failed} failed")
            if done == self.total:
                self.stream.write("\n")
            self.stream.flush()
        elif done % self.step == 0 or done == self.total:
            self.stream.write(f"{done}/{self.total} scenarios: {counts['pass']} passed, {failed} failed\n")
            self.stream.flush()
