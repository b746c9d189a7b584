"""The `trickspec` command: validate, coverage, verify, fuzz, check-trace, report, smoke, selfcheck, where, schema-path."""

from __future__ import annotations

import argparse
import contextlib
import functools
import math
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TextIO, cast

from conformance.engines import adapter as adapters
from conformance.engines import engine_process, interrupt
from conformance.engines.breaker import GIVE_UP_AFTER
from conformance.engines.protocol import BadCommand
from conformance.measures import coverage, selfcheck
from conformance.measures.field_coverage import field_report
from conformance.measures.smoke import smoke
from conformance.run import durations, expectations, kit_faults, outputs, reports, runlog
from conformance.run.kit_faults import Faults
from conformance.run.runlog import Log
from conformance.run.verify import Progress, verify
from conformance.suite import declared_variants, field_phases, scenarios
from conformance.suite.reported import declared, every_path, within
from conformance.text import untrusted
from conformance.validate import spec_problems, validate
from conformance.vocabulary import Outcome
from specreader import kitdata, limits, roots, spec
from specreader.problems import DataError, Problem
from specreader.spec import EQUIVALENTS_FILE

EXIT_OK, EXIT_FAILED, EXIT_BAD_DATA, EXIT_ENGINE, EXIT_KIT_FAULT = 0, 1, 2, 3, 4


# The files --report-dir receives, by report format.
REPORT_FILES = {"md": "report.md", "junit": "junit.xml", "json": "summary.json", "badge": "badge.json"}


def _usage_error(message: str) -> int:
    print(f"usage error: {message}", file=sys.stderr)
    return EXIT_BAD_DATA


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
    if args.by_variant and not args.fields:
        return _usage_error("--by-variant counts fields: give it with --fields")
    if args.fields:
        if roots.current():  # a house adds no field and no phase: the fields are pinned by the kit's suite
            return _usage_error("--fields measures the kit's own scenarios: give it no --spec or --scenarios")
        text, complete = field_report(scenarios.kit_scenarios(), spec.kit_spec().games(), by_variant=args.by_variant)
        print(text)
        return EXIT_OK if complete else EXIT_FAILED
    rows = coverage.measure(spec.kit_spec(), scenarios.run_scenarios())
    house = roots.current().spec
    if house:  # the house's own clauses: the kit's are the kit's scenarios' to cover
        mine = roots.clause_ids(spec.kit_spec(), house)
        rows = [r for r in rows if r.clause in mine]
    print(coverage.table(rows))
    return EXIT_OK if all(r.complete for r in rows) else EXIT_FAILED


def _selected(args: argparse.Namespace) -> list[scenarios.Scenario]:
    chosen = []
    for s in scenarios.run_scenarios():
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
    chosen = _selected(args)
    if not chosen:
        print("no scenario matches the filters", file=sys.stderr)
        return EXIT_BAD_DATA
    expected = expectations.load(Path(args.expect)) if args.expect else expectations.Expectations()
    if args.expect:
        _note_stale(args.expect, expected)
    log_path = Path(args.report_dir) / "run.jsonl" if args.report_dir else None  # opened before the run
    # Outputs are checked before the run, so a long run never ends in a path that cannot be written.
    if args.report_dir:
        outputs.make_folder(Path(args.report_dir))
    if args.save_expectations and (problems := outputs.unwritable(Path(args.save_expectations))):
        return _print_problems(problems)
    report_dir, expectations_path = _output(args.report_dir), _output(args.save_expectations)
    try:
        engine = adapters.open_engine(
            args.engine,
            args.engine_cmd,
            timeout=args.timeout,
            validate=args.validate_protocol,
            startup_timeout=args.startup_timeout,
            give_up_after=args.give_up_after or GIVE_UP_AFTER,
            in_process=args.in_process,
        )
    except BadCommand as err:
        return _usage_error(str(err))
    except Exception as err:  # an unusable engine is a verdict, not a traceback
        print(f"engine unusable: {adapters.unusable_said(err)}", file=sys.stderr)
        return EXIT_ENGINE
    if (refused := _declared_variants_refused(engine, chosen)) is not None:
        return refused
    options = {k: v for k, v in vars(args).items() if k not in ("run", "command") and v not in (None, False, [])}
    log: Log | None = None
    faults = Faults()
    try:
        with contextlib.ExitStack() as stack:
            stream = stack.enter_context(outputs.open_text(log_path)) if log_path else None
            log = verify(
                engine, chosen, expectations=expected, stream=stream, options=options, progress=Progress(len(chosen)),
                faults=faults,
            )
    finally:
        if log is None or log.interrupted:
            engine_process.end_all()  # no time for a goodbye
        engine.close()
    with interrupt.deferred():  # a signal now waits until every report is written
        return _report(args, log, faults, report_dir, expectations_path, _reported_fields(log, chosen))


