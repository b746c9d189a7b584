"""A fuzz campaign: the deal sequence of a seed, cut into a shard, run on one engine or J in
parallel, logged deal by deal in order, with every distinct divergence written once.

Deal ``i`` depends on the seed and ``i`` alone, and shard ``K/N`` takes the deals whose index
is ``K-1`` modulo ``N``, so the shards of a campaign are disjoint and together are the single
run; the log lists deals in index order whatever the number of jobs.
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import IO, Any

from conformance.engines import adapter as adapters
from conformance.engines import engine_process, interrupt
from conformance.engines.protocol import BadCommand
from conformance.fuzz.worker import DealResult, Found, Key, Settings, Worker
from conformance.fuzz.worker_engines import WorkerEngines
from conformance.run import kit_faults, outputs, parent_death, runlog, worker_ends
from conformance.run.kit_faults import Faults
from conformance.run.runlog import Log, ScenarioLine
from conformance.run.worker_ends import WorkerCrashed, WorkerFailed, WorkerKilled
from conformance.suite import declared_variants
from conformance.text import untrusted
from conformance.vocabulary import FAILING, Outcome
from specreader import limits
from specreader.jsontypes import Json
from specreader.spec import kit_spec

BATCH = 32  # deals a worker takes at a time: enough to keep the engine's pipe full
FIRST_BATCH = 8  # the first batches are smaller, so the first divergence shows (and stops a run) sooner
AHEAD = 2  # batches in flight per worker


class Stopped(Exception):
    """The campaign cannot go on: its engine cannot be used (it cannot be started, or, loaded into a worker, it may
    have ended it); says why."""


class BadChoice(Exception):
    """What the user asked for cannot be run (a variant the engine does not play...)."""


@dataclass(frozen=True)
class Plan:
    variants: tuple[str, ...] | None  # None: every variant the engine declares
    deals: int | None  # the campaign's size, over all shards; None: run for ``seconds``
    seconds: float | None
    shard: tuple[int, int] = (1, 1)
    jobs: int = 1
    max_divergences: int | None = None

    def indices(self) -> Iterator[int]:
        """This shard's deals, in order."""
        k, n = self.shard
        every = itertools.count(k - 1, n)
        return every if self.deals is None else itertools.takewhile(lambda i: i < (self.deals or 0), every)

    @property
    def planned(self) -> int:
        """Deals this shard will run (0 when it runs for a time)."""
        k, n = self.shard
        return 0 if self.deals is None else len(range(k - 1, self.deals, n))


@dataclass
class Group:
    """One distinct divergence: its first deal, how many deals showed it, its scenario."""

    key: Key
    first: DealResult
    deals: int = 1
    found: Found | None = None
    path: Path | None = None


@dataclass
class Campaign:
    log: Log
    hello: Json
    variants: tuple[str, ...]
    groups: dict[Key, Group] = field(default_factory=dict)
    unnamed: list[DealResult] = field(default_factory=list)  # divergences that did not happen again
    unsupported: dict[Key, Group] = field(default_factory=dict)  # deals the engine said it cannot play, by reason
    unsupported_unkept: int = 0  # such deals past the first limits.MAX_PROBLEMS reasons: counted, their reasons not kept
    deals: int = 0
    compared: int = 0  # the deals of which some observation was compared: none, and the campaign checked nothing
    seconds: float = 0.0
    interrupted: str | None = None  # the signal that stopped the campaign before its end
    # What stopped the campaign when a worker ended before it answered, or its work raised outside any deal: killed
    # from outside (a WorkerKilled), or else the kit's fault
    worker_failed: WorkerFailed | None = None
    late_copies: list[str] = field(default_factory=list)  # deals answered again after their batch was judged
    faults: Faults = field(default_factory=Faults)  # deals the kit failed to judge: their judging raised


