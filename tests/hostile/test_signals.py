"""Ctrl-C and SIGTERM during `trickspec verify`: the engine's process group is ended, the run log is
closed with a footer naming the signal, the reports are written from what was judged, and the kit
exits 130 or 143 without a traceback."""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from conftest import TRICKSPEC, BackgroundRuns
from hostile_engines import assert_nothing_left

from conformance.engines import interrupt
from conformance.run import runlog
from conformance.suite import schemas

SIGNALS = {"SIGINT": signal.SIGINT, "SIGTERM": signal.SIGTERM}


@pytest.fixture(scope="module")
def interrupted(background: BackgroundRuns) -> dict[str, tuple[Path, int, str]]:
    """Each background run named after a signal, sent that signal once it has judged the two
    scenarios its engine answers: its folder, exit status and output."""
    background.start(*SIGNALS)  # together: each waits for its engine
    results = {}
    for name, signum in SIGNALS.items():
        run = background[name]
        log = run.folder / "reports" / "run.jsonl"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (not log.exists() or log.read_text(encoding="utf-8").count("\n") < 3):
            time.sleep(0.05)
        run.process.send_signal(signum)
        out, err = run.process.communicate(timeout=30)
        results[name] = (run.folder, run.process.returncode, out + err)
    return results


@pytest.mark.parametrize(("name", "status"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_closes_the_log_writes_the_reports_and_ends_the_engine(
    interrupted: dict[str, tuple[Path, int, str]], name: str, status: int
) -> None:
    folder, code, output = interrupted[name]
    assert code == status, output
    assert "Traceback" not in output and "KeyboardInterrupt" not in output
    assert f"the run was interrupted by {name}" in output
    reports = folder / "reports"
    log = runlog.read(reports / "run.jsonl")
    assert log.footer is not None and log.interrupted == name and not log.complete
    judged = len(log.scenarios)
    assert judged == 2 and [line["error"] for line in log.scenarios] == ["setup: benign"] * 2
    assert log.footer["counts"] == dict(Counter(line["outcome"] for line in log.scenarios))
    summary = json.loads((reports / "summary.json").read_text(encoding="utf-8"))
    assert not list(schemas.validator("summary").iter_errors(summary))
    assert summary["complete"] is False
    total = log.header["scenarios"]
    assert summary["stopped_early"] == f"the run was interrupted by {name}: {judged} of {total} scenarios judged"
    assert sum(summary["counts"].values()) == judged
    badge = json.loads((reports / "badge.json").read_text(encoding="utf-8"))
    assert not list(schemas.validator("badge").iter_errors(badge))
    suites = ET.parse(reports / "junit.xml").getroot()
    assert sum(int(s.get("tests", "0")) for s in suites) == judged
    assert f"The counts are partial: the run was interrupted by {name}" in (reports / "report.md").read_text(encoding="utf-8")
    assert sorted(p.name for p in reports.iterdir()) == ["badge.json", "junit.xml", "report.md", "run.jsonl", "summary.json"]
    assert_nothing_left(folder)


def test_a_signal_inside_a_deferred_block_is_raised_when_it_ends() -> None:
    before = signal.getsignal(signal.SIGINT)
    finished = False
    with pytest.raises(interrupt.Interrupted) as stopped, interrupt.trapped(), interrupt.deferred():
        signal.raise_signal(signal.SIGTERM)
        signal.raise_signal(signal.SIGINT)  # a second signal while stopping is ignored
        finished = True
    assert finished and stopped.value.signal is signal.SIGTERM and stopped.value.exit_status == 143
    assert signal.getsignal(signal.SIGINT) is before  # the handler from before is back


def test_a_signal_ignored_before_stays_ignored() -> None:
    before = signal.signal(signal.SIGTERM, signal.SIG_IGN)  # as a shell leaves SIGINT for a background job
    try:
        with interrupt.trapped():
            signal.raise_signal(signal.SIGTERM)
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, before)


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("how", ["Ctrl-C", "SIGTERM"])
def test_a_signal_stops_a_fuzz_campaign_at_once_and_quietly(tmp_path: Path, how: str, jobs: int) -> None:
    """The engines (and with several jobs, the workers) are ended, not waited for: each is in the middle of
    a deal it never answers. The campaign's log is closed naming the signal, and no worker prints a traceback."""
    import os
    import shlex
    import subprocess

    from hostile_engines import engine, started

    reports = tmp_path / "reports"
    # As conftest's TRICKSPEC: with SIGINT as Python sets it, even if the suite runs as a background job.
    argv = [*TRICKSPEC, "fuzz", "--engine-cmd", shlex.join(engine(tmp_path, "hang-all")),
            "--variant", "albastini-2p", "--deals", "50", "--jobs", str(jobs), "--timeout", "600", "--report-dir", str(reports)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(started(tmp_path)["engine"]) < jobs:  # every job's engine is up
            time.sleep(0.05)
        time.sleep(0.5)  # and each has a deal it will never answer
        if how == "Ctrl-C":
            os.killpg(process.pid, signal.SIGINT)  # what a terminal sends: to the whole foreground group
        else:
            process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    finally:  # a run the signal did not end is no run to leave behind
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == (130 if how == "Ctrl-C" else 143), (out, err)
    assert "Traceback" not in out + err, err
    name = "SIGINT" if how == "Ctrl-C" else "SIGTERM"
    assert "interrupted after 0 deals" in out, out
    assert runlog.read(reports / "run.jsonl").interrupted == name
    assert_nothing_left(tmp_path)


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_sigterm_to_pytest_ends_the_engine_it_started(tmp_path: Path, name: str) -> None:
    """pytest has no SIGTERM handler of its own, nor a SIGHUP one (a terminal closing sends it), so the signal ended it
    at once and left the engine's process group running; the plugin ends the engines, then pytest ends as the signal
    ends it."""
    import os
    import shlex
    import subprocess
    import sys

    from hostile_engines import engine, started

    command = shlex.join(engine(tmp_path, "hang-all"))
    argv = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--engine-cmd", command, "--engine-timeout", "600",
            "scenarios/albastini/cards"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])}
    root = Path(__file__).resolve().parents[2]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=root)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not started(tmp_path)["engine"]:
        time.sleep(0.05)
    time.sleep(0.5)  # most likely past the handshake (before it, the engine is to be ended all the same)
    process.send_signal(signal.Signals[name])
    out, err = process.communicate(timeout=30)
    assert process.returncode == -signal.Signals[name], (out, err)
    assert_nothing_left(tmp_path)


