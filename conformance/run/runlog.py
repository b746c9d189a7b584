"""The JSON Lines run log: the primary record of a conformance run, written as the run goes.

One header line (kit, spec version, engine handshake, options), one line per scenario with
its outcome and first mismatch, one footer line with the counts. Every report is rendered
from this log (conformance/run/reports.py), so nothing finished is lost if a run stops early: a run
stopped by a signal closes its log with a footer that says so, and a log cut off mid-line (a run
killed outright) is read up to its last whole line.
"""

from __future__ import annotations

import hashlib
import heapq
import itertools
import json
import re
import sys
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, NotRequired, Protocol, TypedDict, cast

from conformance.engines import interrupt
from conformance.run.line_store import Lines
from conformance.suite import schemas
from conformance.text import json_positions, untrusted
from conformance.vocabulary import FAILING
from specreader import files, kitdata, limits, roots
from specreader.jsontypes import Json, JsonPath
from specreader.problems import DataError, Problem


class Header(TypedDict):
    """The first line: who ran what, against which spec, with which options."""

    type: str
    kit: Json
    spec_version: str
    engine: Json
    options: Json
    started: str
    scenarios: int
    scenario_digests: NotRequired[dict[str, str]]  # written by conformance/implementations.py
    roots: NotRequired[Json]  # the house folders read beside the kit's (specreader/roots.py)


class ScenarioLine(TypedDict):
    """One line per scenario: its outcome, where it is, every mismatch, the engine's error, and what
    the expectation file said of it (``expected``, with a ``note`` when the outcome differs)."""

    type: str
    id: str
    outcome: str
    game: str
    variant: str
    clauses: list[str]
    file: str
    line: int
    seconds: float
    mismatch: Json | None
    mismatches: list[Json]
    error: str | None
    expected: Json | None
    note: str | None


LATE_COPIES_KEPT = limits.LATE_COPIES_KEPT

ID_CAP = limits.RUN_ID_CAP


class Footer(TypedDict):
    """The last line, present only when the run finished or was interrupted: the counts by outcome,
    and the signal that stopped it (``interrupted``, only on a run that did not finish); the scenarios the
    engine answered again after they were judged (``late_copies``, only when it did: docs/protocol.md), and how
    many more it answered again than the footer names (``late_copies_unnamed``, only when there were more)."""

    type: str
    counts: dict[str, int]
    seconds: float
    finished: str
    interrupted: NotRequired[str]
    late_copies: NotRequired[list[str]]
    late_copies_unnamed: NotRequired[int]


def header(engine: Json, options: Json, scenarios: int) -> Header:
    """The first line of a run log: this kit, the spec version, the engine's handshake, the options,
    and the house folders when there are some."""
    made: Header = {
        "type": "header",
        "kit": {"name": "trickspec", "version": kitdata.kit_version()},
        "spec_version": spec_version(),
        "engine": engine,
        "options": options,
        "started": now(),
        "scenarios": scenarios,
    }
    if house := roots.current():
        made["roots"] = house.to_json()
    return made


def spec_version() -> str:
    """The kit version plus a digest of spec/ and scenarios/, and of the house folders read beside
    them (by their content, wherever they are): what an expectation file pins."""
    digest = hashlib.sha256()
    root = kitdata.root()
    house = roots.current()
    folders = [(root / name, Path(name)) for name in ("spec", "scenarios")]
    folders += [(folder, Path(f"house-spec-{i}")) for i, folder in enumerate(house.spec)]
    folders += [(folder, Path(f"house-scenarios-{i}")) for i, folder in enumerate(house.scenarios)]
    for folder, named in folders:
        paths, problems = files.yaml_files(folder)
        if problems:
            raise DataError(problems)
        for path in paths:
            digest.update((named / path.relative_to(folder)).as_posix().encode())
            digest.update(files.read_bytes(path, limits.MAX_YAML_BYTES, "YAML file"))
    return f"{kitdata.kit_version()}+{digest.hexdigest()[:12]}"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class TextSink(Protocol):
    """Where a log's lines go as they are made: an open file, or one made at its first line (outputs.FileAtFirstWrite)."""

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


