"""Engines that misbehave over the protocol: each misdeed is reported exactly, against the scenario
that caused it, the run goes on (or ends quickly, once the engine is given up on), and no engine
process or child it started outlives the run."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hostile_engines import (
    alive,
    assert_nothing_left,
    end_escaped,
    end_started,
    engine,
    started,
    threads_left,
    two_player,
)

from conformance.engines import engine_process, protocol
from conformance.engines.engine_process import MAX_LINE_BYTES
from conformance.engines.protocol import EngineUnusable, SubprocessAdapter
from conformance.run import runlog, runner
from conformance.run.runner import Verdict
from conformance.vocabulary import ErrorKind, Outcome
from specreader import kitdata, limits

BENIGN = "setup: benign"  # what the engines answer to every scenario they do not misbehave on


def run(tmp_path: Path, mode: str, hostile: list[int], count: int = 4, **options: Any) -> list[Verdict]:
    """Run ``count`` scenarios through an engine misbehaving as ``mode`` on the scenarios at ``hostile``;
    the verdicts, the engine closed. A misbehaviour the kit waited out instead of seeing shows as a
    timeout among the verdicts."""
    chosen = two_player(count)
    options.setdefault("timeout", 1.0)
    options.setdefault("startup_timeout", 10.0)  # a loaded machine starts Python slowly; the handshake is not under test here
    adapter = SubprocessAdapter(engine(tmp_path, mode, [chosen[i] for i in hostile]), **options)
    try:
        verdicts = list(runner.run_all(adapter, chosen, {"albastini-2p"}))
    finally:
        adapter.close()
    assert [v.scenario.id for v in verdicts] == [s.id for s in chosen]
    return verdicts


def assert_only(verdicts: list[Verdict], hostile: list[int], kind: ErrorKind, message: str) -> None:
    """The hostile scenarios failed with ``kind`` and ``message``; every other one got the engine's benign answer."""
    for index, verdict in enumerate(verdicts):
        if index in hostile:
            assert verdict.error is not None and verdict.error.kind is kind, (index, verdict.reason)
            assert message in verdict.reason, (index, verdict.reason)
        else:
            assert verdict.reason == BENIGN, (index, verdict.reason)


def test_a_crash_is_reported_with_its_exit_status_and_its_own_stderr(tmp_path: Path) -> None:
    verdicts = run(tmp_path, "crash", [1, 2])
    assert_only(verdicts, [1, 2], ErrorKind.CRASH, "the engine exited with status 7; stderr: engine ")
    assert {verdicts[1].outcome, verdicts[2].outcome} == {Outcome.ERROR}
    # each crash quotes the stderr of the process that crashed, never that of the one before
    messages = [verdicts[1].reason, verdicts[2].reason]
    pids_quoted = [{pid for pid in started(tmp_path)["engine"] if f"engine {pid} " in m} for m in messages]
    assert all(len(quoted) == 1 for quoted in pids_quoted) and pids_quoted[0] != pids_quoted[1], messages
    assert_nothing_left(tmp_path)


def test_an_engine_that_exits_after_one_answer_is_said_to_exit_unasked(tmp_path: Path) -> None:
    """An exit with status 0 is the engine's own: the scenario it was awaited for says it came before the kit asked
    the engine to stop, not only that it exited (which reads as a crash of that scenario's making)."""
    verdicts = run(tmp_path, "one-request", [0, 1, 2, 3])
    said = "the engine exited with status 0 before it was asked to stop (an engine answers request after request until it"
    assert [verdict.reason.partition(";")[0] for verdict in verdicts] == [BENIGN, f"crash: {said} reads stop)"] * 2
    assert_nothing_left(tmp_path)


@pytest.mark.parametrize("mode", ["one-request", "crash-child-holds-output"])
def test_an_answer_written_as_the_engine_exits_is_judged_however_late_the_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """The engine answers a scenario and exits at once (reading the next request, or before it can): its answer is
    judged, and its exit blamed on the scenario after, however long a busy machine keeps the kit's reader from the
    answer. The kit waited a tenth of a second for it after the exit, then took the exit for the answered scenario's."""
    given = engine_process._event

    def late(line: bytes | int, limit: int) -> engine_process.Event:
        time.sleep(0.3)  # the reader, on a busy machine
        return given(line, limit)

    monkeypatch.setattr(engine_process, "_event", late)
    verdicts = run(tmp_path, mode, [0, 1, 2] if mode == "one-request" else [1], count=3, timeout=5.0)
    assert verdicts[0].reason == BENIGN and verdicts[1].error is not None, [v.reason for v in verdicts]
    assert verdicts[1].error.kind is ErrorKind.CRASH and "the engine exited with status" in verdicts[1].reason
    assert_nothing_left(tmp_path)


def test_a_crash_is_not_a_timeout_when_a_child_keeps_the_output_open(tmp_path: Path) -> None:
    verdicts = run(tmp_path, "crash-child-holds-output", [1], timeout=10.0)
    assert_only(verdicts, [1], ErrorKind.CRASH, "the engine exited with status 7")
    assert_nothing_left(tmp_path)


def test_a_timeout_ends_the_engine_and_its_children_and_the_run_goes_on(tmp_path: Path) -> None:
    verdicts = run(tmp_path, "hang", [1], timeout=0.3)
    assert_only(verdicts, [1], ErrorKind.TIMEOUT, "no answer within 0.3 s")
    assert verdicts[1].outcome is Outcome.TIMEOUT
    assert len(started(tmp_path)["engine"]) == 2  # restarted once, for the scenarios after it
    assert_nothing_left(tmp_path)


