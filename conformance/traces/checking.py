"""``trickspec check-trace``: every game of the trace files given, replayed through the reference
and judged, into one run log; each distinct divergence written once as a scenario.

Game ``i`` is the ``i``-th game line over the files in the order given (a folder's ``*.jsonl``
files by name, numbers as numbers), and shard ``K/N`` takes the games whose index is ``K-1``
modulo ``N``, as fuzz shards its deals. With ``--jobs J`` the games go to J worker processes in
batches, and the log lists them in index order whatever J is. The first game of a divergence
(variant, field, clauses, as fuzz files them) is cut short after the difference and written as a
scenario; it is checked as fuzz checks its own, the engine's side answered from the trace.
"""

from __future__ import annotations

import functools
import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from conformance.engines import interrupt
from conformance.fuzz import writing
from conformance.fuzz.shrink import Finding
from conformance.run import kit_faults, outputs, runlog
from conformance.run.kit_faults import Faults
from conformance.run.runlog import Log, ScenarioLine
from conformance.run.worker_ends import WorkerFailed, WorkerKilled
from conformance.text import untrusted
from conformance.traces import reading
from conformance.traces.fields_given import FieldsGiven
from conformance.traces.judging import GameResult, Key, judge_match, not_judged_detail
from conformance.traces.line_problems import NoGame
from conformance.traces.reading import Game, TraceLine
from conformance.traces.workers import Workers
from conformance.vocabulary import Outcome
from specreader import limits
from specreader.jsontypes import Json
from specreader.problems import Problem
from specreader.spec import kit_spec

BATCH = 256  # games a worker takes at a time: enough that handing them over costs little
# Bytes of lines a batch takes at most, past its first line: each line is held until its whole batch is judged, and
# 256 lines of matches of hundreds of deals each would be gigabytes.
BATCH_BYTES = 8 * 1024 * 1024

# A game line's verdict with the scenario written for it (or why none was), or the problems of a line that is no game.
Judged = tuple[GameResult, writing.Written | None, str | None] | NoGame

# The divergences this process has written a scenario for: each worker writes the first it meets of each.
_written: set[Key] = set()


@dataclass(frozen=True)
class Plan:
    files: tuple[Path, ...]
    shard: tuple[int, int] = (1, 1)
    jobs: int = 1
    known: tuple[tuple[str, str], ...] = ()  # (variant, field): what an expectation file says the engine gets wrong

    def mine(self, index: int) -> bool:
        k, n = self.shard
        return index % n == k - 1


@dataclass
class Group:
    """One distinct divergence: its first game, how many games showed it, its scenario."""

    key: Key
    first: GameResult
    games: int = 1
    written: writing.Written | None = None
    problem: str | None = None
    path: Path | None = None


