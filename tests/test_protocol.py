"""The engine protocol: the reference served over it matches in-process, and misbehaving
engines are reported per scenario while the run goes on."""

from __future__ import annotations

import json
import re
import sys
import textwrap
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.engines.adapter import InProcessAdapter, Unsupported, reference_adapter
from conformance.engines.protocol import EngineUnusable, SubprocessAdapter
from conformance.run import runner
from conformance.suite import scenarios
from conformance.suite.comparisons import COMPARISONS
from conformance.vocabulary import EngineError, ErrorKind, Outcome

from depth import cases
from json_strategies import json_values

SERVE = [sys.executable, "-m", "conformance.engines.serve"]


def test_served_reference_matches_in_process_scenario_by_scenario() -> None:
    served = SubprocessAdapter(SERVE, validate=True)
    local = reference_adapter()
    try:
        for scenario in scenarios.kit_scenarios():
            remote_outcome = runner.run(served, scenario)
            local_outcome = runner.run(local, scenario)
            assert (remote_outcome.outcome, remote_outcome.mismatches) == (local_outcome.outcome, local_outcome.mismatches)
            assert remote_outcome.outcome == Outcome.PASS, scenario.id
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
        elif MODE == "not-objects":
            print(json.dumps({{"id": msg["id"], "observations": [7] * (len(msg["actions"]) + 1)}}), flush=True)
        elif MODE == "too-many":
            seen = {{"rejected": None, "snapshot": {{}}, "legal": []}}
            print(json.dumps({{"id": msg["id"], "observations": [seen] * (len(msg["actions"]) + 2)}}), flush=True)
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
    engine = SubprocessAdapter(fake_engine(tmp_path, mode), timeout=0.5, startup_timeout=10)
    two = [s for s in scenarios.kit_scenarios() if s.variant == "albastini-2p"][:2]
    try:
        outcomes = [runner.run(engine, s, {"albastini-2p"}) for s in two]
    finally:
        engine.close()
    for outcome in outcomes:
        assert outcome.outcome == (Outcome.TIMEOUT if kind == "timeout" else Outcome.ERROR)
        assert outcome.error is not None and outcome.error.kind == kind and detail in outcome.error.message
        assert outcome.reason.startswith(f"{kind}: ")
    assert engine.restarts == 1  # ended after each failure, started again for the next scenario


def first_two_player_outcome(engine: SubprocessAdapter) -> runner.Verdict:
    """One albastini-2p scenario through ``engine``, which is closed afterwards."""
    scenario = next(s for s in scenarios.kit_scenarios() if s.variant == "albastini-2p")
    try:
        return runner.run(engine, scenario)
    finally:
        engine.close()


def test_validating_mode_names_the_broken_field(tmp_path: Path) -> None:
    outcome = first_two_player_outcome(SubprocessAdapter(fake_engine(tmp_path, "bad-shape"), timeout=2, validate=True))
    assert outcome.outcome == Outcome.ERROR
    assert "protocol: the answer breaks the protocol schema" in outcome.reason
    assert "$.observations[0].snapshot: expected mapping or null, found integer 7" in outcome.reason


def test_unsupported_variants_are_never_sent(tmp_path: Path) -> None:
    engine = SubprocessAdapter(fake_engine(tmp_path, "crash"), timeout=2)
    scenario = next(s for s in scenarios.kit_scenarios() if s.variant == "altbaumer-standard")
    try:
        outcome = runner.run(engine, scenario, set(engine.hello()["variants"]))
    finally:
        engine.close()
    assert outcome.outcome == Outcome.UNSUPPORTED
    assert engine.restarts == 0


def _shaking_hands(tmp_path: Path, protocol: str, variants: str) -> list[str]:
    """An engine that answers ``start`` with this protocol version and these variants (JSON text), then waits."""
    script = tmp_path / "engine.py"
    handshake = f'{{"started": true, "protocol": {protocol}, "implementation": {{"name": "odd", "variants": {variants}}}}}'
    lines = ["import sys", "sys.stdin.readline()", f"print({handshake!r}, flush=True)", "sys.stdin.readline()"]
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [sys.executable, str(script)]


@pytest.mark.parametrize("variants", ["7", '"albastini-2p"', "null"])
def test_a_handshake_without_a_list_of_variants_is_refused(tmp_path: Path, variants: str) -> None:
    with pytest.raises(EngineUnusable, match=f"expected implementation.variants to list variant ids, found {variants}"):
        SubprocessAdapter(_shaking_hands(tmp_path, "1", variants), timeout=2)


