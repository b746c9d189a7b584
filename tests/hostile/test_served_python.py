"""A Python engine named with ``--engine module:name`` runs in a process of its own, served over the protocol:
whatever it does (hang, exit, print, report what no JSON line can carry, start threads and processes it never
ends) is reported against its scenario, never reaches the kit's output, and never outlives the run."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import HERE, TRICKSPEC
from hostile_engines import NOT_JSON, ReportsOddly

from conformance.cli import main
from conformance.commands.exits import EXIT_ENGINE, EXIT_FAILED
from conformance.engines.adapter import InProcessAdapter, open_engine
from conformance.run import runner
from conformance.suite import scenarios


@pytest.fixture(autouse=True)
def engines_importable(monkeypatch: pytest.MonkeyPatch) -> None:
    """The served engine's process finds hostile_engines as a user's finds their module: on its path."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]))


def first(variant: str) -> str:
    return next(s.id for s in scenarios.kit_scenarios() if s.variant == variant)


def verify(tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str, *more: str) -> tuple[int, str, str, dict[str, dict]]:
    """``trickspec verify --engine ENGINE``: the status, what it printed, and each scenario's line of the run log."""
    reports = tmp_path / "reports"
    status = main(["verify", "--engine", engine, "--report-dir", str(reports), *more])
    out, err = capsys.readouterr()
    log = reports / "run.jsonl"
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []
    return status, out, err, {line["id"]: line for line in lines if "id" in line and "outcome" in line}