def _declared_variants_refused(engine: adapters.EngineAdapter, chosen: list[scenarios.Scenario]) -> int | None:
    """The exit status of a run that could send the engine no scenario (it declares none of their variants), the
    engine closed; None otherwise, after a warning for each declared id the kit does not have."""
    hello = untrusted.identity(engine.hello(), {s.variant for s in chosen})  # printed: made safe first
    why = declared_variants.nothing_to_send(hello, {s.variant for s in chosen})
    if why is not None:
        engine.close()
        print(f"engine unusable: {why}: no scenario could be sent", file=sys.stderr)
        return EXIT_ENGINE
    if unknown := declared_variants.unknown_named(hello):
        print(f"warning: the engine declares variants the kit does not have: {unknown}", file=sys.stderr)
    return None


def _openable(where: str) -> str:
    """A scenario's place (``file:line``, the file as the run log has it: a kit scenario's from the kit's folder) as a
    path that opens from here: an installed kit's scenarios are not in the user's folder."""
    file, _, line = where.rpartition(":")
    if not file or Path(file).is_absolute() or Path(file).exists():
        return where
    installed = kitdata.root() / file
    return f"{installed}:{line}" if installed.exists() else where


def _reported_fields(log: Log, chosen: list[scenarios.Scenario]) -> str | None:
    """What the engine's declaration of the fields it reports leaves out of what the scenarios check."""
    reports = declared(log.header["engine"].get("reports"))
    if reports is None:
        return None
    variants = set(log.header["engine"].get("variants") or ()) or {s.variant for s in chosen}
    ran = [s for s in chosen if s.variant in variants]
    # a field only other games fill is checked empty, and is no field of this engine's games
    games = {str(spec.kit_spec().resolved(v).get("game", "")) for v in {s.variant for s in ran}}
    others = set.intersection(*(set(field_phases.left_empty(g)) for g in games)) if games else set()
    expects = [step.expect for s in ran for step in s.steps if step.expect]
    checked = {_field_of(path) for path in every_path(expects)} - others
    left_out = {_field_of(path) for path in every_path(expects) - every_path(within(e, reports)[0] for e in expects)}
    left = sorted(left_out & checked)
    shown = ", ".join(left[:_UNKNOWN_NAMED]) + (f" and {len(left) - _UNKNOWN_NAMED} more" if len(left) > _UNKNOWN_NAMED else "")
    said = f"fields: the engine reports {len(checked) - len(left)} of the {len(checked)} the scenarios check"
    return said + (f"; not {shown}" if left else "")


def _field_of(path: str) -> str:
    """A field without the seat, side or place in a list it is checked at (``piles.0``, ``stock.33``)."""
    return ".".join(part for part in path.split(".") if not part.isdigit())


def _warn_of_late_copies(log: Log) -> None:
    """The scenarios or deals the engine answered again once they were judged: said, not hidden."""
    for warning in reports.late_copy_warnings(log):
        print(f"warning: {warning}", file=sys.stderr)


def _report(
    args: argparse.Namespace,
    log: Log,
    faults: Faults,
    report_dir: Path | None,
    expectations_path: Path | None,
    fields: str | None = None,
) -> int:
    """Print the run's summary, write its reports and expectations; the exit status."""
    if log.interrupted and sys.stderr.isatty():
        print(file=sys.stderr)  # after the progress bar
    # The terminal summary and every report are rendered from this one log object.
    hello = log.header["engine"]
    _warn_of_late_copies(log)
    data = reports.summary(log)
    if where := faults.raised():  # once, for a report of the fault: before the summary, which ends the output
        print(where, file=sys.stderr)
    for failure in data["failures"]:
        if kit_faults.is_fault(failure["detail"]):  # said once, below
            continue
        print(f"{failure['outcome'].upper()} {failure['id']} ({_openable(failure['where'])}) [{', '.join(failure['clauses'])}]")
        print(f"  {failure['detail']}")
        for more in reports.beyond_detail(failure):
            print(f"  {more}")
    for line in faults.summary("scenario"):
        print(line)
    print()
    print(reports.render_text(data))
    print()
    seconds = log.footer["seconds"] if log.footer else 0.0
    left_out = data.get("undeclared", {}).get("scenarios", 0)
    sent = len(log.scenarios) - left_out  # those of undeclared variants are never sent: no part of the rate
    rate = sent / seconds if seconds else 0.0
    of_declared = f" ({sent} of the variants it declares)" if left_out else ""
    print(
        f"engine: {runlog.safe_name(hello)} · spec {log.header['spec_version']} · "
        f"{len(log.scenarios)} {'scenario' if len(log.scenarios) == 1 else 'scenarios'}{of_declared} in {seconds:.2f}s"
        f" ({rate:.0f}/s)"
    )
    if fields is not None:
        print(fields)
    if report_dir is not None:
        _write_reports(log, report_dir, args.report_dir)
    if expectations_path is not None and log.interrupted:
        print(f"expectations: not written to {args.save_expectations}: the run did not finish", file=sys.stderr)
    elif expectations_path is not None:
        given = expectations.load(Path(args.expect)) if args.expect else expectations.Expectations()
        saved = expectations.from_run(log.scenarios, str(hello.get("name", "")), known=given.known)
        outputs.write_text(expectations_path, expectations.dump(saved))
        print(f"expectations: {len(saved.entries)} written to {args.save_expectations}")
    if log.interrupted:
        print(f"{log.stopped_early}; the log and reports hold those", file=sys.stderr)
    print(reports.closing_line(data["counts"], left_out))
    if log.interrupted:
        return interrupt.exit_status(log.interrupted)
    if faults.count:  # no verdict on the engine can be trusted whole
        return EXIT_KIT_FAULT
    if log.scenarios and set(data["counts"]) <= _NOT_JUDGED:  # a run that judged nothing is no pass
        print("engine unusable: every scenario was unsupported or skipped, so nothing was judged", file=sys.stderr)
        return EXIT_ENGINE
    return EXIT_FAILED if log.failed else EXIT_OK