@dataclass
class Log:
    """A run log: header, scenario lines, footer (None while running, or if the run stopped early).

    ``verify`` fills one as the run goes and the reports render from it; ``read`` gives the same
    object back from a file, so ``trickspec report`` renders exactly what ``verify`` did.
    """

    header: Header
    scenarios: Lines = field(default_factory=Lines)  # ScenarioLine each, held in bounded memory
    footer: Footer | None = None
    cut_line: int | None = None  # read from a file whose last line, this one, was cut short: it is left out
    stream: IO[str] | TextSink | None = field(default=None, repr=False, compare=False)
    _counts: Counter[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.scenarios, Lines):  # a list made by hand
            self.scenarios = Lines(self.scenarios)
        self._counts = Counter(line["outcome"] for line in self.scenarios)

    def counts(self) -> Counter[str]:
        """Scenarios by outcome so far (the caller must not change it)."""
        return self._counts

    @property
    def failed(self) -> int:
        counts = self.counts()
        return sum(counts[k] for k in FAILING)

    @property
    def complete(self) -> bool:
        """Whether every scenario was judged: the run finished and wrote its footer."""
        return self.footer is not None and not self.interrupted

    @property
    def interrupted(self) -> str | None:
        """The signal that stopped the run (SIGINT, SIGTERM), if one did."""
        return self.footer.get("interrupted") if self.footer is not None else None

    @property
    def late_copies(self) -> list[str]:
        """The scenarios, by id, whose answer the engine sent again after the kit had judged them (set aside)."""
        return list(self.footer.get("late_copies", [])) if self.footer is not None else []

    @property
    def late_copies_unnamed(self) -> int:
        """How many more scenarios the engine answered again than ``late_copies`` names (past LATE_COPIES_KEPT)."""
        return int(self.footer.get("late_copies_unnamed", 0)) if self.footer is not None else 0

    @property
    def stopped_early(self) -> str | None:
        """Why the log covers only part of the run, as a sentence; None for a run that finished."""
        if self.complete:
            return None
        # what a line is of (a deal of fuzz, a game of a trace), and of how many where the run knew before it began
        noun = {"fuzz": "deals", "check-trace": "games"}.get(kind_of_run(self), "scenarios")
        total = self.header.get("scenarios")
        of = f" of {total:,}" if isinstance(total, int) and total > 0 else ""
        judged = f"{len(self.scenarios):,}{of} {noun} judged"
        if self.interrupted:
            return f"the run was interrupted by {self.interrupted}: {judged}"
        if self.cut_line is not None:
            return f"the run stopped while writing line {self.cut_line} of its log, left out: {judged}"
        return f"the run stopped before its end: {judged}"

    def start(self) -> None:
        self._write(self.header)

    def add(self, line: ScenarioLine) -> None:
        """Keep a scenario line as it reads back from the file (JSON types only), and write it."""
        with interrupt.deferred():  # in the file, the lines and the counts, or in none (keeping may write a batch out)
            self.scenarios.append(cast(ScenarioLine, self._write(line)))
            self._counts[line["outcome"]] += 1

    def finish(self, seconds: float, interrupted: str | None = None, late_copies: Iterable[str] = ()) -> None:
        """Write the footer: the run finished, or ``interrupted`` names the signal that stopped it; ``late_copies``
        are the scenarios the engine answered again after they were judged."""
        footer: Footer = {"type": "footer", "counts": dict(self.counts()), "seconds": round(seconds, 3), "finished": now()}
        if interrupted:
            footer["interrupted"] = interrupted
        _name_late_copies(footer, list(dict.fromkeys(late_copies)))  # each once: a shrinker asks again under one id
        self.footer = footer
        self._write(footer)

    def _write(self, line: Any) -> Any:
        """Append a line, flushed, so a crash loses nothing already judged; return it as read back."""
        text = _text(line)
        if self.stream is not None:
            self.stream.write(text + "\n")
            self.stream.flush()
        return json.loads(text)


def _text(line: Any) -> str:
    """A line as the log's file holds it."""
    return json.dumps(line, ensure_ascii=False, separators=(",", ":"))


def read_back(line: Any) -> Any:
    """A line as the log would keep it, read back from its text (JSON types only); a value no JSON holds raises."""
    return json.loads(_text(line))