@pytest.mark.parametrize("command", ["verify", "fuzz"])
def test_a_hangup_ends_the_engine_then_the_kit(tmp_path: Path, command: str) -> None:
    """A terminal closing sends SIGHUP to the kit, not to its engines, each in a session of its own: the kit ended as
    the signal ends a process, and left a hung engine running, with what it started. It ends them first now."""
    import shlex
    import subprocess

    from hostile_engines import end_started, engine, started

    argv = [*TRICKSPEC, command, "--engine-cmd", shlex.join(engine(tmp_path, "hang-all")), "--variant", "albastini-2p",
            "--timeout", "600", "--report-dir", str(tmp_path / "reports")]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not started(tmp_path)["child"]:
            time.sleep(0.02)
        time.sleep(0.5)  # most likely at work on a request it never answers (before, it is to be ended all the same)
        process.send_signal(signal.SIGHUP)
        out, err = process.communicate(timeout=30)
        assert process.returncode == -signal.SIGHUP, (out, err)
        assert_nothing_left(tmp_path)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
        end_started(tmp_path)


@pytest.mark.parametrize(("name", "status"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_check_trace_with_workers_stops_on_a_signal_saying_nothing_of_them(tmp_path: Path, name: str, status: int) -> None:
    """Whenever the signal comes (as the workers start, as they take a batch, mid-run), the workers are ended, none
    says anything, no process is left, and the partial report counts games, not scenarios of a total the run never
    knew. Repeated: an ending that waits on a worker shows only now and then."""
    import random
    import subprocess

    from conformance.suite.scenarios import deck_of
    from reference import Engine
    from specreader.spec import variant

    deck = deck_of(variant("briscola-2p"))
    random.Random(1).shuffle(deck)
    engine, actions = Engine.new("briscola-2p", {"dealer": 0, "deck": deck}), []
    while legal := engine.legal_actions():
        actions.append(legal[0])
        engine.apply(legal[0])
    # Games reporting nothing but that each action was accepted: small lines, still a replay each to judge.
    game = json.dumps({"variant": "briscola-2p", "setup": {"dealer": 0, "deck": deck}, "actions": actions})
    games = 20_000
    (tmp_path / "games.jsonl").write_text((game + "\n") * games, encoding="utf-8")
    for run, lines in enumerate((0, 1, 2, 50, 50, 300)):  # run-log lines before the signal (0: not even the header)
        reports = tmp_path / f"reports-{run}"
        command = [*TRICKSPEC, "check-trace", "games.jsonl", "--jobs", "2", "--report-dir", reports.name]
        process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            log = reports / "run.jsonl"
            deadline = time.monotonic() + 60
            while lines and time.monotonic() < deadline and (
                not log.exists() or log.read_text(encoding="utf-8").count("\n") < lines
            ):
                time.sleep(0.01)
            process.send_signal(SIGNALS[name])
            out, err = process.communicate(timeout=60)
        finally:  # a run that hangs as it ends is this test's failure, not a process left behind
            process.kill()
        if not lines and process.returncode != status:  # stopped before the kit took signals: Python's own end
            continue
        assert process.returncode == status, (lines, out + err)
        assert "Traceback" not in err and "Interrupted" not in err, (lines, err)
        if lines:
            summary = json.loads((reports / "summary.json").read_text(encoding="utf-8"))
            judged = sum(summary["counts"].values())
            assert judged < games and (judged > 0 or lines <= 2), lines
            assert summary["stopped_early"] == f"the run was interrupted by {name}: {judged:,} games judged"


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="finds the workers through /proc")
def test_check_trace_stops_plainly_when_a_worker_is_killed_from_outside(tmp_path: Path) -> None:
    """A worker killed mid-run (as the system does when memory runs out) stops the run as that signal would have
    stopped it: a line saying so, no traceback, the reports of the games judged, and no process left."""
    import subprocess

    game = {"variant": "briscola-2p", "setup": {"dealer": 0, "deck": ["AC", "3C", "KC", "QC", "JC", "2D", "7H", "rest"]},
            "actions": []}  # fmt: skip
    games = 200_000  # more than the run judges before the kill, however fast the machine
    (tmp_path / "games.jsonl").write_text((json.dumps(game) + "\n") * games, encoding="utf-8")
    command = [*TRICKSPEC, "check-trace", "games.jsonl", "--jobs", "2", "--report-dir", "reports"]
    process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        log, deadline = tmp_path / "reports" / "run.jsonl", time.monotonic() + 60
        while time.monotonic() < deadline and (not log.exists() or log.read_text(encoding="utf-8").count("\n") < 300):
            time.sleep(0.01)
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text(encoding="utf-8").split()
        assert len(children) == 2, children
        os.kill(int(children[0]), signal.SIGKILL)
        out, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 128 + signal.SIGKILL, out + err
    assert "Traceback" not in out + err, err
    summary = json.loads((tmp_path / "reports" / "summary.json").read_text(encoding="utf-8"))
    judged = sum(summary["counts"].values())
    assert 0 < judged < games and summary["complete"] is False
    assert summary["stopped_early"] == f"the run stopped before its end: {judged:,} games judged"
    said = f"stopped after {judged:,} games: a worker process was killed by SIGKILL before it answered"
    assert said in out, out
    assert not Path(f"/proc/{children[1]}").exists()  # the other worker ended and waited for


def _fuzz_with_a_worker_signalled(tmp_path: Path, signum: signal.Signals, deals: int) -> tuple[int, str, list[int]]:
    """A campaign of two workers, each playing the served reference, one worker sent ``signum`` once 100 deals are in
    the run log: the exit status, what was printed, and the workers' pids."""
    import shlex
    import subprocess

    from hostile_engines import end_started, served_reference

    command = [*TRICKSPEC, "fuzz", "--engine-cmd", shlex.join(served_reference(tmp_path)), "--variant", "briscola-2p",
               "--deals", str(deals), "--jobs", "2", "--report-dir", "reports"]  # fmt: skip
    process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)  # fmt: skip
    try:
        log, deadline = tmp_path / "reports" / "run.jsonl", time.monotonic() + 60
        while time.monotonic() < deadline and (not log.exists() or log.read_text(encoding="utf-8").count("\n") < 100):
            time.sleep(0.01)
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text(encoding="utf-8")
        workers = [int(pid) for pid in children.split()]
        assert len(workers) == 2, workers
        os.kill(workers[0], signum)
        out, err = process.communicate(timeout=60)
    finally:  # a run the signal did not end is no run to leave behind, nor its engines, in sessions of their own
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
        end_started(tmp_path)
    return process.returncode, out + err, workers


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="finds the workers through /proc")
def test_a_fuzz_test_failing_midway_leaves_no_engine_running(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The campaign's engines and what they started run in sessions of their own: a test that fails while the campaign
    runs (here, waiting for it to end) ends them too, not only the campaign's process group."""
    import subprocess

    communicate = subprocess.Popen.communicate

    def failing(self: subprocess.Popen[str], *args: Any, timeout: float | None = None) -> Any:
        if timeout is not None:  # the wait for the campaign's end: the test fails there
            raise RuntimeError("the test fails here")
        return communicate(self, *args)

    monkeypatch.setattr(subprocess.Popen, "communicate", failing)
    with pytest.raises(RuntimeError, match="the test fails here"):
        _fuzz_with_a_worker_signalled(tmp_path, signal.SIGCONT, 1_000_000)  # a signal that stops nothing
    assert_nothing_left(tmp_path)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="finds the workers through /proc")