def test_closed_output_costs_at_most_the_timeout(tmp_path: Path) -> None:
    verdicts = run(tmp_path, "closed-output", [0, 1], timeout=0.3)
    assert_only(verdicts, [0, 1], ErrorKind.CLOSED_OUTPUT, "the engine closed its output and kept running")
    assert_nothing_left(tmp_path)


def test_stdout_that_is_not_utf8_is_malformed_not_a_timeout(tmp_path: Path) -> None:
    verdicts = run(tmp_path, "stdout-not-utf8", [1], timeout=10.0)
    assert_only(verdicts, [1], ErrorKind.MALFORMED, "expected UTF-8, found byte 0xff at position 8")
    assert_nothing_left(tmp_path)


def test_a_lone_surrogate_is_malformed_for_its_scenario_alone(tmp_path: Path) -> None:
    """No UTF-8 file or terminal can hold one, so no line carrying one gets past the reader."""
    verdicts = run(tmp_path, "lone-surrogate", [2])
    assert_only(verdicts, [2], ErrorKind.MALFORMED, "found the lone surrogate \\ud800 in a string")
    assert_nothing_left(tmp_path)


def test_a_key_twice_in_an_answer_is_malformed_for_its_scenario_alone(tmp_path: Path) -> None:
    """JSON readers disagree on which of two same-named members counts; the kit takes neither."""
    verdicts = run(tmp_path, "key-twice", [1])
    assert_only(verdicts, [1], ErrorKind.MALFORMED, "expected each key once in an object, found $.error twice")
    assert_nothing_left(tmp_path)


def test_stderr_that_is_not_utf8_is_kept_decoded_and_never_stops_the_reader(tmp_path: Path) -> None:
    # 400 KB of it before the handshake: were the reader dead, the engine would block on a full pipe
    verdicts = run(tmp_path, "stderr-not-utf8", [], count=6, timeout=2.0)
    assert [v.reason for v in verdicts] == [BENIGN] * 6
    assert_nothing_left(tmp_path)


@pytest.mark.parametrize(("mode", "index"), [("deep", 1), ("deep-ish", 2)])
def test_a_deeply_nested_answer_is_malformed_for_its_scenario_alone(tmp_path: Path, mode: str, index: int) -> None:
    verdicts = run(tmp_path, mode, [index])
    assert_only(verdicts, [index], ErrorKind.MALFORMED, f"expected at most {limits.MAX_DEPTH} levels of nesting, found more")
    assert_nothing_left(tmp_path)


def test_a_line_over_the_limit_is_malformed_and_the_engine_restarted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PADDING", str(2 * 1024 * 1024))
    verdicts = run(tmp_path, "overlong", [1], max_line_bytes=1024 * 1024)
    assert_only(verdicts, [1], ErrorKind.MALFORMED, "expected lines of at most 1 MiB, found a longer one")
    assert len(started(tmp_path)["engine"]) == 2
    assert_nothing_left(tmp_path)


def test_the_default_line_limit_is_64_mib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PADDING", str(MAX_LINE_BYTES))
    verdicts = run(tmp_path, "overlong", [0], count=2, timeout=10.0)
    assert MAX_LINE_BYTES == 64 * 1024 * 1024
    assert_only(verdicts, [0], ErrorKind.MALFORMED, "expected lines of at most 64 MiB, found a longer one")
    assert_nothing_left(tmp_path)


def test_a_wrong_id_is_blamed_on_the_scenario_it_answered(tmp_path: Path) -> None:
    verdicts = run(tmp_path, "wrong-id", [1])
    assert_only(verdicts, [1], ErrorKind.WRONG_ID, "expected id")
    assert "found 'someone-else'" in verdicts[1].reason
    assert_nothing_left(tmp_path)


@pytest.mark.parametrize("hostile", [[1], [3]])
def test_an_answer_sent_twice_is_blamed_on_its_own_scenario(tmp_path: Path, hostile: list[int]) -> None:
    verdicts = run(tmp_path, "twice", hostile)
    assert_only(verdicts, hostile, ErrorKind.EXTRA_ANSWER, f"the engine answered {verdicts[hostile[0]].scenario.id!r} twice")
    assert len(started(tmp_path)["engine"]) == 1  # the engine kept its line discipline: no restart
    assert_nothing_left(tmp_path)


def test_an_answer_sent_twice_is_blamed_on_its_own_scenario_one_request_at_a_time(tmp_path: Path) -> None:
    chosen = two_player(3)  # as the pytest plugin runs them: one run() a scenario
    adapter = SubprocessAdapter(engine(tmp_path, "twice", [chosen[1]]), timeout=1.0)
    try:
        verdicts = [runner.run(adapter, s, {"albastini-2p"}) for s in chosen]
    finally:
        adapter.close()
    assert_only(verdicts, [1], ErrorKind.EXTRA_ANSWER, "twice")
    assert_nothing_left(tmp_path)