def read(path: Path) -> Log:
    """Read and check a run log; bad lines are located problems. A last line cut short (the run was
    killed while writing it) is left out and named in ``Log.cut_line``.

    Beyond each line's schema, the log must be in order: one header first, each scenario once, and
    nothing after the footer, so no report counts a line twice or takes one header for another.
    The file is read a line at a time into ``Lines``, so a log of millions of games is read in bounded
    memory (each line at most ``limits.MAX_LINE_BYTES``, and its ids held as ``_Ids`` says); a file of
    more than ``limits.MAX_PROBLEMS`` problems (one given by mistake) is read no further.
    """
    problems: list[Problem] = []
    name = str(path)
    order = _Order()
    content = False
    with files.open_bytes(path, "run log") as handle:
        for number, raw, last in _numbered_lines(handle, name):
            content = True
            if raw is None:
                order.all_sound = False
                problems.append(Problem(name, number, 1, (), f"expected a line of at most {limits.MAX_LINE_BYTES:,} bytes"))
            else:
                problems += _take(order, name, number, raw, last)
            if len(problems) > limits.MAX_PROBLEMS:
                del problems[limits.MAX_PROBLEMS :]
                more = f"read no further: more than {limits.MAX_PROBLEMS:,} problems by this line"
                problems.append(Problem(name, number, 1, (), more))
                break
    if order.first_line("header") is None and not order.said_header_first:
        empty = "" if content else ", found an empty file"
        problems.append(Problem(name, 1, 1, (), f"expected a header line first{empty}"))
    if problems:
        raise DataError(problems)
    assert order.header is not None
    return Log(order.header, order.scenarios, order.footer, order.cut_line)


def _take(order: _Order, name: str, number: int, raw: bytes, last: bool) -> list[Problem]:
    """One line of a log read and placed: the problems it has."""
    try:
        line = untrusted.json_line(raw, limits.MAX_DEPTH)
    except untrusted.Unreadable as err:
        order.all_sound = False  # a line not read may have been a scenario's
        if last and err.ends_early:  # no newline after it, and cut inside a value: written in part
            order.cut_line = number
            return []
        return [Problem(name, number, err.column, err.path, str(err))]
    at = _Line(name, number, raw)
    kind = line.get("type") if isinstance(line, dict) else None
    if kind not in ("header", "scenario", "footer"):
        order.all_sound = False
        wrong = f"expected type header, scenario or footer, found {untrusted.text(repr(kind), 200)}"
        return [at.problem(("type",) if isinstance(line, dict) else (), wrong)]
    found = [at.problem(path, message, about_key=about_key)
             for path, message, about_key in schemas.explain("run-log", line, f"/$defs/{kind}")]
    return found + order.place(at, kind, line, sound=not found)


def _numbered_lines(handle: IO[bytes], name: str) -> Iterator[tuple[int, bytes | None, bool]]:
    """Each line of the file that is not blank (None for one too long to read), numbered from 1, without its
    line break, and whether it is the last with none after it."""
    try:
        for number, raw in enumerate(files.bounded_lines(handle, limits.MAX_LINE_BYTES), start=1):
            if raw is None:
                yield number, None, False
            elif raw.strip():
                ends = raw.endswith(b"\n")
                yield number, raw.rstrip(b"\r\n") if ends else raw, not ends
    except OSError as err:  # reading the log; what is done with its lines raises its own
        raise DataError([files.unreadable(name, err)]) from None


@dataclass
class _Line:
    """One line of a log, as json read it: where it is, and where in it a problem is (the line is
    walked for columns once, when a first problem needs them)."""

    file: str
    number: int
    raw: bytes
    _positions: json_positions.Positions | None = None

    def problem(self, path: JsonPath, message: str, *, about_key: bool = False) -> Problem:
        """A problem of this line, at the column of the value (or key) at ``path``."""
        if self._positions is None:
            self._positions = json_positions.positions(self.raw.decode("utf-8"))
        return Problem(self.file, self.number, self._positions.column(path, at_key=about_key), path, message)


