"""--validate-protocol checks what an engine observes against the snapshot and action schemas,
and a snapshot may leave out what no scenario reads (docs/protocol.md, schemas/snapshot.schema.json)."""

from __future__ import annotations

import shlex
import sys
import textwrap
from pathlib import Path

import pytest

from conformance.engines.protocol import SubprocessAdapter
from conformance.run import runner
from conformance.suite import scenarios
from conformance.vocabulary import ErrorKind, Outcome

pytest_plugins = ["pytester"]  # pytest's --validate-protocol, run in this process

ROOT = Path(__file__).resolve().parent.parent
ANNA_BORIS = "scenarios/albastini/trick/anna-boris.yaml"

# The reference engine over the protocol, its observations changed on the way out.
ENGINE = """
import json, sys
from conformance.engines.adapter import reference_adapter

MODE = sys.argv[1]
adapter = reference_adapter()


def changed(observation):
    snapshot = observation["snapshot"]
    if snapshot is None:
        return observation
    if MODE == "wrong-type":
        snapshot["stock_count"] = "many"
    elif MODE == "wrong-action":
        observation["legal"] = [{"type": "play", "seat": 0, "card": "1H"}]
    elif MODE == "lean":  # only what the scenarios of anna-boris.yaml read, down to last_trick's keys
        last = snapshot["last_trick"]
        observation["snapshot"] = {
            "piles": snapshot["piles"],
            "totals": snapshot["totals"],
            "to_act": snapshot["to_act"],
            "last_trick": last and {"winner": last["winner"], "points": last["points"]},
        }
    return observation


for line in sys.stdin:
    message = json.loads(line)
    if message["cmd"] == "start":
        print(json.dumps({"started": True, "protocol": 1, "implementation": adapter.hello()}), flush=True)
    elif message["cmd"] == "run":
        answer = adapter.run({k: v for k, v in message.items() if k != "cmd"})
        answer["observations"] = [changed(o) for o in answer["observations"]]
        print(json.dumps(answer), flush=True)
    else:
        break
"""


@pytest.fixture
def engine_script(tmp_path: Path) -> Path:
    script = tmp_path / "observing_engine.py"
    script.write_text(textwrap.dedent(ENGINE), encoding="utf-8")
    return script


def verdicts(script: Path, mode: str, *, validate: bool) -> list[runner.Verdict]:
    chosen = [s for s in scenarios.kit_scenarios() if s.file == ANNA_BORIS]
    engine = SubprocessAdapter([sys.executable, str(script), mode], timeout=10, validate=validate)
    try:
        return [runner.run(engine, s) for s in chosen]
    finally:
        engine.close()


# Each scenario of anna-boris.yaml has two plays and reads the observation after both: the third.
@pytest.mark.parametrize(
    ("mode", "problem"),
    [
        ("wrong-type", '$.observations[2].snapshot.stock_count: expected integer, found string "many"'),
        ("wrong-action", '$.observations[2].legal[0].card: expected a card'),
    ],
)
def test_a_snapshot_or_action_of_the_wrong_shape_is_named_by_its_path(engine_script: Path, mode: str, problem: str) -> None:
    for verdict in verdicts(engine_script, mode, validate=True):
        assert verdict.outcome is Outcome.ERROR and verdict.error is not None
        assert verdict.error.kind is ErrorKind.PROTOCOL
        assert f"the answer breaks the protocol schema: {problem}" in verdict.error.message


def test_unchecked_the_wrong_type_goes_unseen_where_no_scenario_reads_it(engine_script: Path) -> None:
    assert {v.outcome for v in verdicts(engine_script, "wrong-type", validate=False)} == {Outcome.PASS}


def test_a_snapshot_leaving_out_what_no_scenario_reads_passes(engine_script: Path) -> None:
    assert {v.outcome for v in verdicts(engine_script, "lean", validate=True)} == {Outcome.PASS}


def test_pytest_reports_the_path_under_validate_protocol(
    engine_script: Path, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    command = shlex.join([sys.executable, str(engine_script), "wrong-type"])
    monkeypatch.chdir(ROOT)  # the checkout's ini file, and the scenario path as a user types it
    args = ("-p", "no:cacheprovider", "-q", "--validate-protocol", "--engine-cmd", command, ANNA_BORIS)
    done = pytester.runpytest_inprocess(*args)
    out = str(done.stdout)
    assert done.ret == pytest.ExitCode.TESTS_FAILED, out
    assert "engine error: protocol: the answer breaks the protocol schema: $.observations[2].snapshot.stock_count" in out
    assert done.stdout.lines[-1].startswith("2 failed in "), out


def test_fuzz_names_the_path_of_a_message_that_breaks_the_schema(
    engine_script: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """fuzz takes --validate-protocol as verify does: an engine being written is checked as it is fuzzed."""
    from conformance.cli import main
    from conformance.run import runlog

    command = shlex.join([sys.executable, str(engine_script), "wrong-type"])
    args = ("fuzz", "--engine-cmd", command, "--variant", "albastini-2p", "--deals", "3", "--report-dir", str(tmp_path))
    assert main([*args, "--validate-protocol"]) == 1
    deals = runlog.read(tmp_path / "run.jsonl").scenarios
    assert [d["outcome"] for d in deals] == ["error"] * 3
    assert all("the answer breaks the protocol schema: $.observations[0].snapshot.stock_count" in d["error"] for d in deals)
    capsys.readouterr()
    assert main(list(args)) == 1  # unchecked, the wrong type is a difference of stock_count
    assert {d["outcome"] for d in runlog.read(tmp_path / "run.jsonl").scenarios} == {"fail"}
