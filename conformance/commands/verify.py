"""``trickspec verify``: the scenarios run against an engine, its summary, reports and expectation file."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from conformance.commands.exits import (
    EXIT_BAD_DATA,
    EXIT_ENGINE,
    EXIT_FAILED,
    EXIT_KIT_FAULT,
    EXIT_OK,
    print_problems,
    usage_error,
)
from conformance.commands.report import output_path, warn_of_late_copies, write_reports
from conformance.engines import adapter as adapters
from conformance.engines import engine_process, interrupt
from conformance.engines.breaker import GIVE_UP_AFTER
from conformance.engines.protocol import BadCommand
from conformance.run import expectations, kit_faults, outputs, reports, runlog
from conformance.run.kit_faults import Faults
from conformance.run.runlog import Log
from conformance.run.verify import Progress, verify
from conformance.suite import declared_variants, field_phases, scenarios
from conformance.suite.reported import declared, every_path, within
from conformance.text import untrusted
from conformance.vocabulary import Outcome
from specreader import kitdata, spec


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
        return print_problems(problems)
    report_dir, expectations_path = output_path(args.report_dir), output_path(args.save_expectations)
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
        return usage_error(str(err))
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
    checked = {field_phases.field_of(path) for path in every_path(expects)} - others
    left_out = {field_phases.field_of(path) for path in every_path(expects) - every_path(within(e, reports)[0] for e in expects)}
    left = sorted(left_out & checked)
    shown = ", ".join(left[:_UNKNOWN_NAMED]) + (f" and {len(left) - _UNKNOWN_NAMED} more" if len(left) > _UNKNOWN_NAMED else "")
    said = f"fields: the engine reports {len(checked) - len(left)} of the {len(checked)} the scenarios check"
    return said + (f"; not {shown}" if left else "")



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
    warn_of_late_copies(log)
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
        write_reports(log, report_dir, args.report_dir)
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