@pytest.mark.parametrize("pipelined", [True, False], ids=["pipelined", "one-request-at-a-time"])
def test_a_copy_sent_after_the_next_answer_blames_no_scenario(tmp_path: Path, pipelined: bool) -> None:
    """The copy comes after the kit let go of the answer (at once, one request at a time; pipelined, when the next
    answer came): it is set aside and named, not taken for the next scenario's answer with a wrong id."""
    chosen = two_player(4)
    adapter = SubprocessAdapter(engine(tmp_path, "copy-after-next", [chosen[1]]), timeout=1.0, startup_timeout=10.0)
    try:
        if pipelined:
            verdicts = list(runner.run_all(adapter, chosen, {"albastini-2p"}))
        else:
            verdicts = [runner.run(adapter, s, {"albastini-2p"}) for s in chosen]
        late = adapter.take_late_copies()
    finally:
        adapter.close()
    assert_only(verdicts, [], ErrorKind.EXTRA_ANSWER, "")
    assert late == [chosen[1].id]
    assert len(started(tmp_path)["engine"]) == 1  # no restart: nothing was blamed on the engine's line discipline
    assert_nothing_left(tmp_path)
    protocol_page = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert f"the last {protocol._RELEASED_KEPT:,} answers" in " ".join(protocol_page.split())  # as the page says
    footer = json.loads((kitdata.schemas_dir() / "run-log.schema.json").read_text(encoding="utf-8"))["$defs"]["footer"]
    assert footer["properties"]["late_copies"]["maxItems"] == runlog.LATE_COPIES_KEPT  # the rest are counted


def test_the_id_of_an_answer_before_on_another_answer_is_a_wrong_id_at_once(tmp_path: Path) -> None:
    """Only a copy byte for byte is set aside: another answer with an id already answered is a wrong id. (One
    request at a time: pipelined, the answer it came after is still held, and it counts as a copy of that one.)"""
    chosen = two_player(4)
    adapter = SubprocessAdapter(engine(tmp_path, "stale-id", [chosen[2]]), timeout=1.0, startup_timeout=10.0)
    try:
        verdicts = [runner.run(adapter, s, {"albastini-2p"}) for s in chosen]
    finally:
        adapter.close()
    assert_only(verdicts, [2], ErrorKind.WRONG_ID, f"found {chosen[1].id!r}")
    assert adapter.take_late_copies() == []
    assert_nothing_left(tmp_path)


def test_copies_without_end_are_set_aside_once_and_then_blamed(tmp_path: Path) -> None:
    """An engine that, after its next answer, sends copies of an answer until it is ended: the first copy is set
    aside, the second is an answer with the wrong id, and the kit never keeps on reading copies."""
    chosen = two_player(4)
    adapter = SubprocessAdapter(engine(tmp_path, "copies-forever", [chosen[1]]), timeout=1.0, startup_timeout=10.0)
    try:
        verdicts = [runner.run(adapter, s, {"albastini-2p"}) for s in chosen]
        late = adapter.take_late_copies()
    finally:
        adapter.close()
    assert_only(verdicts, [3], ErrorKind.WRONG_ID, f"found {chosen[1].id!r}")
    assert late == [chosen[1].id]
    assert_nothing_left(tmp_path)


def test_an_engine_that_hangs_on_everything_is_given_up_on(tmp_path: Path) -> None:
    verdicts = run(tmp_path, "hang-all", [], count=12, timeout=0.3)
    assert [v.outcome for v in verdicts] == [Outcome.TIMEOUT] * 3 + [Outcome.ENGINE_UNAVAILABLE] * 9
    for verdict in verdicts[3:]:
        assert verdict.error is not None and verdict.error.kind is ErrorKind.UNAVAILABLE
        assert "not run: the engine stalled 3 times in a row (timeouts or failed restarts)" in verdict.reason
        assert "the last: timeout: no answer within 0.3 s" in verdict.reason
    assert_nothing_left(tmp_path)


def test_the_number_of_stalls_before_giving_up_is_an_option(tmp_path: Path) -> None:
    verdicts = run(tmp_path, "hang-all", [], count=4, timeout=0.3, give_up_after=1)
    assert [v.outcome for v in verdicts] == [Outcome.TIMEOUT] + [Outcome.ENGINE_UNAVAILABLE] * 3
    assert_nothing_left(tmp_path)


def test_one_slow_restart_does_not_write_off_the_rest(tmp_path: Path) -> None:
    # Scenario 1 crashes the engine; its second start takes 10 s, past the 1.5 s handshake timeout; the third is
    # quick. (The timeout leaves a quick start room on a loaded machine: at 0.5 s, one under load was given up on too.)
    chosen = two_player(5)
    adapter = SubprocessAdapter(engine(tmp_path, "second-start-slow", [chosen[1]]), timeout=1.0, startup_timeout=1.5)
    try:
        verdicts = list(runner.run_all(adapter, chosen, {"albastini-2p"}))
    finally:
        adapter.close()
    assert_only(verdicts, [1], ErrorKind.CRASH, "the engine exited with status 7")
    assert adapter.restarts == 2  # the slow start given up on after 1.5 s, then one that answered
    assert_nothing_left(tmp_path)


def test_the_handshake_has_its_own_timeout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The handshake outlasts the answer timeout and not the startup one; each answer after it has room on a
    # loaded machine (at 0.2 s, one under load was taken for a timeout).
    monkeypatch.setenv("HANDSHAKE_SECONDS", "1.0")
    verdicts = run(tmp_path, "slow-handshake", [], count=2, timeout=0.8, startup_timeout=3.0)
    assert [v.reason for v in verdicts] == [BENIGN] * 2
    with pytest.raises(EngineUnusable, match=r"handshake failed: timeout: no answer within 0\.2 s") as unusable:
        SubprocessAdapter(engine(tmp_path, "slow-handshake"), timeout=3.0, startup_timeout=0.2)
    slow = "no answer within 0.2 s (the engine had not read the start message from its standard input: it was slow to start"
    assert slow in str(unusable.value)  # not yet started, it had flushed nothing unflushed
    assert_nothing_left(tmp_path, each_started_its_child=False)  # the last one had 0.2 s to start in


