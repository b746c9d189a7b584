"""In-process Python engines run under the timeout too: a stuck call is a timeout for its scenario,
the run goes on (or gives up after a few in a row), and the stuck thread never holds up the kit's end.
What such an engine returns is read as a served engine's line is, and what it prints is kept from
the kit's own output."""

from __future__ import annotations

import gc
import io
import json
import os
import re
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

import hostile_engines
import pytest
from conftest import BackgroundRuns, first_three_player_scenario
from hostile_engines import (
    LOUD,
    NOT_JSON,
    ChangesDirectory,
    Chatty,
    ExitsOnPlay,
    ExitsOnSetup,
    ExitsWithText,
    HangsAlways,
    Loud,
    RaisesBeyondException,
    RaisesUnreadably,
    Replaces,
    ReportsOddly,
)

from conformance.cli import EXIT_ENGINE, main
from conformance.engines import engine_output, serve
from conformance.engines.adapter import InProcessAdapter, open_engine
from conformance.run import runlog, runner
from conformance.run.verify import verify
from conformance.suite import scenarios
from conformance.vocabulary import ErrorKind, Outcome
from specreader import kitdata


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


@pytest.mark.parametrize("timeout", [5.0, None])
def test_sys_exit_in_an_engine_is_a_failure_of_its_step_not_a_hang(timeout: float | None) -> None:
    """As the adapter guide says of any exception: in ``new`` a setup error, in ``apply`` a crash."""
    scenario = _a_scenario_with_actions()
    began = time.monotonic()
    on_setup = runner.run(InProcessAdapter(ExitsOnSetup.new, {"name": "exits"}, ["albastini-2p"], timeout=timeout), scenario)
    on_play = runner.run(InProcessAdapter(ExitsOnPlay.new, {"name": "exits"}, ["albastini-2p"], timeout=timeout), scenario)
    assert on_setup.outcome is Outcome.ERROR and on_setup.error is not None
    assert on_setup.error.kind is ErrorKind.SETUP and on_setup.error.message == "SystemExit: 5"
    assert on_play.outcome is Outcome.ERROR and on_play.error is not None and on_play.error.kind is ErrorKind.CRASH
    assert on_play.error.message == f"on {scenario.actions()[0]}: SystemExit: 6"
    assert time.monotonic() - began < 2


def test_a_stuck_thread_does_not_hold_up_the_end_of_verify(background: BackgroundRuns) -> None:
    run = background["stuck thread"]  # its engine never returns from its one scenario
    out, err = run.process.communicate(timeout=30)  # it ends, though its engine's thread sleeps for an hour
    assert run.process.returncode == 1, out + err
    assert "Traceback" not in out + err
    assert f"TIMEOUT {first_three_player_scenario()}" in out and out.strip().endswith("0 passed, 1 failed")
    footer = runlog.read(run.folder / "reports" / "run.jsonl").footer
    assert footer is not None and footer["seconds"] < 5


def test_a_thread_an_engine_leaves_running_does_not_hold_up_the_end_of_the_kit(background: BackgroundRuns) -> None:
    run = background["thread left"]
    out, err = run.process.communicate(timeout=30)  # it ends, though its engine's thread, no daemon, sleeps for an hour
    assert run.process.returncode == 0, out + err
    assert out.strip().endswith("1 passed, 0 failed") and (run.folder / "reports" / "summary.json").is_file()
    assert "note: 1 thread(s) an engine started still run; the process ends without waiting for them" in err