_NOT_JUDGED = {Outcome.UNSUPPORTED.value, Outcome.SKIPPED.value}


def _note_stale(file: str, expected: expectations.Expectations) -> None:
    """Warn about an expectation file that no longer matches the kit: it still applies where it can."""
    where = untrusted.text(file, 1000)  # what a file says (and its name) reaches the terminal as safe text
    if expected.spec_version != runlog.spec_version():
        written = untrusted.text(expected.spec_version, 200)
        print(f"note: {where} was written for spec {written}, this is {runlog.spec_version()}", file=sys.stderr)
    known = scenarios.run_scenario_ids()
    unknown = sorted(sid for sid in expected.entries if sid not in known)
    if unknown:
        named = ", ".join(untrusted.text(sid, 200) for sid in unknown[:_UNKNOWN_NAMED])
        more = f" and {len(unknown) - _UNKNOWN_NAMED:,} more" if len(unknown) > _UNKNOWN_NAMED else ""
        print(f"note: {where} names scenarios the kit does not have: {named}{more}", file=sys.stderr)


_UNKNOWN_NAMED = 20  # the unknown scenarios a note names; it counts the rest


def cmd_fuzz(args: argparse.Namespace) -> int:
    # Imported here: the fuzzer's modules cost every other command a third of a second to import.
    from conformance.fuzz import campaign as fuzzing
    from conformance.fuzz import summary as fuzz_summary
    from conformance.fuzz.worker import Settings
    from conformance.run.kit_faults import NOT_THE_ENGINE
    from conformance.run.worker_ends import WorkerCrashed, WorkerKilled

    if args.deals is not None and args.time is not None:
        return _print_problems([Problem("--deals/--time", 0, 0, (), "give a number of deals or a time, not both")])
    for folder, what in ((args.report_dir, "the reports"), (args.out, "the scenarios written")):  # made before the run,
        if folder:  # so it never ends unwritable
            outputs.make_folder(Path(folder), what)
    report_dir, out = _output(args.report_dir), _output(args.out)
    deals = args.deals if args.deals is not None or args.time is not None else runlog.FUZZ_DEALS
    plan = fuzzing.Plan(
        variants=tuple(args.variant) if args.variant else None,
        deals=deals,
        seconds=args.time,
        shard=args.shard or (1, 1),
        jobs=args.jobs,
        max_divergences=args.max_divergences,
    )
    try:
        adapters.check_names(args.engine, args.engine_cmd)  # the workers of --jobs open their engines apart
    except BadCommand as err:
        return _usage_error(str(err))
    known = expectations.load(Path(args.expect)).known if args.expect else []
    settings = Settings(
        args.seed, args.engine, args.engine_cmd, args.timeout, not args.sampled, args.in_process, args.startup_timeout,
        tuple((k.variant, k.field) for k in known), args.deal == "engine", args.validate_protocol,
    )
    # the seed always, even 0: it is what replays the campaign
    given = {k: v for k, v in vars(args).items() if k not in ("run", "command") and v is not None and v is not False and v != []}
    options = {"command": "fuzz", **given}
    # Checked before the run, made at its first line: a run that never starts leaves a folder's last log as it was.
    log_path = report_dir / "run.jsonl" if report_dir else None
    if log_path and (problems := outputs.unwritable(log_path)):
        return _print_problems(problems)
    progress = fuzzing.FuzzProgress(plan.planned or None, plan.seconds)
    try:
        with contextlib.ExitStack() as stack:
            stream = stack.enter_context(outputs.FileAtFirstWrite(log_path)) if log_path else None
            done = fuzzing.run(plan, settings, out=out, stream=stream, options=options, progress=progress)
    except fuzzing.Stopped as err:
        print(err, file=sys.stderr)
        return EXIT_ENGINE
    except WorkerKilled as killed:  # as the workers started, before any deal: the run stops as that signal would stop it
        print(f"stopped before the first deal: {killed}", file=sys.stderr)
        return interrupt.exit_status(killed.killed_by.name)
    except WorkerCrashed as crashed:
        print(f"stopped before the first deal: {crashed}, {NOT_THE_ENGINE}: please report it with this command", file=sys.stderr)
        return EXIT_KIT_FAULT
    except fuzzing.BadChoice as err:
        return _print_problems([Problem("--variant", 0, 0, (), str(err))])
    except BadCommand as err:
        return _usage_error(str(err))
    finally:
        progress.end()
    _warn_of_late_copies(done.log)
    if where := done.faults.raised():  # once, for a report of the fault: before the summary, which ends the output
        print(where, file=sys.stderr)
    print(fuzz_summary.render(done, seed=args.seed, shard=plan.shard, jobs=plan.jobs))
    if report_dir is not None:
        _write_reports(done.log, report_dir, args.report_dir)
    if done.interrupted:
        return interrupt.exit_status(done.interrupted)
    if isinstance(done.worker_failed, WorkerKilled):  # the run stopped as that signal would have stopped it
        return interrupt.exit_status(done.worker_failed.killed_by.name)
    if done.worker_failed or done.faults.count:  # a worker's own crash, or a deal not judged: the kit's fault
        return EXIT_KIT_FAULT
    if done.deals and not done.compared:  # every deal unsupported from its setup: no run to pass
        print("engine unusable: it answered every deal unsupported at its setup, so nothing was compared", file=sys.stderr)
        return EXIT_ENGINE
    return EXIT_FAILED if done.log.failed else EXIT_OK


