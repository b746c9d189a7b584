"""``trickspec report``, and the reports every run writes beside its run log (``--report-dir``)."""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from conformance.commands.exits import EXIT_KIT_FAULT, EXIT_OK, print_problems
from conformance.engines import interrupt
from conformance.run import kit_faults, outputs, reports, runlog
from conformance.run.kit_faults import Faults
from conformance.run.runlog import Log
from conformance.run.worker_ends import WorkerFailed, WorkerKilled
from conformance.text import untrusted

# The files --report-dir receives, by report format.
REPORT_FILES = {"md": "report.md", "junit": "junit.xml", "json": "summary.json", "badge": "badge.json"}


def output_path(given: str | None) -> Path | None:
    """An output path, made absolute before the run: an in-process engine may change the working folder."""
    return Path(given).absolute() if given else None


def ended_by_workers(
    log: Log, summary: str, report_dir: Path | None, given: str | None, *, interrupted: str | None,
    failed: WorkerFailed | None, faults: Faults,
) -> int | None:
    """The end of a run of worker processes (fuzz, check-trace): where the kit raised, once on standard error; the
    summary, and the reports, a signal waiting until every one is written (none is left from another run); then the
    exit status of a run a signal, a worker's end or a fault of the kit's stopped, or None for the command to say."""
    if where := kit_faults.where_raised(faults, failed):  # before the summary, which ends the output
        print(where, file=sys.stderr)
    with interrupt.deferred():
        print(summary)
        if report_dir is not None and given is not None:
            write_reports(log, report_dir, given)
    if interrupted:
        return interrupt.exit_status(interrupted)
    if isinstance(failed, WorkerKilled):  # the run stopped as that signal would have stopped it
        return interrupt.exit_status(failed.killed_by.name)
    if failed or faults.count:  # a worker's own crash, exit or raise, or one not judged: no verdict on the engine whole
        return EXIT_KIT_FAULT
    return None


def write_reports(log: runlog.Log, report_dir: Path, given: str) -> None:
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
        return print_problems(problems)
    for note in runlog.merge_notes(logs):
        print(f"note: {note}", file=sys.stderr)
    log = runlog.merge(logs)
    if args.output:
        outputs.write_with(Path(args.output), functools.partial(reports.write, log, args.format))
    else:  # made whole, then written at once, as a page or a pipe has always had it
        print(reports.render(log, args.format), end="")  # nothing at all when standard output is closed (`>&-`)
    return EXIT_OK


def warn_of_late_copies(log: Log) -> None:
    """The scenarios or deals the engine answered again once they were judged: said, not hidden."""
    for warning in reports.late_copy_warnings(log):
        print(f"warning: {warning}", file=sys.stderr)