@pytest.mark.parametrize("name", ["SIGKILL", "SIGTERM"])
def test_fuzz_stops_plainly_when_a_worker_is_killed_from_outside(tmp_path: Path, name: str) -> None:
    """A worker killed mid-campaign (by SIGKILL, as the system does when memory runs out, or by a SIGTERM sent to it
    alone) stops the campaign as that signal would have stopped it: every worker's engine ended with what it started
    (the killed worker could not end its own), a line saying so, no traceback, and the reports of the deals judged
    from a log with no footer."""
    from hostile_engines import alive

    deals = 1_000_000  # more than the campaign plays before the kill, however fast the machine
    code, output, workers = _fuzz_with_a_worker_signalled(tmp_path, signal.Signals[name], deals)
    assert code == 128 + signal.Signals[name], output
    assert "Traceback" not in output, output
    reports = tmp_path / "reports"
    assert sorted(p.name for p in reports.iterdir()) == ["badge.json", "junit.xml", "report.md", "run.jsonl", "summary.json"]
    assert runlog.read(reports / "run.jsonl").footer is None
    summary = json.loads((reports / "summary.json").read_text(encoding="utf-8"))
    judged = sum(summary["counts"].values())
    assert 0 < judged < deals and summary["complete"] is False
    assert summary["stopped_early"] == f"the run stopped before its end: {judged:,} of {deals:,} deals judged"
    said = f"stopped after {judged:,} deals: a worker process was killed by {name} before it answered"
    assert said in output, output
    assert not [pid for pid in workers if alive(pid)]
    assert_nothing_left(tmp_path)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="finds the workers through /proc")