def cmd_check_trace(args: argparse.Namespace) -> int:
    from conformance.run.worker_ends import WorkerKilled
    from conformance.traces import checking
    from conformance.traces import summary as trace_summary
    from conformance.traces.reading import trace_files

    files, problems = trace_files(args.trace)
    if problems:
        return _print_problems(problems)
    for folder, what in ((args.report_dir, "the reports"), (args.out, "the scenarios written")):  # made before the run,
        if folder:  # so it never ends unwritable
            outputs.make_folder(Path(folder), what)
    report_dir, out = _output(args.report_dir), _output(args.out)
    log_path = report_dir / "run.jsonl" if report_dir else None
    if log_path and (problems := outputs.unwritable(log_path)):
        return _print_problems(problems)
    known = expectations.load(Path(args.expect)).known if args.expect else []
    pairs = tuple((k.variant, k.field) for k in known)
    plan = checking.Plan(tuple(files), shard=args.shard or (1, 1), jobs=args.jobs, known=pairs)
    given = {k: v for k, v in vars(args).items() if k not in ("run", "command") and v is not None and v is not False and v != []}
    progress = checking.TraceProgress()
    try:
        with contextlib.ExitStack() as stack:
            stream = stack.enter_context(outputs.FileAtFirstWrite(log_path)) if log_path else None
            done = checking.run(plan, out=out, stream=stream, options={"command": "check-trace", **given}, progress=progress)
    finally:
        progress.end()
    if where := trace_summary.where_raised(done):  # once, for a report of the fault: before the summary, which ends
        print(where, file=sys.stderr)
    print(trace_summary.render(done, shard=plan.shard, jobs=plan.jobs))
    if report_dir is not None:
        _write_reports(done.log, report_dir, args.report_dir)
    if done.interrupted:
        return interrupt.exit_status(done.interrupted)
    if isinstance(done.worker_failed, WorkerKilled):  # the run stopped as that signal would have stopped it
        return interrupt.exit_status(done.worker_failed.killed_by.name)
    if done.worker_failed or done.faults.count:  # no verdict on the engine can be trusted whole
        return EXIT_KIT_FAULT
    if done.problems:
        return EXIT_BAD_DATA
    return EXIT_FAILED if done.log.failed else EXIT_OK


def _output(given: str | None) -> Path | None:
    """An output path, made absolute before the run: an in-process engine may change the working folder."""
    return Path(given).absolute() if given else None


def _write_reports(log: runlog.Log, report_dir: Path, given: str) -> None:
    """Write the run log's reports beside it and say where, naming the folder as it was ``given``."""
    data = reports.summary(log)  # once for the reports made from it
    for fmt, name in REPORT_FILES.items():
        outputs.write_with(report_dir / name, functools.partial(reports.write, log, fmt, data=data))
    shown = Path(given)
    print(f"reports: {shown / 'run.jsonl'} and {', '.join(str(shown / n) for n in REPORT_FILES.values())}")


def cmd_report(args: argparse.Namespace) -> int:
    logs = [runlog.read(Path(p)) for p in args.log]
    for path, read in zip(args.log, logs, strict=True):
        if read.cut_line is not None:
            print(
                f"note: {untrusted.text(path, 1000)}:{read.cut_line}: the last line is cut short "
                "(the run stopped while writing it); the report covers the lines before it",
                file=sys.stderr,
            )
    if problems := runlog.merge_problems(logs, list(args.log)):
        return _print_problems(problems)
    for note in runlog.merge_notes(logs):
        print(f"note: {note}", file=sys.stderr)
    log = runlog.merge(logs)
    if args.output:
        outputs.write_with(Path(args.output), functools.partial(reports.write, log, args.format))
    else:  # made whole, then written at once, as a page or a pipe has always had it
        print(reports.render(log, args.format), end="")  # nothing at all when standard output is closed (`>&-`)
    return EXIT_OK


def cmd_smoke(args: argparse.Namespace) -> int:
    try:
        adapters.check_names(args.engine, args.engine_cmd)
        if args.engine is None and args.engine_cmd is None:
            raise BadCommand("name the engine to try: --engine module:name or --engine-cmd 'command'")
        trials = smoke(adapters.served_command(args.engine) if args.engine else args.engine_cmd, timeout=args.timeout)
    except BadCommand as err:
        return _usage_error(str(err))
    for trial in trials:
        print(f"{'ok  ' if trial.ok else 'FAIL'} {trial.name}: {trial.detail}")
    if faulty := next((t for t in trials if t.fault), None):  # once, for a report of the fault
        print(kit_faults.raised(f"judging {faulty.name}", faulty.fault), file=sys.stderr)
    passed = sum(t.ok for t in trials)
    print(f"{passed} passed, {len(trials) - passed} failed")
    if faulty:
        return EXIT_KIT_FAULT
    return EXIT_OK if passed == len(trials) else EXIT_ENGINE