def test_a_thread_an_engine_leaves_running_does_not_hold_up_the_end_of_pytest(tmp_path: Path) -> None:
    """pytest's process is not the kit's: its status is the session's, and the program's own threads
    are waited for (one started while the engine is open is given a few seconds)."""
    (tmp_path / "test_own.py").write_text(textwrap.dedent("""
        import threading, time
        from pathlib import Path

        def test_the_program_s_own_thread_is_waited_for():
            threading.Thread(target=lambda: (time.sleep(0.5), Path("waited for").touch()), daemon=False).start()

        def test_fails():
            assert False
    """), encoding="utf-8")
    scenario = first_three_player_scenario()
    ran = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--engine", "hostile_engines:LeavesAThread",
         "test_own.py", str(kitdata.scenarios_dir()), "-k", f"{scenario.rsplit('/', 1)[1]} or own or fails"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])},
    )
    assert ran.returncode == pytest.ExitCode.TESTS_FAILED, ran.stdout + ran.stderr
    assert re.search(r"^1 failed, [2-9] passed", ran.stdout, re.MULTILINE), ran.stdout
    assert re.search(r"note: [1-9] thread\(s\) an engine started still run; the process ends without waiting", ran.stderr)
    assert (tmp_path / "waited for").exists()


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


def _a_scenario_with_actions() -> scenarios.Scenario:
    return next(s for s in chosen() if s.actions())


@pytest.mark.parametrize("timeout", [5.0, None])
def test_what_an_in_process_engine_prints_goes_with_its_crash_not_to_the_terminal(
    timeout: float | None, capsys: pytest.CaptureFixture[str]
) -> None:
    adapter = InProcessAdapter(Loud.new, {"name": "loud"}, ["albastini-2p"], timeout=timeout)
    verdict = runner.run(adapter, _a_scenario_with_actions())
    out, err = capsys.readouterr()
    assert out == err == ""
    assert verdict.error is not None and verdict.error.kind is ErrorKind.CRASH
    shown = "\\x1b[2J\\x1b]0;pwned\\x07loud"
    said, _, printed = verdict.error.message.partition("; it printed: ")
    assert said.endswith("RuntimeError: loud and broken")
    assert printed.startswith(f"{shown} in new | {shown} on stderr | ")
    assert printed.endswith(f"{shown} about to apply | last words")
    assert "\x1b" not in verdict.error.message


