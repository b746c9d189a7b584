"""``trickspec check-trace``: the games an engine played, from its trace files, judged against the reference."""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path

from conformance.commands.exits import EXIT_BAD_DATA, EXIT_FAILED, EXIT_OK, print_problems
from conformance.commands.report import ended_by_workers, output_path
from conformance.run import expectations, outputs


def cmd_check_trace(args: argparse.Namespace) -> int:
    from conformance.traces import checking
    from conformance.traces import summary as trace_summary
    from conformance.traces.reading import trace_files

    files, problems = trace_files(args.trace)
    if problems:
        return print_problems(problems)
    for folder, what in ((args.report_dir, "the reports"), (args.out, "the scenarios written")):  # made before the run,
        if folder:  # so it never ends unwritable
            outputs.make_folder(Path(folder), what)
    report_dir, out = output_path(args.report_dir), output_path(args.out)
    log_path = report_dir / "run.jsonl" if report_dir else None
    if log_path and (problems := outputs.unwritable(log_path)):
        return print_problems(problems)
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
    summary = trace_summary.render(done, shard=plan.shard, jobs=plan.jobs)
    stopped = ended_by_workers(done.log, summary, report_dir, args.report_dir, interrupted=done.interrupted,
                               failed=done.worker_failed, faults=done.faults)  # fmt: skip
    if stopped is not None:
        return stopped
    if done.problems:
        return EXIT_BAD_DATA
    return EXIT_FAILED if done.log.failed else EXIT_OK