@dataclass
class _Order:
    """The lines of a log taken so far, and the problems of where lines stand."""

    header: Header | None = None
    scenarios: Lines = field(default_factory=Lines)
    footer: Footer | None = None
    cut_line: int | None = None
    said_header_first: bool = False  # said once: every line before a header would say it again
    all_sound: bool = True  # every scenario line so far kept: only then can the footer's counts be held to them
    _lines: dict[str, int] = field(default_factory=dict)  # the first line of the header and of the footer
    _counted: Counter[str] = field(default_factory=Counter)  # the scenario lines kept, by outcome

    def __post_init__(self) -> None:
        self._ids = _Ids(self.scenarios)

    def first_line(self, key: str) -> int | None:
        return self._lines.get(key)

    def place(self, at: _Line, kind: str, line: Json, *, sound: bool) -> list[Problem]:
        """Take a line where it stands, or say why it cannot stand there. A line that breaks its schema
        (not ``sound``, its problems said already) is not taken, but counts for the order: one bad
        header is one problem, not one on every line after it."""
        seen = self._lines
        if kind == "header" and "header" in seen:
            return [at.problem((), f"expected one header line, found another (the first is line {seen['header']})")]
        if kind != "header" and "header" not in seen:
            if self.said_header_first:
                return []
            self.said_header_first = True
            return [at.problem((), f"expected a header line first, found a {kind} line")]
        if "footer" in seen:
            return [at.problem((), f"expected nothing after the footer (line {seen['footer']}), found a {kind} line")]
        if kind == "scenario":
            scenario_id = line.get("id")
            if not isinstance(scenario_id, str) or len(scenario_id) > ID_CAP:  # its schema problem is said already, and
                self.all_sound = False  # it is no id to compare: nor are the footer's counts, without its line
                return []
            first = self._ids.seen_at(scenario_id, at.number, kept=sound)
            if first is not None:
                again = f"expected each scenario once, found {safe_name(scenario_id)} again (first at line {first})"
                return [at.problem(("id",), again)]
        else:
            seen[kind] = at.number
        self.all_sound = self.all_sound and (sound or kind != "scenario")
        if sound:
            if kind == "header":
                self.header = cast(Header, line)
            elif kind == "scenario":
                self.scenarios.append(cast(ScenarioLine, _shared(line)))
                self._counted[line["outcome"]] += 1
            else:
                self.footer = cast(Footer, line)
                return self._counts_problems(at, line)
        return []

    def _counts_problems(self, at: _Line, footer: Json) -> list[Problem]:
        """The footer counts the scenario lines above it, as the kit writes it: other counts are no log of a run."""
        counted = self._counted
        said = {outcome: n for outcome, n in footer["counts"].items() if n}
        if not self.all_sound or said == dict(counted):
            return []
        shown = ", ".join(f"{outcome} {n}" for outcome, n in sorted(counted.items())) or "none"
        return [at.problem(("counts",), f"expected the counts of the scenario lines above it ({shown}), found others")]


class _Ids:
    """The scenario ids of a log seen so far, to find one given twice. While each id comes after the one before in
    id order (as the kit writes a trace's games, a fuzz campaign's deals or a shard of either), none is a repeat:
    only the latest id is held, with the line of each line kept (8 bytes a line) and the ids of lines not kept (a
    schema problem each). At the first id out of that order, every id so far is gathered, and each after it held."""

    def __init__(self, kept: Lines) -> None:
        self._kept = kept  # the log's scenario lines, as they are kept
        self._numbers = array("q")  # the line each of them is at, while the ids are in order
        self._not_kept: dict[str, int] = {}  # the ids of lines not kept, and their lines, while in order
        self._latest: tuple[tuple[Any, str], int] | None = None  # the latest id's place in the order, and its line
        self._every: dict[str, int] | None = None  # each id's first line, once they are out of order

    def seen_at(self, scenario_id: str, number: int, kept: bool) -> int | None:
        """The line ``scenario_id`` was first seen at; None if it is new, and it is seen now, at line ``number``
        (``kept``: its line is kept, once this says it is new)."""
        if self._every is None:
            place = id_order(scenario_id)
            if self._latest is None or place > self._latest[0]:
                self._latest = (place, number)
                if kept:
                    self._numbers.append(number)
                else:
                    self._not_kept[scenario_id] = number
                return None
            if place == self._latest[0]:
                return self._latest[1]
            self._every = {line["id"]: at for line, at in zip(self._kept, self._numbers, strict=True)}
            self._every.update(self._not_kept)  # no id is in both: they came in order
            self._numbers, self._not_kept = array("q"), {}
        first = self._every.get(scenario_id)
        if first is None:
            self._every[scenario_id] = number
        return first