def choose_variants(asked: tuple[str, ...] | None, hello: Json) -> tuple[str, ...]:
    """The variants to fuzz: those asked for, or every playable one the engine declares (a base variant the
    others extend, which no deal can be played by, is left out, as verify leaves out its scenarios)."""
    raw = kit_spec().variants_raw()
    known = set(raw)
    playable = {v for v, (_, data) in raw.items() if not data.get("abstract")}
    declared = [v for v in hello.get("variants", []) if v in playable]
    if asked is None:
        if not declared:
            only = declared_variants.unknown_named(hello)
            raise BadChoice("the engine declares no variant of the kit" + (f", only {only}" if only else ""))
        return tuple(sorted(declared))
    unknown = [v for v in asked if v not in known]
    if unknown:
        raise BadChoice(f"unknown variant {', '.join(unknown)}: expected an id from spec/*/variants")
    abstract = [v for v in asked if v not in playable]
    if abstract:
        raise BadChoice(f"{', '.join(abstract)} cannot be played (the base of other variants): expected a playable variant")
    missing = [v for v in asked if v not in declared]
    if missing:
        raise BadChoice(f"the engine does not declare {', '.join(missing)}")
    return tuple(dict.fromkeys(asked))


# -- engines: one in this process, or one per worker process ---------------------------------------
def _open(settings: Settings) -> adapters.EngineAdapter:
    return adapters.open_engine(
        settings.engine,
        settings.engine_cmd,
        timeout=settings.timeout,
        validate=settings.validate,
        startup_timeout=settings.startup_timeout,
        in_process=settings.in_process,
    )


def _fault(err: Exception) -> tuple[str, str]:
    """What a worker's work raised, said safely, and where: its traceback, for a report."""
    return adapters.describe_error(err), kit_faults.traceback_of(err)


def _raised(said: str, where: str) -> WorkerFailed:
    """What stops the campaign where a worker's work raised outside any deal: the kit's fault, as the engine's failures
    are its deals' results."""
    return WorkerFailed(f"a worker's work outside any deal raised {said}", where)


class _Inline:
    def __init__(self, settings: Settings, jobs: int) -> None:
        try:
            engine = _open(settings)
        except BadCommand:
            raise  # the user's words, not the engine's failure
        except Exception as err:  # an unusable engine is a verdict, not a traceback
            raise Stopped(f"engine unusable: {adapters.unusable_said(err)}") from None
        try:
            self.hello: Json = engine.hello()
        except Exception as err:  # its adapter's: the engine's, as when it cannot be opened
            engine.close()
            raise Stopped(f"engine unusable: {adapters.unusable_said(err)}") from None
        try:
            self.worker = Worker(settings, engine, self.hello)
        except Exception as err:
            engine.close()
            raise _raised(*_fault(err)) from None
        # A batch runs when received, one at a time: none runs that a stop would make unwanted.
        self.waiting: deque[tuple[int, list[int], tuple[str, ...]]] = deque()
        self.ahead = 1

    def submit(self, number: int, indices: list[int], variants: tuple[str, ...]) -> None:
        self.waiting.append((number, indices, variants))

    def receive(self) -> tuple[int, list[DealResult], list[str]]:
        number, indices, variants = self.waiting.popleft()
        try:
            return number, self.worker.run(indices, variants), self.worker.take_late_copies()
        except Exception as err:  # as a worker process would say it
            raise _raised(*_fault(err)) from None

    def abandon(self) -> None:
        self.waiting.clear()

    def close(self) -> None:
        self.worker.engine.close()


def _work(settings: Settings, link: Connection, engines: WorkerEngines, parents: list[Connection]) -> None:
    """A worker process: its own engine, batches until told to stop, or until the campaign is gone."""
    for end in parents:  # the campaign's ends of the pipes, copied in as it forked: held here, a pipe would never tell
        end.close()  # the worker that the campaign was killed outright, and it would wait for ever with its engine
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops the workers
    engines.publish()  # killed, it cannot end its engines: the campaign ends them
    # SIGTERM is the parent's abandon, comes from outside, or says the campaign died (mid-deal, the pipe would tell
    # only once the batch is done): trapped, it raises Interrupted, even where the campaign runs untrapped; the
    # engine is ended on the way out (_serve), and there is nothing to say. The worker then ends as the signal
    # ends a process, so that the campaign tells a SIGTERM from outside by its exit code.
    with interrupt.trapped():  # left only as the worker ends: a second signal, as it ends its engine, is ignored
        try:
            parent_death.end_with_parent()
            _serve(settings, link)
        except interrupt.Interrupted as stop:
            engine_process.end_all()  # one it was starting as the signal came: _serve had not held it yet
            signal.signal(stop.signal, signal.SIG_DFL)
            signal.raise_signal(stop.signal)


