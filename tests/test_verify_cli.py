"""`trickspec verify`, `report` and `smoke`: verdicts, exit codes, reports and expectation files."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
from pathlib import Path
from typing import Any, NoReturn
from xml.etree import ElementTree as ET

import pytest

from conformance.cli import main
from conformance.engines.adapter import Unsupported
from conformance.run import expectations, runlog
from conformance.suite import schemas
from conformance.vocabulary import Outcome
from reference.engine import Engine, compile_rules
from specreader.spec import variant

import junit_schema

SERVE = f"{sys.executable} -m conformance.engines.serve"

pytest_plugins = ["pytester"]  # pytest's own --engine-timeout, read in this process


class PlantedBug:
    """The reference engine with the queen ranked above the jack in every Albastini variant."""

    @classmethod
    def new(cls, variant_id: str, setup: dict[str, Any]) -> Engine:
        data = variant(variant_id)
        ranks = data["ranking"]["plain_order"].split()
        if "J" in ranks and "Q" in ranks:
            i, j = ranks.index("J"), ranks.index("Q")
            ranks[i], ranks[j] = ranks[j], ranks[i]
            data["ranking"]["plain_order"] = " ".join(ranks)
        return Engine(compile_rules(data), setup)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def test_reference_passes_and_writes_every_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "--game", "albastini", "--report-dir", str(tmp_path))
    assert code == 0
    closing = out.strip().splitlines()[-1]
    assert closing.endswith("passed, 0 failed") and int(closing.split()[0]) > 100
    assert "clause group" in out and "albastini.otea" in out
    log = runlog.read(tmp_path / "run.jsonl")
    assert log.footer is not None and log.counts()["pass"] == int(closing.split()[0])
    assert log.header["engine"]["name"] == "trickspec-reference"
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert not list(schemas.validator("summary").iter_errors(summary))
    badge = json.loads((tmp_path / "badge.json").read_text())
    assert not list(schemas.validator("badge").iter_errors(badge))
    assert badge["color"] == "brightgreen" and badge["message"].endswith("passed")
    junit_schema.validate(tmp_path / "junit.xml")
    suites = ET.parse(tmp_path / "junit.xml").getroot()
    assert sum(int(s.get("tests", "0")) for s in suites) == log.counts()["pass"]
    assert "**" + closing + "**" in (tmp_path / "report.md").read_text()


def test_planted_bug_fails_naming_the_clause(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "--engine", f"{__name__}:PlantedBug", "--clause", "albastini.cards.rank-order",
                       "--report-dir", str(tmp_path))
    assert code == 1
    assert "FAIL albastini/cards/" in out and "albastini.cards.rank-order" in out
    assert "expected" in out and "observed" in out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["failures"] and all(f["where"].startswith("scenarios/albastini/") for f in summary["failures"])
    badge = json.loads((tmp_path / "badge.json").read_text())
    assert badge["color"] == "red"


def test_expectation_file_round_trips(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "expect.yaml"
    code, out, _ = run(capsys, "verify", "--engine", f"{__name__}:PlantedBug", "--clause", "albastini.cards.rank-order",
                       "--save-expectations", str(saved))
    assert code == 1
    loaded = expectations.load(saved)
    assert loaded.entries and all(e.outcome == "fail" for e in loaded.entries.values())
    assert expectations.load(saved).entries == expectations.load(_rewrite(saved, tmp_path)).entries
    code, out, _ = run(capsys, "verify", "--engine", f"{__name__}:PlantedBug", "--clause", "albastini.cards.rank-order",
                       "--expect", str(saved))
    assert code == 0
    assert f"{len(loaded.entries)} xfail" in out.strip().splitlines()[-1]
    # The reference passes those scenarios: against the same file that is an unexpected pass.
    code, out, _ = run(capsys, "verify", "--clause", "albastini.cards.rank-order", "--expect", str(saved))
    assert code == 1
    assert "XPASS" in out and "but it passed" in out


def _rewrite(path: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "again.yaml"
    copy.write_text(expectations.dump(expectations.load(path)), encoding="utf-8")
    return copy


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One run's report folder, shared by the report tests (which only read it)."""
    folder = tmp_path_factory.mktemp("reports")
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["verify", "--scenario", "albastini/trick", "--report-dir", str(folder)]) == 0
    return folder


@pytest.mark.parametrize("fmt", ["md", "junit", "json", "badge"])
def test_report_renders_a_log(reports: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    code, out, _ = run(capsys, "report", str(reports / "run.jsonl"), "--format", fmt)
    assert code == 0
    assert out == (reports / {"md": "report.md", "junit": "junit.xml", "json": "summary.json",
                              "badge": "badge.json"}[fmt]).read_text()


def test_report_of_a_broken_log_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "run.jsonl"
    log.write_text('{"type": "header"}\nnot json\n', encoding="utf-8")
    code, _, err = run(capsys, "report", str(log))
    assert code == 2
    assert f"{log}:1:1: $: missing required key 'kit', 'spec_version', 'engine', 'options', 'started'\n" in err
    assert "'id'" not in err  # judged as the header it says it is, not as a scenario line
    assert f"{log}:2:1: $: expected a JSON object per line" in err


def test_exit_codes_for_bad_usage_and_unusable_engines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "verify", "--scenario", "no/such/scenario")[0] == 2
    bad = tmp_path / "expect.yaml"
    bad.write_text("engine: x\nspec_version: y\nexpectations: [{id: a, outcome: maybe, reason: r}]\n")
    code, _, err = run(capsys, "verify", "--expect", str(bad))
    assert code == 2 and f"{bad}:3:" in err
    code, _, err = run(capsys, "verify", "--engine-cmd", str(tmp_path / "missing-engine"))
    assert code == 3 and "engine unusable" in err


def test_smoke_accepts_the_served_reference(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "smoke", "--engine-cmd", SERVE)
    assert code == 0, out
    assert out.strip().splitlines()[-1] == "5 passed, 0 failed"
    assert "ok   one answer per request: no request answered twice" in out