def id_order(scenario_id: str) -> tuple[Any, str]:
    """Where a scenario id stands in a log's id order: numbers in it compared as numbers (``fuzz/7/9`` before
    ``fuzz/7/10``), then the id itself (``a01`` before ``a1``), so that only an id equals itself."""
    return _natural(scenario_id), scenario_id


# The values a log's scenario lines repeat, beside their keys: a few hundred names in all, which json reads anew on
# each line. Interned, each is held once for all the lines kept in memory.
_NAMES = ("type", "outcome", "game", "variant", "file")


def _shared(line: Json) -> Json:
    """A scenario line as a report needs it: its keys, names and clauses interned strings, and its values (what was
    expected and observed, and what the expectation file said) cut to what a report shows of them."""
    kept = {sys.intern(key): value for key, value in line.items()}
    for key in _NAMES:
        if isinstance(value := kept.get(key), str):
            kept[key] = sys.intern(value)
    kept["clauses"] = [sys.intern(clause) for clause in kept["clauses"]]  # the schema's list of strings
    if "mismatches" in kept:
        kept["mismatches"] = [_shown(m) for m in kept["mismatches"]]
    if isinstance(kept.get("mismatch"), dict):
        kept["mismatch"] = _shown(kept["mismatch"])
    if isinstance(kept.get("expected"), dict):
        kept["expected"] = untrusted.shown_part(kept["expected"])
    return kept


def _shown(mismatch: Json) -> Json:
    """A mismatch with its values cut to what a report shows of them (``untrusted.shown_part``): a log's value of
    megabytes, held as read, is millions of objects, tens of times its size."""
    return {**mismatch, "expected": untrusted.shown_part(mismatch["expected"]),
            "observed": untrusted.shown_part(mismatch["observed"])}  # fmt: skip


def _natural(text: str) -> tuple[Any, ...]:
    """``fuzz/7/10`` after ``fuzz/7/9``: numbers in an id compared as numbers."""
    # A run of digits as (significant digits, digits): as a number compares, without int(), which a
    # hand-made log's 5,000-digit run would exceed.
    parts = re.split(r"(\d+)", text)
    return tuple((len(digits := part.lstrip("0")), digits) if i % 2 else part for i, part in enumerate(parts))


def merge(logs: list[Log]) -> Log:
    """Several run logs as one (the shards of a campaign): every scenario line, in id order, and a
    footer when every log has one. One log is returned as it is."""
    if len(logs) == 1:
        return logs[0]
    header: Header = {
        **logs[0].header,
        "options": {"merged": [log.header["options"] for log in logs]},
        "scenarios": sum(log.header.get("scenarios", 0) for log in logs),
    }
    merged = Log(header, Lines(_in_id_order(logs)))
    footers = [log.footer for log in logs]
    if all(footers):
        merged.footer = {
            "type": "footer",
            "counts": dict(merged.counts()),
            "seconds": max(f["seconds"] for f in footers if f),
            "finished": max(f["finished"] for f in footers if f),
        }
        stopped = next((log.interrupted for log in logs if log.interrupted), None)
        if stopped:  # one shard stopped by a signal: the merged run did not finish either
            merged.footer["interrupted"] = stopped
        named = sorted({rid for log in logs for rid in log.late_copies}, key=_natural)
        _name_late_copies(merged.footer, named, unnamed=sum(log.late_copies_unnamed for log in logs))
    return merged


def _name_late_copies(footer: Footer, late: list[str], unnamed: int = 0) -> None:
    """Name the scenarios answered again in ``footer``, the first LATE_COPIES_KEPT of them, and count the rest with
    ``unnamed`` more that were not named (the shards' own counts): none is dropped without a word."""
    if late:
        footer["late_copies"] = late[:LATE_COPIES_KEPT]
    if more := unnamed + max(0, len(late) - LATE_COPIES_KEPT):
        footer["late_copies_unnamed"] = more