class Problems:
    """The problems of the lines that are no game, while the games around them are judged: the first
    ``limits.MAX_PROBLEMS`` by file and line listed, the rest counted (a file given by mistake has one a line).
    Which are listed does not hang on the order the workers send them in."""

    def __init__(self) -> None:
        self._held: list[Problem] = []
        self._more = 0
        self._counted = True  # ``more`` is their number; else how many at least
        self._unlogged: list[Problem] = []
        self._unlogged_more: dict[tuple[str, int], tuple[int, bool]] = {}  # a line's problems past those located

    def add(self, found: Iterable[Problem], *, logged: bool = True, more: int = 0, counted: bool = True) -> None:
        """Problems of one line (or file), and ``more`` of the line's past them, never located: their number, or
        (``counted`` off) how many at least. ``logged``: also a line of the run log, as an error (a shard logs only
        its own lines' problems, and the first shard those of no line)."""
        found = list(found)
        self._held += found
        self._more += more
        self._counted = self._counted and counted
        if logged:
            self._unlogged += found
            if found and more:
                self._unlogged_more[(found[0].file, found[0].line)] = (more, counted)
        if len(self._held) > 2 * limits.MAX_PROBLEMS:  # cut now and then, so that no more than twice are held
            self._cut()

    def take_unlogged(self) -> list[ScenarioLine]:
        """The problems added since this was last asked, as run-log lines: one an error, for each line of a trace
        (or file) that is no game, so that every report of the run, its badge too, counts it."""
        by_place: dict[tuple[str, int], list[Problem]] = {}
        for problem in self._unlogged:
            by_place.setdefault((problem.file, problem.line), []).append(problem)
        self._unlogged = []
        more, self._unlogged_more = self._unlogged_more, {}
        return [_problem_line(*place, found, *more.get(place, (0, True))) for place, found in by_place.items()]

    def _cut(self) -> None:
        self._held.sort()
        self._more += max(0, len(self._held) - limits.MAX_PROBLEMS)
        del self._held[limits.MAX_PROBLEMS :]

    @property
    def more(self) -> int:
        """How many are not listed: their number, or (``counted`` off) how many at least."""
        self._cut()
        return self._more

    @property
    def counted(self) -> bool:
        return self._counted

    def __iter__(self) -> Iterator[Problem]:
        self._cut()
        return iter(self._held)

    def __bool__(self) -> bool:
        return bool(self._held)


@dataclass
class Checked:
    log: Log
    engine: Json
    groups: dict[Key, Group] = field(default_factory=dict)
    problems: Problems = field(default_factory=Problems)  # lines that are no game, and files that could not be read
    given: FieldsGiven = field(default_factory=FieldsGiven)  # what the games judged gave, held to what was declared
    games: int = 0
    seconds: float = 0.0
    interrupted: str | None = None
    # What stopped the run when a worker ended before it answered: killed from outside (a WorkerKilled), or a crash
    worker_failed: WorkerFailed | None = None
    unanswered: str = ""  # the lines of the batch a worker that crashed left unanswered, first to last, by their places
    engines: list[str] = field(default_factory=list)  # every engine the files' headers name, the log's first
    declared: set[str] = field(default_factory=set)  # the fields the files' headers say the engine reports
    unfinished: int = 0  # games that passed and stop before their deal is over
    first_unfinished: str = ""  # the first of them, by its place
    faults: Faults = field(default_factory=Faults)  # games the kit failed to judge: their judging raised


def _answers_from(game: Game) -> writing.EngineRun:
    """The engine's side of a scenario cut from this game: what the trace holds for that prefix of it."""

    def answer(request: Any) -> object:
        said = []
        for position in range(len(request["actions"]) + 1):
            given = game.observations[position] if position < len(game.observations) else None
            given = given or {}
            snapshot, legal = given.get("snapshot") or {}, given.get("legal") or []
            said.append({"rejected": given.get("rejected"), "snapshot": snapshot, "legal": legal})
        return {"id": request["id"], "observations": said}

    return answer


def _origin(finding: Finding, game: Game) -> writing.Origin:
    variant = finding.case.variant
    name = str(kit_spec().resolved(variant).get("game", ""))
    short = writing.slug(variant.removeprefix(name + "-"))
    where = f"{_safe_whole(game.file)}, line {game.number}"
    own = reading.own_name(game.name, game.file, game.number)
    called = f" (game {untrusted.text(own, 100)})" if own is not None else ""
    called += f" (deal {game.deal} of the match)" if game.deal else ""
    case = writing.digest(finding.case)  # games of other traces and other runs get other names
    return writing.Origin(
        f"{name}/trace/{short}-{writing.slug(finding.field)}-{case}",
        f"{variant}-{writing.slug(finding.field)}-trace-{case}.yaml",
        f"Found by trickspec check-trace in {where}{called}, the game cut short after the difference. What it "
        "expects is what the reference engine reports.",
        "found by trickspec check-trace in a trace of the engine",
    )


