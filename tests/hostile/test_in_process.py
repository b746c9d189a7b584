"""In-process Python engines run under the timeout too: a stuck call is a timeout for its scenario,
the run goes on (or gives up after a few in a row), and the stuck thread never holds up the kit's end."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import BackgroundRuns, first_three_player_scenario
from hostile_engines import NOT_JSON, ExitsOnSetup, HangsAlways, RaisesUnreadably, ReportsOddly

from conformance import runlog, runner, scenarios
from conformance.adapter import InProcessAdapter, open_engine
from conformance.verify import verify
from conformance.vocabulary import ErrorKind, Outcome


def chosen() -> list[scenarios.Scenario]:
    """Two two-player scenarios around one three-player one."""
    every = scenarios.kit_scenarios()
    two = [s for s in every if s.variant == "albastini-2p"][:2]
    return [two[0], next(s for s in every if s.variant == "albastini-3p"), two[1]]


def test_a_stuck_engine_call_is_a_timeout_for_its_scenario_alone() -> None:
    adapter = open_engine("hostile_engines:HangsOnThreePlayers", timeout=0.3)
    began = time.monotonic()
    verdicts = list(runner.run_all(adapter, chosen()))
    adapter.close()
    assert [v.outcome for v in verdicts] == [Outcome.PASS, Outcome.TIMEOUT, Outcome.PASS]
    error = verdicts[1].error
    assert error is not None and error.kind is ErrorKind.TIMEOUT
    assert error.message == "no answer within 0.3 s (the engine's thread is left running: Python cannot stop it)"
    assert time.monotonic() - began < 3


def test_an_in_process_engine_that_hangs_on_everything_is_given_up_on() -> None:
    adapter = InProcessAdapter(HangsAlways.new, {"name": "hangs"}, ["albastini-2p"], timeout=0.2, give_up_after=2)
    began = time.monotonic()
    verdicts = list(runner.run_all(adapter, [s for s in scenarios.kit_scenarios() if s.variant == "albastini-2p"][:6]))
    assert [v.outcome for v in verdicts] == [Outcome.TIMEOUT] * 2 + [Outcome.ENGINE_UNAVAILABLE] * 4
    assert "not run: the engine stalled 2 times in a row" in verdicts[-1].reason
    assert time.monotonic() - began < 2


def test_sys_exit_in_an_engine_is_a_crash_not_a_hang() -> None:
    adapter = InProcessAdapter(ExitsOnSetup.new, {"name": "exits"}, ["albastini-2p"], timeout=5.0)
    began = time.monotonic()
    verdict = runner.run(adapter, chosen()[0])
    assert verdict.outcome is Outcome.ERROR and verdict.reason == "crash: SystemExit: 5"
    assert time.monotonic() - began < 1


def test_a_stuck_thread_does_not_hold_up_the_end_of_verify(background: BackgroundRuns) -> None:
    run = background["stuck thread"]  # its engine never returns from its one scenario
    out, err = run.process.communicate(timeout=30)  # it ends, though its engine's thread sleeps for an hour
    assert run.process.returncode == 1, out + err
    assert "Traceback" not in out + err
    assert f"TIMEOUT {first_three_player_scenario()}" in out and out.strip().endswith("0 passed, 1 failed")
    footer = runlog.read(run.folder / "reports" / "run.jsonl").footer
    assert footer is not None and footer["seconds"] < 5


@pytest.mark.parametrize("what", list(NOT_JSON))
def test_a_value_no_json_line_can_carry_is_a_crash_for_its_scenario(
    what: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Read as a served engine's line would be: the scenario is an error, the run log is written, and
    the report reads it back; never a traceback from the kit's own comparisons or writers."""
    monkeypatch.setattr(ReportsOddly, "value", staticmethod(NOT_JSON[what]))
    adapter = InProcessAdapter(ReportsOddly.new, {"name": "odd"}, ["albastini-2p"])
    scenario = chosen()[0]
    verdict = runner.run(adapter, scenario)
    assert verdict.outcome is Outcome.ERROR, verdict
    assert verdict.error is not None and verdict.error.kind is ErrorKind.CRASH
    raising = what == "a mapping whose items() raises"
    said = "RuntimeError: an engine's items()" if raising else "the snapshot the engine reported: "
    assert said in verdict.error.message, verdict.error.message
    path = tmp_path / "run.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        verify(adapter, [scenario], stream=stream)
    (line,) = runlog.read(path).scenarios
    assert line["outcome"] == "error" and line["error"] == f"crash: {verdict.error.message}"


def test_an_exception_whose_message_raises_is_a_crash_at_once() -> None:
    adapter = InProcessAdapter(RaisesUnreadably.new, {"name": "unreadable"}, ["albastini-2p"], timeout=5.0)
    began = time.monotonic()
    verdict = runner.run(adapter, chosen()[0])
    assert verdict.outcome is Outcome.ERROR and verdict.error is not None
    assert verdict.error.kind is ErrorKind.CRASH
    assert "_Unreadable: (its message could not be read: _Unreadable)" in verdict.error.message
    assert time.monotonic() - began < 1


class _ExitsInRun:
    """A Python adapter (``--engine module:factory``) whose run calls sys.exit."""

    def hello(self) -> dict[str, object]:
        return {"name": "exits", "variants": ["albastini-2p"]}

    def run(self, request: object) -> object:
        raise SystemExit(9)

    def close(self) -> None:
        pass


def test_sys_exit_in_a_python_adapter_is_reported_against_each_scenario() -> None:
    verdicts = list(runner.run_all(_ExitsInRun(), chosen()[:1] + chosen()[2:]))  # type: ignore[arg-type]
    assert [(v.outcome, v.error.kind if v.error else None) for v in verdicts] == [(Outcome.ERROR, ErrorKind.ADAPTER)] * 2
    assert verdicts[0].reason == "adapter: SystemExit: 9"
