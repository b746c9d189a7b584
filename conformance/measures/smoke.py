"""`trickspec smoke`: does an adapter speak the protocol? Checked before any conformance verdict."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from conformance.engines.adapter import take_late_copies
from conformance.engines.protocol import SECOND_ANSWER_WAIT, EngineUnusable, SubprocessAdapter, split_command
from conformance.run import runner
from conformance.run.reports import late_copy_warning
from conformance.suite import declared_variants, scenarios
from conformance.suite.reported import declared
from conformance.text import untrusted
from conformance.vocabulary import EngineError, ErrorKind, Outcome, engine_error


@dataclass
class Trial:
    """One thing smoke tries, whether the engine passed it, and what it answered."""

    name: str
    ok: bool
    detail: str
    where: str = ""  # the kit failed to judge the engine's answer: the traceback of what raised (run/kit_faults.py)


def _first(
    chosen: list[scenarios.Scenario], supported: set[str], want: Callable[[scenarios.Scenario], bool]
) -> scenarios.Scenario | None:
    return next((s for s in chosen if s.variant in supported and want(s)), None)


def smoke(command: str | list[str], timeout: float = 10.0) -> list[Trial]:
    """Handshake, one plain scenario, one refusal, an unknown request, no answer sent twice: each named and explained.
    ``command``: as ``--engine-cmd`` gives it, or split. A command that cannot be split is a ``BadCommand`` (a usage
    error, not a trial)."""
    trials: list[Trial] = []
    twice: list[str] = []  # what says a request was answered twice
    try:
        argv = split_command(command) if isinstance(command, str) else command
        engine = SubprocessAdapter(argv, timeout=timeout, validate=True)
    except EngineUnusable as err:
        return [Trial("handshake", False, str(err))]
    try:
        every = list(scenarios.kit_scenarios())
        hello = untrusted.identity(engine.hello(), {s.variant for s in every})  # printed: made safe first
        supported = set(hello["variants"])
        trials.append(
            Trial(
                "handshake",
                bool(supported),
                f"{hello.get('name')} {hello.get('version')} ({hello.get('language')}), "
                f"variants: {', '.join(sorted(supported)) or 'none declared'}",
            )
        )
        plain = _first(every, supported, lambda s: not s.refusals())  # played through: no refusal, of a setup or an action
        rejecting = _first(every, supported, lambda s: bool(s.action_refusals()))
        for name, scenario in (("a scenario", plain), ("a refusal", rejecting)):
            if scenario is None:
                why = declared_variants.nothing_to_send(hello, {s.variant for s in every})
                trials.append(Trial(name, False, "no scenario of a declared variant to try" + (f": {why}" if why else "")))
                continue
            answer = engine.run(runner.request_for(scenario))
            if isinstance(answer, EngineError) and answer.kind is ErrorKind.EXTRA_ANSWER:
                twice.append(answer.message)
            if isinstance(answer, EngineError) or "error" in answer:
                failure = answer if isinstance(answer, EngineError) else engine_error(answer["error"])
                # An engine whose API cannot express a scenario says so: a right answer (docs/protocol.md).
                said = failure.kind is ErrorKind.UNSUPPORTED
                trials.append(Trial(name, said, f"{scenario.id}: {failure}" + (" (a valid answer)" if said else "")))
                continue
            observations = answer.get("observations")
            if not isinstance(observations, list) or len(observations) != len(scenario.actions()) + 1:
                count = len(observations) if isinstance(observations, list) else 0
                trials.append(
                    Trial(
                        name,
                        False,
                        f"{scenario.id}: expected {len(scenario.actions()) + 1} "
                        f"observations (one after setup, one per action), found {count}",
                    )
                )
            else:
                verdict = runner.judged(scenario, answer, declared(hello.get("reports")))  # on what it keeps
                detail = f"{scenario.id}: {verdict.outcome}"
                if verdict.fault:  # no word on the engine: the kit's own fault, said as such
                    trials.append(Trial(name, False, f"{detail} ({verdict.fault})", verdict.where))
                elif name == "a refusal":
                    refused = [o.get("rejected") for o in observations if isinstance(o, dict)]
                    codes = [untrusted.text(r.get("code"), 80) for r in refused if isinstance(r, dict) and "code" in r]
                    detail += f"; refusal codes seen: {', '.join(codes) or 'none'}"
                    if verdict.outcome is Outcome.ERROR:  # a refusal the kit cannot read
                        detail += f" ({untrusted.text(verdict.reason, 300)})"
                    trials.append(Trial(name, bool(codes) and verdict.outcome is not Outcome.ERROR, detail))
                else:
                    trials.append(Trial(name, True, detail + " (a wrong verdict is for verify to judge)"))
        probed = engine.probe({"cmd": "frobnicate"})
        if isinstance(probed, EngineError):
            trials.append(Trial("an unknown request", False, str(probed)))
        else:
            error = probed.get("error")
            ok = isinstance(error, dict) and error.get("kind") == ErrorKind.UNKNOWN_COMMAND
            trials.append(Trial("an unknown request", ok, f"answered {json.dumps(probed)[:120]}"))
        # An answer sent twice shows three ways: a copy at once (the trial's extra_answer), a copy later (set aside by
        # the adapter), or a line after the last answer, when nothing more was asked.
        twice += [late_copy_warning(rid) for rid in take_late_copies(engine)]
        unasked = engine.unasked(SECOND_ANSWER_WAIT)
        if unasked is not None:
            twice.append(f"after the last answer, the engine sent a line nobody asked for: {unasked}")
        trials.append(Trial("one answer per request", not twice, "; ".join(twice) or "no request answered twice"))
    finally:
        engine.close()
    return trials
