"""Runs scenarios through an engine adapter and judges what it reports."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from conformance.adapter import EngineAdapter, describe_error
from conformance.checks import Mismatch, action_text, compare
from conformance.scenarios import Scenario
from specreader.jsontypes import Json

PASS, FAIL, ERROR, UNSUPPORTED = "pass", "fail", "error", "unsupported"


@dataclass
class Outcome:
    """The verdict on one scenario, with every mismatch or the engine's error."""

    scenario: Scenario
    status: str
    mismatches: list[Mismatch] = field(default_factory=list)
    error: str = ""


def request_for(scenario: Scenario) -> Json:
    """What the engine is sent: never the expectations; ``observe`` names the observations the
    kit reads in full, so an engine may leave the snapshot and legal actions out of the rest."""
    return {
        "id": scenario.id,
        "variant": scenario.variant,
        "setup": scenario.setup,
        "actions": scenario.actions(),
        "observe": observed(scenario),
    }


def observed(scenario: Scenario) -> list[int]:
    """Indices of the observations ``judge`` compares: before and after a refused action, and
    wherever a step expects something (0 is the position after setup)."""
    wanted: set[int] = set()
    position = 0
    for step in scenario.steps:
        for _ in step.actions:
            if step.reject:
                wanted.update((position, position + 1))
            position += 1
        if step.expect:
            wanted.add(position)
    return sorted(wanted)


def judge(scenario: Scenario, answer: Any) -> Outcome:
    """Compare an engine's observations with the scenario's steps; whatever the engine sent, never raise."""
    if not isinstance(answer, dict):
        return Outcome(scenario, ERROR, error=f"expected an answer object, found {type(answer).__name__}")
    observations = answer.get("observations")
    error = answer.get("error")
    if not isinstance(observations, list) or not observations:
        return Outcome(scenario, ERROR, error=_error_text(error) or "the engine returned no observations")
    wanted = len(scenario.actions()) + 1
    if len(observations) > wanted:
        return Outcome(
            scenario, ERROR, error=f"expected {wanted} observations (one after setup, one per action), found {len(observations)}"
        )
    shapeless = next((i for i, o in enumerate(observations) if not isinstance(o, dict)), None)
    if shapeless is not None:
        found = observations[shapeless]
        return Outcome(scenario, ERROR, error=f"expected observation {shapeless} to be an object, found {found!r}")
    mismatches: list[Mismatch] = []
    position = 0  # index of the observation after the last action judged
    for number, step in enumerate(scenario.steps, start=1):
        for action in step.actions:
            before = observations[position]
            position += 1
            if position >= len(observations):
                reason = _error_text(error) or f"no observation after action {action_text(action)}"
                return Outcome(scenario, ERROR, mismatches, reason)
            after = observations[position]
            rejected = after.get("rejected")
            code = rejected.get("code") if isinstance(rejected, dict) else None
            if step.reject:
                if code not in step.reject:
                    mismatches.append(
                        Mismatch(number, step.line, f"{action_text(action)} rejected with", list(step.reject), code or "accepted")
                    )
                elif not isinstance(before.get("snapshot"), dict) or not isinstance(after.get("snapshot"), dict):
                    return Outcome(scenario, ERROR, mismatches, "an observation the kit asked for lacks its snapshot")
                elif after.get("snapshot") != before.get("snapshot"):
                    mismatches.append(
                        Mismatch(
                            number,
                            step.line,
                            "state after a rejected action",
                            "unchanged",
                            _changed(before.get("snapshot"), after.get("snapshot")),
                        )
                    )
            elif code is not None:
                mismatches.append(Mismatch(number, step.line, f"{action_text(action)} accepted", "accepted", f"rejected: {code}"))
                return Outcome(scenario, FAIL, mismatches)
        if step.expect:
            current = observations[position]
            snapshot = current.get("snapshot")
            legal = current.get("legal")
            if not isinstance(snapshot, dict) or not isinstance(legal, list):
                reason = "an observation the kit asked for lacks its snapshot or legal actions"
                return Outcome(scenario, ERROR, mismatches, reason)
            mismatches += compare(step.expect, snapshot, legal, number, step.line)
    if error is not None:
        return Outcome(scenario, ERROR, mismatches, _error_text(error))
    return Outcome(scenario, FAIL if mismatches else PASS, mismatches)


def _changed(before: Any, after: Any) -> Any:
    if isinstance(before, dict) and isinstance(after, dict):
        return {k: after.get(k) for k in sorted(set(before) | set(after)) if before.get(k) != after.get(k)}
    return after


def _error_text(error: Any) -> str:
    if isinstance(error, dict):
        return f"{error.get('kind', 'error')}: {error.get('message', '')}"
    return str(error) if error else ""


def _unsupported(scenario: Scenario, supported: set[str] | None) -> Outcome | None:
    if supported is None or scenario.variant in supported:
        return None
    return Outcome(scenario, UNSUPPORTED, error=f"the engine does not declare {scenario.variant}")


def run_all(adapter: EngineAdapter, chosen: Iterable[Scenario], supported: set[str] | None = None) -> Iterator[Outcome]:
    """Outcomes of many scenarios, in order; an adapter with ``run_many`` gets them all at once
    (the protocol adapter keeps several in flight)."""
    chosen = list(chosen)
    many = getattr(adapter, "run_many", None)
    if many is None:
        for scenario in chosen:
            yield run(adapter, scenario, supported)
        return
    answers = many([request_for(s) for s in chosen if _unsupported(s, supported) is None])
    broken = ""  # once run_many raises it is finished: the scenarios left are not run, and say why
    for scenario in chosen:
        unsupported = _unsupported(scenario, supported)
        if unsupported is not None:
            yield unsupported
        elif broken:
            yield Outcome(scenario, ERROR, error=f"not run: the adapter failed on an earlier scenario ({broken})")
        else:
            try:
                answer = next(answers)
            except StopIteration:
                broken = "it gave fewer answers than it was sent requests"
                yield Outcome(scenario, ERROR, error=f"no answer: {broken}")
            except Exception as err:  # a misbehaving adapter is reported, never a traceback
                broken = describe_error(err)
                yield Outcome(scenario, ERROR, error=broken)
            else:
                yield judge(scenario, answer)


def run(adapter: EngineAdapter, scenario: Scenario, supported: set[str] | None = None) -> Outcome:
    """One scenario through one engine."""
    unsupported = _unsupported(scenario, supported)
    if unsupported is not None:
        return unsupported
    try:
        answer = adapter.run(request_for(scenario))
    except Exception as err:  # a misbehaving engine is reported, never a traceback
        return Outcome(scenario, ERROR, error=describe_error(err))
    return judge(scenario, answer)
