"""In-process Python engines run under the timeout too: a stuck call is a timeout for its scenario,
the run goes on (or gives up after a few in a row), and the stuck thread never holds up the kit's end."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from hostile_engines import ExitsOnSetup, HangsAlways

from conformance import runner, scenarios
from conformance.adapter import InProcessAdapter, open_engine
from conformance.vocabulary import ErrorKind, Outcome

HERE = Path(__file__).resolve().parent


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


def test_a_stuck_thread_does_not_hold_up_the_end_of_verify() -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    three = chosen()[1].id
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", "verify", "--engine", "hostile_engines:HangsOnThreePlayers",
         "--timeout", "0.3", "--scenario", three],
        capture_output=True, text=True, env=env, timeout=60,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert f"TIMEOUT {three}" in done.stdout and done.stdout.strip().endswith("0 passed, 1 failed")
    assert time.monotonic() - began < 15  # the process ends though its engine thread sleeps for an hour