def _serve(settings: Settings, link: Connection) -> None:
    try:
        engine = _open(settings)
    except Exception as err:
        link.send(("unusable", adapters.unusable_said(err)))
        return
    try:
        try:
            hello = engine.hello()
        except Exception as err:  # its adapter's: the engine's, as when it cannot be opened
            link.send(("unusable", adapters.unusable_said(err)))
            return
        worker = Worker(settings, engine, hello)
        link.send(("hello", hello))
        while (task := _task(link)) is not None:
            number, indices, variants = task
            results = worker.run(indices, variants)
            _answer(link, ("batch", number, results, worker.take_late_copies()))
    except _CampaignGone:  # killed outright: no one is left to answer; the engine is ended on the way out
        pass
    except Exception as err:  # the kit's, outside any deal: said to the parent, which stops the campaign on it
        link.send(("raised", *_fault(err)))
    except interrupt.Interrupted:  # abandoned mid-deal: the engine is ended, not asked to stop and waited for
        engine_process.end_all()
        raise
    finally:
        engine.close()


class _CampaignGone(Exception):
    """The campaign's end of a worker's pipe closed: it was killed outright."""


def _task(link: Connection) -> Any:
    """The next batch; None when told to stop."""
    try:
        return link.recv()
    except (EOFError, OSError):
        raise _CampaignGone from None


def _answer(link: Connection, message: tuple[Any, ...]) -> None:
    """A batch's result sent to the campaign (only a broken pipe here says it is gone: an engine's is its deal's)."""
    try:
        link.send(message)
    except OSError:
        raise _CampaignGone from None


_ABANDON_GRACE = 10.0  # seconds a worker told to stop has to end its engine and exit


class _Pool:
    """J worker processes, each with its own engine, fed batches over its own pipe (plain
    synchronous messages: nothing is left in flight when a worker is told to stop)."""

    def __init__(self, settings: Settings, jobs: int) -> None:
        methods = multiprocessing.get_all_start_methods()
        # fork: the workers start with the spec already read (no thread runs in this process yet)
        context: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self.in_process = settings.in_process
        self.ahead = AHEAD * jobs
        self.links: list[Connection] = []
        self.processes = []
        self.engines: list[WorkerEngines] = []  # each worker's, to end when it cannot
        for _ in range(jobs):
            mine, theirs = context.Pipe()
            engines = WorkerEngines(context)
            parents = [*self.links, mine]
            process = context.Process(target=_work, args=(settings, theirs, engines, parents), daemon=True)
            process.start()
            theirs.close()
            self.links.append(mine)
            self.processes.append(process)
            self.engines.append(engines)
        self.busy = [0] * jobs  # batches sent to each worker and not answered
        self.waiting: deque[tuple[int, list[int], tuple[str, ...]]] = deque()
        try:
            hellos = [self._next(worker) for worker in range(jobs)]
        except BaseException:  # one ended as it started: the others are not waited for
            self.abandon()
            raise
        unusable = [h[1] for h in hellos if h[0] != "hello"]
        if unusable:
            self.abandon()
            raise Stopped(f"engine unusable: {unusable[0]}")
        self.hello: Json = hellos[0][1]

    def _next(self, worker: int) -> tuple[Any, ...]:
        try:
            message: tuple[Any, ...] = self.links[worker].recv()
        except (EOFError, OSError):
            raise self._ended(worker) from None
        if message[0] == "raised":
            raise _raised(message[1], message[2])
        return message

    def _ended(self, worker: int) -> WorkerFailed | Stopped:
        """Why a worker ended before it answered, told by its exit code, its engines ended (it could not have):
        killed from outside, the campaign stops as that signal would stop it; crashed or exited, it stops too, a fault
        of the kit's, as an engine in a process of its own cannot end its worker. Only an engine loaded into the
        worker (``--in-process``) may have: crashed, perhaps its fault; exited, its doing, and it cannot be used."""
        process = self.processes[worker]
        process.join(_ABANDON_GRACE)  # reaped, so that its exit code is known
        self.engines[worker].end()
        failure = worker_ends.failure(process.exitcode)
        if isinstance(failure, WorkerKilled) or not self.in_process:
            return failure
        if isinstance(failure, WorkerCrashed):
            return Stopped(f"a fault of the kit's or of the engine loaded into it: {failure}")
        return Stopped(f"engine unusable: {failure}")

    def _dispatch(self) -> None:
        for worker in sorted(range(len(self.links)), key=lambda worker: self.busy[worker]):
            if self.waiting and self.busy[worker] < AHEAD:
                try:
                    self.links[worker].send(self.waiting.popleft())
                except OSError:  # it ended while the batch was on its way
                    raise self._ended(worker) from None
                self.busy[worker] += 1

    def submit(self, number: int, indices: list[int], variants: tuple[str, ...]) -> None:
        self.waiting.append((number, indices, variants))
        self._dispatch()

    def receive(self) -> tuple[int, list[DealResult], list[str]]:
        answered = wait([link for worker, link in enumerate(self.links) if self.busy[worker]])
        worker = next(worker for worker, link in enumerate(self.links) if link in answered)
        message = self._next(worker)
        self.busy[worker] -= 1
        self._dispatch()
        return message[1], message[2], message[3]

    def abandon(self) -> None:
        """Stop the workers at once: what they are doing is not wanted."""
        for process in self.processes:
            process.terminate()  # its engine sees its input close, and stops
        deadline = time.monotonic() + _ABANDON_GRACE  # one grace for them all
        for process in self.processes:
            process.join(timeout=max(0.0, deadline - time.monotonic()))
        for process in self.processes:
            if process.is_alive():  # deaf to SIGTERM: never left to hang the campaign
                process.kill()
                process.join()
        for engines in self.engines:
            engines.end()  # those a worker killed could not end itself (one that ended them has none listed)

    def close(self) -> None:
        for link in self.links:
            with contextlib.suppress(OSError):  # that worker is gone already
                link.send(None)
        for process in self.processes:
            process.join(timeout=_ABANDON_GRACE)
            if process.is_alive():
                self.abandon()  # what is left is ended as an abandoned campaign's workers are
                return


