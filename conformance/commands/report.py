"""``trickspec report``, and the reports every run writes beside its run log (``--report-dir``)."""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from conformance.commands.exits import EXIT_OK, print_problems
from conformance.run import outputs, reports, runlog
from conformance.run.runlog import Log
from conformance.text import untrusted

# The files --report-dir receives, by report format.
REPORT_FILES = {"md": "report.md", "junit": "junit.xml", "json": "summary.json", "badge": "badge.json"}


def output_path(given: str | None) -> Path | None:
    """An output path, made absolute before the run: an in-process engine may change the working folder."""
    return Path(given).absolute() if given else None


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