def test_smoke_says_a_fault_of_the_kit_s_as_its_own(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Judging a trial's answer raising (a bug of the kit's) is no verdict on the engine and no traceback: the trial
    says the fault is the kit's, the traceback is shown once on standard error, and smoke exits 4."""
    from conformance.run import runner

    def judge(*_: object) -> NoReturn:
        raise TypeError("no such place \x1b[31mred")

    monkeypatch.setattr(runner, "judge", judge)
    code = main(["smoke", "--engine-cmd", SERVE])
    out, err = capsys.readouterr()
    assert code == 4, out + err
    assert "a fault of the kit's, not the engine's" in out and "TypeError: no such place \\x1b[31mred" in out, out
    assert "\x1b" not in out + err and "Traceback" not in out, out
    assert err.count("Traceback (most recent call last):") == 1, err


class CannotRefuse:
    """The reference engine, whose API (like many a published engine's) has no way to refuse an action: it says
    so with ``Unsupported`` rather than answer wrongly."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    @classmethod
    def new(cls, variant_id: str, setup: dict[str, Any]) -> CannotRefuse:
        from reference import Engine

        return cls(Engine.new(variant_id, setup))

    def legal_actions(self) -> list[dict[str, Any]]:
        return list(self.engine.legal_actions())

    def snapshot(self) -> dict[str, Any]:
        return dict(self.engine.snapshot())

    def apply(self, action: dict[str, Any]) -> object:
        if action not in self.engine.legal_actions():
            raise Unsupported("this engine has no way to refuse an action")
        return self.engine.apply(action)


def test_smoke_takes_unsupported_as_a_valid_answer(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    here = str(Path(__file__).parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([here, os.environ.get("PYTHONPATH", "")]))
    code, out, _ = run(capsys, "smoke", "--engine-cmd", f"{SERVE} --path={here} {__name__}:CannotRefuse")
    assert code == 0, out
    assert "this engine has no way to refuse an action (a valid answer)" in out
    assert out.strip().splitlines()[-1] == "5 passed, 0 failed"


def test_smoke_serves_a_python_engine_named_as_verify_names_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(Path(__file__).parent)  # where the engine's module is, as a user's own folder
    code, out, _ = run(capsys, "smoke", "--engine", f"{__name__}:CannotRefuse")
    assert code == 0, out
    assert "this engine has no way to refuse an action (a valid answer)" in out
    code, _, err = run(capsys, "smoke")
    assert code == 2 and "--engine module:name or --engine-cmd" in err
    code, _, err = run(capsys, "smoke", "--engine", "reference", "--engine-cmd", SERVE)
    assert code == 2 and "not both" in err


@pytest.mark.parametrize(
    "args",
    [
        ["smoke", "--engine-c", "python engine.py"],
        ["verify", "--engine-c", "python engine.py"],
        ["fuzz", "--engine-c", "python engine.py"],
        ["check-trace", "--report-d", "reports", "games.jsonl"],
    ],
)
def test_an_option_cut_short_is_no_other_option(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """``--engine`` where only ``--engine-cmd`` was taken was once read as it, and ran a program of that name."""
    with pytest.raises(SystemExit) as ended:
        main(args)
    assert ended.value.code == 2
    assert f"unrecognized arguments: {args[1]}" in capsys.readouterr().err


def test_a_failing_kit_scenario_is_placed_where_it_opens_from_the_user_s_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    mutant = f"{sys.executable} {Path(__file__).parent / 'serve_mutant.py'} off-suit-wins"
    monkeypatch.chdir(tmp_path)  # a project of the user's, no scenarios/ in it
    code, out, _ = run(capsys, "verify", "--engine-cmd", mutant, "--variant", "albastini-2p")
    assert code == 1
    places = re.findall(r"^FAIL \S+ \((.+):(\d+)\) \[", out, re.MULTILINE)
    assert places and all(Path(file).is_file() for file, _ in places), places


def test_a_command_written_for_a_shell_says_that_none_runs_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "verify", "--engine-cmd", "FOO=1 node engine.js")
    assert code == 3
    assert err.strip() == (
        "engine unusable: cannot start FOO=1 node engine.js: No such file or directory; the command is run without a"
        " shell: set a variable with env (env FOO=1 node engine.js)"
    )


def test_a_line_for_people_on_standard_output_is_said_to_belong_on_standard_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chatty = tmp_path / "chatty.py"
    chatty.write_text(
        "import runpy, sys\n"
        "sys.argv = ['serve']\n"
        "class Out:\n"
        "    def __init__(self, real): self.real = real\n"
        "    def write(self, text):\n"
        "        if text.startswith('{\"id\"'): self.real.write('debug: answering\\n')\n"
        "        return self.real.write(text)\n"
        "    def flush(self): self.real.flush()\n"
        "sys.stdout = Out(sys.stdout)\n"
        "runpy.run_module('conformance.engines.serve', run_name='__main__')\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "verify", "--engine-cmd", f"{sys.executable} {chatty}", "--variant", "briscola-2p")
    assert code == 1
    assert "found 'debug: answering' (Expecting value); what the engine prints for people goes to standard error" in out


@pytest.mark.parametrize("command", ["fuzz", "check-trace"])
def test_jobs_are_bounded(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Each job is a process with its pipes: hundreds ran the kit out of file descriptors."""
    with pytest.raises(SystemExit) as ended:
        main([command, "--jobs", "65", *(["t.jsonl"] if command == "check-trace" else [])])
    assert ended.value.code == 2 and "argument --jobs: expected at most 64 jobs, found '65'" in capsys.readouterr().err