def test_a_python_engine_runs_in_a_process_of_its_own(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _, lines = verify(tmp_path, capsys, "reference:Engine", "--variant", "albastini-2p")
    assert status == 0, out
    assert lines and all(line["outcome"] == "pass" for line in lines.values())
    header = json.loads((tmp_path / "reports" / "run.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert header["engine"]["name"] == "reference:Engine"


def test_a_stuck_engine_is_a_timeout_for_its_scenario_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    two, three = first("albastini-2p"), first("albastini-3p")
    status, _, _, lines = verify(
        tmp_path,
        capsys,
        "hostile_engines:HangsOnThreePlayers",
        "--timeout",
        "1",
        "--startup-timeout",
        "60",
        "--scenario",
        two,
        "--scenario",
        three,
    )
    assert status == EXIT_FAILED
    assert lines[three]["outcome"] == "timeout"
    assert lines[two]["outcome"] == "pass"


@pytest.mark.parametrize(
    ("engine", "reason"),
    [
        ("hostile_engines:ExitsOnPlay", "SystemExit: 6"),
        ("hostile_engines:RaisesBeyondException", "crash: on "),
        ("hostile_engines:RefusesWithEnum", "crash: the engine's answer is not JSON"),
        ("hostile_engines:RaisesUnreadably", "crash: on "),
    ],
)
def test_an_engine_s_failure_is_its_scenario_s(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str, reason: str
) -> None:
    chosen = next(s for s in scenarios.kit_scenarios() if s.variant == "albastini-2p" and s.steps)
    status, out, err, lines = verify(tmp_path, capsys, engine, "--scenario", chosen.id)
    assert status == EXIT_FAILED, out + err
    assert lines[chosen.id]["outcome"] == "error" and reason in lines[chosen.id]["error"], lines[chosen.id]
    assert "Traceback" not in out + err


def test_what_an_engine_prints_never_reaches_the_kit_s_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err, lines = verify(tmp_path, capsys, "hostile_engines:Loud", "--variant", "albastini-2p")
    assert status == EXIT_FAILED
    assert "\x1b" not in out + err and "pwned" not in out + err
    crashed = [line for line in lines.values() if line["outcome"] == "error"]
    assert crashed and all("\x1b" not in json.dumps(line) for line in crashed)


def test_an_engine_reading_its_input_takes_no_request(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chosen = next(s for s in scenarios.kit_scenarios() if s.variant == "albastini-2p" and s.steps)
    status, out, _, lines = verify(tmp_path, capsys, "hostile_engines:ReadsInput", "--scenario", chosen.id)
    assert status == 0, out
    assert lines[chosen.id]["outcome"] == "pass"


def test_an_engine_that_exits_as_it_is_imported_is_unusable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    module = tmp_path / "exits_at_import.py"
    module.write_text("import sys\nsys.exit(9)\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status, out, err, _ = verify(tmp_path, capsys, "exits_at_import:Engine")
    assert status == EXIT_ENGINE
    assert "engine unusable" in err and "SystemExit: 9" in err, err
    assert "Traceback" not in out + err


def test_a_module_in_the_current_folder_is_found_as_python_finds_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "my_engine.py").write_text("from reference import Engine\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status, out, err, _ = verify(tmp_path, capsys, "my_engine:Engine", "--variant", "albastini-2p")
    assert status == 0, out + err


def test_a_module_not_found_says_where_it_was_looked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    status, _, err, _ = verify(tmp_path, capsys, "no_such_engine:Engine")
    assert status == EXIT_ENGINE
    assert "no module named 'no_such_engine'" in err, err
    assert f"it is neither in the current folder ({tmp_path}) nor elsewhere on Python's path" in err and "PYTHONPATH" in err
    assert "Traceback" not in err


def test_the_engine_s_child_processes_end_with_the_run(tmp_path: Path) -> None:
    """``verify | cat`` ends: no process the engine started holds the kit's output open after the run."""
    chosen = first("albastini-2p")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    command = [
        *TRICKSPEC,
        "verify",
        "--engine",
        "hostile_engines:StartsAChild",
        "--scenario",
        chosen,
        "--report-dir",
        str(tmp_path / "r"),
    ]
    verify_run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    cat = subprocess.run(["cat"], stdin=verify_run.stdout, capture_output=True, timeout=120, check=False)
    assert verify_run.wait(timeout=60) == 0, cat.stdout
    assert b"1 passed, 0 failed" in cat.stdout


def test_in_process_loads_the_engine_into_the_kit_s_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "says_hello.py").write_text(
        "import os\nfrom reference import Engine as _Engine\n\n\nclass Engine:\n"
        "    @staticmethod\n    def new(variant, setup):\n        print('hello from', os.getpid())\n"
        "        return _Engine.new(variant, setup)\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    status, out, _, lines = verify(tmp_path, capsys, "says_hello:Engine", "--in-process", "--scenario", first("albastini-2p"))
    assert f"hello from {os.getpid()}" in out  # no isolation at all, as the option's help says
    assert status == 0 and lines


def test_a_module_in_the_current_folder_is_found_in_process_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "my_engine_here.py").write_text("from reference import Engine\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(tmp_path))])
    status, out, err, _ = verify(tmp_path, capsys, "my_engine_here:Engine", "--variant", "albastini-2p", "--in-process")
    assert status == 0, out + err


@pytest.mark.parametrize("name", sorted(NOT_JSON))
def test_an_in_process_engine_s_value_no_protocol_line_carries_is_an_error_of_its_scenario(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loaded into the kit's process, an engine's answer meets the limits a served one's line meets: a value no JSON
    line carries, or one beyond the kit's limits, is its scenario's error, located, never a traceback; and the run
    log and the expectation file written of it are ones the kit reads back."""
    monkeypatch.setattr(ReportsOddly, "value", staticmethod(NOT_JSON[name]))
    chosen, saved = first("albastini-2p"), tmp_path / "expected.yaml"
    status, out, err, lines = verify(
        tmp_path, capsys, "hostile_engines:ReportsOddly", "--in-process", "--scenario", chosen, "--save-expectations", str(saved)
    )
    assert status == EXIT_FAILED, out + err
    said = lines[chosen]["error"]
    assert lines[chosen]["outcome"] == "error"
    assert said.startswith(("crash: the engine's answer is not JSON: expected a JSON value", "malformed: expected ")), said
    if name not in ("a nesting deeper than any line's", "a nesting deeper than the recursion limit"):
        assert re.search(r" at \$\.observations\[\d+\]\.snapshot\.to_act(\[0\])?$", said), said
    assert main(["report", str(tmp_path / "reports" / "run.jsonl"), "--format", "badge"]) == 0  # read back: 2 if refused
    assert '"0/1 passed"' in capsys.readouterr().out
    status, out, err, lines = verify(
        tmp_path, capsys, "hostile_engines:ReportsOddly", "--in-process", "--scenario", chosen, "--expect", str(saved)
    )
    assert status == 0 and lines[chosen]["outcome"] == "xfail", out + err


@pytest.mark.parametrize("command", ["verify", "fuzz"])
def test_an_in_process_engine_whose_close_raises_is_warned_of_and_its_verdicts_stand(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its close is the engine's own code: what it raises, once the run is judged, is said as a warning, made safe,
    and the run ends with the status its verdicts give, never a traceback."""
    more = ["--scenario", first("bisca-2p")] if command == "verify" else ["--variant", "bisca-2p", "--deals", "3"]
    status = main([command, "--engine", "hostile_engines:ClosesBadly", "--in-process", *more])
    out, err = capsys.readouterr()
    assert status == 0, out + err
    assert "warning: the engine's close() raised RuntimeError: cannot close \\x1b[31mred" in err, err
    assert "Traceback" not in out + err and "\x1b" not in out + err


def test_an_in_process_engine_whose_handshake_no_line_carries_is_unusable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As served, where its hello() could not be sent: the run never starts, and says where the value is."""
    status, out, err, _ = verify(tmp_path, capsys, "hostile_engines:HelloOddly", "--in-process", "--game", "bisca")
    assert status == 3, out + err
    assert "engine unusable: the engine's hello() is not JSON the protocol carries: expected a JSON value, found a " \
        "value of type set at $.version" in err


def test_the_kit_s_own_engine_in_process_is_not_read_again() -> None:
    """The reference's answers are JSON by construction: held to the protocol's limits only when a user names an
    engine to load, so the kit's own runs cost no second reading."""
    from conformance.engines.protocol import InProcessChecked

    assert type(open_engine()) is InProcessAdapter
    assert type(open_engine("reference:Engine", in_process=True)) is InProcessChecked


def test_a_served_engine_s_value_no_json_line_carries_is_located(monkeypatch: pytest.MonkeyPatch) -> None:
    """Served, the same value is a crash of its scenario that says where in the answer it is, as in process."""
    from conformance.engines import serve

    monkeypatch.setattr(ReportsOddly, "value", staticmethod(NOT_JSON["a set"]))
    chosen = next(s for s in scenarios.kit_scenarios() if s.variant == "albastini-2p")
    answer = serve._answer(InProcessAdapter(ReportsOddly.new, {"name": "odd"}, ["albastini-2p"]), runner.request_for(chosen))
    assert isinstance(answer, dict) and answer["error"]["kind"] == "crash"
    assert re.fullmatch(
        r"the engine's answer is not JSON: expected a JSON value, found a value of type set"
        r" at \$\.observations\[\d+\]\.snapshot\.to_act",
        answer["error"]["message"],
    ), answer