def judge_lines(known: tuple[tuple[str, str], ...], batch: list[TraceLine]) -> tuple[list[Judged], FieldsGiven]:
    """Each line read and judged (in a worker process, or in this one); and the fields the games gave."""
    out: list[Judged] = []
    given = FieldsGiven()
    # The run lists its first problems by file and line: a line's past as many located of its file in the batch
    # before it are never listed, but its first still says in the run log what is wrong with it.
    located: Counter[str] = Counter()
    for line in batch:
        try:
            judged = _judge_line(known, line, given, max(1, limits.MAX_PROBLEMS - located[line.file]))
        except Exception as err:  # a fault of the kit's the line set off outside its games' judging: the line's verdict
            judged = [(_not_read(line, err), None, None)]
        out += judged
        located[line.file] += sum(len(item.problems) for item in judged if isinstance(item, NoGame))
    return out, given


def _judge_line(known: tuple[tuple[str, str], ...], line: TraceLine, given: FieldsGiven, room: int) -> list[Judged]:
    """A line's games judged, or its problems, the first ``room`` of them located."""
    games = reading.read_games(line, room)
    if isinstance(games, NoGame):
        return [games]
    out: list[Judged] = []
    mine = frozenset(field for variant, field in known if variant == games[0].variant)
    verdicts = judge_match(games, mine)  # a game line's game is a match of one deal
    for verdict in verdicts:
        out.append((verdict.result, *_scenario(verdict.result, verdict.finding, verdict.game)))
    for verdict in verdicts:  # once every verdict is in: a line that raises counts none of its games' fields
        given.add(verdict)
    return out


NOT_READ = "(not read)"  # what a line the kit failed on before it knew its game is filed under, by game and by variant


def _not_read(line: TraceLine, err: Exception) -> GameResult:
    """The verdict on a line whose reading or judging raised outside any game's judging: one error of the kit's."""
    place = reading.place_of(line.file, line.number)
    doing = "reading or judging this line"
    return GameResult(line.index, place, line.file, line.number, NOT_READ, Outcome.ERROR, 0.0,
                      detail=not_judged_detail(err, doing), where=kit_faults.traceback_of(err), doing=doing)  # fmt: skip


def _scenario(result: GameResult, finding: Finding | None, game: Game) -> tuple[writing.Written | None, str | None]:
    """The scenario written for a game's divergence, the first this process meets of it; or why none is."""
    if finding is not None and finding.key not in _written:
        _written.add(finding.key)
        try:
            return writing.written(finding, _origin(finding, game), _answers_from(game))
        except Exception as err:  # the divergence stands; only its scenario is missing, and why is said
            return None, f"it could not be written: {type(err).__name__}: {untrusted.text(err, 300)}"
    if finding is None and result.key is not None and result.key not in _written:  # a deal the rules do not allow
        _written.add(result.key)
        return None, "the engine's deal is one the rules do not allow: the setup shows it"
    return None, None


Progress = Callable[[int, float, int], None]  # games done, seconds, distinct divergences