@pytest.mark.parametrize("reports", ['"hands"', "[1]", '[""]', "{}", '["trumps"]', '["legal.play"]', '["result.foo"]'])
def test_a_handshake_declaring_its_fields_in_another_shape_is_refused(tmp_path: Path, reports: str) -> None:
    """Taken for no declaration, it would have every field judged, which the engine says it does not keep."""
    with pytest.raises(EngineUnusable, match=r"expected implementation\.reports to (list|name) (the )?snapshot fields"):
        SubprocessAdapter(_shaking_hands(tmp_path, "1", f'["briscola-2p"], "reports": {reports}'), timeout=2)


@pytest.mark.parametrize(("key", "value"), [("reports", ["hands"]), ("variants", ["briscola-2p"])])
def test_a_declaration_beside_the_implementation_is_refused_not_passed_over(tmp_path: Path, key: str, value: list[str]) -> None:
    """reports given beside implementation, not in it, would be read as not given, and every field judged."""
    inside = {"name": "odd", "version": "1", "language": "c", "variants": ["briscola-2p"]}
    inside.pop(key, None)
    handshake = json.dumps({"started": True, "protocol": 1, "implementation": inside, key: value})
    script = tmp_path / "engine.py"
    lines = ["import sys", "sys.stdin.readline()", f"print({handshake!r}, flush=True)", "sys.stdin.readline()"]
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    said = f"expected {key} inside implementation, found it beside implementation in the handshake"
    with pytest.raises(EngineUnusable, match=said):
        SubprocessAdapter([sys.executable, str(script)], timeout=2)
    said = f"expected no key '{key}' here, found one ({key} belong inside implementation: beside it they would be read"
    with pytest.raises(EngineUnusable, match=re.escape(said)):  # the protocol's schema says so too
        SubprocessAdapter([sys.executable, str(script)], timeout=2, validate=True)
    # a copy beside it as well as one inside: which one counts? Refused the same way
    inside[key] = value
    handshake = json.dumps({"started": True, "protocol": 1, "implementation": inside, key: value})
    lines[2] = f"print({handshake!r}, flush=True)"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(EngineUnusable, match=f"expected {key} inside implementation, found it beside"):
        SubprocessAdapter([sys.executable, str(script)], timeout=2)


@pytest.mark.parametrize("protocol", ["true", "1.0", '"1"', "2", "null"])
def test_a_handshake_in_another_protocol_is_refused(tmp_path: Path, protocol: str) -> None:
    """Version 1 is the integer 1: true and 1.0 equal it in Python, not in the protocol."""
    with pytest.raises(EngineUnusable, match=re.escape(f"expected protocol 1, the engine speaks {protocol}")):
        SubprocessAdapter(_shaking_hands(tmp_path, protocol, "[]"), timeout=2)


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
    assert all(o.outcome == Outcome.ERROR for o in outcomes)


def test_pipelined_reference_matches_one_at_a_time() -> None:
    served = SubprocessAdapter(SERVE)
    chosen = list(scenarios.kit_scenarios())
    try:
        outcomes = list(runner.run_all(served, chosen, set(served.hello()["variants"])))
    finally:
        served.close()
    assert [o.scenario.id for o in outcomes] == [s.id for s in chosen]
    assert {o.outcome for o in outcomes} == {Outcome.PASS}


@pytest.mark.parametrize(
    ("mode", "detail"),
    [
        ("not-objects", "expected observation 0 to be an object, found 7"),
        ("too-many", "observations (one after setup, one per action), found"),
    ],
)
def test_answers_of_the_wrong_shape_are_errors_without_a_schema(tmp_path: Path, mode: str, detail: str) -> None:
    # Not validating: the judge must cope alone.
    outcome = first_two_player_outcome(SubprocessAdapter(fake_engine(tmp_path, mode), timeout=2))
    assert outcome.outcome == Outcome.ERROR
    assert detail in outcome.reason


@pytest.mark.parametrize(
    ("observation", "found"),
    [("x", '"x"'), ([None, {"a": True}], '[null, {"a": true}]'), ("\x1b[2J" + "y" * 500, '"\\u001b[2Jyyy')],
    ids=["a string", "a list", "a long string"],
)
def test_an_observation_that_is_no_object_is_shown_as_the_json_the_engine_sent(observation: object, found: str) -> None:
    scenario = next(iter(scenarios.kit_scenarios()))
    error = runner.judge(scenario, {"id": scenario.id, "observations": [observation]}).error
    assert error is not None and error.kind == ErrorKind.MALFORMED
    assert error.message.startswith(f"expected observation 0 to be an object, found {found}")
    assert len(error.message) < 300  # cut, as every value an engine sends


