"""The `trickspec` command: validate, coverage, verify."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from conformance import adapter as adapters
from conformance import coverage, runner, scenarios, spec
from conformance.problems import DataError, Problem
from conformance.validate import validate

EXIT_OK, EXIT_FAILED, EXIT_BAD_DATA, EXIT_ENGINE = 0, 1, 2, 3


def _print_problems(problems: list[Problem]) -> int:
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{len(problems)} problem(s)", file=sys.stderr)
    return EXIT_BAD_DATA


def cmd_validate(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    problems = validate([Path(p) for p in args.paths] or None)
    if problems:
        return _print_problems(problems)
    print(f"valid ({time.perf_counter() - started:.2f}s)")
    return EXIT_OK


def cmd_coverage(args: argparse.Namespace) -> int:
    rows = coverage.measure(spec.kit_spec(), scenarios.kit_scenarios())
    print(coverage.table(rows))
    return EXIT_OK if all(r.complete for r in rows) else EXIT_FAILED


def _selected(args: argparse.Namespace) -> list[scenarios.Scenario]:
    chosen = []
    for s in scenarios.kit_scenarios():
        if args.game and s.game not in args.game:
            continue
        if args.variant and s.variant not in args.variant:
            continue
        if args.clause and not any(c.startswith(prefix) for prefix in args.clause for c in s.clauses):
            continue
        if args.scenario and not any(s.id.startswith(prefix) for prefix in args.scenario):
            continue
        chosen.append(s)
    return chosen


def cmd_verify(args: argparse.Namespace) -> int:
    try:
        engine = adapters.load_engine(args.engine) if args.engine else adapters.reference_adapter()
        hello = engine.hello()
    except Exception as err:  # an unusable engine is a verdict, not a traceback
        print(f"engine unusable: {type(err).__name__}: {err}", file=sys.stderr)
        return EXIT_ENGINE
    chosen = _selected(args)
    if not chosen:
        print("no scenario matches the filters", file=sys.stderr)
        return EXIT_BAD_DATA
    supported = set(hello.get("variants", []))
    report_dir = Path(args.report_dir) if args.report_dir else None
    log = None
    if report_dir is not None:
        report_dir.mkdir(parents=True, exist_ok=True)
        log = (report_dir / "run.jsonl").open("w", encoding="utf-8")
        log.write(json.dumps({"type": "header", "engine": hello, "scenarios": len(chosen)}) + "\n")
    counts: Counter[str] = Counter()
    failures = []
    started = time.perf_counter()
    for number, scenario in enumerate(chosen, start=1):
        outcome = runner.run(engine, scenario, supported)
        counts[outcome.status] += 1
        if outcome.status in (runner.FAIL, runner.ERROR):
            failures.append(outcome)
        if log is not None:
            log.write(json.dumps({"type": "scenario", **outcome.to_json()}) + "\n")
        if number % 100 == 0 or number == len(chosen):
            print(f"[{number}/{len(chosen)}] {counts[runner.PASS]} passed, {len(failures)} failed", flush=True)
    engine.close()
    elapsed = time.perf_counter() - started
    for outcome in failures:
        s = outcome.scenario
        print(f"\n{outcome.status.upper()} {s.id} ({s.location}) clauses: {', '.join(s.clauses)}")
        if outcome.error:
            print(f"  {outcome.error}")
        for m in outcome.mismatches:
            print(f"  step {m.step} (line {m.line}): {m.what}: expected {m.expected!r}, observed {m.observed!r}")
    by_game: dict[str, Counter[str]] = {}
    for s in chosen:
        by_game.setdefault(s.game, Counter())
    if log is not None:
        log.write(json.dumps({"type": "footer", "counts": dict(counts), "seconds": round(elapsed, 3)}) + "\n")
        log.close()
    rate = len(chosen) / elapsed if elapsed else 0.0
    print(f"\nengine: {hello.get('name')} {hello.get('version')} · {len(chosen)} scenarios in {elapsed:.2f}s ({rate:.0f}/s)")
    extra = ", ".join(f"{counts[k]} {k}" for k in (runner.UNSUPPORTED,) if counts[k])
    failed = counts[runner.FAIL] + counts[runner.ERROR]
    print(f"{counts[runner.PASS]} passed, {failed} failed" + (f", {extra}" if extra else ""))
    return EXIT_FAILED if failed else EXIT_OK


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="trickspec", description="Rules specification and conformance kit.")
    sub = top.add_subparsers(dest="command", required=True)
    p = sub.add_parser("validate", help="check spec/ and scenarios/ (or the given paths) against schemas and each other")
    p.add_argument("paths", nargs="*", help="files or folders (default: the whole kit)")
    p.set_defaults(run=cmd_validate)
    p = sub.add_parser("coverage", help="print scenarios per clause; exit 1 if a clause lacks one")
    p.set_defaults(run=cmd_coverage)
    p = sub.add_parser("verify", help="run the scenarios against an engine (default: the reference engine)")
    p.add_argument("--engine", help="module:name of a Python engine class or adapter factory")
    p.add_argument("--game", action="append", help="only this game (repeatable)")
    p.add_argument("--variant", action="append", help="only this variant (repeatable)")
    p.add_argument("--clause", action="append", help="only scenarios checking a clause starting with this (repeatable)")
    p.add_argument("--scenario", action="append", help="only scenario ids starting with this (repeatable)")
    p.add_argument("--report-dir", help="write the JSON Lines run log here")
    p.set_defaults(run=cmd_verify)
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except DataError as err:
        return _print_problems(err.problems)


if __name__ == "__main__":
    sys.exit(main())