@pytest.mark.parametrize("shard", ["3/2", "0/2", "1/", "a/2"])
def test_a_shard_outside_its_slices_is_bad_usage(shard: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Slice K of N exists for 1 <= K <= N: a slice past the last would run nothing and pass."""
    with pytest.raises(SystemExit) as ended:
        main(["fuzz", "--shard", shard])
    assert ended.value.code == 2
    assert f"argument --shard: expected K/N with 1 <= K <= N, found {shard!r}" in capsys.readouterr().err


class HelloFails:
    """An adapter whose hello() raises."""

    def hello(self) -> dict[str, Any]:
        raise RuntimeError("no hello today")

    def run(self, request: dict[str, Any]) -> dict[str, Any]:
        return {}

    def close(self) -> None:
        pass


def hello_fails() -> HelloFails:
    return HelloFails()


class RunRaises(HelloFails):
    """An adapter whose run() raises a ValueError of its own."""

    def hello(self) -> dict[str, Any]:
        return {"name": "raises", "version": "1", "variants": ["briscola-2p"]}

    def run(self, request: dict[str, Any]) -> dict[str, Any]:
        raise ValueError("no such card in my hand")


def run_raises() -> RunRaises:
    return RunRaises()


def test_an_exception_of_a_served_engine_s_own_is_said_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(Path(__file__).parent)
    code, out, _ = run(capsys, "verify", "--engine", f"{__name__}:run_raises", "--variant", "briscola-2p")
    assert code == 1
    assert "crash: ValueError: no such card in my hand" in out and "not JSON" not in out, out


def test_a_served_engine_whose_hello_fails_says_so_in_the_handshake(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(Path(__file__).parent)
    code, out, _ = run(capsys, "smoke", "--engine", f"{__name__}:hello_fails")
    assert code == 3
    assert f"the engine cannot be served: {__name__}:hello_fails: hello() raised (RuntimeError: no hello today)" in out, out
    assert "Traceback" not in out and "json/encoder" not in out


class NoNew:
    """An engine class written as many are: made with its players, no new(variant, setup)."""

    def __init__(self, players: list[object], dealer: int) -> None:
        self.players, self.dealer = players, dealer


def test_a_name_that_is_neither_engine_class_nor_factory_says_what_it_was_taken_for() -> None:
    from conformance.engines.adapter import load_engine
    from conformance.engines.protocol import EngineUnusable

    with pytest.raises(EngineUnusable) as refused:
        load_engine(f"{__name__}:NoNew")
    said = str(refused.value)
    assert said.startswith(f"{__name__}:NoNew() raised (TypeError: ")
    assert "name an engine class with new, or a factory (docs/guide/adapter.md)" in said


class ReportsOneField(CannotRefuse):
    REPORTS = "hands"  # a string, not a list of fields


def test_an_engine_class_declaring_its_fields_in_another_shape_is_refused_in_process_too() -> None:
    """Taken for no declaration, it would have every field judged: as a served handshake's, it is refused."""
    from conformance.engines.adapter import load_engine
    from conformance.engines.protocol import EngineUnusable

    with pytest.raises(EngineUnusable, match=f"expected {__name__}:ReportsOneField.REPORTS to list the snapshot fields"):
        load_engine(f"{__name__}:ReportsOneField")


def test_smoke_explains_a_silent_engine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "mute.py"
    script.write_text("import sys\nfor line in sys.stdin:\n    pass\n", encoding="utf-8")
    code, out, _ = run(capsys, "smoke", "--engine-cmd", f"{sys.executable} {script}", "--timeout", "0.5")
    assert code == 3
    assert "FAIL handshake" in out and "no answer within 0.5 s" in out


def test_unusable_output_paths_are_refused_before_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "taken"
    a_file.write_text("", encoding="utf-8")
    code, out, err = run(capsys, "verify", "--scenario", "albastini/trick", "--report-dir", str(a_file))
    assert code == 2 and out == ""
    assert f"{a_file}: expected a folder for the reports, found a file" in err
    for command in ("fuzz", "check-trace"):  # --out names the folder of the scenarios written
        trace = tmp_path / "t.jsonl"
        trace.write_text("{}\n", encoding="utf-8")
        given = ["--deals", "1"] if command == "fuzz" else [str(trace)]
        code, out, err = run(capsys, command, *given, "--out", str(a_file))
        assert code == 2 and f"{a_file}: expected a folder for the scenarios written, found a file" in err, err
    nowhere = tmp_path / "no-such-folder" / "expect.yaml"
    code, out, err = run(capsys, "verify", "--scenario", "albastini/trick", "--save-expectations", str(nowhere))
    assert code == 2 and out == ""
    assert f"{nowhere}: cannot be written: no such directory" in err


@pytest.mark.parametrize("value", ["0", "-1", "nan", "soon"])
def test_timeout_must_be_positive(capsys: pytest.CaptureFixture[str], value: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["verify", "--timeout", value])
    assert stopped.value.code == 2
    assert f"expected a number of seconds above 0, found '{value}'" in capsys.readouterr().err


def test_expectation_file_with_one_scenario_twice_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "expect.yaml"
    bad.write_text(
        "engine: x\nspec_version: y\nexpectations:\n"
        "  - {id: albastini/trick/anna-boris-trump-captures, outcome: fail, reason: r}\n"
        "  - {id: albastini/trick/anna-boris-trump-captures, outcome: skipped, reason: s}\n",
        encoding="utf-8",
    )
    code, _, err = run(capsys, "verify", "--expect", str(bad))
    assert code == 2
    assert (
        f"{bad}:5:10: $.expectations[1].id: duplicate id 'albastini/trick/anna-boris-trump-captures': "
        "expected one entry per scenario (first at line 4)"
    ) in err


def test_saved_expectations_keep_skips_and_links(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    given = tmp_path / "given.yaml"
    given.write_text(
        "engine: PlantedBug\nspec_version: any\nexpectations:\n"
        "  - {id: albastini/cards/seven-beats-king, outcome: skipped, reason: not today}\n"
        "  - {id: albastini/cards/jack-beats-queen, outcome: fail, reason: J and Q swapped, link: https://example.org/1}\n"
        "  - {id: no/such/scenario, outcome: fail, reason: gone}\n",
        encoding="utf-8",
    )
    saved = tmp_path / "saved.yaml"
    code, _, err = run(capsys, "verify", "--engine", f"{__name__}:PlantedBug", "--clause", "albastini.cards.rank-order",
                       "--expect", str(given), "--save-expectations", str(saved))
    assert code == 1  # rank-order scenarios fail that the file does not list
    assert "names scenarios the kit does not have: no/such/scenario" in err
    entries = expectations.load(saved).entries
    assert entries["albastini/cards/seven-beats-king"] == expectations.Entry(
        "albastini/cards/seven-beats-king", Outcome.SKIPPED, "not today")
    assert entries["albastini/cards/jack-beats-queen"] == expectations.Entry(
        "albastini/cards/jack-beats-queen", "fail", "J and Q swapped", "https://example.org/1")
    assert any(e.reason == "failing when the file was saved" for e in entries.values())  # and the new failures
    assert "no/such/scenario" not in entries


def test_report_of_an_empty_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "run.jsonl"
    log.write_text("", encoding="utf-8")
    code, _, err = run(capsys, "report", str(log))
    assert code == 2
    assert f"{log}:1:1: $: expected a header line first, found an empty file" in err


class BadHello:
    """A factory of adapters whose handshake is not a mapping."""

    def __init__(self) -> None:
        self.run = self.close = lambda *args: None

    def hello(self) -> list[str]:
        return ["albastini-2p"]


@pytest.mark.parametrize(
    ("engine", "code", "message"),
    [
        ("nosuchmodule:Engine", 3, "no module named 'nosuchmodule' (for 'nosuchmodule')"),
        ("conformance.engines.adapter:NoSuchEngine", 3, "module 'conformance.engines.adapter' has no attribute 'NoSuchEngine'"),
        ("conformance.engines.adapter", 2, "usage error: expected 'reference' or module:name for the engine"),
        (f"{__name__}:BadHello", 3, "expected hello() to return a mapping with a list of variants, found ['albastini-2p']"),
    ],
)
def test_an_engine_that_cannot_be_loaded_is_unusable(
    capsys: pytest.CaptureFixture[str], engine: str, code: int, message: str
) -> None:
    status, out, err = run(capsys, "verify", "--scenario", "albastini/trick", "--engine", engine)
    assert status == code and out == ""
    assert message in err, err
    assert "Traceback" not in err


def test_dumped_expectations_read_back_unchanged(tmp_path: Path) -> None:
    """PyYAML writes YAML 1.1, where 1e3 is a string; the strict loader reads YAML 1.2, where it is a number."""
    entries = {
        sid: expectations.Entry(sid, "fail", reason)
        for sid, reason in (("a/b/exp", "1e3"), ("a/b/null", "NULL"), ("a/b/colon", "see: the log"), ("a/b/int", "12"))
    }
    written = expectations.Expectations(entries, engine="2E5", spec_version="true")
    path = tmp_path / "expect.yaml"
    path.write_text(expectations.dump(written), encoding="utf-8")
    assert expectations.load(path) == written


def _shard(reports: Path, tmp_path: Path, name: str, scenario_id: str, interrupted: str | None) -> Path:
    """A log of one scenario, with the header of the shared run: finished, or stopped by ``interrupted``."""
    header, line, *_ = (reports / "run.jsonl").read_text(encoding="utf-8").splitlines()
    outcome = json.loads(line)["outcome"]
    footer = {"type": "footer", "counts": {outcome: 1}, "seconds": 0.1, "finished": "2026-12-01T00:00:00+00:00"}
    if interrupted:
        footer["interrupted"] = interrupted
    path = tmp_path / name
    lines = [header, json.dumps({**json.loads(line), "id": scenario_id}), json.dumps(footer)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_shards_merged_are_incomplete_when_one_was_interrupted(reports: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    done = _shard(reports, tmp_path, "done.jsonl", "a/1", None)
    stopped = _shard(reports, tmp_path, "stopped.jsonl", "a/2", "SIGTERM")
    code, out, _ = run(capsys, "report", str(done), str(stopped), "--format", "json")
    assert code == 0 and json.loads(out)["complete"] is False
    assert "interrupted by SIGTERM" in run(capsys, "report", str(done), str(stopped), "--format", "md")[1]
    assert json.loads(run(capsys, "report", str(done), "--format", "json")[1])["complete"] is True


def test_shards_merged_took_as_long_as_the_slowest() -> None:
    """Shards run side by side: the merged run's seconds are the longest shard's, not the shortest's."""
    shards = []
    for seconds in (0.5, 2.0, 1.0):
        log = runlog.Log(header=runlog.header({"name": "e", "version": "1", "variants": []}, {}, 0))
        log.finish(seconds)
        shards.append(log)
    merged = runlog.merge(shards)
    assert merged.footer is not None and merged.footer["seconds"] == 2.0
    assert merged.footer["finished"] == max(log.footer["finished"] for log in shards if log.footer)


def test_ids_with_long_runs_of_digits_are_ordered_without_a_limit(reports: Path, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    long = _shard(reports, tmp_path, "long.jsonl", "a/" + "9" * 5000, None)
    short = _shard(reports, tmp_path, "short.jsonl", "a/10", None)
    code, out, err = run(capsys, "report", str(long), str(short), "--format", "json")
    assert code == 0, err
    assert sum(json.loads(out)["counts"].values()) == 2
    assert runlog._natural("a/10") < runlog._natural("a/" + "9" * 5000) < runlog._natural("a/1" + "0" * 5000)


@pytest.mark.parametrize("given", ["0", "-5", "nan", "inf", "1e308", "86401", "soon"])
def test_a_time_limit_beyond_reason_is_a_usage_error_for_verify_and_pytest(
    given: str, capsys: pytest.CaptureFixture[str], pytester: pytest.Pytester
) -> None:
    """Both commands read --timeout (pytest: --engine-timeout) alike; none is taken and then blamed on the engine."""
    with pytest.raises(SystemExit) as usage:  # argparse's usage error
        main(["verify", "--timeout", given, "--scenario", "albastini/cards/five"])
    err = capsys.readouterr().err
    assert usage.value.code == 2 and "--timeout: expected a" in err and repr(given) in err
    result = pytester.runpytest_inprocess("--engine", "reference", "--engine-timeout", given)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert any("--engine-timeout: expected a" in line for line in result.errlines)


def test_a_day_is_the_longest_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "verify", "--timeout", "86400", "--scenario", "albastini/cards/five-beats-four-2p")
    assert code == 0 and out.rstrip().endswith("1 passed, 0 failed")


HOSTILE = "x`<img src=x onerror=alert(1)>|\x1b]0;pwned\x07\x1b[2J"


def test_a_hand_made_log_s_names_reach_no_report_as_markup_or_control(reports: Path, tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    header, line, footer = _shard(reports, tmp_path, "raw.jsonl", "a/1", None).read_text(encoding="utf-8").splitlines()
    scenario = {**json.loads(line), "outcome": "fail", "file": HOSTILE, "clauses": [HOSTILE], "note": HOSTILE, "id": HOSTILE}
    engine = {**json.loads(header)["engine"], "name": HOSTILE}
    log = tmp_path / "hostile.jsonl"
    log.write_text("\n".join([json.dumps({**json.loads(header), "engine": engine, "spec_version": HOSTILE}),
                              json.dumps(scenario), footer.replace('"pass"', '"fail"')]) + "\n", encoding="utf-8")
    outputs = {fmt: run(capsys, "report", str(log), "--format", fmt)[1] for fmt in ("md", "junit", "json")}
    merged = run(capsys, "report", str(log), str(reports / "run.jsonl"))[2]  # the notes name both engines
    for text in [*outputs.values(), merged]:
        assert "\x1b" not in text and "\x07" not in text
    ET.fromstring(outputs["junit"].split("\n", 1)[1])  # well-formed
    md = outputs["md"]
    assert "<img" not in md.replace("``x`<img", "")  # markup only inside its code span, literal there
    assert "``x`<img src=x onerror=alert(1)>\\|\\x1b]0;pwned\\x07\\x1b[2J``" in md
    assert "&lt;img" in md  # the note, as text


def test_an_engine_s_words_are_escaped_when_it_cannot_even_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], pytester: pytest.Pytester
) -> None:
    (tmp_path / "loud_engine.py").write_text('raise RuntimeError("hello \\x1b[31mboom\\x07")\n', encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    code, _, err = run(capsys, "verify", "--engine", "loud_engine:Engine")
    assert code == 3 and "RuntimeError: hello \\x1b[31mboom\\x07" in err and "\x1b" not in err, err
    result = pytester.runpytest_inprocess("--engine", "loud_engine:Engine")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "\x1b" not in "\n".join(result.errlines) and any("\\x1b[31mboom" in line for line in result.errlines)


def _log_lines(reports: Path) -> tuple[str, str, str]:
    """The shared run's header and first scenario line, as written, and its footer as it would read after that
    one scenario (a footer counts the scenario lines above it)."""
    header, scenario, *_, footer = (reports / "run.jsonl").read_text(encoding="utf-8").splitlines()
    counts = {json.loads(scenario)["outcome"]: 1}
    return header, scenario, json.dumps({**json.loads(footer), "counts": counts}, separators=(",", ":"))


@pytest.mark.parametrize(
    ("order", "problem"),
    [
        ("FHS", "1:1: $: expected a header line first, found a footer line"),
        ("HSHF", "3:1: $: expected one header line, found another (the first is line 1)"),
        ("HSFS", "4:1: $: expected nothing after the footer (line 3), found a scenario line"),
        ("HSFF", "4:1: $: expected nothing after the footer (line 3), found a footer line"),
        ("HSSF", "3:{column}: $.id: expected each scenario once, found {id} again (first at line 2)"),
    ],
)
def test_a_log_out_of_order_is_refused_at_the_line_that_breaks_it(
    reports: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], order: str, problem: str
) -> None:
    header, scenario, footer = _log_lines(reports)
    log = tmp_path / "run.jsonl"
    log.write_text("\n".join({"H": header, "S": scenario, "F": footer}[kind] for kind in order) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "report", str(log))
    assert code == 2 and out == ""
    scenario_id = json.loads(scenario)["id"]
    column = scenario.index(json.dumps(scenario_id)) + 1  # of the id's value
    assert err.splitlines() == [f"{log}:{problem.format(column=column, id=scenario_id)}", "1 problem(s)"]


def test_a_key_twice_in_a_log_line_is_refused_at_the_second(reports: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    header, scenario, footer = _log_lines(reports)
    twice = scenario.replace('"outcome":"pass"', '"outcome":"fail","outcome":"pass"')
    log = tmp_path / "run.jsonl"
    log.write_text("\n".join([header, twice, footer]) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "report", str(log))
    column = twice.index('"outcome":"pass"') + 1
    assert code == 2
    assert f"{log}:2:{column}: $.outcome: expected each key once in an object, found $.outcome twice" in err


@pytest.mark.parametrize(
    ("edit", "path", "message"),
    [
        (lambda line: line.replace('"seconds":', '"seconds":"slow","was":'), "$.seconds", "expected number, found string"),
        (lambda line: line.replace('"mismatches":', '"colour":"red","mismatches":'), "$.colour", "unknown key 'colour'"),
        (lambda line: line.replace('"clauses":["', '"clauses":[7,"'), "$.clauses[0]", "expected string, found integer 7"),
    ],
)
def test_a_log_line_s_schema_problem_is_at_the_column_of_its_value(
    reports: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: Any, path: str, message: str
) -> None:
    header, scenario, footer = _log_lines(reports)
    broken = edit(scenario)
    log = tmp_path / "run.jsonl"
    log.write_text("\n".join([header, broken, footer]) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "report", str(log))
    located = err.splitlines()[0]
    column = int(located.split(":")[2])
    assert code == 2 and f": {path}: {message}" in located
    key = path.rsplit(".", 1)[-1].split("[")[0]
    assert column > 1 and broken[column - 1:].startswith(
        {"$.seconds": '"slow"', "$.colour": f'"{key}"', "$.clauses[0]": "7"}[path])


@pytest.mark.parametrize(
    ("edit", "column", "message"),
    [
        (lambda footer: footer.replace('"seconds":', '"seconds":1,"seconds":'), '"seconds":', "expected each key once"),
        (lambda footer: footer + "}}}", "}}}", "(Extra data)"),
    ],
    ids=["a key twice", "more after the object"],
)
def test_a_whole_last_line_that_is_wrong_is_refused_not_taken_for_one_cut_short(
    reports: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], edit: Any, column: str, message: str
) -> None:
    """Only a last line that stops inside its value is one a killed run wrote in part."""
    header, scenario, footer = _log_lines(reports)
    wrong = edit(footer)
    log = tmp_path / "run.jsonl"
    log.write_text("\n".join([header, scenario, wrong]), encoding="utf-8")  # no newline after it
    code, _, err = run(capsys, "report", str(log))
    assert code == 2 and f"{log}:3:{wrong.rindex(column) + 1}: " in err and message in err
    log.write_text("\n".join([header, scenario, footer[:-9]]), encoding="utf-8")  # cut short: a partial run
    code, out, err = run(capsys, "report", str(log), "--format", "json")
    assert code == 0 and json.loads(out)["complete"] is False and "the last line is cut short" in err


def test_a_line_of_the_wrong_type_is_named_in_a_few_hundred_characters(reports: Path, tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    header, _, footer = _log_lines(reports)
    log = tmp_path / "run.jsonl"
    log.write_text("\n".join([header, json.dumps({"type": "x" * 100_000}), footer]) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "report", str(log))
    assert code == 2 and f"{log}:2:10: $.type: expected type header, scenario or footer, found 'xxx" in err
    assert len(err) < 1000


def test_one_bad_header_is_one_problem_not_one_a_line(reports: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    header, scenario, footer = _log_lines(reports)
    log = tmp_path / "run.jsonl"
    bad_header = json.dumps({**json.loads(header), "scenarios": "many"})
    log.write_text("\n".join([bad_header, scenario, footer]) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "report", str(log))
    assert code == 2 and err.splitlines()[1:] == ["1 problem(s)"] and ":1:" in err and "$.scenarios: expected integer" in err
    log.write_text("\n".join([scenario, json.dumps({**json.loads(scenario), "id": "a/2"}), footer]) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "report", str(log))
    first = f"{log}:1:1: $: expected a header line first, found a scenario line"
    assert code == 2 and err.splitlines() == [first, "1 problem(s)"]


def test_scenario_lines_without_a_string_id_are_no_scenario_twice(reports: Path, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    header, scenario, footer = _log_lines(reports)
    no_id = {k: v for k, v in json.loads(scenario).items() if k != "id"}
    log = tmp_path / "run.jsonl"
    lines = [header, json.dumps(no_id), json.dumps({**no_id, "id": 7}), json.dumps({**no_id, "id": 8}), footer]
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "report", str(log))
    assert code == 2 and "again" not in err
    assert err.count("missing required key 'id'") == 1 and err.count("$.id: expected string") == 2


def test_what_an_expectation_file_says_reaches_the_terminal_as_safe_text_and_capped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Its spec version and the ids the kit does not have are the file's own text: escaped, and the ids named up to
    a count, the rest counted."""
    unknown = "".join(f"  - {{id: 'gone/{i}', outcome: fail, reason: gone}}\n" for i in range(30))
    given = tmp_path / "given.yaml"
    given.write_text(
        'engine: PlantedBug\nspec_version: "9.9\\e[2J\\u202e"\nexpectations:\n'
        '  - {id: "0-nope\\e]0;pwned\\a", outcome: fail, reason: gone}\n' + unknown,
        encoding="utf-8",
    )
    code, _, err = run(capsys, "verify", "--engine", f"{__name__}:PlantedBug", "--clause", "albastini.cards.rank-order",
                       "--expect", str(given))
    notes = [line for line in err.splitlines() if line.startswith("note: ")]
    assert code == 1 and len(notes) == 2 and not any(ord(c) < 32 or c in "\u202e\x7f" for c in "".join(notes))
    assert "spec 9.9\\x1b[2J\\u202e, this is" in notes[0]
    named = ", ".join(["0-nope\\x1b]0;pwned\\x07", *sorted(f"gone/{i}" for i in range(30))[:19]])
    assert notes[1].endswith(f": {named} and 11 more")


def briscola_two_only() -> Any:
    """The reference, declaring briscola-2p alone."""
    from conformance.engines.adapter import InProcessAdapter

    return InProcessAdapter(Engine.new, {"name": "briscola-two", "version": "1"}, ["briscola-2p"])


def test_scenarios_of_undeclared_variants_are_counted_apart_from_the_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "verify", "--engine", f"{__name__}:briscola_two_only", "--report-dir", str(tmp_path))
    assert code == 0, out
    log = runlog.read(tmp_path / "run.jsonl")
    sent = sum(1 for line in log.scenarios if line["variant"] == "briscola-2p")
    left_out = len(log.scenarios) - sent
    assert sent and left_out and log.counts()["unsupported"] == left_out
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert not list(schemas.validator("summary").iter_errors(summary))
    assert summary["undeclared"]["scenarios"] == left_out and "briscola-2p" not in summary["undeclared"]["variants"]
    assert list(summary["by_variant"]) == ["briscola-2p"] and list(summary["by_game"]) == ["briscola"]
    closing = f"{sent} passed, 0 failed, {left_out} unsupported (variants the engine does not declare)"
    assert out.strip().splitlines()[-1] == closing
    assert f"Not in these tables: {left_out} scenarios of {len(summary['undeclared']['variants'])} variants" in out
    assert f"{len(log.scenarios)} scenarios ({sent} of the variants it declares) in" in out
    assert f"**{closing}**" in (tmp_path / "report.md").read_text()


def test_the_closing_line_says_how_many_unsupported_are_of_undeclared_variants() -> None:
    from conformance.run.reports import closing_line

    counts = {"pass": 13, "fail": 5, "unsupported": 545}
    assert closing_line(counts) == "13 passed, 5 failed, 545 unsupported"
    assert closing_line(counts, 536) == "13 passed, 5 failed, 545 unsupported (536 of variants the engine does not declare)"
    assert closing_line(counts, 545) == "13 passed, 5 failed, 545 unsupported (variants the engine does not declare)"


def misspelt_variant() -> Any:
    """The reference, declaring 'altbaumer' for altbaumer-standard."""
    from conformance.engines.adapter import InProcessAdapter

    return InProcessAdapter(Engine.new, {"name": "misspelt", "version": "1", "language": "python"}, ["altbaumer"])


def one_misspelt_variant() -> Any:
    """The reference, declaring briscola-2p and 'briscola4p'."""
    from conformance.engines.adapter import InProcessAdapter

    return InProcessAdapter(Engine.new, {"name": "misspelt", "version": "1"}, ["briscola-2p", "briscola4p"])


def test_a_run_that_could_send_the_engine_nothing_is_refused_naming_the_nearest_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "verify", "--engine", f"{__name__}:misspelt_variant", "--report-dir", str(tmp_path))
    assert code == 3 and out == "", out
    said = "engine unusable: it declares no variant of the kit, only 'altbaumer' (did you mean 'altbaumer-standard'?)"
    assert err.strip() == said + ": no scenario could be sent"
    code, _, err = run(capsys, "verify", "--engine", f"{__name__}:briscola_two_only", "--game", "bisca")
    assert code == 3 and "engine unusable: it declares none of the variants chosen (bisca-2p): no scenario" in err
    code, out, err = run(capsys, "verify", "--engine", f"{__name__}:one_misspelt_variant", "--variant", "briscola-2p")
    assert code == 0 and out.strip().endswith("passed, 0 failed"), out
    assert "warning: the engine declares variants the kit does not have: 'briscola4p' (did you mean 'briscola-4p'?)" in err
    code, _, err = run(capsys, "verify", "--engine", f"{__name__}:one_misspelt_variant", "--variant", "briscola-4p")
    assert code == 3 and "declares none of the variants chosen (briscola-4p); it declares 'briscola4p' (did you mean" in err


def test_smoke_names_the_nearest_variant_to_one_the_kit_does_not_have(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    here = str(Path(__file__).parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([here, os.environ.get("PYTHONPATH", "")]))
    code, out, _ = run(capsys, "smoke", "--engine-cmd", f"{SERVE} --path={here} {__name__}:misspelt_variant")
    assert code == 3, out
    said = "no scenario of a declared variant to try: it declares no variant of the kit, only 'altbaumer' (did you mean"
    assert f"FAIL a scenario: {said} 'altbaumer-standard'?)" in out


def test_progress_off_a_terminal_is_a_line_every_tenth_of_the_run() -> None:
    """In CI a line per scenario would bury the run's output: ten lines in all, whatever its length."""
    from collections import Counter

    from conformance.run.verify import Progress

    stream = io.StringIO()
    progress = Progress(100, stream)
    for done in range(1, 101):
        progress(done, Counter({"pass": done}))
    assert stream.getvalue().splitlines() == [f"{done}/100 scenarios: {done} passed, 0 failed" for done in range(10, 101, 10)]


def test_progress_counts_what_was_not_run_as_the_closing_line_does() -> None:
    from collections import Counter

    from conformance.run.verify import Progress

    stream = io.StringIO()
    progress = Progress(20, stream)
    progress(10, Counter({"pass": 4, "fail": 1, "unsupported": 5}))
    progress(20, Counter({"pass": 8, "fail": 1, "xfail": 1, "unsupported": 10}))
    assert stream.getvalue().splitlines() == [
        "10/20 scenarios: 4 passed, 1 failed, 5 unsupported",
        "20/20 scenarios: 8 passed, 1 failed, 1 xfail, 10 unsupported",
    ]


def test_a_run_whose_every_scenario_was_unsupported_judged_nothing_and_is_no_pass(capsys: pytest.CaptureFixture[str]) -> None:
    """An engine declaring briscola-2p that can play none of its scenarios (it deals only its own way)."""
    code, out, err = run(capsys, "verify", "--engine", "own_deal_engine:OnlyItsOwnDeal", "--variant", "briscola-2p")
    assert code == 3 and out.strip().endswith(" unsupported") and "0 passed, 0 failed" in out, out
    assert err.strip().splitlines()[-1] == "engine unusable: every scenario was unsupported or skipped, so nothing was judged"


def test_shards_declaring_other_variants_are_not_merged(reports: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """The report leaves out the scenarios of variants the engine does not declare by the first log's declaration."""
    one = _shard(reports, tmp_path, "one.jsonl", "a/1", None)
    other = _shard(reports, tmp_path, "other.jsonl", "a/2", None)
    lines = other.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["engine"]["variants"] = ["albastini-2p"]
    other.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "report", str(one), str(other), "--format", "json")
    assert code == 2 and f"{other}:1:1: $.engine.variants: a run of trickspec-reference" in err, err
    assert f"declaring other variants than in {one}: expected the shards of one engine's run" in err


def test_what_the_tables_leave_out_is_counted_in_words() -> None:
    from conformance.run.reports import left_out_sentence

    assert left_out_sentence({"scenarios": 1, "variants": ["bisca-2p"]}).startswith(
        "Not in these tables: 1 scenario of 1 variant the engine does not declare (bisca-2p)")
    eight = [f"v{i}" for i in range(8)]
    assert left_out_sentence({"scenarios": 30, "variants": eight}) == (
        "Not in these tables: 30 scenarios of 8 variants the engine does not declare (v0, v1, v2, v3, v4, v5 and 2 more),"
        " each unsupported.")


@pytest.mark.parametrize("command", [["verify", "--game", "bisca"], ["report", "run.jsonl"]])
def test_a_reader_that_stops_early_costs_no_report(tmp_path: Path, command: list[str]) -> None:
    """Standard output read by something that stops reading (``| head``, a pager closed): what is printed after
    goes nowhere, the reports and expectations are written, and the status is the run's own."""
    import subprocess

    kit = [sys.executable, "-m", "conformance.cli"]
    assert subprocess.run([*kit, "verify", "--game", "bisca", "--report-dir", str(tmp_path)], cwd=tmp_path,
                          capture_output=True, check=False).returncode == 0  # fmt: skip
    folder = tmp_path / "again"
    extra = ["--report-dir", str(folder), "--save-expectations", str(tmp_path / "known.yaml")] if command[0] == "verify" else []
    # standard output held until it fills or the process ends, as a shell's pipe has it (unless told otherwise)
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    process = subprocess.Popen([*kit, *command, *extra], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=buffered)  # fmt: skip
    assert process.stdout is not None
    process.stdout.close()  # read nothing: the first line printed finds the pipe closed
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert b"Broken pipe" not in err and b"Traceback" not in err and b"Exception ignored" not in err, err
    if command[0] == "verify":
        assert sorted(p.name for p in folder.iterdir()) == ["badge.json", "junit.xml", "report.md", "run.jsonl",
                                                             "summary.json"]  # fmt: skip
        assert (tmp_path / "known.yaml").is_file()


def test_a_report_may_have_a_name_as_long_as_the_system_allows(reports: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The file is written whole through a temporary file beside it, whose name must fit too."""
    output = tmp_path / ("a" * 250 + ".md")
    code, _, err = run(capsys, "report", str(reports / "run.jsonl"), "--output", str(output))
    assert code == 0, err
    assert output.read_text(encoding="utf-8") == (reports / "report.md").read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == [output.name]
    named = tmp_path / os.fsdecode(b"bad\xffname.md")  # a name that is no UTF-8, as a Linux system allows
    assert run(capsys, "report", str(reports / "run.jsonl"), "--output", str(named))[0] == 0 and named.is_file()


def test_the_path_of_a_log_cut_short_is_said_as_safe_text(reports: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A shard's log named by someone else reaches the terminal escaped: no clearing of the screen, no line of its
    own forged after a newline."""
    header, scenario, footer = _log_lines(reports)
    log = tmp_path / "shard\x1b[2J\nFAKE: 0 failed"
    log.write_text("\n".join([header, scenario, footer[:-9]]), encoding="utf-8")
    code, _, err = run(capsys, "report", str(log), "--format", "badge")
    assert code == 0 and "\x1b" not in err and "\nFAKE" not in err
    assert f"note: {tmp_path}/shard\\x1b[2J\\x0aFAKE: 0 failed:3: the last line is cut short" in err


FAULTY = "albastini/cards/seven-beats-king"  # the scenario whose judging the kit fails on


def _faulty_judging(monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """The kit fails on FAULTY, as a bug of its own that an engine's answer set off would: judging it raises, or taking
    its verdict through the expectation file does, or a comparison gives an expected value no JSON holds."""
    from conformance.run import runner

    if where == "judging":
        judge = runner.judge

        def raising(scenario: Any, answer: Any, reports: Any = None) -> Any:
            if scenario.id == FAULTY:
                raise TypeError("no such place \x1b[31mred")
            return judge(scenario, answer, reports)

        monkeypatch.setattr(runner, "judge", raising)
    elif where == "expectations":
        reported = expectations.Expectations.reported

        def raising_too(self: Any, scenario_id: str, *args: Any) -> Any:
            if scenario_id == FAULTY:
                raise TypeError("no such place \x1b[31mred")
            return reported(self, scenario_id, *args)

        monkeypatch.setattr(expectations.Expectations, "reported", raising_too)
    else:
        from conformance.suite.comparisons import Mismatch

        judge = runner.judge

        def set_expected(scenario: Any, answer: Any, reports: Any = None) -> Any:
            if scenario.id == FAULTY:  # as a comparison of the kit's giving its expected value as a set would
                return runner.Verdict(scenario, Outcome.FAIL, [Mismatch(1, 1, "trick.winner", {1}, 0)])
            return judge(scenario, answer, reports)

        monkeypatch.setattr(runner, "judge", set_expected)


@pytest.mark.parametrize("where", ["judging", "expectations", "comparison"])
def test_a_scenario_whose_judging_raises_is_an_error_of_the_kit_s_and_the_others_are_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """The scenario is an error saying the kit failed on it, not the engine, made safe, asking for a report with its
    id, whatever the expectation file says of it; every other scenario is judged (the engine's real failures too); the
    summary says it once, the traceback is shown once on standard error, the reports and expectations are written, and
    the run exits 4."""
    _faulty_judging(monkeypatch, where)
    given, saved = tmp_path / "given.yaml", tmp_path / "saved.yaml"
    given.write_text(f"engine: PlantedBug\nspec_version: any\nexpectations:\n"
                     f"  - {{id: {FAULTY}, outcome: error, reason: it crashes}}\n", encoding="utf-8")  # fmt: skip
    status = main(["verify", "--engine", f"{__name__}:PlantedBug", "--clause", "albastini.cards.rank-order",
                   "--expect", str(given), "--report-dir", str(tmp_path / "r"), "--save-expectations", str(saved)])  # fmt: skip
    out, err = capsys.readouterr()
    assert status == 4, out + err
    lines = runlog.read(tmp_path / "r" / "run.jsonl").scenarios
    outcomes = {line["id"]: line["outcome"] for line in lines}
    assert outcomes.pop(FAULTY) == "error" and "fail" in outcomes.values() and "pass" in outcomes.values(), outcomes
    error = next(line["error"] for line in lines if line["id"] == FAULTY)
    raised = "TypeError: no such place \\x1b[31mred" if where != "comparison" else "TypeError: Object of type set is not"
    assert error.startswith(f"kit fault: the kit raised {raised}"), error
    assert error.endswith(" while judging this scenario, a fault of the kit's, not the engine's: please report it with "
                          f"the scenario's id, {FAULTY}"), error  # fmt: skip
    assert f"KIT FAULT 1 scenario not judged (first at {FAULTY})\n  {error}\n" in out and out.count(error) == 1, out
    fails = sum(outcome == "fail" for outcome in outcomes.values())
    assert out.splitlines()[-1] == f"{len(outcomes) - fails} passed, {fails + 1} failed (1 error)", out
    assert "Traceback" not in out and "\x1b" not in out + err, out + err
    assert err.count("Traceback (most recent call last):") == 1, err
    assert f"the kit failed on {FAULTY} while judging this scenario (a fault of the kit's, not the engine's)" in err, err
    errors = ET.parse(tmp_path / "r" / "junit.xml").getroot().findall(".//error")
    assert [e.get("message") for e in errors] == [error]
    entries = expectations.load(saved).entries  # what the file said of it stands: the kit's fault says nothing of the engine
    assert entries[FAULTY] == expectations.Entry(FAULTY, Outcome.ERROR, "it crashes")
    assert len(entries) == fails + 1