def kind_of_run(log: Log) -> str:
    """What ran into a log: ``fuzz``, ``check-trace``, or ``verify`` (pytest's plugin writes none of its own)."""
    options = log.header.get("options", {})
    merged = options.get("merged")
    if isinstance(merged, list) and merged and isinstance(merged[0], dict):
        options = merged[0]  # the shards of one run: merge_problems holds them to one kind
    command = options.get("command")
    return command if command in ("fuzz", "check-trace") else "verify"


def merge_problems(logs: list[Log], paths: list[str]) -> list[Problem]:
    """Why logs cannot be merged into one report, each at the log at fault: a fuzz campaign's beside a conformance
    run's, the shards of campaigns of different seeds (their deals are not one campaign's) or of runs given other
    options that define a run (``run_options_differing``), of different engines (the report would bear the first
    one's name) or of one engine declaring other variants, or shards that share a scenario (it would be counted
    twice)."""
    def kind(log: Log) -> str:
        return kind_of_run(log)

    def seed(log: Log) -> Any:
        return log.header.get("options", {}).get("seed")

    problems = []
    first, first_path = logs[0], paths[0]
    for log, path in zip(logs[1:], paths[1:], strict=True):
        if kind(log) != kind(first):
            message = f"a {kind(log)} log beside the {kind(first)} log {first_path}: expected logs of one kind of run"
            problems.append(Problem(path, 1, 1, ("options",), message))
        elif kind(log) == "fuzz" and seed(log) != seed(first):
            message = (f"a campaign of seed {safe_name(seed(log))} beside one of seed {safe_name(seed(first))} "
                       f"({first_path}): expected the shards of one campaign")
            problems.append(Problem(path, 1, 1, ("options", "seed"), message))
        elif differing := run_options_differing(log, first):
            noun = {"fuzz": "campaign", "check-trace": "check of traces"}.get(kind(log), "run")
            shown = "; ".join(f"{_option_shown(key, mine)}, there {_option_value_shown(theirs)}" for key, mine, theirs
                              in differing)  # fmt: skip
            message = f"a {noun} given other options than {first_path} ({shown}): expected the shards of one {noun}"
            problems.append(Problem(path, 1, 1, ("options", differing[0][0]), message))
        elif (engine := safe_name(log.header["engine"])) != (first_engine := safe_name(first.header["engine"])):
            message = f"a run of {engine} beside one of {first_engine} ({first_path}): expected the shards of one engine's run"
            problems.append(Problem(path, 1, 1, ("engine",), message))
        elif log.header["engine"].get("variants") != first.header["engine"].get("variants"):
            # the report tells the variants the engine does not declare by the first log's declaration
            message = f"a run of {engine} declaring other variants than in {first_path}: expected the shards of one engine's run"
            problems.append(Problem(path, 1, 1, ("engine", "variants"), message))
    if not problems and len(logs) > 1 and (twice := _ids_twice(logs)):
        count, example, holders = twice
        also = f" and {count - 1:,} more" if count > 1 else ""
        message = (f"scenario {safe_name(example)}{also} also in {paths[holders[0]]}: expected shards that share no "
                   "scenario (each would be counted twice)")
        problems.append(Problem(paths[holders[1]], 0, 0, (), message))
    return problems


# Options that say how a run was carried out, not what it judged: where its outputs went, how it was split and run
# in parallel, how long the engine was waited for, how it was named and started (its handshake is compared apart), and
# the house folders (a spec read from elsewhere is a note, ``merge_notes``). Any other option given otherwise in
# another log is another run, whose lines are not this one's shards'.
_HOW_RUN = frozenset({
    "command", "shard", "jobs", "report_dir", "out", "save_expectations", "timeout", "startup_timeout",
    "give_up_after", "in_process", "engine", "engine_cmd", "spec", "scenarios",
})
# Beside those, per kind of run: a campaign's variants are compared as it resolved them (``variants``), not as given;
# a conformance run's shards are the selections it was split into.
_HOW_RUN_OF_KIND = {
    "fuzz": _HOW_RUN | {"variant"},
    "check-trace": _HOW_RUN,
    "verify": _HOW_RUN | {"game", "variant", "clause", "scenario"},
}
# What an option left out of a log stands for, where the command has a default it does not write (``trickspec fuzz``
# writes every option given, and those argparse defaults; ``--deals`` it leaves out when it takes its default).
FUZZ_DEALS = 1000  # the deals of a fuzz campaign given neither --deals nor --time


