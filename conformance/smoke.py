"""`trickspec smoke`: does an adapter speak the protocol? Checked before any conformance verdict."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from conformance import runner, scenarios
from conformance.protocol import EngineUnusable, SubprocessAdapter, split_command


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


def _first(
    chosen: list[scenarios.Scenario], supported: set[str], want: Callable[[scenarios.Scenario], bool]
) -> scenarios.Scenario | None:
    return next((s for s in chosen if s.variant in supported and want(s)), None)


def smoke(command: str, timeout: float = 10.0) -> list[Check]:
    """Handshake, one plain scenario, one rejection, an unknown request: each named and explained."""
    checks: list[Check] = []
    try:
        engine = SubprocessAdapter(split_command(command), timeout=timeout, validate=True)
    except EngineUnusable as err:
        return [Check("handshake", False, str(err))]
    try:
        hello = engine.hello()
        supported = set(hello.get("variants", []))
        checks.append(
            Check(
                "handshake",
                bool(supported),
                f"{hello.get('name')} {hello.get('version')} ({hello.get('language')}), "
                f"variants: {', '.join(sorted(supported)) or 'none declared'}",
            )
        )
        every = list(scenarios.kit_scenarios())
        plain = _first(every, supported, lambda s: not s.rejects())
        rejecting = _first(every, supported, lambda s: bool(s.rejects()))
        for name, scenario in (("a scenario", plain), ("a rejection", rejecting)):
            if scenario is None:
                checks.append(Check(name, False, "no scenario of a declared variant to try"))
                continue
            answer = engine.run(runner.request_for(scenario))
            observations = answer.get("observations")
            if "error" in answer:
                checks.append(Check(name, False, f"{scenario.id}: {answer['error']}"))
            elif not isinstance(observations, list) or len(observations) != len(scenario.actions()) + 1:
                count = len(observations) if isinstance(observations, list) else 0
                checks.append(
                    Check(
                        name,
                        False,
                        f"{scenario.id}: expected {len(scenario.actions()) + 1} "
                        f"observations (one after setup, one per action), found {count}",
                    )
                )
            else:
                outcome = runner.judge(scenario, answer)
                detail = f"{scenario.id}: {outcome.status}"
                if name == "a rejection":
                    codes = [o["rejected"]["code"] for o in observations if isinstance(o.get("rejected"), dict)]
                    detail += f"; rejection codes seen: {', '.join(codes) or 'none'}"
                    checks.append(Check(name, bool(codes), detail))
                else:
                    checks.append(Check(name, True, detail + " (a wrong verdict is for verify to judge)"))
        answer = engine.probe({"cmd": "frobnicate"})
        error = answer.get("error")
        ok = isinstance(error, dict) and error.get("kind") == "unknown_command"
        checks.append(Check("an unknown request", ok, f"answered {json.dumps(answer)[:120]}"))
    finally:
        engine.close()
    return checks
