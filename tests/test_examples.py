"""The example engines in examples/ pass the kit over the protocol.

The JavaScript engine plays albastini-2p only: every albastini-2p scenario passes and every
other one is reported unsupported. It needs ``node``; without it the tests are skipped,
except in CI (env var ``CI`` set), where a missing ``node`` is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.engines.protocol import SubprocessAdapter
from conformance.run import runner
from conformance.suite import scenarios
from conformance.vocabulary import Outcome

ROOT = Path(__file__).resolve().parent.parent
JS_ENGINE = ROOT / "examples" / "js-albastini-2p" / "engine.js"
PY_ENGINE = ROOT / "examples" / "python-subprocess" / "engine.py"
JS_VARIANT = "albastini-2p"


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is not on PATH: CI must run the JavaScript example engine")
        pytest.skip("node is not on PATH")
    return node


@pytest.fixture(scope="module")
def node() -> str:
    return _node()


def _outcomes(adapter: SubprocessAdapter, *, pipelined: bool = False) -> list[runner.Verdict]:
    """Every scenario's verdict: one request at a time (as the pytest plugin sends them), or several in flight
    (as verify sends them)."""
    supported = set(adapter.hello().get("variants", []))
    chosen = scenarios.kit_scenarios()
    try:
        if pipelined:
            return list(runner.run_all(adapter, chosen, supported))
        return [runner.run(adapter, scenario, supported) for scenario in chosen]
    finally:
        adapter.close()


def _failures(outcomes: list[runner.Verdict]) -> list[str]:
    lines = []
    for outcome in outcomes:
        if outcome.outcome in (Outcome.FAIL, Outcome.ERROR):
            details = "; ".join(
                f"step {m.step}: {m.what}: expected {m.expected!r}, observed {m.observed!r}" for m in outcome.mismatches
            )
            lines.append(f"{outcome.scenario.id}: {outcome.outcome} {outcome.reason} {details}".rstrip())
    return lines


@pytest.mark.parametrize("validate", [False, True], ids=["plain", "validate-protocol"])
def test_js_engine_passes_its_variant_and_declines_the_rest(node: str, validate: bool) -> None:
    adapter = SubprocessAdapter([node, str(JS_ENGINE)], validate=validate)
    assert adapter.hello()["variants"] == [JS_VARIANT]
    outcomes = _outcomes(adapter)
    assert not _failures(outcomes), "\n".join(_failures(outcomes))
    assert adapter.restarts == 0
    mine = [o for o in outcomes if o.scenario.variant == JS_VARIANT]
    others = [o for o in outcomes if o.scenario.variant != JS_VARIANT]
    assert mine, f"the kit has no {JS_VARIANT} scenario"
    assert {o.outcome for o in mine} == {Outcome.PASS}
    assert {o.outcome for o in others} <= {Outcome.UNSUPPORTED}


def test_js_engine_handshake(node: str) -> None:
    adapter = SubprocessAdapter([node, str(JS_ENGINE)], validate=True)
    try:
        hello = adapter.hello()
    finally:
        adapter.close()
    assert hello == {
        "name": "albastini-2p-js",
        "version": hello["version"],
        "language": "javascript",
        "homepage": "",
        "variants": [JS_VARIANT],
    }


def _converse(node: str, messages: list[str]) -> tuple[list[dict[str, object]], int]:
    """Send raw lines to a fresh JS engine; its answers and exit status."""
    done = subprocess.run(
        [node, str(JS_ENGINE)], input="".join(m + "\n" for m in messages), capture_output=True, text=True, timeout=30, check=False
    )
    return [json.loads(line) for line in done.stdout.splitlines()], done.returncode


def test_js_engine_answers_bad_input_and_stops_cleanly(node: str) -> None:
    run_bad_setup = {"cmd": "run", "id": "x", "variant": JS_VARIANT, "setup": {"dealer": 0, "deck": ["AC"]}, "actions": []}
    answers, status = _converse(
        node,
        [
            json.dumps({"cmd": "start", "protocol": 1}),
            "this is not json",
            json.dumps({"cmd": "dance"}),
            json.dumps(run_bad_setup),
            json.dumps({"cmd": "stop"}),
            json.dumps({"cmd": "start", "protocol": 1}),  # after stop: never answered
        ],
    )
    assert status == 0
    assert len(answers) == 4
    assert answers[0]["started"] is True
    assert "id" not in answers[1] and "error" in answers[1]
    assert answers[2] == {"error": {"kind": "unknown_command", "message": answers[2]["error"]["message"]}}  # type: ignore[index]
    assert answers[3]["id"] == "x"
    assert answers[3]["error"]["kind"] == "setup"  # type: ignore[index]


def test_js_engine_refuses_malformed_actions_without_changing_state(node: str) -> None:
    hands = {"0": ["KD", "3C", "5H", "QS", "4C"], "1": ["7C", "JD", "6S", "3D", "AS"]}
    held = {card for cards in hands.values() for card in cards}
    stock = ["7D"] + [rank + suit for suit in "CDHS" for rank in "A7KJQ6543" if rank + suit not in held | {"7D"}]
    actions: list[object] = [
        None,
        "x",
        {"type": "play"},
        {"type": "fly", "seat": 0},
        {"type": "bid", "seat": 0, "card": "TD"},
        {"type": "bid", "seat": 9, "card": "KD"},
        {"type": "pass", "seat": 0, "card": "KD"},
    ]
    setup = {"dealer": 1, "hands": hands, "stock": stock}
    run = {"cmd": "run", "id": "junk", "variant": JS_VARIANT, "setup": setup, "actions": actions}
    answers, status = _converse(node, [json.dumps(run), json.dumps({"cmd": "stop"})])
    assert status == 0
    (answer,) = answers
    observations = answer["observations"]
    assert isinstance(observations, list) and len(observations) == len(actions) + 1
    first = observations[0]["snapshot"]
    assert first["phase"] == "bidding" and first["stock_count"] == 26
    for observation in observations[1:]:
        assert observation["rejected"]["code"] == "invalid_action"
        assert observation["snapshot"] == first


def test_python_subprocess_example_passes_everything() -> None:
    adapter = SubprocessAdapter([sys.executable, str(PY_ENGINE)], validate=True)
    outcomes = _outcomes(adapter, pipelined=True)
    assert len(outcomes) == len(scenarios.kit_scenarios())
    assert not _failures(outcomes), "\n".join(_failures(outcomes))
    assert {o.outcome for o in outcomes} == {Outcome.PASS}  # it plays every variant, as its README says