def run_options_differing(log: Log, first: Log) -> list[tuple[str, Any, Any]]:
    """The options that define a run (every one but ``_HOW_RUN_OF_KIND``'s) given otherwise in ``log`` than in
    ``first``, logs of one kind of run: (the option, its value in ``log``, in ``first``; None where not given), by
    name. A campaign's seed is said apart (``merge_problems``)."""
    kind = kind_of_run(first)
    mine, theirs = _run_options(log, kind), _run_options(first, kind)
    return [(key, mine.get(key), theirs.get(key)) for key in sorted(set(mine) | set(theirs))
            if key != "seed" and mine.get(key) != theirs.get(key)]  # fmt: skip


def _run_options(log: Log, kind: str) -> dict[str, Any]:
    options = log.header.get("options", {})
    given = {str(key): value for key, value in options.items()  # as the kit writes them: an option not given left out
             if key not in _HOW_RUN_OF_KIND[kind] and value is not None and value is not False and value != []}
    if kind == "fuzz" and given.get("deals") is None and given.get("time") is None:
        given["deals"] = FUZZ_DEALS  # left out: the default
    return given


def _option_shown(key: str, value: Any) -> str:
    """An option as a command line gives it (``--deals 400``, ``--sampled``), a campaign's variants as it resolved
    them (``variants briscola-2p``); made safe: a log's text reaches the terminal."""
    name = "variants" if key == "variants" else "--" + untrusted.text(key, 60).replace("_", "-")
    if value is True:
        return name
    return f"{name} {_option_value_shown(value)}" if value is not None else f"{name} not given"


def _option_value_shown(value: Any) -> str:
    if value is None:
        return "not given"
    if value is True:
        return "given"
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return untrusted.text(", ".join(value), 200)
    return untrusted.text(value, 200) if isinstance(value, str) else untrusted.json_text(value, 200)


def merge_notes(logs: list[Log]) -> list[str]:
    """What a reader of merged logs should know: they were run on different specs."""
    seen = sorted({safe_name(log.header["spec_version"]) for log in logs})
    return [f"the logs come from different spec versions: {', '.join(seen)}"] if len(seen) > 1 else []


def _in_id_order(logs: list[Log]) -> Iterator[ScenarioLine]:
    """Every scenario line of the logs, in id order: the logs merged as they are read where each is in that order
    (as the kit writes the shards of a campaign or a trace's check), else every line sorted in memory."""
    return (line for _, line in _in_id_order_from(logs))


def _in_id_order_from(logs: list[Log]) -> Iterator[tuple[int, ScenarioLine]]:
    """_in_id_order's lines, each with the index of its log."""
    def place(pair: tuple[int, ScenarioLine]) -> tuple[Any, str]:
        return id_order(pair[1]["id"])

    tagged = [zip(itertools.repeat(number), log.scenarios) for number, log in enumerate(logs)]
    if all(_ordered(log) for log in logs):
        return heapq.merge(*tagged, key=place)
    return iter(sorted(itertools.chain(*tagged), key=place))


def _ordered(log: Log) -> bool:
    places = (id_order(line["id"]) for line in log.scenarios)
    return all(a <= b for a, b in itertools.pairwise(places))


def _ids_twice(logs: list[Log]) -> tuple[int, str, tuple[int, int]] | None:
    """How many ids more than one log holds, the first of them in id order and the two logs it is first found in
    (by index); None if none."""
    count, first, previous, counted = 0, None, None, None
    holders = (0, 0)
    for number, line in _in_id_order_from(logs):  # an id twice stands beside itself in id order
        line_id = line["id"]
        if previous is not None and line_id == previous[1] and line_id != counted:
            count, counted = count + 1, line_id
            if first is None:
                first, holders = line_id, (previous[0], number)
        previous = (number, line_id)
    return (count, first, holders) if first is not None else None


def safe_name(value: Any) -> str:
    """A name from a log (a scenario id, a spec version, an engine's handshake: its name and version,
    those it gave) as safe text: a log's names reach the terminal."""
    if not isinstance(value, dict):
        return untrusted.text(str(value), 200)
    return untrusted.text(" ".join(str(value[key]) for key in ("name", "version") if value.get(key) is not None), 200)