def run(
    plan: Plan,
    *,
    out: Path | None = None,
    stream: runlog.TextSink | None = None,
    options: Json | None = None,
    progress: Progress | None = None,
) -> Checked:
    """Judge every game of the plan's shard; the log is written to ``stream`` as it goes."""
    _written.clear()  # a run writes each divergence once: none was written by an earlier run in this process
    problems = Problems()
    headers: list[Json] = []
    mine = _batches(plan, reading.lines(list(plan.files)), problems, headers)
    first = next(mine, None)  # the first file's header, if it has one, comes before its first game
    given = headers[0] if headers else {}
    declared = {"reports": given["reports"]} if isinstance(given.get("reports"), list) else {}
    engine = untrusted.identity({**(given.get("engine") or {"name": "unnamed engine"}), **declared})
    engine.setdefault("name", "unnamed engine")
    log = Log(header=runlog.header(engine, options or {}, 0), stream=stream)
    checked = Checked(log, engine, problems=problems)
    started = time.perf_counter()
    batches = iter(() if first is None else [first])
    first = None  # held by the iterator alone, which lets it go once it is judged, not at the end of the run
    workers: Workers[list[TraceLine], tuple[list[Judged], FieldsGiven]] | None = None
    work = functools.partial(judge_lines, plan.known)
    try:
        with interrupt.deferred():  # the header whole; a signal after it stops the run as any other, its reports written
            log.start()
        if plan.jobs > 1:
            methods = multiprocessing.get_all_start_methods()
            context: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
            workers = Workers(context, plan.jobs, work)
            workers.start()
            judged: Iterator[tuple[list[Judged], FieldsGiven]] = workers.results(_chain(batches, mine))
        else:
            judged = map(work, _chain(batches, mine))
        for results, given_there in judged:
            checked.given.update(given_there)
            for item in results:
                if isinstance(item, NoGame):
                    problems.add(item.problems, more=item.more, counted=item.counted)
                else:
                    _record(checked, *item, out)
            for line in problems.take_unlogged():
                log.add(line)
            if progress is not None:
                progress(checked.games, time.perf_counter() - started, len(checked.groups))
        if workers is not None:  # ended here, where a stop as they end is handled as any other
            workers.close()
            workers = None
        checked.seconds = time.perf_counter() - started
        for line in problems.take_unlogged():  # those of the last lines read, past every game
            log.add(line)
        log.finish(checked.seconds)
    except (KeyboardInterrupt, interrupt.Interrupted) as stop:  # what was judged is kept and reported
        checked.interrupted = stop.signal.name if isinstance(stop, interrupt.Interrupted) else "SIGINT"
        if workers is not None:
            workers.kill()
            workers = None
        checked.seconds = time.perf_counter() - started
        if log.footer is None:
            log.finish(checked.seconds, interrupted=checked.interrupted)
    except WorkerFailed as failed:  # the games judged are kept; the log has no footer, as for a run killed outright
        checked.worker_failed = failed
        if not isinstance(failed, WorkerKilled) and failed.batch:  # where a report of the crash should look
            checked.unanswered = f"{_place(failed.batch[0])} to {_place(failed.batch[-1])}"
        checked.seconds = time.perf_counter() - started
    finally:
        if workers is not None:  # the run ended by an error: nothing of theirs is waited for
            workers.kill()
    checked.engines = list(dict.fromkeys(_named(untrusted.identity(h.get("engine", {}))) for h in headers))
    checked.declared = {str(f) for h in headers if isinstance(h.get("reports"), list) for f in h["reports"]}
    return checked


def _place(line: TraceLine) -> str:
    return _safe_whole(reading.place_of(line.file, line.number))


def _named(engine: Json) -> str:
    return f"{engine.get('name', 'unnamed engine')} {engine.get('version', '')}".rstrip()


def _note(result: GameResult, group: Group | None) -> str | None:
    said = ""
    if result.outcome is Outcome.XFAIL:
        said = result.detail  # what it differs in, as the expectation file says it does
    elif group is not None and group.path is not None and group.first is result:
        said = f"scenario: {group.path}"
    return "; ".join(part for part in (said, result.unjudged) if part) or None  # and what was not judged, and why


class TraceProgress:
    """Games done and their rate on a terminal, rewritten in place; nothing elsewhere (the summary says it)."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()

    def __call__(self, done: int, elapsed: float, divergences: int) -> None:
        if self.tty:
            rate = done / elapsed if elapsed > 0 else 0.0
            plural = "" if divergences == 1 else "s"
            self.stream.write(f"\r{done:,} games  {rate:,.0f} games/s  {divergences} divergence{plural}")
            self.stream.flush()

    def end(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _chain(*parts: Iterator[list[TraceLine]]) -> Iterator[list[TraceLine]]:
    for part in parts:
        yield from part


def _batches(
    plan: Plan, lines: Iterator[TraceLine | Json | Problem], problems: Problems, headers: list[Json]
) -> Iterator[list[TraceLine]]:
    """This shard's game lines in batches; headers and problems met on the way set aside."""
    batch: list[TraceLine] = []
    size = 0
    for item in lines:
        if isinstance(item, Problem):  # a line too long to read, a file that cannot be: no shard's game
            problems.add([item], logged=plan.shard[0] == 1)
        elif isinstance(item, dict):
            headers.append(item)
        elif plan.mine(item.index):
            batch.append(item)
            size += len(item.raw)
            if len(batch) >= BATCH or size >= BATCH_BYTES:
                yield batch
                batch, size = [], 0
    if batch:
        yield batch