# -- the run ---------------------------------------------------------------------------------------
Progress = Callable[[int, float, int], None]  # deals done, seconds, distinct divergences


def run(
    plan: Plan,
    settings: Settings,
    *,
    out: Path | None = None,
    stream: runlog.TextSink | None = None,
    options: Json | None = None,
    progress: Progress | None = None,
) -> Campaign:
    """Run the campaign and return its log and divergences; the log is written to ``stream`` as it goes."""
    return _run(plan, settings, out, stream, options, progress)


def _run(
    plan: Plan, settings: Settings, out: Path | None, stream: runlog.TextSink | None, options: Json | None,
    progress: Progress | None,
) -> Campaign:
    engines: _Inline | _Pool = (_Pool if plan.jobs > 1 else _Inline)(settings, plan.jobs)
    try:
        hello = untrusted.identity(engines.hello)
        variants = choose_variants(plan.variants, hello)
        log = Log(header=runlog.header(hello, {**(options or {}), "variants": list(variants)}, plan.planned), stream=stream)
        campaign = Campaign(log, hello, variants)
        started = time.perf_counter()
        try:
            with interrupt.deferred():  # the header whole; a signal after it stops the run as any other, its reports written
                log.start()
            _drive(plan, engines, campaign, out, progress)
        except (KeyboardInterrupt, interrupt.Interrupted) as stop:  # stopped by hand: what was done is kept and reported
            if isinstance(stop, interrupt.Interrupted):  # a signal stops the whole command: its engines are ended at once
                engine_process.end_all()
                campaign.interrupted = stop.signal.name
            else:
                campaign.interrupted = "SIGINT"
            engines.abandon()  # what the workers are doing is not waited for
            campaign.seconds = time.perf_counter() - started
            log.finish(campaign.seconds, interrupted=campaign.interrupted, late_copies=campaign.late_copies)
        except WorkerFailed as failed:  # the deals judged are kept; the log has no footer, as for a run killed outright
            campaign.worker_failed = failed
            engines.abandon()  # the other workers are stopped, not waited for
            campaign.seconds = time.perf_counter() - started
    finally:
        engines.close()
    return campaign