def test_fuzz_says_a_worker_that_crashes_on_its_own_is_the_kit_s_fault(tmp_path: Path) -> None:
    """A worker ended by a signal no one sends from outside (SIGSEGV) is the kit's fault, said plainly (exit 4), with
    no traceback: the campaign stops with the reports of the deals judged, as for a killed worker, and no engine is
    left running, the crashed worker's included."""
    code, output, _ = _fuzz_with_a_worker_signalled(tmp_path, signal.SIGSEGV, 1_000_000)
    assert code == 4, output
    said = "a worker process ended before it answered (SIGSEGV: it crashed), a fault of the kit's, not the engine's"
    assert said in output, output
    reports = tmp_path / "reports"
    assert sorted(p.name for p in reports.iterdir()) == ["badge.json", "junit.xml", "report.md", "run.jsonl", "summary.json"]
    assert runlog.read(reports / "run.jsonl").footer is None
    assert "Traceback" not in output, output
    assert_nothing_left(tmp_path)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="finds the workers through /proc")
def test_fuzz_killed_outright_leaves_no_worker_nor_engine_running(tmp_path: Path) -> None:
    """A campaign killed by SIGKILL (nothing of it runs to end its workers) leaves no worker waiting on a pipe for
    ever, nor any engine: each worker sees its pipe close, ends its engine with what it started, and ends."""
    import shlex
    import subprocess

    from hostile_engines import alive, end_started, served_reference

    command = [*TRICKSPEC, "fuzz", "--engine-cmd", shlex.join(served_reference(tmp_path)), "--variant", "briscola-2p",
               "--deals", "1000000", "--jobs", "2", "--report-dir", "reports"]  # fmt: skip
    process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)  # fmt: skip
    workers: list[int] = []
    try:
        log, deadline = tmp_path / "reports" / "run.jsonl", time.monotonic() + 60
        while time.monotonic() < deadline and (not log.exists() or log.read_text(encoding="utf-8").count("\n") < 100):
            time.sleep(0.01)
        workers = [int(pid) for pid in Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()]
        assert len(workers) == 2, workers
        process.kill()  # the campaign alone: its workers are in its process group, and a group's kill would end them
        process.wait()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(alive(pid) for pid in workers):
            time.sleep(0.05)
        assert not [pid for pid in workers if alive(pid)], "workers left running after the campaign was killed"
        assert_nothing_left(tmp_path, wait=10.0)
    finally:
        for pid in workers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        end_started(tmp_path)