def _record(checked: Checked, result: GameResult, written: writing.Written | None, problem: str | None, out: Path | None) -> None:
    checked.games += 1
    if result.outcome is Outcome.ERROR:  # the only error of a game: the kit's fault
        checked.faults.add(game_id(result), result.detail, result.where, result.doing)
    if result.unfinished:
        checked.unfinished += 1
        checked.first_unfinished = checked.first_unfinished or game_id(result)
    group = checked.groups.get(result.key) if result.key is not None else None
    if result.key is not None and group is None:
        group = checked.groups[result.key] = Group(result.key, result, written=written, problem=problem)
        if out is not None and written is not None:
            group.path = out / written.file_name
            outputs.write_text(group.path, written.text)
    elif group is not None:
        group.games += 1
    checked.log.add(game_line(result, group))


NO_GAME = "(no game)"  # what a line that is no game is filed under, by game and by variant


def _problem_line(file: str, number: int, found: list[Problem], more: int = 0, counted: bool = True) -> ScenarioLine:
    """A line of a trace that is no game (or a file that could not be read, at line 0), in the run log; ``more``: its
    problems past those located, their number or (``counted`` off) how many at least."""
    others = len(found) - 1 + more
    said = str(found[0]) + (f" (and {'' if counted else 'at least '}{others:,} more problems of the line)" if others else "")
    return {
        "type": "scenario",
        "id": _safe_whole(reading.place_of(file, number) if number else file),
        "outcome": Outcome.ERROR,
        "game": NO_GAME,
        "variant": NO_GAME,
        "clauses": [],
        "file": file,
        "line": number,
        "seconds": 0.0,
        "mismatch": None,
        "mismatches": [],
        "error": untrusted.text(f"no game: {said}", 2000),
        "expected": None,
        "note": None,
    }


def game_id(result: GameResult) -> str:
    """A game's id in the run log: its place in the trace (its file, whole, and its line), then its own name after a
    # where it has one, made safe. The place is never cut: it alone sets games apart, and keeps them in id order."""
    place = reading.place_of(result.file, result.number)
    own = reading.own_name(result.name, result.file, result.number)
    deal = f"/{result.deal}" if result.deal else ""  # a deal of the match its line holds
    return _safe_whole(place) + (f"#{untrusted.text(own, 100)}" if own is not None else "") + deal


def _safe_whole(text: str) -> str:
    """A name the command was given (a path), made safe and never cut: an escape is at most 7 characters for one."""
    return untrusted.text(text, 7 * len(text))


def game_line(result: GameResult, group: Group | None) -> ScenarioLine:
    """A game's line in the run log: a scenario's, named after the game, placed at its line of the trace."""
    return {
        "type": "scenario",
        "id": game_id(result),
        "outcome": result.outcome,
        "game": NOT_READ if result.variant == NOT_READ else str(kit_spec().resolved(result.variant).get("game", "")),
        "variant": result.variant,
        "clauses": list(result.clauses),
        "file": result.file,
        "line": result.number,
        "seconds": round(result.seconds, 6),
        "mismatch": result.mismatches[0] if result.mismatches else None,
        "mismatches": list(result.mismatches),
        "error": result.detail if result.outcome is Outcome.ERROR else None,
        "expected": None,
        "note": _note(result, group),
    }