ONCE = """
import json, os, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "start":
        if os.path.exists({marker!r}):
            sys.stderr.write("cannot start twice\\n"); sys.exit(4)
        open({marker!r}, "w").close()
        print(json.dumps({{"started": True, "protocol": 1, "implementation":
            {{"name": "once", "version": "0", "language": "python", "variants": ["albastini-2p"]}}}}), flush=True)
    elif msg["cmd"] == "run":
        sys.exit(3)
"""


def test_an_engine_that_cannot_restart_ends_the_run_quickly(tmp_path: Path) -> None:
    script = tmp_path / "once.py"
    script.write_text(textwrap.dedent(ONCE.format(marker=str(tmp_path / "started"))), encoding="utf-8")
    engine = SubprocessAdapter([sys.executable, str(script)], timeout=5)
    chosen = [s for s in scenarios.kit_scenarios() if s.variant == "albastini-2p"][:5]
    try:
        outcomes = list(runner.run_all(engine, chosen, {"albastini-2p"}))
        probe = engine.probe({"cmd": "frobnicate"})
    finally:
        engine.close()
    assert engine.restarts == 3  # three failed restarts, then no more (nor one per scenario)
    assert outcomes[0].reason.startswith("crash: the engine exited with status 3")
    for outcome in outcomes[1:]:
        assert outcome.outcome == Outcome.ENGINE_UNAVAILABLE
        assert outcome.reason.startswith("unavailable: not run: the engine stalled 3 times in a row")
        assert "the engine could not be restarted: handshake failed: crash: the engine exited with status 4" in outcome.reason
        assert "cannot start twice" in outcome.reason
    assert isinstance(probe, EngineError) and probe.kind is ErrorKind.UNAVAILABLE  # asked after the engine is gone: no exception


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            return stat.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


def test_a_failed_handshake_leaves_no_engine_running(tmp_path: Path) -> None:
    script = tmp_path / "mute.py"
    pid_file = tmp_path / "pid"
    script.write_text(f"import os, sys\nopen({str(pid_file)!r}, 'w').write(str(os.getpid()))\nfor line in sys.stdin:\n    pass\n",
                      encoding="utf-8")
    with pytest.raises(EngineUnusable, match=r"no answer within 0\.5 s"):
        SubprocessAdapter([sys.executable, str(script)], timeout=0.5)
    assert not _alive(int(pid_file.read_text()))


class _SnapshotFails:
    def legal_actions(self) -> list[dict[str, Any]]:
        return []

    def apply(self, action: dict[str, Any]) -> None:
        return None

    def snapshot(self) -> dict[str, Any]:
        raise RuntimeError("no snapshot yet")


def test_in_process_engine_failing_its_first_snapshot_is_a_setup_error() -> None:
    adapter = InProcessAdapter(lambda variant, setup: _SnapshotFails(), {"name": "broken"}, ["albastini-2p"])
    answer = adapter.run({"id": "x", "variant": "albastini-2p", "setup": {}, "actions": []})
    assert answer == {"id": "x", "error": {"kind": "setup", "message": "RuntimeError: no snapshot yet"}}


