"""``trickspec fuzz``: random deals played on an engine and the reference, each divergence shrunk to a scenario."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from conformance.commands.exits import EXIT_ENGINE, EXIT_FAILED, EXIT_KIT_FAULT, EXIT_OK, print_problems, usage_error
from conformance.commands.report import ended_by_workers, output_path, warn_of_late_copies
from conformance.engines import adapter as adapters
from conformance.engines import interrupt
from conformance.engines.protocol import BadCommand
from conformance.run import expectations, outputs, runlog
from specreader.problems import Problem


def cmd_fuzz(args: argparse.Namespace) -> int:
    # Imported here: every other command would pay for importing the fuzzer's modules.
    from conformance.fuzz import campaign as fuzzing
    from conformance.fuzz import summary as fuzz_summary
    from conformance.fuzz.worker import Settings
    from conformance.run import kit_faults
    from conformance.run.kit_faults import NOT_THE_ENGINE
    from conformance.run.worker_ends import WorkerFailed, WorkerKilled

    if args.deals is not None and args.time is not None:
        return print_problems([Problem("--deals/--time", 0, 0, (), "give a number of deals or a time, not both")])
    for folder, what in ((args.report_dir, "the reports"), (args.out, "the scenarios written")):  # made before the run,
        if folder:  # so it never ends unwritable
            outputs.make_folder(Path(folder), what)
    report_dir, out = output_path(args.report_dir), output_path(args.out)
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
        return usage_error(str(err))
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
        return print_problems(problems)
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
    except WorkerFailed as failed:  # a worker's own crash or exit, or its work raised: the kit's fault
        if failed.where:  # once, for a report of the fault
            print(kit_faults.raised("in a worker", failed.where), file=sys.stderr)
        print(f"stopped before the first deal: {failed}, {NOT_THE_ENGINE}: please report it with this command", file=sys.stderr)
        return EXIT_KIT_FAULT
    except fuzzing.BadChoice as err:
        return print_problems([Problem("--variant", 0, 0, (), str(err))])
    except BadCommand as err:
        return usage_error(str(err))
    finally:
        progress.end()
    warn_of_late_copies(done.log)
    summary = fuzz_summary.render(done, seed=args.seed, shard=plan.shard, jobs=plan.jobs)
    stopped = ended_by_workers(done.log, summary, report_dir, args.report_dir, interrupted=done.interrupted,
                               failed=done.worker_failed, faults=done.faults)  # fmt: skip
    if stopped is not None:
        return stopped
    if done.deals and not done.compared:  # every deal unsupported from its setup: no run to pass
        print("engine unusable: it answered every deal unsupported at its setup, so nothing was compared", file=sys.stderr)
        return EXIT_ENGINE
    return EXIT_FAILED if done.log.failed else EXIT_OK