def _whole_number(least: int, words: str) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``least`` (``words`` say so in the error)."""

    def parse(text: str) -> int:
        value = int(text) if text.strip().lstrip("+-").isdigit() else least - 1
        if value < least:
            raise argparse.ArgumentTypeError(f"expected a whole number {words}, found {text!r}")
        return value

    return parse


_count = _whole_number(1, "above 0")


def _jobs(text: str) -> int:
    """An argparse type: a number of worker processes, from 1 to the kit's bound."""
    jobs = _count(text)
    if jobs > limits.MAX_JOBS:
        raise argparse.ArgumentTypeError(f"expected at most {limits.MAX_JOBS} jobs, found {text!r}")
    return jobs
_seed = _whole_number(0, "from 0")


def _percent(text: str) -> float:
    """An argparse type: a percentage, from 0 to 100."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 <= value <= 100.0:  # nan too: a gate it could never fail
        raise argparse.ArgumentTypeError(f"expected a percentage from 0 to 100, found {text!r}")
    return value


def _shard(text: str) -> tuple[int, int]:
    k, _, n = text.partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise argparse.ArgumentTypeError(f"expected K/N with 1 <= K <= N, found {text!r}")
    return int(k), int(n)


def cmd_schema_path(args: argparse.Namespace) -> int:
    """Where the kit's schemas are installed, for an editor's schema hint in a file outside the kit."""
    folder = kitdata.schemas_dir()
    if args.name is None:
        print(folder)
        return EXIT_OK
    path = folder / f"{args.name.removesuffix('.schema.json')}.schema.json"
    if not path.is_file():
        known = " ".join(sorted(p.name.removesuffix(".schema.json") for p in folder.glob("*.schema.json")))
        return _usage_error(f"no schema {args.name!r}: expected one of {known}")
    print(path)
    return EXIT_OK


_PLACES = {
    "spec": kitdata.spec_dir,
    "schemas": kitdata.schemas_dir,
    "scenarios": kitdata.scenarios_dir,
    "docs": kitdata.docs_dir,
    "examples": kitdata.examples_dir,
}


def cmd_where(args: argparse.Namespace) -> int:
    """Where the installed kit keeps what a user reads and points tools at; one folder alone, for a script."""
    if args.name is not None:
        print(_PLACES[args.name]())
        return EXIT_OK
    places = [(name, folder()) for name, folder in _PLACES.items()]
    print(f"trickspec {kitdata.kit_version()}, spec {runlog.spec_version()}")
    for name, folder in places:
        print(f"{name:<10} {folder}" + ("" if folder.is_dir() else "  (not installed)"))
    print(f"{'site':<10} {kitdata.kit_homepage() or 'https://trickspec.dev'}")
    return EXIT_OK


def cmd_selfcheck(args: argparse.Namespace) -> int:
    scenario_variants = sorted({s.variant for s in scenarios.kit_scenarios()})  # those a mutant can be judged by
    if unknown := [v for v in args.variant or () if v not in scenario_variants]:
        named = ", ".join(declared_variants.with_nearest(v, scenario_variants) for v in unknown)
        return _usage_error(f"--variant {named}: expected a variant the kit's scenarios play")
    results = list(selfcheck.run_mutants(args.variant, hybrids=not args.no_hybrids))
    fates = list(selfcheck.Fate)
    per_row: dict[tuple[str, str], Counter[selfcheck.Fate]] = {}
    for r in results:
        per_row.setdefault((r.mutant.variant, r.mutant.kind), Counter())[r.fate] += 1
    width = max((len(name) for name, _ in per_row), default=7)
    print(f"{'variant':<{width}}  kind       mutants  " + "  ".join(fates))
    # A variant's parameter mutants, then its hybrids.
    for (name, kind), counts in sorted(per_row.items(), key=lambda row: (row[0][0], row[0][1] == "hybrid")):
        cells = "  ".join(f"{counts[fate]:>{len(fate)}}" for fate in fates)
        print(f"{name:<{width}}  {kind:<9}  {counts.total():>7}  {cells}")
    # The same refusal of the same change, in several variants, is said once.
    unbuildable: dict[tuple[str, str], list[str]] = {}
    for r in results:
        if r.fate is selfcheck.Fate.UNBUILDABLE:
            unbuildable.setdefault((r.mutant.what, r.unbuildable), []).append(r.mutant.variant)
    for (change, why), variants in unbuildable.items():
        print(f"CANNOT BUILD {change} in {', '.join(variants)}: {why}")
    for r in results:
        if r.fate is selfcheck.Fate.EQUIVALENT:
            print(f"EQUIVALENT {r.mutant.name}: {r.equivalent}")
    for r in results:
        if r.fate is selfcheck.Fate.SETUPS_REFUSED:
            first, why = next(iter(r.setup_refused.items()))
            more = f" and {len(r.setup_refused) - 1} more" if len(r.setup_refused) > 1 else ""
            print(f"SETUPS REFUSED {r.mutant.name}: refused the setup of {first}{more} ({why}); the others pass")
    for r in results:
        if r.survived:
            print(f"SURVIVED {r.mutant.name} (no scenario of {r.scenarios} fails)")
    untold = [r for r in results if r.untold_hybrid]
    for r in untold:
        print(f"HYBRID NOT TOLD APART {r.mutant.name}: write a scenario it fails, or list it in spec/{EQUIVALENTS_FILE}")
    wrong = [r for r in results if r.wrongly_equivalent]
    for r in wrong:
        print(f"NOT EQUIVALENT {r.mutant.name}: killed by {r.killed_by[0]}; remove it from spec/{EQUIVALENTS_FILE}")
    killed, scored = selfcheck.kill_rate(results)
    percent = 100.0 * killed / scored if scored else 100.0
    total = Counter(r.fate for r in results)
    hybrids = Counter(r.fate for r in results if r.mutant.kind == "hybrid")
    if hybrids:
        print(
            f"hybrids: {hybrids[selfcheck.Fate.KILLED]} of {hybrids.total()} killed, {len(untold)} not told apart; "
            f"{hybrids[selfcheck.Fate.EQUIVALENT]} equivalent, {hybrids[selfcheck.Fate.UNBUILDABLE]} the engine cannot build"
        )
    print(
        f"kill rate: {killed}/{scored} mutants killed by a scenario they played ({percent:.1f}%); "
        f"not counted: {total[selfcheck.Fate.EQUIVALENT]} equivalent, {total[selfcheck.Fate.UNBUILDABLE]} the engine cannot build"
    )
    if wrong:
        return EXIT_BAD_DATA
    below = args.fail_under is not None and percent < args.fail_under
    return EXIT_FAILED if below or untold else EXIT_OK


# ---------------------------------------------------------------- the commands, described
# parser() is built from COMMANDS, and the rules site's guide reads the same tuple, so the two cannot drift.

PROG = "trickspec"
DESCRIPTION = "Rules specification and conformance kit."


@dataclass(frozen=True)
class Option:
    """One argument of a command, with the argparse settings it is added with."""

    flags: tuple[str, ...]  # ("--output", "-o"), or the name of a positional: ("log",)
    help: str = ""
    metavar: str | None = None
    action: str | None = None  # "store_true" or "append"; None stores one value
    nargs: str | None = None
    type: Callable[[str], object] | None = None
    choices: tuple[str, ...] | None = None
    default: object = None
    required: bool = False

    @property
    def positional(self) -> bool:
        return not self.flags[0].startswith("-")

    @property
    def dest(self) -> str:
        """The name the value is parsed into, derived as argparse derives it."""
        if self.positional:
            return self.flags[0]
        long = next((f for f in self.flags if f.startswith("--")), self.flags[0])
        return long.lstrip("-").replace("-", "_")

    @property
    def value_name(self) -> str | None:
        """The word the help shows after a flag that takes a value (FILE, ENGINE_CMD); None otherwise."""
        if self.positional or self.action in ("store_true", "store_false", "count"):
            return None
        return self.metavar or self.dest.upper()

    def argparse_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``add_argument``: only those set, so argparse's own defaults apply."""
        given = {
            "help": self.help or None,
            "metavar": self.metavar,
            "action": self.action,
            "nargs": self.nargs,
            "type": self.type,
            "choices": self.choices,
            "default": self.default,
            "required": self.required or None,
        }
        return {key: value for key, value in given.items() if value is not None}


