"""In-process Python engines run under the timeout too: a stuck call is a timeout for its scenario,
the run goes on (or gives up after a few in a row), and the stuck thread never holds up the kit's end."""

from __future__ import annotations

import time

from conftest import BackgroundRuns, first_three_player_scenario
from hostile_engines import ExitsOnSetup, HangsAlways

from conformance import runlog, runner, scenarios
from conformance.adapter import InProcessAdapter, open_engine
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