def _drive(plan: Plan, engines: _Inline | _Pool, campaign: Campaign, out: Path | None, progress: Progress | None) -> None:
    started = time.perf_counter()
    indices = plan.indices()
    submitted = 0
    waiting: dict[int, list[DealResult]] = {}
    logged = 0

    def submit() -> bool:
        nonlocal submitted
        if plan.seconds is not None and time.perf_counter() - started >= plan.seconds:
            return False
        batch = list(itertools.islice(indices, min(BATCH, FIRST_BATCH << submitted)))
        if not batch:
            return False
        engines.submit(submitted, batch, campaign.variants)
        submitted += 1
        return True

    def enough() -> bool:
        return plan.max_divergences is not None and len(campaign.groups) >= plan.max_divergences

    more = True
    while more and submitted < engines.ahead:
        more = submit()
    while logged < submitted:
        number, results, late = engines.receive()
        waiting[number] = results
        campaign.late_copies += late
        while logged in waiting:
            for result in waiting.pop(logged):
                _record(campaign, result, out)
                if enough():  # the batch's later deals are dropped: the campaign stops at the deal that found the last one
                    break
            logged += 1
            if progress is not None:
                progress(campaign.deals, time.perf_counter() - started, len(campaign.groups))
            if enough():
                engines.abandon()  # what is still out is not waited for
                submitted = logged
                more = False
                break
        if more:
            more = submit()
    campaign.seconds = time.perf_counter() - started
    campaign.log.finish(campaign.seconds, late_copies=campaign.late_copies)


def _record(campaign: Campaign, result: DealResult, out: Path | None) -> None:
    campaign.deals += 1
    campaign.compared += result.compared
    if result.where:  # the kit raised judging it: its error, no divergence, counted apart and never grouped as one
        campaign.faults.add(result.id, result.detail, result.where, result.doing)
        campaign.log.add(deal_line(result, None))
        return
    if result.outcome is Outcome.UNSUPPORTED and result.key is not None:  # no divergence: counted by reason, apart
        if (apart := campaign.unsupported.get(result.key)) is not None:
            apart.deals += 1
        elif len(campaign.unsupported) < limits.MAX_PROBLEMS:  # an engine giving each deal a reason of its own
            campaign.unsupported[result.key] = Group(result.key, result)
        else:
            campaign.unsupported_unkept += 1
        campaign.log.add(deal_line(result, None))
        return
    group = campaign.groups.get(result.key) if result.key is not None else None
    if result.key is not None and group is None:
        group = campaign.groups[result.key] = Group(result.key, result, found=result.found)
        if out is not None and result.found is not None and result.found.written is not None:
            group.path = out / result.found.written.file_name
            outputs.write_text(group.path, result.found.written.text)  # renamed into place: a link there is replaced
    elif group is not None:
        group.deals += 1
    elif result.outcome in FAILING:
        campaign.unnamed.append(result)
    campaign.log.add(deal_line(result, group))


def deal_line(result: DealResult, group: Group | None) -> ScenarioLine:
    written = group.found.written if group is not None and group.found is not None else None
    return {
        "type": "scenario",
        "id": result.id,
        "outcome": result.outcome,
        "game": str(kit_spec().resolved(result.variant).get("game", "")),
        "variant": result.variant,
        "clauses": list(result.clauses),
        "file": str(group.path) if group is not None and group.path is not None else "",
        "line": written.line if written is not None and group is not None and group.path is not None else 0,
        "seconds": result.seconds,
        "mismatch": result.mismatches[0] if result.mismatches else None,
        "mismatches": list(result.mismatches),
        "error": result.error,
        "expected": None,
        "note": result.detail if result.outcome is Outcome.XFAIL else None,  # what it differs in, as expected
    }


class FuzzProgress:
    """A bar with deals per second and divergences on a terminal; plain lines (every tenth) elsewhere."""

    def __init__(self, deals: int | None, seconds: float | None, stream: IO[str] | None = None) -> None:
        self.deals = deals
        self.seconds = seconds
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.shown = -1

    def __call__(self, done: int, elapsed: float, divergences: int) -> None:
        if self.deals:
            fraction = done / self.deals
        elif self.seconds:
            fraction = min(1.0, elapsed / self.seconds)
        else:
            fraction = 1.0
        rate = done / elapsed if elapsed > 0 else 0.0
        text = f"{done:,} deals  {rate:,.0f} deals/s  {divergences} divergence{'s' if divergences != 1 else ''}"
        if self.tty:
            width = 30
            filled = int(width * fraction)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {text}")
            self.stream.flush()
        elif int(fraction * 10) > self.shown:
            self.shown = int(fraction * 10)
            self.stream.write(text + "\n")
            self.stream.flush()

    def end(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