class _SignalledAfterTheHeader:
    """A run log's stream that is sent ``signum`` as the header's line is written: the earliest moment a signal
    finds the run started, and the run's own check (a signal after the header) looks for reports."""

    def __init__(self, signum: int) -> None:
        self.signum, self.lines = signum, []

    def write(self, text: str, /) -> int:
        self.lines.append(text)
        if len(self.lines) == 1:
            os.kill(os.getpid(), self.signum)
        return len(text)

    def flush(self) -> None:
        pass


@pytest.mark.parametrize("command", ["verify", "check-trace"])
def test_a_signal_just_after_the_header_stops_the_run_with_its_footer(tmp_path: Path, command: str) -> None:
    """A signal coming as the header is written stops the run as one coming later does: the run returns, and its log
    is finished with a footer naming the signal, so that the reports are written (not an exit with no reports)."""
    from conformance.engines.adapter import reference_adapter
    from conformance.run.verify import verify
    from conformance.suite import scenarios
    from conformance.traces import checking

    stream = _SignalledAfterTheHeader(signal.SIGTERM)
    with interrupt.trapped():
        if command == "verify":
            log = verify(reference_adapter(), [s for s in scenarios.kit_scenarios() if s.game == "briscola"], stream=stream)
        else:
            game = {"variant": "briscola-2p", "setup": {"dealer": 0, "shuffle": 1}, "actions": []}
            (tmp_path / "games.jsonl").write_text(json.dumps(game) + "\n", encoding="utf-8")
            log = checking.run(checking.Plan((tmp_path / "games.jsonl",)), stream=stream).log
    assert log.footer is not None and log.footer.get("interrupted") == "SIGTERM", log.footer
    assert json.loads(stream.lines[-1])["type"] == "footer"


@pytest.mark.parametrize("command", ["smoke", "verify"])
def test_a_signal_ends_the_engine_at_once_and_asks_it_nothing_more(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """A signal comes as the engine works on a request: the run stops, and the engine is ended, not sent ``stop`` and
    given time to finish the request first (smoke sent it, and waited up to 2 s for the engine to exit)."""
    import shlex

    from hostile_engines import engine, started

    from conformance.cli import main

    argv = [command, "--engine-cmd", shlex.join(engine(tmp_path, "signals-the-kit")), "--timeout", "30"]
    if command == "verify":
        argv += ["--variant", "albastini-2p", "--report-dir", str(tmp_path / "reports")]
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 143, out + err
    assert "Traceback" not in out + err and "interrupted by SIGTERM" in out + err, out + err
    assert started(tmp_path)["stopped"] == []
    assert_nothing_left(tmp_path)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="finds the workers through /proc")
