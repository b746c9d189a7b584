"""Runs scenarios through an engine adapter and judges what it reports: one verdict per scenario."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from conformance.engines.adapter import EngineAdapter, describe_error
from conformance.engines.messages import Request
from conformance.run import kit_faults
from conformance.suite import schemas
from conformance.suite.comparisons import Mismatch, action_text, compare
from conformance.suite.reported import Reports, as_judged, within
from conformance.suite.scenarios import Scenario
from conformance.text import untrusted
from conformance.vocabulary import EngineError, ErrorKind, Outcome, engine_error, refusal_code


@dataclass(frozen=True)
class Verdict:
    """What one scenario came to on an engine: its outcome (pass, fail, error, timeout or
    unsupported), every mismatch, and the engine's error, why the scenario was not run, or why the kit could not
    judge it."""

    scenario: Scenario
    outcome: Outcome
    mismatches: list[Mismatch] = field(default_factory=list)
    error: EngineError | None = None
    not_run: str = ""  # why an unsupported scenario was not sent
    fault: str = ""  # the kit failed to judge it, its judging raised: the error saying so (kit_faults.py)
    where: str = ""  # and the traceback of what raised, for the terminal to show once
    doing: str = ""  # and what the kit was doing when it raised, for the terminal to say with it

    @property
    def reason(self) -> str:
        """The error, the reason it was not run or the kit's fault, as one line of text ("" when there is none)."""
        return str(self.error) if self.error is not None else self.fault or self.not_run


def _failed(scenario: Scenario, error: EngineError, mismatches: list[Mismatch] | None = None) -> Verdict:
    if error.kind is ErrorKind.UNSUPPORTED and mismatches:  # what it did observe before its API gave out was wrong
        return Verdict(scenario, Outcome.FAIL, mismatches, error)
    return Verdict(scenario, error.outcome, mismatches or [], error)


def _malformed(scenario: Scenario, message: str, mismatches: list[Mismatch] | None = None) -> Verdict:
    return _failed(scenario, EngineError(ErrorKind.MALFORMED, message), mismatches)


def request_for(scenario: Scenario) -> Request:
    """What the engine is sent: never the expectations."""
    return {
        "id": scenario.id,
        "variant": scenario.variant,
        "setup": scenario.setup,
        "actions": scenario.actions(),
        "observe": observed(scenario),
    }


def observations_problem(observations: object) -> str:
    """Why an answer's observations, neither a list nor any, are no observations."""
    if observations is None or observations == []:
        return "the engine returned no observations"
    return f"expected observations to be a list, found {schemas.json_kind(observations)}"


def report_problem(position: int, snapshot: object, legal: object) -> str:
    """Why an observation the kit asked for is none: its snapshot is no object, or its legal actions no list."""
    if snapshot is None or legal is None:
        return f"observation {position}, which the kit asked for, lacks its snapshot or legal actions"
    wrong = [f"{name} {schemas.json_kind(value)}" for name, value, kind in (("snapshot", snapshot, dict), ("legal", legal, list))
             if not isinstance(value, kind)]  # fmt: skip
    return f"expected observation {position}'s snapshot to be a mapping and legal an array, found {' and '.join(wrong)}"


def observed(scenario: Scenario) -> list[int]:
    """Indices of the observations ``judge`` compares: before and after a refused action, and
    wherever a step expects something (0 is the position after setup)."""
    wanted: set[int] = set()
    position = 0
    for step in scenario.steps:
        for _ in step.actions:
            if step.refuse:
                wanted.update((position, position + 1))
            position += 1
        if step.expect:
            wanted.add(position)
    return sorted(wanted)