def test_an_engine_that_closes_the_kit_s_streams_leaves_verify_its_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["verify", "--engine", "hostile_engines:Loud", "--scenario", _a_scenario_with_actions().id,
                 "--report-dir", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 1 and out.rstrip().endswith("0 passed, 1 failed")
    assert LOUD not in out + err and "\x1b" not in out + err
    assert out.count("last words") == 1 and "about to apply | last words\n" in out  # in the crash's reason alone
    (line,) = runlog.read(tmp_path / "run.jsonl").scenarios
    assert line["error"] is not None and line["error"].endswith("about to apply | last words")


def test_a_timeout_says_what_the_engine_printed_before_it_stalled(monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(Loud, "hang_after", 2.0)
    adapter = InProcessAdapter(Loud.new, {"name": "loud"}, ["albastini-2p"], timeout=0.3)
    verdict = runner.run(adapter, _a_scenario_with_actions())
    assert verdict.error is not None and verdict.error.kind is ErrorKind.TIMEOUT
    assert verdict.error.message.endswith("about to apply")
    print("the kit's own line")  # the stalled thread still runs: the kit's writes pass
    assert capsys.readouterr().out == "the kit's own line\n"


def test_an_engine_served_from_python_keeps_its_prints_off_the_protocol(monkeypatch: pytest.MonkeyPatch) -> None:
    """Served on ``sys.stdout`` itself, as a script serving its engine does: what the engine prints there
    would be lines of the protocol."""
    scenario = _a_scenario_with_actions()
    requests = [{"cmd": "start", "protocol": 1}, {"cmd": "run", **runner.request_for(scenario)}, {"cmd": "stop"}]
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    serve.serve(io.StringIO("".join(json.dumps(r) + "\n" for r in requests)), sys.stdout,
                InProcessAdapter(Loud.new, {"name": "loud"}, ["albastini-2p"]))
    started, answer = (json.loads(line) for line in out.getvalue().splitlines())
    assert started["started"] is True and answer["id"] == scenario.id
    assert answer["error"]["kind"] == "crash" and "it printed: " in answer["error"]["message"]


class _LoudAdapter:
    """A Python adapter (``--engine module:factory``) that prints as it works."""

    def hello(self) -> dict[str, object]:
        print(LOUD, "hello")
        return {"name": "loud adapter", "variants": ["albastini-2p"]}

    def run(self, request: dict[str, object]) -> object:
        sys.stderr.write(f"{LOUD} run\n")
        return {"id": request["id"], "error": {"kind": "setup", "message": "not today"}}

    def close(self) -> None:
        print(LOUD, "close")


def test_what_a_python_adapter_prints_stays_out_of_the_kit_s_output(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["verify", "--engine", f"{__name__}:_LoudAdapter", "--scenario", _a_scenario_with_actions().id])
    out, err = capsys.readouterr()
    assert code == 1 and out.rstrip().endswith("0 passed, 1 failed") and "setup: not today" in out
    assert LOUD not in out + err and "\x1b" not in out + err
    assert "\nengine: loud adapter · spec " in out  # no version given, none shown


@pytest.fixture
def no_engine_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """The routing as if no in-process engine were open: other tests' may be, left to the collector or stuck. Those
    left to the collector are closed first, so that none is closed by a collection during the test."""
    gc.collect()
    monkeypatch.setattr(engine_output, "_routing", None)


def test_output_kept_within_output_kept_goes_to_the_inner_block_then_the_outer_again(
    capsys: pytest.CaptureFixture[str], no_engine_open: None
) -> None:
    """A Python adapter driving an in-process engine on the same thread: each keeps its own lines."""
    outer, inner = engine_output.Printed(), engine_output.Printed()
    engine_output.opened()
    with engine_output.request(), engine_output.prints_to(outer):
        print("a")
        with engine_output.prints_to(inner):
            print("b", file=sys.stderr)
        print("c")
        with pytest.raises(TypeError, match="write\\(\\) argument must be str, not bytes"):
            sys.stdout.write(b"d")  # type: ignore[arg-type]  # as a text stream refuses it, keeping nothing
    print("the kit")
    engine_output.closed()
    assert (outer.tail(), inner.tail()) == ("; it printed: a | c", "; it printed: b")
    assert capsys.readouterr().out == "the kit\n"


@pytest.mark.parametrize("stream", [hostile_engines._Raiser, lambda: None], ids=["a stream that raises", "None"])
def test_an_engine_that_replaces_the_kit_s_streams_and_stalls_leaves_verify_its_output_and_reports(
    stream: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(Replaces, "stream", staticmethod(stream))
    code = main(["verify", "--engine", "hostile_engines:Replaces", "--timeout", "0.3",
                 "--scenario", _a_scenario_with_actions().id, "--report-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1 and out.rstrip().endswith("0 passed, 1 failed") and f"TIMEOUT {_a_scenario_with_actions().id}" in out
    assert {p.name for p in tmp_path.iterdir()} >= {"run.jsonl", "report.md", "junit.xml", "summary.json", "badge.json"}


def test_the_kit_with_no_standard_output_runs_an_engine_that_stalls(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``trickspec verify >&-``: Python's sys.stdout is None, and print() writes nothing."""
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(Loud, "hang_after", 1.0)
    code = main(["verify", "--engine", "hostile_engines:Loud", "--timeout", "0.3",
                 "--scenario", _a_scenario_with_actions().id, "--report-dir", str(tmp_path)])
    assert code == 1 and runlog.read(tmp_path / "run.jsonl").scenarios[0]["outcome"] == "timeout"


def test_what_an_engine_s_own_threads_print_stays_out_of_the_kit_s_output(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["verify", "--engine", "hostile_engines:Chatty", "--scenario", _a_scenario_with_actions().id])
    Chatty.wait_for_chatters()
    print("the kit, after")
    out, err = capsys.readouterr()
    assert code == 1 and "chatty and broken" in out and "from the engine's own thread" in out  # in the crash's tail
    assert LOUD not in out + err and out.endswith("the kit, after\n")


def test_a_served_python_engine_s_stray_prints_go_to_standard_error_not_the_protocol(tmp_path: Path) -> None:
    """Prints from a thread the engine started go to the routers; a logging handler made at import holds
    the process's own standard output, which serve has pointed at standard error."""
    script = tmp_path / "serve_chatty.py"
    script.write_text(textwrap.dedent("""
        import logging, sys
        logging.basicConfig(stream=sys.stdout, level=logging.INFO, format="%(message)s")
        from hostile_engines import Chatty
        from conformance.engines.adapter import InProcessAdapter
        from conformance.engines.serve import serve

        class Logged(Chatty):
            def apply(self, action):
                logging.info("logged by the engine")
                return super().apply(action)

        serve(sys.stdin, sys.stdout, InProcessAdapter(Logged.new, {"name": "chatty"}, ["albastini-2p"]))
    """), encoding="utf-8")
    scenario = _a_scenario_with_actions()
    ran = _serve_script(script, [{"cmd": "start", "protocol": 1}, {"cmd": "run", **runner.request_for(scenario)}])
    lines = ran.stdout.splitlines()
    assert [json.loads(line).get("id") for line in lines] == [None, scenario.id], ran.stdout
    assert "logged by the engine" in ran.stderr


def test_an_engine_cannot_re_encode_or_take_the_kit_s_stream(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["verify", "--engine", "hostile_engines:Reconfigures", "--scenario", _a_scenario_with_actions().id])
    out = capsys.readouterr().out
    assert code == 1 and out.rstrip().endswith("0 passed, 1 failed") and "· spec " in out  # the kit's own line, intact
    assert "| é, after reconfigure | é, to the buffer | é, detached\n" in out  # the crash's tail


def test_a_program_thread_that_ended_lends_no_ident_to_an_engine_opened_beside_another(
    no_engine_open: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thread idents are reused: an ended thread of the program's, still counted as the program's, would hand
    that standing to a thread the next engine starts with its ident, whose prints would then reach the kit."""
    saved = sys.stdout, sys.stderr, sys.stdin
    ended = threading.Thread(target=lambda: None)
    ended.start()
    ended.join()
    assert ended.ident is not None
    # The threads running, as the kit sees them, held still: other tests leave engine threads that start threads,
    # one of which may take the ended thread's ident meanwhile.
    running = set(sys._current_frames()) - {ended.ident}
    monkeypatch.setattr(engine_output, "_threads", lambda: set(running))
    try:
        engine_output.opened()
        routing = engine_output._routing
        assert routing is not None
        routing.before.add(ended.ident)  # as if it had run when the first engine opened
        engine_output.opened()  # a second engine, the first still open
        assert ended.ident not in routing.before and threading.get_ident() in routing.before
        engine_output.closed()
        engine_output.closed()
    finally:
        sys.stdout, sys.stderr, sys.stdin = saved


def test_closing_the_engine_takes_the_kit_s_streams_back_from_an_engine_s_thread(no_engine_open: None) -> None:
    """An engine's thread that silences ``sys.stdout`` (``redirect_stdout``) past the end of the run
    would silence the kit's summary; once it has ended, the kit's own stream is back."""
    saved, kit = (sys.stdout, sys.stderr, sys.stdin), io.StringIO()
    sys.stdout = kit
    try:
        engine_output.opened()
        still_running = threading.Event()
        engine_thread = threading.Thread(target=still_running.wait, daemon=True)
        engine_thread.start()
        sys.stdout = io.StringIO()  # what the engine's thread put there
        engine_output.closed()
        print("the kit, its engine's thread running")
        still_running.set()
        engine_thread.join()
        engine_output.opened()
        engine_output.closed()
        print("the kit, after")
    finally:
        sys.stdout, sys.stderr, sys.stdin = saved
    assert kit.getvalue() == "the kit, its engine's thread running\nthe kit, after\n"


def test_what_a_thread_started_below_threading_prints_stays_out_too(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["verify", "--engine", "hostile_engines:RawChatty", "--scenario", _a_scenario_with_actions().id])
    Chatty.wait_for_chatters()
    out, err = capsys.readouterr()
    assert code == 1 and LOUD not in out + err


def test_to_an_engine_the_kit_s_terminal_is_no_terminal(no_engine_open: None) -> None:
    """Nor is its standard input anything but at its end: ``input()`` neither waits on the keyboard nor
    takes what was meant for the kit."""

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    saved = sys.stdout, sys.stderr, sys.stdin
    sys.stdout = sys.stderr = Terminal()
    sys.stdin = Terminal("the kit's own line\n")
    try:
        engine_output.opened()
        with engine_output.request():
            kit_sees = sys.stdout.isatty(), sys.stdin.isatty()
            with engine_output.prints_to(engine_output.Printed()):
                engine_sees = sys.stdout.isatty(), sys.stdin.isatty()
                with pytest.raises(EOFError):
                    input("a prompt nobody sees> ")
            kit_reads = sys.stdin.readline()
        engine_output.closed()
    finally:
        sys.stdout, sys.stderr, sys.stdin = saved
    assert (kit_sees, engine_sees, kit_reads) == ((True, True), (False, False), "the kit's own line\n")


def test_a_served_engine_reading_its_input_takes_no_request(tmp_path: Path) -> None:
    """The kit sends requests ahead; one an engine read would shift every answer after it."""
    script = tmp_path / "serve_reader.py"
    script.write_text(textwrap.dedent("""
        import sys
        from hostile_engines import ReadsInput
        from conformance.engines.adapter import InProcessAdapter
        from conformance.engines.serve import serve

        serve(sys.stdin, sys.stdout, InProcessAdapter(ReadsInput.new, {"name": "reader"}, ["albastini-2p"]))
    """), encoding="utf-8")
    chosen = [s for s in scenarios.kit_scenarios() if s.variant == "albastini-2p" and s.actions()][:3]
    ran = _serve_script(script, [{"cmd": "start", "protocol": 1}] + [{"cmd": "run", **runner.request_for(s)} for s in chosen])
    answers = [json.loads(line) for line in ran.stdout.splitlines()][1:]
    assert [a["id"] for a in answers] == [s.id for s in chosen] and not any("error" in a for a in answers), ran.stdout


def test_sys_exit_with_a_message_in_new_is_a_setup_error_without_a_code() -> None:
    """``SystemExit.code`` is its exit status, not a refusal code a scenario might expect."""
    verdict = runner.run(InProcessAdapter(ExitsWithText.new, {"name": "exits"}, ["albastini-2p"]), chosen()[0])
    assert verdict.error is not None and verdict.error.kind is ErrorKind.SETUP
    assert verdict.error.code is None and verdict.error.message == "SystemExit: invalid_setup"


class _Pipelined:
    """A Python adapter that answers many requests at once (``run_many``), as a served engine's does."""

    calls: ClassVar[list[str]] = []

    def hello(self) -> dict[str, object]:
        return {"name": "pipelined", "variants": ["albastini-2p"]}

    def run(self, request: dict[str, object]) -> object:
        _Pipelined.calls.append("run")
        return {"id": request["id"], "error": {"kind": "setup", "message": "one at a time"}}

    def run_many(self, requests: Any, window: int = 16) -> Any:
        for request in requests:
            _Pipelined.calls.append("run_many")
            print(LOUD, "in run_many")
            yield {"id": request["id"], "error": {"kind": "setup", "message": "all at once"}}

    def close(self) -> None:
        pass


def test_a_python_adapter_s_run_many_is_still_used_and_its_prints_dropped(capsys: pytest.CaptureFixture[str]) -> None:
    _Pipelined.calls.clear()
    code = main(["verify", "--engine", f"{__name__}:_Pipelined", "--variant", "albastini-2p"])
    out, err = capsys.readouterr()
    assert code == 1 and "setup: all at once" in out and "one at a time" not in out
    assert set(_Pipelined.calls) == {"run_many"} and LOUD not in out + err


def test_a_thread_an_engine_s_module_starts_as_it_is_imported_is_the_engine_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "chatty_at_import.py").write_text(textwrap.dedent("""
        import threading, time
        from hostile_engines import Loud

        stop, done = threading.Event(), threading.Event()

        def chatter():  # until the test stops it, once the kit has returned
            for _ in range(3000):
                print("\\x1b[2J from a thread started at import")
                if stop.wait(0.01):
                    break
            done.set()

        threading.Thread(target=chatter, daemon=True).start()
        Engine = Loud
    """), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    code = main(["verify", "--engine", "chatty_at_import:Engine", "--scenario", _a_scenario_with_actions().id])
    chatty = sys.modules["chatty_at_import"]
    chatty.stop.set()
    assert chatty.done.wait(30)  # the thread has printed all it will
    out, err = capsys.readouterr()
    assert code == 1 and "started at import" not in out + err


def test_a_program_s_own_threads_print_after_the_kit_returns_though_an_engine_s_still_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], no_engine_open: None
) -> None:
    """A program that calls the kit: its threads started after the run are its own, not the engine's."""
    monkeypatch.setattr(Loud, "hang_after", 2.0)  # its thread, timed out, still runs when the kit returns
    code = main(["verify", "--engine", "hostile_engines:Loud", "--timeout", "0.3", "--scenario", _a_scenario_with_actions().id])
    program = threading.Thread(target=lambda: print("the program's own thread"))
    program.start()
    program.join()
    assert code == 1 and capsys.readouterr().out.endswith("0 passed, 1 failed\nthe program's own thread\n")


def test_a_served_engine_made_by_a_function_prints_at_import_to_standard_error(tmp_path: Path) -> None:
    (tmp_path / "noisy_engine.py").write_text('print("imported, noisily")\nfrom hostile_engines import Loud as Engine\n')
    script = tmp_path / "serve_noisy.py"
    script.write_text(textwrap.dedent("""
        import sys
        from conformance.engines.adapter import InProcessAdapter
        from conformance.engines.serve import serve

        def adapter():
            from noisy_engine import Engine
            return InProcessAdapter(Engine.new, {"name": "noisy"}, ["albastini-2p"])

        serve(sys.stdin, sys.stdout, adapter)
    """), encoding="utf-8")
    scenario = _a_scenario_with_actions()
    ran = _serve_script(script, [{"cmd": "start", "protocol": 1}, {"cmd": "run", **runner.request_for(scenario)}])
    assert [json.loads(line).get("id") for line in ran.stdout.splitlines()] == [None, scenario.id], ran.stdout
    assert "imported, noisily" in ran.stderr


def test_a_refusal_whose_code_is_no_json_is_a_crash_of_its_scenario_alone(tmp_path: Path) -> None:
    code = main(["verify", "--engine", "hostile_engines:RefusesWithEnum", "--scenario", chosen()[0].id,
                 "--scenario", chosen()[2].id, "--report-dir", str(tmp_path)])
    lines = runlog.read(tmp_path / "run.jsonl").scenarios
    assert code == 1 and [line["outcome"] for line in lines] == ["error", "error"]
    assert all(line["error"].startswith("crash: ") and "refusal" in line["error"] for line in lines), lines


def test_an_engine_that_exits_as_it_is_imported_is_unusable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "exits_at_import.py").write_text("import sys\nsys.exit(4)\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    code = main(["verify", "--engine", "exits_at_import:Engine", "--scenario", chosen()[0].id])
    err = capsys.readouterr().err
    assert code == EXIT_ENGINE and "it exited while it was loaded (SystemExit: 4)" in err, err


def test_to_an_engine_standard_input_s_bytes_are_at_their_end(no_engine_open: None) -> None:
    """Its ``buffer``, and what ``detach()`` gives, would read the kit's own input (served: its requests)."""
    saved = sys.stdout, sys.stderr, sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(b"the kit's own line\n"), encoding="utf-8")
    try:
        engine_output.opened()
        with engine_output.request(), engine_output.prints_to(engine_output.Printed()):
            engine_reads = sys.stdin.buffer.read(), sys.stdin.buffer.readline(), sys.stdin.detach().readline()
        kit_reads = sys.stdin.buffer.readline()
        engine_output.closed()
    finally:
        sys.stdout, sys.stderr, sys.stdin = saved
    assert (engine_reads, kit_reads) == ((b"", b"", b""), b"the kit's own line\n")


class _ClosesBadly:
    """A Python adapter whose close fails, once the run is judged."""

    failure: ClassVar[BaseException] = RuntimeError("the engine's connection is gone")

    def hello(self) -> dict[str, object]:
        return {"name": "closes badly", "variants": ["albastini-2p"]}

    def run(self, request: dict[str, object]) -> object:
        return {"id": request["id"], "error": {"kind": "setup", "message": "not today"}}

    def close(self) -> None:
        raise self.failure


@pytest.mark.parametrize("failure", [RuntimeError("the engine's connection is gone"), SystemExit(7)])
def test_a_python_adapter_whose_close_fails_still_has_its_reports_written(
    failure: BaseException, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(_ClosesBadly, "failure", failure)
    code = main(["verify", "--engine", f"{__name__}:_ClosesBadly", "--scenario", chosen()[0].id,
                 "--report-dir", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 1 and out.rstrip().endswith("0 passed, 1 failed")
    assert f"note: the adapter's close failed: {type(failure).__name__}: " in err, err
    assert runlog.read(tmp_path / "run.jsonl").footer is not None
    assert {p.name for p in tmp_path.iterdir()} >= {"run.jsonl", "report.md", "junit.xml", "summary.json"}


def test_an_engine_that_changes_directory_leaves_relative_output_paths_where_they_were_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "started").mkdir()
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "started")  # and back to where the tests run, whatever the engine did
    monkeypatch.setattr(ChangesDirectory, "to", tmp_path / "elsewhere")
    code = main(["verify", "--engine", "hostile_engines:ChangesDirectory", "--scenario", chosen()[0].id,
                 "--report-dir", "reports", "--save-expectations", "expected.yaml"])
    out = capsys.readouterr().out
    assert code == 0 and "reports: reports/run.jsonl and reports/report.md" in out, out
    assert (tmp_path / "started" / "reports" / "run.jsonl").is_file()
    assert (tmp_path / "started" / "expected.yaml").is_file()
    assert list((tmp_path / "elsewhere").iterdir()) == []


@pytest.mark.parametrize("timeout", [5.0, None])
def test_a_base_exception_from_an_engine_is_a_crash_that_keeps_its_observations_and_prints(
    timeout: float | None
) -> None:
    adapter = InProcessAdapter(RaisesBeyondException.new, {"name": "beyond"}, ["albastini-2p"], timeout=timeout)
    answer = adapter.run(runner.request_for(_a_scenario_with_actions()))
    adapter.close()
    assert isinstance(answer, dict) and len(answer["observations"]) == 1  # the one before the action
    assert answer["error"]["kind"] == ErrorKind.CRASH
    assert answer["error"]["message"].endswith("_BeyondException: unwound; it printed: unwinding")


def _serve_script(script: Path, requests: list[dict[str, Any]]) -> subprocess.CompletedProcess[str]:
    """Run a script that serves an engine over the protocol, its requests sent at once; the hostile
    engines and the script's own folder importable."""
    path = [str(Path(__file__).parent), str(script.parent), os.environ.get("PYTHONPATH", "")]
    return subprocess.run([sys.executable, str(script)], input="".join(json.dumps(r) + "\n" for r in requests),
                          capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHONPATH": os.pathsep.join(path)})
