"""One engine, fuzzed batch by batch: the deals generated, sent (pipelined when the adapter
can), compared, and each new divergence located, shrunk and written as a scenario.

A worker remembers the divergences it has written, so it shrinks each once; as it takes its
deals in order, the first deal of every divergence in the campaign is always shrunk, whatever
the number of workers.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

from conformance.engines.adapter import EngineAdapter, describe_error, take_late_copies
from conformance.engines.messages import Request
from conformance.engines.protocol import answered_twice
from conformance.fuzz import writing
from conformance.fuzz.compare import ERROR, Divergence, Expected, first_divergence
from conformance.fuzz.deals import Deal, UnreadableDeal, deal_id, dealt_setup, engine_dealt, generate, variant_of
from conformance.fuzz.naming import unsupported_reason
from conformance.fuzz.shrink import STALLS, Finding, Shrinker
from conformance.run import kit_faults
from conformance.suite.observing import clauses_of
from conformance.suite.reported import declared
from conformance.text import untrusted
from conformance.vocabulary import EngineError, ErrorKind, Outcome, engine_error
from reference import Engine, SetupError
from specreader.jsontypes import Json

Key = tuple[str, str, tuple[str, ...]]  # variant, field, clauses: one divergence


@dataclass(frozen=True)
class Settings:
    """What every worker of a campaign shares (sent to worker processes: plain data)."""

    seed: int
    engine: str | None
    engine_cmd: str | None
    timeout: float
    observe_all: bool = True  # False: snapshots and legal actions compared only where sampled
    in_process: bool = False  # --in-process: a module:name engine loaded into the worker, for a debugger
    startup_timeout: float | None = None  # None: the timeout
    known: tuple[tuple[str, str], ...] = ()  # (variant, field): what an expectation file says the engine gets wrong
    engine_deals: bool = False  # --deal engine: the engine shuffles and deals each deal its own way from a seed
    validate: bool = False  # --validate-protocol: every message, both ways, checked against its schema


@dataclass(frozen=True)
class Found:
    """The scenario written for a divergence, or why none could be."""

    written: writing.Written | None
    problem: str | None
    mid_deal: bool


@dataclass(frozen=True)
class DealResult:
    index: int
    id: str
    variant: str
    outcome: Outcome
    seconds: float
    field: str | None = None
    clauses: tuple[str, ...] = ()
    mismatches: tuple[Json, ...] = ()
    error: str | None = None
    detail: str = ""
    key: Key | None = None
    found: Found | None = None  # only on the first deal of a divergence a worker meets
    compared: bool = True  # whether any observation was compared: an unsupported deal may stop at its setup
    where: str = ""  # where judging it raised, the traceback (run/kit_faults.py): its outcome is then an error of the kit's
    doing: str = ""  # and what the kit was doing there: drawing the deal, reading the engine's, judging, locating


def fields_for(variant_id: str) -> frozenset[str]:
    return clauses_of(variant_id).fields


class Worker:
    """``hello``: the engine's handshake, asked of its adapter by the caller (its raise is the engine's)."""

    def __init__(self, settings: Settings, engine: EngineAdapter, hello: Json) -> None:
        self.settings = settings
        self.engine = engine
        self.seen: set[Key] = set()
        self.declared = declared(untrusted.identity(hello).get("reports"))
        self.shrinker = Shrinker(self.run_one, fields_for, self.declared, self.known)
        self.late_copies: list[str] = []  # answers sent again after their deal's batch was judged: for the log

    def known(self, variant: str) -> frozenset[str]:
        return frozenset(field for known_variant, field in self.settings.known if known_variant == variant)

    def run_one(self, request: Request) -> object:
        """The engine's answer to one request; an adapter that raises is an error answer."""
        try:
            return self.engine.run(request)
        except Exception as err:  # a misbehaving adapter is reported, never a traceback
            return EngineError(ErrorKind.ADAPTER, describe_error(err))

    def _answers(self, requests: list[Request]) -> Iterator[object]:
        many = getattr(self.engine, "run_many", None)
        if many is None:
            yield from map(self.run_one, requests)
            return
        given = 0
        try:
            for answer in many(requests):
                given += 1
                yield answer
        except Exception as err:  # as runner.run_all: once run_many raises, the rest are not run
            broken = EngineError(ErrorKind.ADAPTER, describe_error(err))
            yield from [broken] * (len(requests) - given)
            return
        if given < len(requests):
            yield from [EngineError(ErrorKind.ADAPTER, "it gave fewer answers than it was sent requests")] * (
                len(requests) - given
            )

    def run(self, indices: list[int], variants: tuple[str, ...]) -> list[DealResult]:
        started = time.perf_counter()
        if self.settings.engine_deals:
            deals, failed = self._engine_deals(indices, variants)
        else:
            deals, failed = self._kit_deals(indices, variants)
        judged = []
        for deal, answer in zip(deals, self._answers([d.request() for d in deals]), strict=True):
            variant = deal.case.variant
            expected = Expected(deal.case.refusals, deal.reports, fields_for(variant), self.declared, self.known(variant))
            judged.append((deal, expected, _compared(expected, answer)))
        # A copy of an answer the adapter had let go of, come later in the batch, was set aside (conformance/engines/protocol.py):
        # the deal it answered fails with it. One of an earlier batch's deal, judged already, is kept for the log.
        twice = self._set_aside()
        self.late_copies += sorted(twice - {deal.id for deal in deals})
        judged = [
            (deal, expected, divergence if deal.id not in twice else _compared(expected, answered_twice(deal.id)))
            for deal, expected, divergence in judged
        ]
        seconds = round((time.perf_counter() - started) / max(1, len(indices)), 6)
        results = [self._verdict(deal, divergence, seconds, expected.known_seen) for deal, expected, divergence in judged]
        return sorted(results + failed, key=lambda result: result.index)

    def _kit_deals(self, indices: list[int], variants: tuple[str, ...]) -> tuple[list[Deal], list[DealResult]]:
        """The deals drawn from the seed; those whose drawing raised (the kit's bug) as their results."""
        seed = self.settings.seed
        deals: list[Deal] = []
        failed: list[DealResult] = []
        for i in indices:
            try:
                deals.append(generate(seed, i, variants, observe_all=self.settings.observe_all))
            except Exception as err:  # that deal's verdict, the campaign going on
                failed.append(_not_judged(i, deal_id(seed, i), variant_of(seed, i, variants), err, 0.0, _DRAWING))
        return deals, failed

    def _engine_deals(self, indices: list[int], variants: tuple[str, ...]) -> tuple[list[Deal], list[DealResult]]:
        """``--deal engine``: each deal asked of the engine (a dealer and a seed), taken from its first observation
        as the reference's setup, and played from there; the deals it could not show, or dealt against the rules,
        as their results."""
        seed = self.settings.seed
        asked = [(i, *engine_dealt(seed, i, variants)) for i in indices]
        requests: list[Request] = [
            {"id": f"{deal_id(seed, i)}/deal", "variant": v, "setup": sent, "actions": [], "observe": [0]} for i, v, sent in asked
        ]
        deals: list[Deal] = []
        failed: list[DealResult] = []
        for (i, variant, sent), answer in zip(asked, self._answers(requests), strict=True):
            observations = answer.get("observations") if isinstance(answer, dict) else None
            first = observations[0] if isinstance(observations, list) and observations else None
            snapshot = first.get("snapshot") if isinstance(first, dict) else None
            if not isinstance(snapshot, dict):
                error = answer if isinstance(answer, EngineError) else (
                    engine_error(answer["error"]) if isinstance(answer, dict) and answer.get("error")
                    else EngineError(ErrorKind.MALFORMED, "expected its first observation to hold a snapshot object"))
                if error.kind is ErrorKind.UNSUPPORTED:  # counted apart by its reason, as a deal played part-way is
                    failed.append(_unsupported(i, deal_id(seed, i), variant, error, 0.0, compared=False))
                    continue
                said = f"the engine did not show its deal: {error}"
                failed.append(
                    DealResult(i, deal_id(seed, i), variant, error.outcome, 0.0, field="error", error=str(error), detail=said)
                )
                continue
            try:
                setup = dealt_setup(snapshot, variant, sent)
                Engine.new(variant, setup)
            except (SetupError, UnreadableDeal) as err:  # a deal the rules do not allow, or one that is no deal
                refused = err if isinstance(err, SetupError) else SetupError(str(err))  # no deal: its form is wrong
                blamed = clauses_of(variant).for_setup(refused, variant)
                clauses = blamed.clauses
                wrong = untrusted.text(str(err))
                mismatch = {"step": 0, "line": 0, "what": "the deal", "expected": "a deal the rules allow", "observed": wrong}
                said = f"the engine's deal: {wrong}" + (f" ({blamed.unstated})" if blamed.unstated else "")
                failed.append(DealResult(i, deal_id(seed, i), variant, Outcome.FAIL, 0.0, "setup", clauses, (mismatch,),
                                         detail=said, key=(variant, "setup", clauses)))
                continue
            except Exception as err:  # the kit's bug, set off by the engine's deal: that deal's verdict
                failed.append(_not_judged(i, deal_id(seed, i), variant, err, 0.0, _READING))
                continue
            try:
                deals.append(generate(seed, i, variants, observe_all=self.settings.observe_all, dealt=(variant, setup, sent)))
            except Exception as err:  # the kit's bug, as for a deal the kit draws
                failed.append(_not_judged(i, deal_id(seed, i), variant, err, 0.0, _DRAWING))
        return deals, failed

    def take_late_copies(self) -> list[str]:
        """The ids answered again after their batch was judged, since this was last asked."""
        taken, self.late_copies = self.late_copies, []
        return taken

    def _set_aside(self) -> set[str]:
        """The ids of the answers the adapter has set aside as late copies since it was last asked."""
        return set(take_late_copies(self.engine))

    def _verdict(self, deal: Deal, found: Divergence | Exception | None, seconds: float, known_seen: set[str]) -> DealResult:
        """The deal's result; where judging it, or locating its divergence, raised (``found``, or ``_result``), an
        error of the kit's saying so: no divergence, so neither shrunk nor written as a scenario, the campaign going on."""
        if isinstance(found, Exception):
            return _not_judged(deal.index, deal.id, deal.case.variant, found, seconds, _JUDGING)
        try:
            return self._result(deal, found, seconds, known_seen)
        except Exception as err:  # the kit's bug, as in _compared
            return _not_judged(deal.index, deal.id, deal.case.variant, err, seconds, _JUDGING)

    def _result(self, deal: Deal, divergence: Divergence | None, seconds: float, known_seen: set[str]) -> DealResult:
        variant = deal.case.variant
        if divergence is None and known_seen:  # it differs only where the engine is known to: counted apart
            said = f"differs only in fields the expectation file names: {', '.join(sorted(known_seen))}"
            return DealResult(deal.index, deal.id, variant, Outcome.XFAIL, seconds, detail=said)
        if divergence is None:
            return DealResult(deal.index, deal.id, variant, Outcome.PASS, seconds)
        if divergence.error is not None and divergence.error.kind is ErrorKind.UNSUPPORTED:
            return _unsupported(deal.index, deal.id, variant, divergence.error, seconds, compared=divergence.position > 0)
        if divergence.error is not None and divergence.error.kind in STALLS:
            return self._diverged(deal, divergence, seconds)  # looking closer would wait as long again, or not be run
        try:
            finding = self.shrinker.locate(deal.case, divergence.position, deal.id, deal.reports)
        except Exception as err:  # the kit's bug, as it asks the deal again cut short at the divergence: said so
            return _not_judged(deal.index, deal.id, variant, err, seconds, _LOCATING)
        if finding is None:  # it did not diverge again: reported as first seen, not shrunk
            return self._diverged(deal, divergence, seconds)
        if _cannot_be_asked(finding):  # the deal as the kit deals it: the divergence as first seen, filed, not shrunk
            return replace(self._diverged(deal, divergence, seconds), key=(variant, divergence.field, ()))
        found = None
        if finding.key not in self.seen:
            self.seen.add(finding.key)
            found = self._write(finding, deal)
        return self._diverged(deal, finding.divergence, seconds, finding, found)

    def _diverged(
        self, deal: Deal, divergence: Divergence, seconds: float, finding: Finding | None = None, found: Found | None = None
    ) -> DealResult:
        error = divergence.error
        outcome = error.outcome if divergence.kind == ERROR and error is not None else Outcome.FAIL
        return DealResult(
            deal.index,
            deal.id,
            deal.case.variant,
            outcome,
            seconds,
            field=finding.field if finding else divergence.field,
            clauses=finding.clauses if finding else (),
            mismatches=tuple(m.to_json() for m in divergence.mismatches),
            error=str(error) if error is not None else None,
            detail=divergence.detail(),
            key=finding.key if finding else None,
            found=found,
        )

    def _write(self, finding: Finding, deal: Deal) -> Found:
        try:
            return self._shrunk_and_written(finding, deal)
        except Exception as err:  # the divergence stands; only its scenario is missing, and why is said
            return Found(None, f"it could not be shrunk: {describe_error(err)}", False)

    def _shrunk_and_written(self, finding: Finding, deal: Deal) -> Found:
        seed = self.settings.seed
        shrunk = self.shrinker.shrink(finding, deal.id)
        done, problem = writing.written(shrunk, writing.origin(shrunk, seed, deal.index), self.run_one)
        if done is None and shrunk != finding:  # the shrunk case does not hold up: the deal as it ran, cut short
            shrunk = finding
            done, problem = writing.written(finding, writing.origin(finding, seed, deal.index), self.run_one)
        return Found(done, problem, shrunk.mid_deal)