def judge(scenario: Scenario, answer: object, reports: Reports = None) -> Verdict:
    """Compare an engine's answer (untrusted: any shape) with the scenario's steps, on the fields the engine
    reports (``reports``; None: every field); never raise."""
    if isinstance(answer, EngineError):
        return _failed(scenario, answer)
    if not isinstance(answer, dict):
        return _malformed(scenario, f"expected an answer object, found {type(answer).__name__}")
    if scenario.refuse_setup is not None:
        return _judge_setup_refusal(scenario, scenario.refuse_setup, answer)
    observations = answer.get("observations")
    error = engine_error(answer["error"]) if answer.get("error") is not None else None
    if not isinstance(observations, list) or not observations:
        return _failed(scenario, error) if error else _malformed(scenario, observations_problem(observations))
    wanted = len(scenario.actions()) + 1
    if len(observations) > wanted:
        return _malformed(
            scenario, f"expected {wanted} observations (one after setup, one per action), found {len(observations)}"
        )
    shapeless = next((i for i, o in enumerate(observations) if not isinstance(o, dict)), None)
    if shapeless is not None:
        found = untrusted.json_text(observations[shapeless], 200)  # as the engine sent it
        return _malformed(scenario, f"expected observation {shapeless} to be an object, found {found}")
    for index, observation in enumerate(observations):
        try:
            refusal_code(observation.get("rejected"))
        except ValueError as err:  # a refusal that names no code is no answer, not an action accepted
            return _malformed(scenario, f"observation {index}: {err}")
    mismatches: list[Mismatch] = []
    position = 0  # index of the observation after the last action judged
    for number, step in enumerate(scenario.steps, start=1):
        for action in step.actions:
            before = observations[position]
            position += 1
            if position >= len(observations):
                if error:
                    return _failed(scenario, error, mismatches)
                return _malformed(scenario, f"no observation after action {action_text(action)}", mismatches)
            after = observations[position]
            code = refusal_code(after.get("rejected"))
            if step.refuse:
                if code not in step.refuse:
                    mismatches.append(
                        Mismatch(number, step.line, f"{action_text(action)} refused with", list(step.refuse), code or "accepted")
                    )
                elif not isinstance(before.get("snapshot"), dict) or not isinstance(after.get("snapshot"), dict):
                    return _malformed(scenario, "an observation the kit asked for lacks its snapshot", mismatches)
                elif after.get("snapshot") != before.get("snapshot"):
                    mismatches.append(
                        Mismatch(
                            number,
                            step.line,
                            "state after a refused action",
                            "unchanged",
                            _changed(before.get("snapshot"), after.get("snapshot")),
                        )
                    )
            elif code is not None:
                mismatches.append(Mismatch(number, step.line, f"{action_text(action)} accepted", "accepted", f"refused: {code}"))
                return Verdict(scenario, Outcome.FAIL, mismatches)
        if step.expect:
            current = observations[position]
            snapshot = current.get("snapshot")
            legal = current.get("legal")
            if not isinstance(snapshot, dict) or not isinstance(legal, list):
                return _malformed(scenario, report_problem(position, snapshot, legal), mismatches)
            mismatches += compare(within(step.expect, reports)[0], as_judged(snapshot, reports), legal, number, step.line)
    if error is not None:
        return _failed(scenario, error, mismatches)
    return Verdict(scenario, Outcome.FAIL if mismatches else Outcome.PASS, mismatches)


def judged(scenario: Scenario, answer: object, reports: Reports = None) -> Verdict:
    """``judge``'s verdict, or, where judging raises (a fault of the kit's that the engine's answer set off), an
    error of the kit's saying so: one scenario's verdict, never the run's end."""
    try:
        return judge(scenario, answer, reports)
    except Exception as err:  # the kit's own bug: reported against this scenario, the run going on
        return not_judged(scenario, err)


_JUDGING = "judging this scenario"  # its answer judged, or its verdict made the run log's line: all a scenario asks of the kit


def not_judged(scenario: Scenario, err: Exception) -> Verdict:
    """The verdict on a scenario the kit failed to judge: an error of the kit's, said so, with where it raised."""
    said = kit_faults.detail(err, _JUDGING, f"the scenario's id, {scenario.id}")
    return Verdict(scenario, Outcome.ERROR, fault=said, where=kit_faults.traceback_of(err), doing=_JUDGING)