@dataclass(frozen=True)
class Command:
    """A subcommand: its name, its one-line help, its arguments, and the function that runs it."""

    name: str
    help: str
    run: Callable[[argparse.Namespace], int]
    options: tuple[Option, ...] = ()


# House rules (docs/guide/house-rules.md): folders read beside the kit's data.
_STARTUP_TIMEOUT = Option(
    ("--startup-timeout",),
    "seconds an engine may take to start and answer the handshake (default: --timeout)",
    metavar="SECONDS",
    type=durations.timeout,
)
_ENGINE = Option(
    ("--engine",),
    "'reference' (the default, run in the kit's process) or module:name of a Python engine class or adapter "
    "factory, served over the protocol in a process of its own",
)
_VALIDATE_PROTOCOL = Option(("--validate-protocol",), "check every protocol message against its schema", action="store_true")
_IN_PROCESS = Option(
    ("--in-process",),
    "load the --engine module:name into the kit's process instead, with no isolation and no timeout: for "
    "stepping through your engine in a debugger",
    action="store_true",
)

_SPEC_ROOT = Option(
    ("--spec",),
    "a house spec folder, read with the kit's: its variants may extend the kit's (repeatable)",
    metavar="DIR",
    action="append",
)
_SCENARIO_ROOT = Option(
    ("--scenarios",),
    "a house scenarios folder: its scenarios are taken instead of the kit's (repeatable)",
    metavar="DIR",
    action="append",
)

