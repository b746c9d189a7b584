"""The `trickspec` command line: every command and its options described once (``COMMANDS``), the parser built from
them, and ``main``. Each command runs from its module in conformance/commands/: validate, coverage, verify, fuzz,
check-trace, report, smoke, selfcheck, where, schema-path."""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NoReturn, TextIO, cast

from conformance.commands.check_trace import cmd_check_trace
from conformance.commands.exits import EXIT_BAD_DATA, print_problems
from conformance.commands.fuzz import cmd_fuzz
from conformance.commands.places import PLACES, cmd_schema_path, cmd_where
from conformance.commands.report import cmd_report
from conformance.commands.selfcheck import cmd_selfcheck
from conformance.commands.smoke import cmd_smoke
from conformance.commands.spec_checks import cmd_coverage, cmd_validate
from conformance.commands.verify import cmd_verify
from conformance.engines import engine_process, interrupt
from conformance.engines.breaker import GIVE_UP_AFTER
from conformance.run import durations, outputs, reports, runlog
from conformance.validate import spec_problems
from specreader import limits, roots
from specreader.problems import DataError, Problem


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
                choices=tuple(sorted(PLACES)),
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
                    return print_problems(problems)
                return int(args.run(args))
        except interrupt.Interrupted as stop:
            engine_process.end_all()
            print(f"interrupted by {stop.signal.name}", file=sys.stderr)
            return stop.exit_status
        except DataError as err:
            return print_problems(err.problems)
        except OSError as err:  # a path given on the command line that cannot be read or written
            if err.filename is None:  # files the kit writes name themselves (conformance/run/outputs.py): this is not one
                print(f"trickspec: {err.strerror or err}", file=sys.stderr)
                return EXIT_BAD_DATA
            return print_problems([Problem(str(err.filename), 0, 0, (), f"cannot use this path: {err.strerror or err}")])


def console(argv: list[str] | None = None) -> NoReturn:
    """The ``trickspec`` command."""
    sys.exit(main(argv))


if __name__ == "__main__":
    console()