@pytest.mark.parametrize("name", ["SIGKILL", "SIGHUP"])
def test_fuzz_killed_outright_mid_deal_leaves_no_worker_nor_engine_running(tmp_path: Path, name: str) -> None:
    """The campaign alone killed (SIGKILL, or a SIGHUP sent to it alone) while each worker waits on an engine that never
    answers: a worker noticed its parent had gone only between batches, each deal of which may take a whole
    ``--timeout``, so the workers and their engines lived on. Each is now told as the campaign dies, and ends its
    engine with what it started."""
    import shlex
    import subprocess

    from hostile_engines import alive, end_started, engine, started

    command = [*TRICKSPEC, "fuzz", "--engine-cmd", shlex.join(engine(tmp_path, "hang-all")), "--variant", "albastini-2p",
               "--deals", "50", "--jobs", "2", "--timeout", "600", "--report-dir", "reports"]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])}
    process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                               start_new_session=True)  # fmt: skip
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(started(tmp_path)["child"]) < 2:  # every worker's engine is up
            time.sleep(0.05)
        time.sleep(0.5)  # and each has a deal it will never answer
        workers = [int(pid) for pid in Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()]
        assert len(workers) == 2, workers
        process.send_signal(signal.Signals[name])  # the campaign alone: a group's signal would reach its workers
        process.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(alive(pid) for pid in workers):
            time.sleep(0.05)
        assert not [pid for pid in workers if alive(pid)], "workers left running after the campaign was killed"
        assert_nothing_left(tmp_path, wait=5.0)
    finally:
        for pid in workers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        end_started(tmp_path)


_WORKER_OF_A_DYING_PARENT = """\
import multiprocessing, sys, time
from conformance.run import parent_death

def worker(how):
    if how == "watched":  # as on a system with no way to have the parent's death signalled
        parent_death._set_pdeathsig = lambda: False
    else:  # its parent killed before it asks to be told
        time.sleep(2)
    parent_death.end_with_parent()
    print("ready", flush=True)
    time.sleep(120)

if __name__ == "__main__":
    process = multiprocessing.get_context("fork").Process(target=worker, args=(sys.argv[1],))
    process.start()
    print(process.pid, flush=True)
    time.sleep(120)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="no fork")
@pytest.mark.parametrize("how", ["watched", "died-before"])
def test_a_worker_ends_when_its_parent_dies_without_prctl_or_before_it(tmp_path: Path, how: str) -> None:
    """Where the system cannot signal a parent's death, the worker looks at its parent now and then; and one whose
    parent died before it asked to be told is ended at once, as no signal would come."""
    import subprocess

    from hostile_engines import alive

    (tmp_path / "parent.py").write_text(_WORKER_OF_A_DYING_PARENT, encoding="utf-8")
    parent = subprocess.Popen([sys.executable, "parent.py", how], cwd=tmp_path, stdout=subprocess.PIPE, text=True)
    worker = 0
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        if how == "watched":
            assert parent.stdout.readline() == "ready\n"
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and alive(worker):
            time.sleep(0.05)
        assert not alive(worker), "the worker outlived its parent"
    finally:
        parent.kill()
        if worker and alive(worker):  # before reading the parent's output to its end: the worker holds it open
            os.kill(worker, signal.SIGKILL)
        parent.communicate()


_PARENT_OF_BUSY_WORKERS = """\
import multiprocessing, os, time
from conformance.traces.workers import Workers

def judge(batch):  # as a batch of long matches takes: the parent's death is not seen between two batches
    open(f"busy-{os.getpid()}", "w").close()
    time.sleep(120)

if __name__ == "__main__":
    workers = Workers(multiprocessing.get_context("fork"), 2, judge)
    workers.start()
    next(workers.results(iter(range(2))))
"""


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads processes' states in /proc")
def test_check_trace_s_workers_end_mid_batch_when_their_parent_is_killed_outright(tmp_path: Path) -> None:
    """A check-trace worker saw its parent gone only once its batch was judged, which, a batch of matches of a thousand
    deals each, goes on long after the run was killed: it is now ended as its parent dies."""
    import subprocess

    from hostile_engines import alive

    (tmp_path / "parent.py").write_text(_PARENT_OF_BUSY_WORKERS, encoding="utf-8")
    parent = subprocess.Popen([sys.executable, "parent.py"], cwd=tmp_path)
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(workers) < 2:
            workers = [int(path.name.split("-")[1]) for path in tmp_path.glob("busy-*")]
            time.sleep(0.05)
        assert len(workers) == 2, workers
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(alive(pid) for pid in workers):
            time.sleep(0.05)
        assert not [pid for pid in workers if alive(pid)], "workers left running after their parent was killed"
    finally:
        parent.kill()
        parent.wait()
        for pid in workers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