_FIELDS = Option(
    ("--fields",),
    "instead, per game: scenarios pinning each snapshot field in each phase; exit 1 if a field defined there has none",
    action="store_true",
)

COMMANDS: tuple[Command, ...] = (
    Command(
        "validate",
        "check spec/ and scenarios/ (or the given paths) against schemas and each other",
        cmd_validate,
        (
            Option(("paths",), "files or folders (default: the whole kit, or the house folders given)", nargs="*"),
            _SPEC_ROOT,
            _SCENARIO_ROOT,
        ),
    ),
    Command(
        "coverage",
        "print scenarios per clause; exit 1 if a clause lacks one, a refusal where it forbids, or one making a choice it leaves",
        cmd_coverage,
        (_SPEC_ROOT, _SCENARIO_ROOT, _FIELDS, Option(("--by-variant",), "with --fields: a table for each variant, its own "
                                                    "scenarios counted", action="store_true")),
    ),
    Command(
        "verify",
        "run the scenarios against an engine (default: the reference engine)",
        cmd_verify,
        (
            _ENGINE,
            _IN_PROCESS,
            Option(("--engine-cmd",), "an engine program speaking the protocol (docs/protocol.md), e.g. 'node engine.js'"),
            Option(("--timeout",), "seconds an engine may take per scenario (default 10)", type=durations.timeout, default=10.0),
            _STARTUP_TIMEOUT,
            Option(
                ("--give-up-after",),
                f"give up on an engine after N timeouts or failed restarts in a row: the scenarios left are "
                f"engine-unavailable (default {GIVE_UP_AFTER})",
                metavar="N",
                type=_count,
            ),
            _VALIDATE_PROTOCOL,
            Option(("--game",), "only this game (repeatable)", action="append"),
            Option(("--variant",), "only this variant (repeatable)", action="append"),
            Option(("--clause",), "only scenarios checking a clause starting with this (repeatable)", action="append"),
            Option(("--scenario",), "only scenario ids starting with this (repeatable)", action="append"),
            Option(("--expect",), "expectation file: scenarios this engine is known to skip or fail"),
            Option(("--save-expectations",), "write this run's failures as an expectation file", metavar="FILE"),
            Option(("--report-dir",), "write run.jsonl and the reports (report.md, junit.xml, summary.json, badge.json)"),
            _SPEC_ROOT,
            _SCENARIO_ROOT,
        ),
    ),
    Command(
        "fuzz",
        "play random deals on an engine and the reference; shrink each divergence to a scenario",
        cmd_fuzz,
        (
            _ENGINE,
            _IN_PROCESS,
            Option(("--engine-cmd",), "an engine program speaking the protocol (docs/protocol.md), e.g. 'node engine.js'"),
            Option(("--timeout",), "seconds an engine may take per deal (default 10)", type=durations.timeout, default=10.0),
            _STARTUP_TIMEOUT,
            _VALIDATE_PROTOCOL,
            Option(("--variant",), "only this variant (repeatable; default: every variant the engine declares)", action="append"),
            Option(
                ("--deals",), f"deals in the campaign, over all shards (default {runlog.FUZZ_DEALS:,})", type=_count, metavar="N"
            ),
            Option(("--time",), "run for this many seconds instead of a number of deals", type=durations.seconds, metavar="S"),
            Option(("--seed",), "the same seed plays the same deals (default 0)", type=_seed, default=0, metavar="S"),
            Option(("--jobs",), "engine processes run in parallel (default 1)", type=_jobs, default=1, metavar="J"),
            Option(("--shard",), "run slice K of N of the deals (CI matrix); report merges the logs", type=_shard, metavar="K/N"),
            Option(("--out",), "write each distinct divergence here as a scenario file", metavar="DIR"),
            Option(("--report-dir",), "write run.jsonl and the reports (report.md, junit.xml, summary.json, badge.json)"),
            Option(("--max-divergences",), "stop once this many distinct divergences are found", type=_count, metavar="N"),
            Option(("--expect",), "an expectation file: the fields it names under known are compared apart, and a deal "
                   "differing only there counted as xfail", metavar="FILE"),
            Option(("--deal",), "who deals: kit (a deck drawn from the seed, the default) or engine (the engine shuffles "
                   "from a seed it is sent, its own way, and the reference takes the deal from its first observation)",
                   choices=("kit", "engine"), default="kit"),
            Option(("--sampled",), "compare snapshots and legal actions only after the last action and at one random step of "
                   "each deal (refusals still at every step): several times as many deals a second", action="store_true"),
            _SPEC_ROOT,
        ),
    ),
    Command(
        "check-trace",
        "judge the games an engine played, from trace files, against the reference; write each divergence as a "
        "scenario, cut short at the difference",
        cmd_check_trace,
        (
            Option(("trace",), "trace files (JSON Lines, docs/guide/traces.md) or folders of *.jsonl files", nargs="+"),
            Option(("--jobs",), "worker processes run in parallel (default 1)", type=_jobs, default=1, metavar="J"),
            Option(("--shard",), "judge slice K of N of the games; report merges the logs", type=_shard, metavar="K/N"),
            Option(("--out",), "write each distinct divergence here as a scenario file", metavar="DIR"),
            Option(("--report-dir",), "write run.jsonl and the reports (report.md, junit.xml, summary.json, badge.json)"),
            Option(("--expect",), "an expectation file: the fields it names under known are compared apart, and a game "
                   "differing only there counted as xfail", metavar="FILE"),
            _SPEC_ROOT,
        ),
    ),
    Command(
        "report",
        "render a run log as md, junit, json or badge; several logs (shards) are merged",
        cmd_report,
        (
            Option(("log",), "run.jsonl files written by verify, fuzz or check-trace --report-dir", nargs="+"),
            Option(
                ("--format",), "what to render: Markdown, JUnit XML, the JSON summary or a badge (default md)",
                choices=reports.FORMATS, default="md",
            ),
            Option(("--output", "-o"), "write here instead of standard output"),
        ),
    ),
    Command(
        "selfcheck",
        "mutation-test the suite: one-parameter variant mutants of the reference engine, and hybrids with neighbouring variants",
        cmd_selfcheck,
        (
            Option(("--variant",), "only this variant (repeatable)", action="append"),
            Option(("--no-hybrids",), "leave out the hybrids (a neighbouring variant's rule mixed in)", action="store_true"),
            Option(("--fail-under",), "exit 1 if the kill rate is below this", type=_percent, metavar="PERCENT"),
        ),
    ),
    Command(
        "smoke",
        "try an engine on the protocol's basics before any verdict",
        cmd_smoke,
        (
            Option(("--engine",), "module:name of a Python engine class or adapter factory, served over the protocol"),
            Option(("--engine-cmd",), "the engine program, e.g. 'node engine.js'"),
            Option(("--timeout",), "seconds the engine may take per answer (default 10)", type=durations.timeout, default=10.0),
        ),
    ),
    Command(
        "where",
        "print where the installed kit keeps its spec, schemas, scenarios, docs and example engines",
        cmd_where,
        (
            Option(
                ("name",), "one of them alone, e.g. scenarios (default: all, with the kit's version)", nargs="?",
                choices=tuple(sorted(_PLACES)),
            ),
        ),
    ),
    Command(
        "schema-path",
        "print where the kit's schemas are installed, or one of them (scenario, variant...), for an editor's schema hint",
        cmd_schema_path,
        (Option(("name",), "a schema's name, e.g. scenario (default: the folder)", nargs="?"),),
    ),
)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog=PROG, description=DESCRIPTION)
    sub = top.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        p = sub.add_parser(command.name, help=command.help, allow_abbrev=False)  # --engine is never --engine-cmd cut short
        for option in command.options:
            p.add_argument(*option.flags, **option.argparse_kwargs())
        p.set_defaults(run=command.run)
    return top