@pytest.mark.skipif(sys.platform != "linux", reason="what a pipe holds unread is counted on Linux")
@pytest.mark.parametrize(("mode", "said"), [
    ("reads-nothing", "(the engine had not read the start message from its standard input: it was slow to start, or reads none)"),
    ("unflushed-handshake", "(an engine must flush its standard output after each line)"),
])  # fmt: skip
def test_a_handshake_timeout_says_whether_the_engine_read_the_start_message(tmp_path: Path, mode: str, said: str) -> None:
    """An engine that never reads its input was told to flush its output, which it may well do: the kit counts what
    its input's pipe holds unread, and says the start message was never read. One that read it and answered without
    flushing is still told to flush."""
    with pytest.raises(EngineUnusable, match="handshake failed: timeout") as unusable:
        SubprocessAdapter(engine(tmp_path, mode), timeout=3.0, startup_timeout=2.0)
    assert f"no answer within 2 s {said}" in str(unusable.value)
    assert_nothing_left(tmp_path)


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("byte-order-mark", "(a byte order mark, U+FEFF, before the value); an engine writes UTF-8 without a byte order mark"),
        ("empty-line", "expected a JSON object per line, found '' (Expecting value)"),
    ],
)
def test_a_line_that_is_no_json_for_what_comes_before_it_is_not_said_to_be_text_for_people(
    tmp_path: Path, mode: str, said: str
) -> None:
    # The answer begins with "{" behind the mark, and an empty line holds no text: neither was meant for standard error.
    verdicts = run(tmp_path, mode, [1])
    assert_only(verdicts, [1], ErrorKind.MALFORMED, said)
    assert "standard error" not in verdicts[1].reason.partition("; stderr:")[0]
    assert_nothing_left(tmp_path)


@pytest.mark.parametrize(
    ("mode", "kind", "said"),
    [
        ("cut-then-exit", ErrorKind.CRASH, "the engine exited with status 5 in the middle of a line (expected a JSON object"),
        ("cut-then-close", ErrorKind.CLOSED_OUTPUT, "the engine closed its output in the middle of a line and kept running ("),
    ],
)
def test_an_output_ending_in_the_middle_of_a_line_is_said_to_end_there(
    tmp_path: Path, mode: str, kind: ErrorKind, said: str
) -> None:
    # What cut the line short is what went wrong: the line left is no JSON because of it.
    verdicts = run(tmp_path, mode, [1], timeout=0.5)
    assert_only(verdicts, [1], kind, said)
    assert "Unterminated string" in verdicts[1].reason  # and what the line held follows
    assert_nothing_left(tmp_path)


def test_a_line_never_ended_is_said_to_be_the_cause_of_its_timeout(tmp_path: Path) -> None:
    # Flushed without its newline, an answer is no line: the timeout says so, not that the engine must flush.
    verdicts = run(tmp_path, "unended", [1], timeout=0.3)
    benign = len(json.dumps({"id": two_player(2)[1].id, "error": {"kind": "setup", "message": "benign"}}))
    unended = f"no answer within 0.3 s (the engine had written {benign} bytes of a line without ending it: "
    assert_only(verdicts, [1], ErrorKind.TIMEOUT, unended + "an engine ends each line with a newline)")
    assert "flush" not in verdicts[1].reason
    handshake = r"timeout: no answer within 0\.5 s \(the engine had written \d+ bytes of a line"
    with pytest.raises(EngineUnusable, match=handshake) as unusable:
        SubprocessAdapter(engine(tmp_path, "unended-handshake"), timeout=3.0, startup_timeout=0.5)
    assert "flush" not in str(unusable.value)
    assert_nothing_left(tmp_path)


def test_an_engine_that_ignores_stop_and_sigterm_is_ended_at_the_end_of_the_run(tmp_path: Path) -> None:
    adapter = SubprocessAdapter(engine(tmp_path, "ignores-stop"), timeout=0.3, startup_timeout=10)
    assert runner.run(adapter, two_player(1)[0], {"albastini-2p"}).reason == BENIGN
    adapter.close()
    assert_nothing_left(tmp_path)


@pytest.mark.parametrize(
    ("mode", "hostile", "kind", "said"),
    [
        ("hang", [], None, ""),  # close() alone
        ("hang", [1], ErrorKind.TIMEOUT, "no answer within 0.5 s"),
        ("crash", [1], ErrorKind.CRASH, "the engine exited with status 7"),
        ("flood", [1], ErrorKind.WRONG_ID, "found no id"),  # its flood's first line taken for the next answer
        ("stderr-flood", [1], ErrorKind.TIMEOUT, "no answer within 0.5 s; stderr: [a line of more than"),
    ],
)
def test_no_thread_of_the_kit_s_outlives_an_engine_it_has_ended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str, hostile: list[int], kind: ErrorKind | None, said: str
) -> None:
    """The threads that read and write an engine's pipes end as the kit ends the engine, however it ends it. A process
    the engine started in a session of its own (out of the kit's reach, docs/protocol.md) holds the pipes open after
    the engine's end: the threads waited on them with it, for ever, and each engine the run restarted left three more."""
    monkeypatch.setenv("ESCAPES", "1")
    before = set(threading.enumerate())
    try:
        verdicts = run(tmp_path, mode, hostile, count=3, timeout=0.5)
        left = threads_left(before)
    finally:
        escaped = end_escaped(tmp_path)
    blamed = [index + 1 for index in hostile] if mode == "flood" else hostile
    assert_only(verdicts, blamed if kind else [], kind or ErrorKind.CRASH, said)
    assert left == []
    assert len(escaped) == len(started(tmp_path)["engine"])  # each outlived its engine, as documented
    assert_nothing_left(tmp_path)