def _judge_setup_refusal(scenario: Scenario, expected: str, answer: dict[str, Any]) -> Verdict:
    """A scenario whose setup must be refused: the engine's setup error must carry ``expected``."""
    def refused_with(observed: str) -> Verdict:
        mismatch = Mismatch(0, scenario.refuse_setup_line, "setup refused with", expected, observed)
        return Verdict(scenario, Outcome.FAIL, [mismatch])

    reported = answer.get("error")
    if reported is None:
        observations = answer.get("observations")
        if not isinstance(observations, list) or len(observations) != 1:
            return _malformed(scenario, "expected a setup error, or one observation after the setup it accepted")
        return refused_with("accepted")
    error = engine_error(reported)
    if error.kind is not ErrorKind.SETUP:  # a crash, unsupported...: as for any scenario
        return _failed(scenario, error)
    if error.code == expected:
        return Verdict(scenario, Outcome.PASS)
    return refused_with(error.code if error.code is not None else "refused without a code")


def _changed(before: Any, after: Any) -> Any:
    if isinstance(before, dict) and isinstance(after, dict):
        return {k: after.get(k) for k in sorted(set(before) | set(after)) if before.get(k) != after.get(k)}
    return after


def _unsupported(scenario: Scenario, supported: set[str] | None, reports: Reports = None) -> Verdict | None:
    if supported is not None and scenario.variant not in supported:
        return Verdict(scenario, Outcome.UNSUPPORTED, not_run=f"the engine does not declare {scenario.variant}")
    unjudged = unjudgeable(scenario, reports)
    if unjudged:
        return Verdict(scenario, Outcome.UNSUPPORTED, not_run=f"it checks only fields the engine does not report: {unjudged}")
    return None


def unjudgeable(scenario: Scenario, reports: Reports) -> str:
    """The fields a scenario's every check rests on, where the engine reports none of them ("" otherwise):
    a refusal is always judged, and so is any expectation on a field it reports."""
    if reports is None or scenario.refuse_setup is not None or any(step.refuse for step in scenario.steps):
        return ""
    left: list[str] = []
    for step in scenario.steps:
        if step.expect:
            kept, out = within(step.expect, reports)
            if kept:
                return ""
            left += out
    return ", ".join(sorted(set(left)))


def run_all(
    adapter: EngineAdapter, chosen: Iterable[Scenario], supported: set[str] | None = None, reports: Reports = None
) -> Iterator[Verdict]:
    """Verdicts on many scenarios, in order; an adapter with ``run_many`` gets them all at once
    (the protocol adapter keeps several in flight)."""
    chosen = list(chosen)
    many = getattr(adapter, "run_many", None)
    if many is None:
        for scenario in chosen:
            yield run(adapter, scenario, supported, reports)
        return
    answers = many([request_for(s) for s in chosen if _unsupported(s, supported, reports) is None])
    broken: EngineError | None = None  # once run_many raises it is finished: the scenarios left are not run, and say why
    for scenario in chosen:
        unsupported = _unsupported(scenario, supported, reports)
        if unsupported is not None:
            yield unsupported
        elif broken is not None:
            message = f"not run: the adapter failed on an earlier scenario ({broken.message})"
            yield _failed(scenario, EngineError(broken.kind, message))
        else:
            try:
                answer = next(answers)
            except StopIteration:
                broken = EngineError(ErrorKind.ADAPTER, "it gave fewer answers than it was sent requests")
                yield _failed(scenario, EngineError(ErrorKind.ADAPTER, f"no answer: {broken.message}"))
            except (Exception, SystemExit) as err:  # a misbehaving adapter is reported, never a traceback
                broken = EngineError(ErrorKind.ADAPTER, describe_error(err))
                yield _failed(scenario, broken)
            else:
                yield judged(scenario, answer, reports)


def run(adapter: EngineAdapter, scenario: Scenario, supported: set[str] | None = None, reports: Reports = None) -> Verdict:
    """One scenario through one engine."""
    unsupported = _unsupported(scenario, supported, reports)
    if unsupported is not None:
        return unsupported
    try:
        answer = adapter.run(request_for(scenario))
    except (Exception, SystemExit) as err:  # a misbehaving engine is reported, never a traceback; its sys.exit too
        return _failed(scenario, EngineError(ErrorKind.ADAPTER, describe_error(err)))
    return judged(scenario, answer, reports)