@contextlib.contextmanager
def _readers_may_stop() -> Iterator[None]:
    """Standard output and error, either of which a reader may stop reading early: see outputs.ReaderMayStop."""
    given = sys.stdout, sys.stderr
    if sys.stdout is not None:
        sys.stdout = cast(TextIO, outputs.ReaderMayStop(sys.stdout))
    if sys.stderr is not None:
        sys.stderr = cast(TextIO, outputs.ReaderMayStop(sys.stderr))
    try:
        yield
    finally:
        for stream in (sys.stdout, sys.stderr):  # what the streams still hold, written while a closed pipe is caught
            if stream is not None:
                stream.flush()
        sys.stdout, sys.stderr = given


@contextlib.contextmanager
def _standard_error_or_nowhere() -> Iterator[None]:
    """Standard error closed when the command started (`2>&-`) is None, and print(file=None) would send the notes
    meant for it to standard output, into a report on its way to a file: they go nowhere instead."""
    if sys.stderr is not None:
        yield
        return
    with open(os.devnull, "w", encoding="utf-8") as nowhere:
        sys.stderr = nowhere
        try:
            yield
        finally:
            sys.stderr = None


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    # SIGINT and SIGTERM stop any command without a traceback, ending the engines it started; a run
    # of verify also closes its log saying so, and writes its reports from what was judged.
    with interrupt.trapped(), _standard_error_or_nowhere(), _readers_may_stop():
        try:
            # house folders are set for the whole command, engines it starts included
            with roots.using(getattr(args, "spec", None) or (), getattr(args, "scenarios", None) or ()):
                # the spec, house folders included, is checked as validate checks it before any run (validate checks more)
                if args.run is not cmd_validate and (problems := spec_problems()):
                    return _print_problems(problems)
                return int(args.run(args))
        except interrupt.Interrupted as stop:
            engine_process.end_all()
            print(f"interrupted by {stop.signal.name}", file=sys.stderr)
            return stop.exit_status
        except DataError as err:
            return _print_problems(err.problems)
        except OSError as err:  # a path given on the command line that cannot be read or written
            if err.filename is None:  # files the kit writes name themselves (conformance/run/outputs.py): this is not one
                print(f"trickspec: {err.strerror or err}", file=sys.stderr)
                return EXIT_BAD_DATA
            return _print_problems([Problem(str(err.filename), 0, 0, (), f"cannot use this path: {err.strerror or err}")])


def console(argv: list[str] | None = None) -> NoReturn:
    """The ``trickspec`` command."""
    sys.exit(main(argv))


if __name__ == "__main__":
    console()