# What the kit was doing when a deal's verdict failed, said in its error and on standard error.
_DRAWING = "drawing this deal"  # the reference playing the deal it sends, before the engine is asked
_READING = "reading the engine's deal"  # --deal engine: the deal the engine showed, taken as the reference's setup
_JUDGING = "judging this deal"  # the engine's answer held against the reference's
_LOCATING = "locating this deal's divergence"  # the deal asked again cut short, to name where and why it parts


def _compared(expected: Expected, answer: object) -> Divergence | Exception | None:
    """The first place the engine's answer parts from the reference (None: nowhere), or what judging it raised."""
    try:
        return first_divergence(expected, answer)
    except Exception as err:  # the kit's bug, set off by the engine's answer: the deal's verdict, never the campaign's end
        return err


def _not_judged(index: int, deal: str, variant: str, err: Exception, seconds: float, doing: str) -> DealResult:
    """The result of a deal the kit failed to judge: an error of the kit's, saying what the kit was ``doing``, with
    where it raised; the command and the deal's id (its seed and number) play the deal again."""
    said = kit_faults.detail(err, doing, f"this command and the deal's id, {deal}")
    return DealResult(index, deal, variant, Outcome.ERROR, seconds, error=said, detail=said,
                      where=kit_faults.traceback_of(err), doing=doing)  # fmt: skip


def _unsupported(index: int, deal: str, variant: str, error: EngineError, seconds: float, *, compared: bool) -> DealResult:
    """A deal the engine says it cannot play (what it reported up to there agreeing): no divergence, so neither
    shrunk nor written as a scenario, which could only be unsupported too; filed under its reason."""
    reason = unsupported_reason(error)
    return DealResult(index, deal, variant, Outcome.UNSUPPORTED, seconds, field=reason, error=str(error), detail=reason,
                      key=(variant, reason, ()), compared=compared)  # fmt: skip


def _cannot_be_asked(finding: Finding) -> bool:
    """Whether the deal, asked again as the kit deals it (every card given), is one the engine says it cannot play:
    an engine dealing only its own way (--deal engine) cannot be asked for the deal it dealt."""
    return finding.divergence.error is not None and finding.divergence.error.kind is ErrorKind.UNSUPPORTED
