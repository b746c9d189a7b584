"""The engine protocol: the reference served over it matches in-process, and misbehaving
engines are reported per scenario while the run goes on."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from conformance import runner, scenarios
from conformance.adapter import reference_adapter
from conformance.protocol import EngineUnusable, SubprocessAdapter

SERVE = [sys.executable, "-m", "reference.serve"]


def test_served_reference_matches_in_process_scenario_by_scenario() -> None:
    served = SubprocessAdapter(SERVE, validate=True)
    local = reference_adapter()
    try:
        for scenario in scenarios.kit_scenarios():
            remote_outcome = runner.run(served, scenario)
            local_outcome = runner.run(local, scenario)
            assert (remote_outcome.status, remote_outcome.mismatches) == (local_outcome.status, local_outcome.mismatches)
            assert remote_outcome.status == runner.PASS, scenario.id
    finally:
        served.close()
    assert served.restarts == 0


def test_handshake_names_the_implementation() -> None:
    served = SubprocessAdapter(SERVE)
    try:
        hello = served.hello()
    finally:
        served.close()
    assert hello["name"] == "trickspec-reference"
    assert "albastini-2p" in hello["variants"]


FAKE = """
import json, sys, time
MODE = {mode!r}
for n, line in enumerate(sys.stdin):
    msg = json.loads(line)
    if msg["cmd"] == "start":
        print(json.dumps({{"started": True, "protocol": 1, "implementation":
            {{"name": "fake", "version": "0", "language": "python", "variants": ["albastini-2p"]}}}}), flush=True)
    elif msg["cmd"] == "run":
        if MODE == "crash":
            sys.stderr.write("boom: engine fell over\\n"); sys.stderr.flush(); sys.exit(3)
        if MODE == "garbage":
            print("this is not json", flush=True)
        elif MODE == "wrong-id":
            print(json.dumps({{"id": "someone-else", "observations": []}}), flush=True)
        elif MODE == "slow":
            time.sleep(5)
        elif MODE == "bad-shape":
            print(json.dumps({{"id": msg["id"], "observations": [{{"snapshot": 7}}]}}), flush=True)
    elif msg["cmd"] == "stop":
        break
"""


def fake_engine(tmp_path: Path, mode: str) -> list[str]:
    script = tmp_path / f"fake_{mode.replace('-', '_')}.py"
    script.write_text(textwrap.dedent(FAKE.format(mode=mode)), encoding="utf-8")
    return [sys.executable, str(script)]


@pytest.mark.parametrize(
    ("mode", "kind", "detail"),
    [
        ("crash", "crash", "boom: engine fell over"),
        ("garbage", "malformed", "not json"),
        ("wrong-id", "wrong_id", "someone-else"),
        ("slow", "timeout", "no answer within 0.5 s"),
    ],
)
def test_misbehaving_engine_is_an_error_and_the_run_goes_on(tmp_path: Path, mode: str, kind: str, detail: str) -> None:
    engine = SubprocessAdapter(fake_engine(tmp_path, mode), timeout=0.5)
    two = [s for s in scenarios.kit_scenarios() if s.variant == "albastini-2p"][:2]
    try:
        outcomes = [runner.run(engine, s, {"albastini-2p"}) for s in two]
    finally:
        engine.close()
    for outcome in outcomes:
        assert outcome.status == runner.ERROR
        assert outcome.error.startswith(f"{kind}: ") and detail in outcome.error
    assert engine.restarts == 2  # restarted after each failure, and still answering


def test_validating_mode_names_the_broken_field(tmp_path: Path) -> None:
    engine = SubprocessAdapter(fake_engine(tmp_path, "bad-shape"), timeout=2, validate=True)
    scenario = next(s for s in scenarios.kit_scenarios() if s.variant == "albastini-2p")
    try:
        outcome = runner.run(engine, scenario)
    finally:
        engine.close()
    assert outcome.status == runner.ERROR
    assert "protocol: the answer breaks the protocol schema" in outcome.error
    assert "observations/0" in outcome.error


def test_unsupported_variants_are_never_sent(tmp_path: Path) -> None:
    engine = SubprocessAdapter(fake_engine(tmp_path, "crash"), timeout=2)
    scenario = next(s for s in scenarios.kit_scenarios() if s.variant == "altbaumer-standard")
    try:
        outcome = runner.run(engine, scenario, set(engine.hello()["variants"]))
    finally:
        engine.close()
    assert outcome.status == runner.UNSUPPORTED
    assert engine.restarts == 0


def test_an_engine_that_cannot_start_is_unusable(tmp_path: Path) -> None:
    with pytest.raises(EngineUnusable, match="cannot start"):
        SubprocessAdapter([str(tmp_path / "no-such-program")])
    silent = tmp_path / "silent.py"
    silent.write_text("import sys\nsys.stdin.readline()\nprint('hello?')\n", encoding="utf-8")
    with pytest.raises(EngineUnusable, match="handshake failed"):
        SubprocessAdapter([sys.executable, str(silent)], timeout=2)


@pytest.mark.parametrize("mode", ["crash", "garbage", "wrong-id"])
def test_pipelined_runs_keep_order_through_failures(tmp_path: Path, mode: str) -> None:
    engine = SubprocessAdapter(fake_engine(tmp_path, mode), timeout=2)
    chosen = [s for s in scenarios.kit_scenarios() if s.variant == "albastini-2p"][:4]
    try:
        outcomes = list(runner.run_all(engine, chosen, {"albastini-2p"}))
    finally:
        engine.close()
    assert [o.scenario.id for o in outcomes] == [s.id for s in chosen]
    assert all(o.status == runner.ERROR for o in outcomes)


def test_pipelined_reference_matches_one_at_a_time() -> None:
    served = SubprocessAdapter(SERVE)
    chosen = list(scenarios.kit_scenarios())
    try:
        outcomes = list(runner.run_all(served, chosen, set(served.hello()["variants"])))
    finally:
        served.close()
    assert [o.scenario.id for o in outcomes] == [s.id for s in chosen]
    assert {o.status for o in outcomes} == {runner.PASS}