class _DiesAfterOne:
    """An adapter whose pipelined run_many raises after its first answer."""

    def hello(self) -> dict[str, Any]:
        return {"variants": ["albastini-2p"]}

    def run(self, request: dict[str, Any]) -> dict[str, Any]:
        raise AssertionError("run_many is used")

    def run_many(self, requests: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        for request in requests:
            yield {"id": request["id"], "error": {"kind": "crash", "message": "first"}}
            raise OSError("pipe gone")

    def close(self) -> None:
        pass


class _AnswersOnce(_DiesAfterOne):
    """An adapter whose run_many stops after one answer, however many requests it was sent."""

    def run_many(self, requests: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        for request in requests:
            yield {"id": request["id"], "error": {"kind": "crash", "message": "first"}}
            return


@pytest.mark.parametrize(
    ("adapter", "why"),
    [
        (_DiesAfterOne(), "OSError: pipe gone"),
        (_AnswersOnce(), "it gave fewer answers than it was sent requests"),
    ],
)
def test_an_adapter_failing_mid_run_is_named_for_every_scenario_left(adapter: _DiesAfterOne, why: str) -> None:
    chosen = [s for s in scenarios.kit_scenarios() if s.variant == "albastini-2p"][:4]
    outcomes = list(runner.run_all(adapter, chosen, {"albastini-2p"}))
    assert outcomes[0].reason == "crash: first"
    assert outcomes[1].reason.endswith(why)
    assert [o.reason for o in outcomes[2:]] == [f"adapter: not run: the adapter failed on an earlier scenario ({why})"] * 2


_KEYS = st.sampled_from(["0", "1", "card", "seat", "type", "code"])
_JSON = json_values(
    st.none() | st.booleans() | st.integers(-2, 60) | st.sampled_from(["AH", "7C", "play", "0", "", "x"]),
    _KEYS,
    width=3,
    max_leaves=8,
)
_SNAPSHOT = st.dictionaries(
    st.sampled_from(["phase", "to_act", "trump", "trick", "last_trick", "hands", "piles", "dead", "totals", "result",
                     "match", "stock", "stock_count", "makers", "lone"]),
    _JSON,
    max_size=6,
)
_OBSERVATION = _JSON | st.fixed_dictionaries(
    {
        "rejected": st.none() | _JSON | st.fixed_dictionaries({"code": _JSON}),
        "snapshot": _SNAPSHOT | _JSON,
        "legal": st.lists(_JSON) | _JSON,
    }
)


def _one_per_expectation() -> list[scenarios.Scenario]:
    """A scenario for each kind of expectation the kit uses, so that every check meets nonsense."""
    chosen: dict[str, scenarios.Scenario] = {}
    for key in COMPARISONS:
        found = next((s for s in scenarios.kit_scenarios() if any(key in (step.expect or {}) for step in s.steps)), None)
        if found is not None:
            chosen[found.id] = found
    return list(chosen.values())


_FUZZED = _one_per_expectation()


@settings(max_examples=cases(quick=60, deep=2000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_judge_never_raises_whatever_an_engine_answers(data: st.DataObject) -> None:
    scenario = data.draw(st.sampled_from(_FUZZED))
    size = len(scenario.actions()) + 1
    observations = st.lists(_OBSERVATION, min_size=size - 1, max_size=size + 1)
    answer = data.draw(_JSON | st.fixed_dictionaries({"id": st.just(scenario.id), "observations": observations | _JSON},
                                                      optional={"error": _JSON}))
    assert runner.judge(scenario, answer).outcome in (Outcome.PASS, Outcome.FAIL, Outcome.ERROR)


def test_observe_names_what_the_judge_reads() -> None:
    """Refusals need the state before and after; expectations need the state they check."""
    every = scenarios.kit_scenarios()
    refusal = next(s for s in every if s.action_refusals())
    wanted = runner.observed(refusal)
    position = 0
    for step in refusal.steps:
        for _ in step.actions:
            if step.refuse:
                assert {position, position + 1} <= set(wanted)
            position += 1
        if step.expect:
            assert position in wanted
    full = reference_adapter().run({**runner.request_for(refusal), "observe": list(range(position + 1))})
    lean = reference_adapter().run(runner.request_for(refusal))
    assert runner.judge(refusal, full).outcome == runner.judge(refusal, lean).outcome == Outcome.PASS
    skipped = [i for i, o in enumerate(lean["observations"]) if o["snapshot"] is None]
    assert skipped == [i for i in range(position + 1) if i not in wanted]


def test_a_missing_snapshot_the_kit_asked_for_is_an_error() -> None:
    refusal = next(s for s in scenarios.kit_scenarios() if s.action_refusals())
    answer = reference_adapter().run({**runner.request_for(refusal), "observe": []})
    outcome = runner.judge(refusal, answer)
    assert outcome.outcome == Outcome.ERROR and "lacks its snapshot" in outcome.reason


@pytest.mark.parametrize("rejected", [{}, "no", True, {"message": "x"}, {"code": ""}, {"code": 5}, [1]])
def test_a_refusal_without_a_code_is_malformed_not_an_action_accepted(rejected: object) -> None:
    refusal = next(s for s in scenarios.kit_scenarios() if s.action_refusals())
    answer = reference_adapter().run(runner.request_for(refusal))
    assert isinstance(answer, dict)
    refused = next(i for i, o in enumerate(answer["observations"]) if o["rejected"])
    answer["observations"][refused]["rejected"] = rejected
    verdict = runner.judge(refusal, answer)
    assert verdict.outcome == Outcome.ERROR, verdict
    assert f"malformed: observation {refused}: expected rejected to be null or an object with a refusal code" in verdict.reason


def test_a_refused_action_that_changed_the_state_fails_with_what_changed() -> None:
    """A refusal is judged by its code and by the state it left: right code, but the turn moved on, is a failure."""
    scenario = next(s for s in scenarios.kit_scenarios() if s.id == "albastini/deal/six-threes-dealer-1")
    answer = reference_adapter().run(runner.request_for(scenario))
    assert isinstance(answer, dict) and runner.judge(scenario, answer).outcome == Outcome.PASS
    refused = next(o for o in answer["observations"] if o["rejected"])
    snapshot = refused["snapshot"]
    assert refused["rejected"] is not None and refused["rejected"]["code"] == "suit_already_bid" and snapshot is not None
    snapshot["to_act"] += 1
    verdict = runner.judge(scenario, answer)
    assert verdict.outcome == Outcome.FAIL, verdict
    assert [(m.step, m.what, m.expected, m.observed) for m in verdict.mismatches] == [
        (3, "state after a refused action", "unchanged", {"to_act": snapshot["to_act"]})
    ]


@pytest.mark.parametrize(
    ("observations", "said"),
    [
        ({"a": 1}, "expected observations to be a list, found mapping"),
        ([], "the engine returned no observations"),
    ],
)
def test_observations_of_another_shape_are_said_as_they_are(observations: object, said: str) -> None:
    scenario = next(s for s in scenarios.kit_scenarios() if s.steps)
    verdict = runner.judge(scenario, {"id": scenario.id, "observations": observations})
    assert verdict.outcome == Outcome.ERROR and verdict.reason == f"malformed: {said}", verdict


def test_a_snapshot_of_another_shape_is_said_as_it_is() -> None:
    scenario = next(s for s in scenarios.kit_scenarios() if s.steps and s.steps[0].expect and not s.refusals())
    answer = reference_adapter().run(runner.request_for(scenario))
    assert isinstance(answer, dict)
    at = next(i for i, o in enumerate(answer["observations"]) if o["snapshot"] is not None)
    answer["observations"][at]["snapshot"] = ["not", "a", "mapping"]
    verdict = runner.judge(scenario, answer)
    assert verdict.outcome == Outcome.ERROR
    assert f"expected observation {at}'s snapshot to be a mapping and legal an array, found snapshot array" in verdict.reason


class _PartlyExpressible:
    """The reference behind an API that cannot start a deal mid-way nor take a refused action: it raises
    Unsupported there, as an adapter over an engine that lacks them does."""

    def __init__(self, variant_id: str, setup: dict[str, Any]) -> None:
        from reference import Engine

        if "start" in setup:
            raise Unsupported("no mid-deal start in this API")
        self.engine = Engine.new(variant_id, setup)

    def apply(self, action: dict[str, Any]) -> Any:
        if action not in self.engine.legal_actions():
            raise Unsupported(f"no way to send {action['type']} {action.get('card')} here")
        return self.engine.apply(action)

    def snapshot(self) -> dict[str, Any]:
        return self.engine.snapshot()

    def legal_actions(self) -> list[dict[str, Any]]:
        return self.engine.legal_actions()


def test_an_in_process_engine_that_raises_unsupported_is_unsupported_on_what_it_observed_before() -> None:
    adapter = InProcessAdapter(_PartlyExpressible, {"name": "partly"}, ["albastini-2p"])
    try:
        chosen = [s for s in scenarios.kit_scenarios() if s.variant == "albastini-2p"]
        verdicts = list(runner.run_all(adapter, chosen, {"albastini-2p"}))
        by_id = {v.scenario.id: v for v in verdicts}
        mid_deal = [s for s in chosen if "start" in s.setup]
        refusing = [s for s in chosen if "start" not in s.setup and any(step.refuse for step in s.steps)]
        assert mid_deal and refusing
        for s in mid_deal:
            verdict = by_id[s.id]
            assert (verdict.outcome, verdict.reason) == (Outcome.UNSUPPORTED, "unsupported: no mid-deal start in this API")
        for s in refusing:  # the observations before the refused action were right, so it is unsupported, not failed
            assert by_id[s.id].outcome is Outcome.UNSUPPORTED and by_id[s.id].reason.startswith("unsupported: no way to send")
        assert {v.outcome for v in verdicts} == {Outcome.PASS, Outcome.UNSUPPORTED}
    finally:
        adapter.close()