@pytest.mark.parametrize("held", ["stdin", "stdout", "stderr"])
def test_an_engine_s_pipe_held_open_after_its_end_keeps_no_thread_waiting(tmp_path: Path, held: str) -> None:
    """The engine never reads its input, and the kit has more for it than a pipe holds: the thread writing it waits.
    A process in a session of its own holding the pipe, the engine's end left that thread (or a reader) waiting."""
    pid_file = tmp_path / "escaped"
    script = (
        "import subprocess, sys, time\n"
        f"streams = {{name: subprocess.DEVNULL for name in ('stdin', 'stdout', 'stderr') if name != {held!r}}}\n"
        "escaped = subprocess.Popen(['sleep', '120'], start_new_session=True, **streams)\n"
        f"open({str(pid_file)!r}, 'w').write(str(escaped.pid))\n"
        "time.sleep(120)\n"
    )
    before = set(threading.enumerate())
    process = engine_process.EngineProcess([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 10
        while not (pid_file.exists() and pid_file.read_text()) and time.monotonic() < deadline:
            time.sleep(0.02)
        process.send(b"x" * (4 * 1024 * 1024))
        process.end()
        left = threads_left(before)
    finally:
        process.end()
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(pid_file.read_text()), signal.SIGKILL)
    assert left == []


def test_an_engine_a_signal_interrupts_as_it_starts_is_ended_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A signal coming as the engine starts is raised once the engine is registered, and the engine is ended with the
    rest, its threads with it: they are started before the signal is raised, never after it, nor not at all."""
    from conformance.engines import interrupt

    popen = subprocess.Popen

    def signalled(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        begun = popen(*args, **kwargs)
        signal.raise_signal(signal.SIGTERM)
        return begun

    before = set(threading.enumerate())
    monkeypatch.setattr(engine_process.subprocess, "Popen", signalled)
    with pytest.raises(interrupt.Interrupted), interrupt.trapped():
        engine_process.EngineProcess(engine(tmp_path, "hang"))
    monkeypatch.undo()
    (interrupted,) = engine_process._LIVE
    engine_process.end_all()
    assert not alive(interrupted.pid)
    assert threads_left(before) == []


def test_engines_left_open_are_ended_when_the_kit_exits(tmp_path: Path) -> None:
    command = engine(tmp_path, "hang")
    program = f"from conformance.engines.protocol import SubprocessAdapter\nSubprocessAdapter({command!r})\nprint('started')\n"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and done.stdout == "started\n", done.stderr
    assert "Traceback" not in done.stderr
    assert_nothing_left(tmp_path)
    assert not any(alive(pid) for pid in started(tmp_path)["child"])


@pytest.mark.parametrize("held", ["process._outbox.mutex", "engine_process._LIVE_LOCK"])
def test_sigterm_that_comes_while_the_kit_holds_a_lock_still_ends_the_engine(tmp_path: Path, held: str) -> None:
    """The SIGTERM handler runs in the main thread between two of its steps, perhaps inside one holding a lock:
    sending the engine a line holds its input queue's. Ending the engines there as ``end`` does took that lock
    again and waited for itself for ever (pytest hung, the engine left running); the handler takes no lock."""
    command = engine(tmp_path, "hang")
    pids = tmp_path / "pids"
    program = (
        "import os, signal, time\n"
        "from conformance.engines import engine_process\n"
        f"process = engine_process.EngineProcess({command!r})\n"
        f"while len(os.listdir({str(pids)!r})) < 2:  # the engine and its child have started\n"
        "    time.sleep(0.02)\n"
        "engine_process.end_all_on_sigterm()\n"
        f"with {held}:\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    signal.pause()\n"
    )
    try:
        done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:  # the handler hung: end what it left running, then fail
        end_started(tmp_path)
        raise
    assert done.returncode == -15, done.stderr  # ended by the signal, as without the handler
    assert_nothing_left(tmp_path)


def _blocked_signals(thread_id: int) -> set[int]:
    """The signals a thread of this process blocks, as the kernel says (its task's SigBlk mask)."""
    status = Path(f"/proc/self/task/{thread_id}/status").read_text(encoding="utf-8")
    mask = int(next(line for line in status.splitlines() if line.startswith("SigBlk:")).split()[1], 16)
    return {number for number in range(1, 65) if mask >> (number - 1) & 1}


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads each thread's signal mask from /proc")
def test_an_engine_s_threads_leave_the_stopping_signals_to_the_main_thread(tmp_path: Path) -> None:
    """The kernel gives a process's signal to any thread not blocking it. One taken by an engine's reader thread
    was only flagged for the main thread, which, blocked reading a pipe, never ran the handler: a fuzz worker
    waiting for its next batch lived through the SIGTERM that abandoned it, and the campaign waited for it for ever."""
    before = {thread.native_id for thread in threading.enumerate()}
    process = engine_process.EngineProcess(engine(tmp_path, "hang"))
    try:
        ours = [t.native_id for t in threading.enumerate() if t.native_id not in before and t.native_id is not None]
        assert len(ours) == 3  # its output's reader, its standard error's, its input's writer
        for thread_id in ours:
            assert {signal.SIGINT, signal.SIGTERM, signal.SIGALRM} <= _blocked_signals(thread_id), thread_id
        assert signal.SIGTERM not in _blocked_signals(threading.main_thread().native_id or 0)  # the main thread's mask as it was
    finally:
        process.end()


@pytest.mark.parametrize("pidfd", [True, False], ids=["pidfd", "polling"])
def test_wait_gives_the_exit_status_or_none_at_the_deadline(monkeypatch: pytest.MonkeyPatch, pidfd: bool) -> None:
    """Waiting for an engine to end: woken as it ends where the platform has pidfds, by polling where not."""
    import os

    from conformance.engines.engine_process import EngineProcess

    if not pidfd:
        monkeypatch.delattr(os, "pidfd_open", raising=False)
    quick = EngineProcess([sys.executable, "-c", "import sys, time; time.sleep(0.05); sys.exit(3)"])
    slow = EngineProcess([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert quick.wait(time.monotonic() + 20) == 3
        assert quick.wait(time.monotonic() + 20) == 3  # asked again, once it has been reaped
        began = time.monotonic()
        assert slow.wait(began + 0.2) is None
    finally:
        quick.end()
        slow.end()
    assert slow.wait(time.monotonic()) is not None


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="waits on a pidfd")
def test_wait_takes_a_pidfd_numbered_past_1023() -> None:
    """A kit holding many files (a pytest session, an engine loaded in process) is given pidfds past 1023, which
    select.select refuses: waiting for an engine raised ValueError, a traceback, the engine left running."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 2048:
        pytest.skip("the system allows this process too few open files")
    resource.setrlimit(resource.RLIMIT_NOFILE, (2048, hard))
    held = []
    try:
        while not held or held[-1] < 1100:
            held.append(os.open(os.devnull, os.O_RDONLY))
        process = engine_process.EngineProcess([sys.executable, "-c", "import sys; sys.exit(3)"])
        try:
            assert process.wait(time.monotonic() + 20) == 3
        finally:
            process.end()
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="the processes of a session are listed in /proc only")
def test_a_child_that_moves_into_a_group_of_its_own_is_ended_with_the_engine(tmp_path: Path) -> None:
    """Still in the engine's session, it is found there; only a session of its own is out of reach (docs/protocol.md)."""
    from conformance.engines.engine_process import EngineProcess

    pid_file = tmp_path / "child"
    script = (
        "import os, sys, time\n"
        "if os.fork() == 0:\n"
        "    os.setpgid(0, 0)\n"
        f"    open({str(pid_file)!r}, 'w').write(str(os.getpid()))\n"
        "    time.sleep(60)\n"
        "    os._exit(0)\n"
        "time.sleep(60)\n"
    )
    process = EngineProcess([sys.executable, "-c", script])
    deadline = time.monotonic() + 10
    while not (pid_file.exists() and pid_file.read_text()) and time.monotonic() < deadline:
        time.sleep(0.02)
    child = int(pid_file.read_text())
    assert alive(child)
    process.end()
    deadline = time.monotonic() + 2
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child)


def test_an_id_that_is_no_string_is_shown_as_json(tmp_path: Path) -> None:
    verdicts = run(tmp_path, "number-id", [1])
    assert_only(verdicts, [1], ErrorKind.WRONG_ID, "found 12345, not a string")
    assert_nothing_left(tmp_path)


def test_a_line_without_an_id_that_is_no_error_answers_no_scenario(tmp_path: Path) -> None:
    """Only an error may come without an id (an engine that could not read the request's). A line of observations
    without one, sent after an answer, is never judged as the next scenario's answer (a false rules failure on a
    scenario the engine answered well): it is an answer with the wrong id, and the engine is started again."""
    for validate in (False, True):  # the protocol's schema or not: a wrong id, on one scenario alone
        (tmp_path / str(validate)).mkdir()
        verdicts = run(tmp_path / str(validate), "copy-without-id", [1], validate=validate)
        assert_only(verdicts, [2], ErrorKind.WRONG_ID, "found no id")
        assert len(started(tmp_path / str(validate))["engine"]) == 2
        assert_nothing_left(tmp_path / str(validate))


def test_an_engine_that_writes_without_end_waits_on_its_own_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the kit has read and not yet taken stays under its budget, give or take one read: the engine, not the
    kit's memory, waits. (Its lines are taken once the kit asks for the next answer, and end it as a wrong id.)"""
    budget = 256 * 1024
    monkeypatch.setattr(engine_process, "_BACKLOG_BYTES", budget)
    (chosen,) = two_player(1)
    adapter = SubprocessAdapter(engine(tmp_path, "flood", [chosen]), timeout=10.0, startup_timeout=10.0)
    try:
        assert runner.run(adapter, chosen, {"albastini-2p"}).reason == BENIGN
        process = adapter._process
        assert process is not None
        # the engine writes lines of "{}" without end, and nothing takes them: the backlog fills, however busy the
        # machine, and then grows no further
        deadline = time.monotonic() + 30
        while process._backlog.held <= budget // 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)
        one_read = (engine_process._CHUNK // 3 + 1) * (2 + engine_process._LINE_COST)
        assert budget // 2 < process._backlog.held <= budget + one_read
        assert process._proc.poll() is None  # alive, and waiting on its output
    finally:
        adapter.close()
    assert_nothing_left(tmp_path)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads each thread's signal mask from /proc")
def test_check_trace_s_workers_take_signals_and_no_thread_of_the_kit_s_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --jobs, the kit's process runs no thread but its main one, which a SIGTERM reaches as it waits for the
    next batch's result; the workers, started with every signal blocked, take signals again."""
    from conformance.cli import main
    from conformance.traces import checking

    trace = tmp_path / "games.jsonl"
    game = {"variant": "briscola-2p", "setup": {"dealer": 0, "deck": ["AC", "3C", "KC", "QC", "JC", "2D", "7H", "rest"]},
            "actions": []}  # fmt: skip
    trace.write_text("".join(json.dumps({**game, "game": n}) + "\n" for n in range(4)), encoding="utf-8")
    seen: dict[str, set[int]] = {}
    record = checking._record
    # threads an earlier test of this process left running (an in-process engine's own) are not the run's
    before = set(threading.enumerate())

    def looking(*args: Any) -> None:
        if not seen:
            for thread in threading.enumerate():
                if thread not in before and thread.name.startswith("Thread-"):  # the pool's
                    seen[thread.name] = _blocked_signals(thread.native_id or 0)
            for child in Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").read_text().split():
                status = Path(f"/proc/{child}/status").read_text(encoding="utf-8")
                mask = int(next(line for line in status.splitlines() if line.startswith("SigBlk:")).split()[1], 16)
                seen[f"worker {child}"] = {n for n in range(1, 65) if mask >> (n - 1) & 1}
        record(*args)

    monkeypatch.setattr(checking, "_record", looking)
    assert main(["check-trace", "--jobs", "2", str(trace)]) == 0
    capsys.readouterr()
    threads = {name: mask for name, mask in seen.items() if not name.startswith("worker")}
    workers = {name: mask for name, mask in seen.items() if name.startswith("worker")}
    assert threads == {}, seen
    assert len(workers) == 2 and not any(signal.SIGTERM in mask for mask in workers.values()), seen


def _slow_square(n: int) -> int:
    time.sleep(0.2)
    return n * n


def _quiet_slow_square(n: int) -> int:
    """As _slow_square, in a worker that a crash ends without pytest's fault handler writing its dump to the run's
    output: the kit says the crash, and the test checks what it says."""
    import faulthandler

    faulthandler.disable()
    return _slow_square(n)


def test_check_trace_s_workers_give_results_in_order_and_a_killed_one_is_said_plainly() -> None:
    """The batches' results come in the order of the batches; a worker killed from outside (as the system does when
    memory runs out) ends the run with what happened to it, and no worker is left."""
    import multiprocessing

    from conformance.run.worker_ends import WorkerFailed, WorkerKilled
    from conformance.traces.workers import Workers

    context = multiprocessing.get_context("fork")
    workers: Workers[int, int] = Workers(context, 2, _slow_square)
    workers.start()
    assert list(workers.results(iter(range(5)))) == [0, 1, 4, 9, 16]
    workers.close()
    assert multiprocessing.active_children() == []
    workers = Workers(context, 2, _slow_square)
    workers.start()
    results = workers.results(iter(range(5)))
    assert next(results) == 0
    victim = multiprocessing.active_children()[0]
    os.kill(victim.pid or 0, signal.SIGKILL)
    with pytest.raises(WorkerKilled, match=r"^a worker process was killed by SIGKILL before it answered \(") as killed:
        list(results)
    assert killed.value.killed_by is signal.SIGKILL
    workers.kill()
    assert multiprocessing.active_children() == []
    workers = Workers(context, 2, _quiet_slow_square)  # one that crashes on its own is the kit's fault, not a stop
    workers.start()
    results = workers.results(iter(range(5)))
    assert next(results) == 0
    os.kill(multiprocessing.active_children()[0].pid or 0, signal.SIGSEGV)
    with pytest.raises(WorkerFailed, match=r"^a worker process ended before it answered \(SIGSEGV: it crashed\)$") as failed:
        list(results)
    assert not isinstance(failed.value, WorkerKilled)
    workers.kill()
    assert multiprocessing.active_children() == []


def _crash(how: str) -> None:
    """A worker ending on its own, in the ways the kit's own faults end one."""
    import faulthandler

    if how == "raises":
        raise TypeError("no such place \x1b[31mred")
    if how == "exits":
        os._exit(3)
    faulthandler.disable()  # pytest's, inherited: the crash is said by the kit, or not at all
    os.kill(os.getpid(), signal.Signals[how])


@pytest.mark.parametrize(
    ("how", "said"),
    [
        ("SIGSEGV", "a worker process ended before it answered (SIGSEGV: it crashed)"),
        ("SIGABRT", "a worker process ended before it answered (SIGABRT: it crashed)"),
        ("exits", "a worker process ended before it answered (exit code 3)"),
        ("raises", "a worker's judging raised TypeError: no such place \\x1b[31mred"),
    ],
)
def test_check_trace_stops_plainly_when_a_worker_crashes_on_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], how: str, said: str
) -> None:
    """A worker that crashes (or exits, or whose work raises outside any game) stops the run as a killed one does,
    without a traceback on the terminal: the reports of the games judged, a summary line saying it is the kit's fault,
    with the lines of the trace it was judging, the exit status 4, and no worker left."""
    import multiprocessing

    from conformance.cli import main
    from conformance.traces import checking

    judge_lines = checking.judge_lines

    def crashing(known: Any, batch: Any) -> Any:  # a worker's work, in the process the run forks
        if any(line.number == 7 for line in batch):
            _crash(how)
        return judge_lines(known, batch)

    monkeypatch.setattr(checking, "judge_lines", crashing)
    monkeypatch.setattr(checking, "BATCH", 2)  # batches of lines 1-2, 3-4, 5-6, 7-8: two answered before the crash
    trace = tmp_path / "games.jsonl"
    game = {"variant": "briscola-2p", "setup": {"dealer": 0, "deck": ["AC", "3C", "KC", "QC", "JC", "2D", "7H", "rest"]},
            "actions": []}  # fmt: skip
    trace.write_text("".join(json.dumps({**game, "game": n}) + "\n" for n in range(10)), encoding="utf-8")
    status = main(["check-trace", "--jobs", "2", str(trace), "--report-dir", str(tmp_path / "r")])
    out, err = capsys.readouterr()
    assert status == 4, out + err
    assert multiprocessing.active_children() == []
    assert "Traceback" not in out and "\x1b" not in out + err, out + err
    assert err.count("Traceback (most recent call last):") == (how == "raises"), err
    stopped = (f"stopped after 6 games: {said} judging the lines {trace}:7 to {trace}:8, a fault of the kit's, "
               "not the engine's: please report it with those lines")  # fmt: skip
    assert stopped in out.splitlines(), out
    summary = json.loads((tmp_path / "r" / "summary.json").read_text(encoding="utf-8"))
    assert summary["counts"] == {"pass": 6} and summary["stopped_early"] == "the run stopped before its end: 6 games judged"


def test_check_trace_s_workers_a_failed_start_ends_those_started_and_says_why() -> None:
    """A worker that cannot be started (no memory to fork) fails the start with its error, and the workers started
    before it are ended; the one never started is not waited for."""
    import multiprocessing

    from conformance.traces.workers import Workers

    fork = multiprocessing.get_context("fork")
    started: list[int] = []

    class FailingSecond(fork.Process):  # type: ignore[name-defined,misc]
        def start(self) -> None:
            started.append(1)
            if len(started) == 2:
                raise OSError("cannot fork")
            super().start()

    context = type("Context", (), {"Pipe": staticmethod(fork.Pipe), "Process": FailingSecond})()
    with pytest.raises(OSError, match="cannot fork"):
        Workers(context, 3, _slow_square).start()
    assert len(started) == 2 and multiprocessing.active_children() == []


_PARENT_OF_WORKERS = """
import multiprocessing, sys, time
from conformance.traces.workers import Workers

def square(n):
    return n * n

workers = Workers(multiprocessing.get_context("fork"), 2, square)
workers.start()
results = workers.results(iter(range(2)))
assert [next(results), next(results)] == [0, 1]
print(*(child.pid for child in multiprocessing.active_children()), flush=True)
time.sleep(120)  # the workers wait for a batch meanwhile
"""


def _running(pid: int) -> bool:
    """Whether a process runs (a zombie, ended and waiting to be reaped, does not)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    except OSError:
        return False
    return "\nState:\tZ" not in status


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads processes' states in /proc")
def test_check_trace_s_workers_end_when_their_parent_is_killed_outright() -> None:
    """A run killed outright (SIGKILL: nothing of it runs to end its workers) leaves no worker waiting for a batch
    that will never come: each sees its pipe close and ends."""
    parent = subprocess.Popen([sys.executable, "-c", _PARENT_OF_WORKERS], stdout=subprocess.PIPE, text=True, cwd=kitdata.root())
    workers: list[int] = []
    try:
        assert parent.stdout is not None
        workers = [int(pid) for pid in parent.stdout.readline().split()]
        assert len(workers) == 2, workers
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_running(pid) for pid in workers):
            time.sleep(0.05)
        assert not [pid for pid in workers if _running(pid)], "workers left running after their parent was killed"
    finally:
        parent.kill()
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _starts_engines(engines: Any, argv: list[str], pids: Path, count: int) -> None:
    """A fuzz worker's part: ``count`` engines started and kept running, each up with its child, then the worker
    killed as the system kills one, its engines running."""
    engines.publish()
    for n in range(1, count + 1):
        engine_process.EngineProcess(argv)  # listed among the live engines: never ended here
        while len(list(pids.glob("child-*"))) < n:
            time.sleep(0.01)
    os.kill(os.getpid(), signal.SIGKILL)


@pytest.mark.skipif(sys.platform == "win32", reason="fork, and engines ended by their process groups")
def test_a_fuzz_worker_never_runs_an_engine_its_campaign_could_not_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker starting more engines at once than it can list for its campaign ends the one that finds no slot, and
    itself, saying why (the campaign then says it stopped); the campaign ends those listed: none outlives the worker."""
    import multiprocessing

    from conformance.fuzz import worker_engines

    monkeypatch.setattr(worker_engines, "SLOTS", 2)
    context = multiprocessing.get_context("fork")
    engines = worker_engines.WorkerEngines(context)
    worker = context.Process(target=_starts_engines, args=(engines, engine(tmp_path, "hang"), tmp_path / "pids", 3))
    try:
        worker.start()
        worker.join(60)
        engines.end()  # as the campaign does once its worker has ended
        assert_nothing_left(tmp_path, each_started_its_child=False)
        assert worker.exitcode == worker_engines.NO_SLOT
    finally:
        if worker.is_alive():
            worker.kill()
        end_started(tmp_path)
