"""The commands facing bad input: an empty engine command is a usage error (never a run of the
reference engine), `smoke` and `report` explain instead of raising, and reports are written whole."""

from __future__ import annotations

import json
import shlex
import tracemalloc
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from hostile_engines import assert_nothing_left, engine, two_player

from conformance.cli import main
from conformance.run import outputs, reports, runlog
from conformance.suite import schemas
from specreader import kitdata, limits
from specreader.problems import DataError

import junit_schema


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--engine-cmd", "", "usage error: expected an engine command, found ''"),
        ("--engine-cmd", "  \t", "usage error: expected an engine command, found '  \\t'"),
        ("--engine", "", "usage error: expected 'reference' or module:name for the engine, found ''"),
        ("--engine-cmd", "'unbalanced", "usage error: cannot split the engine command \"'unbalanced\": No closing quotation"),
    ],
)
@pytest.mark.parametrize("command", [["verify"], ["fuzz", "--deals", "2"], ["fuzz", "--deals", "2", "--jobs", "2"]])
def test_an_empty_or_broken_engine_is_a_usage_error_and_nothing_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, message: str, command: list[str]
) -> None:
    code, out, err = run(capsys, *command, option, value, "--report-dir", str(tmp_path))
    assert code == 2
    assert err.strip() == message
    assert out == "" and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "0", "1e400"])
def test_a_fuzz_campaign_runs_for_a_finite_time(capsys: pytest.CaptureFixture[str], value: str) -> None:
    with pytest.raises(SystemExit) as stopped:  # argparse's usage error
        main(["fuzz", f"--time={value}"])
    out, err = capsys.readouterr()
    assert stopped.value.code == 2 and out == "" and "Traceback" not in err
    assert f"argument --time: expected a number of seconds above 0, found '{value}'" in err


def test_fuzz_refuses_a_variant_no_deal_can_be_played_by(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "fuzz", "--variant", "albastini-base", "--deals", "2")
    assert code == 2
    assert "--variant: albastini-base cannot be played (the base of other variants)" in err


def test_fuzz_leaves_out_a_declared_variant_no_deal_can_be_played_by() -> None:
    from conformance.fuzz.campaign import choose_variants

    assert choose_variants(None, {"variants": ["albastini-base", "albastini-2p"]}) == ("albastini-2p",)


def test_report_refuses_logs_of_different_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for seed in ("1", "2"):
        assert run(capsys, "fuzz", "--deals", "2", "--seed", seed, "--report-dir", str(tmp_path / seed))[0] == 0
    assert run(capsys, "verify", "--scenario", "albastini/trick", "--report-dir", str(tmp_path / "verify"))[0] == 0
    one, two, verified = (str(tmp_path / name / "run.jsonl") for name in ("1", "2", "verify"))
    code, out, err = run(capsys, "report", one, two)
    assert code == 2 and out == ""
    assert f"{two}:1:1: $.options.seed: a campaign of seed 2 beside one of seed 1 ({one})" in err
    code, out, err = run(capsys, "report", one, verified)
    assert code == 2 and f"{verified}:1:1: $.options: a verify log beside the fuzz log {one}" in err


def test_naming_two_engines_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "verify", "--engine", "reference", "--engine-cmd", "python -m conformance.engines.serve")
    assert code == 2 and "usage error: name either a Python engine or an engine command, not both" in err
    assert out == ""


def test_smoke_with_an_unbalanced_quote_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "smoke", "--engine-cmd", "python 'engine.py")
    assert code == 2 and out == ""
    assert err.strip() == "usage error: cannot split the engine command \"python 'engine.py\": No closing quotation"


@pytest.mark.parametrize(
    ("mode", "failure"),
    [
        ("deep", f"malformed: expected at most {limits.MAX_DEPTH} levels of nesting, found more"),
        ("stdout-not-utf8", "malformed: expected UTF-8, found byte 0xff at position 8"),
    ],
)
def test_smoke_explains_a_deep_or_undecodable_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str, failure: str
) -> None:
    code, out, _ = run(capsys, "smoke", "--engine-cmd", shlex.join(engine(tmp_path, mode, "*")), "--timeout", "2")
    assert code == 3
    lines = out.splitlines()
    assert lines[0].startswith("ok   handshake: hostile 0 (python)")
    assert [line.split(":")[0] for line in lines[1:3]] == ["FAIL a scenario", "FAIL a refusal"]
    assert all(failure in line for line in lines[1:3]), lines
    assert lines[3].startswith("ok   an unknown request") and lines[-1] == "3 passed, 2 failed"
    assert_nothing_left(tmp_path)


@pytest.mark.parametrize(
    ("mode", "hostile", "said"),
    [
        ("twice", "first", "FAIL one answer per request: the engine answered {id!r} twice"),  # the copy at once
        ("unknown-twice", None, 'FAIL one answer per request: after the last answer, the engine sent a line nobody asked'
                                ' for: {{"error": {{"kind": "unknown_command", "message": "unknown"}}}}'),
    ],
)
def test_smoke_fails_an_answer_sent_twice_however_it_comes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str, hostile: str | None, said: str
) -> None:
    first = next(s for s in two_player(50) if not s.refusals())  # the plain scenario smoke tries first
    command = shlex.join(engine(tmp_path, mode, [first] if hostile else None))
    code, out, _ = run(capsys, "smoke", "--engine-cmd", command, "--timeout", "2")
    assert code == 3 and out.splitlines()[4] == said.format(id=first.id), out
    assert_nothing_left(tmp_path)


def test_smoke_fails_an_engine_that_answers_a_request_twice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A copy of the first scenario's answer, sent after the next one, is set aside wherever it comes (here, before
    the unknown request's answer), and smoke names it instead of taking it for that answer."""
    first = next(s for s in two_player(50) if not s.refusals())  # the plain scenario smoke tries first
    command = shlex.join(engine(tmp_path, "copy-after-next", [first]))
    code, out, _ = run(capsys, "smoke", "--engine-cmd", command, "--timeout", "2")
    lines = out.splitlines()
    assert code == 3 and lines[3].startswith("ok   an unknown request")
    assert lines[4] == (f"FAIL one answer per request: the engine answered {first.id!r} twice, the second time after the "
                        "kit had judged it (docs/protocol.md)")
    assert_nothing_left(tmp_path)


@pytest.mark.parametrize(
    ("mode", "line"),
    [
        ("unknown-copy-without-id", '{"observations": [{"phase": "play"}]}'),
        ("unknown-second-handshake", '{"started": true, "protocol": 1, "implementation": {"name": "hostile", "version": "0",'
                                     ' "language": "python", "variants": ["albastini-2p"]}}'),
    ],
)
def test_smoke_takes_no_line_nobody_asked_for_for_the_answer_to_an_unknown_request(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str, line: str
) -> None:
    """Only an error may come without an id: a line with neither, come before the unknown request's error, is a
    line nobody asked for (as it would be in a run), named as such; the engine is ended, so its late error is not
    blamed on it as an answer sent twice."""
    code, out, _ = run(capsys, "smoke", "--engine-cmd", shlex.join(engine(tmp_path, mode)), "--timeout", "2")
    lines = out.splitlines()
    assert code == 3 and lines[3].startswith(
        f"FAIL an unknown request: wrong_id: expected an error, found a line nobody asked for (no id, and no error): {line}"
    ), out
    assert lines[4] == "ok   one answer per request: no request answered twice", out
    assert_nothing_left(tmp_path)


def test_smoke_reads_stderr_that_is_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "smoke", "--engine-cmd", shlex.join(engine(tmp_path, "stderr-not-utf8")), "--timeout", "2")
    assert out.splitlines()[0].startswith("ok   handshake")
    assert "FAIL a scenario" in out and "setup: benign" in out  # its answer, judged as any other
    assert code == 3
    assert_nothing_left(tmp_path)


def test_a_run_given_up_on_says_so_in_every_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    command = shlex.join(engine(tmp_path, "hang-all"))
    folder = tmp_path / "reports"
    # A handshake of its own time: on a loaded machine a restart within 0.3 s may fail, and count as a stall.
    code, out, _ = run(capsys, "verify", "--engine-cmd", command, "--variant", "albastini-2p", "--timeout", "0.3",
                       "--startup-timeout", "10", "--give-up-after", "2", "--report-dir", str(folder))
    log = runlog.read(folder / "run.jsonl")
    given_up = log.counts()["engine-unavailable"]
    assert code == 1 and log.complete and log.counts()["timeout"] == 2 and given_up == len(log.scenarios) - 2
    assert out.strip().splitlines()[-1] == f"0 passed, {given_up + 2} failed (2 timeout, {given_up} engine-unavailable)"
    table = out[out.index("\ngame ") + 1 :].splitlines()[:2]
    assert table == ["game       timeout  engine-unavailable", f"albastini        2  {given_up:>18}"]
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    badge = json.loads((folder / "badge.json").read_text(encoding="utf-8"))
    assert not list(schemas.validator("summary").iter_errors(summary)) and not list(schemas.validator("badge").iter_errors(badge))
    assert badge["message"] == f"0/{given_up + 2} passed, {given_up} engine-unavailable" and badge["color"] == "red"
    junit_schema.validate(folder / "junit.xml")
    assert (folder / "junit.xml").read_text(encoding="utf-8").count('type="engine-unavailable"') == given_up
    assert "| Game | timeout | engine-unavailable |" in (folder / "report.md").read_text(encoding="utf-8")
    assert_nothing_left(tmp_path)


def test_verify_names_an_answer_sent_again_after_its_scenario_was_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The copy blames no other scenario (docs/protocol.md), and verify says it, as the pytest plugin warns of it;
    the run log keeps it, so every report says it too, and says it again when rendered from the log."""
    first = two_player(1)[0]
    command = shlex.join(engine(tmp_path, "copy-after-next", [first]))
    folder = tmp_path / "reports"
    code, out, err = run(capsys, "verify", "--engine-cmd", command, "--variant", "albastini-2p", "--timeout", "2",
                         "--report-dir", str(folder))
    assert code == 1 and "wrong_id" not in out and "setup: benign" in out  # every answer is the benign error
    warning = f"the engine answered {first.id!r} twice, the second time after the kit had judged it (docs/protocol.md)"
    assert [line for line in err.splitlines() if line.startswith("warning: ")] == [f"warning: {warning}"]
    log = runlog.read(folder / "run.jsonl")
    assert log.complete and log.late_copies == [first.id]
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    assert summary["late_copies"] == [first.id] and not list(schemas.validator("summary").iter_errors(summary))
    report = (folder / "report.md").read_text(encoding="utf-8")
    assert "## Answered twice\n\nThe engine sent the answer to each of these scenarios a second time" in report
    assert f"\n- `{first.id}`\n" in report
    junit_schema.validate(folder / "junit.xml")
    cases = ET.parse(folder / "junit.xml").getroot().iter("testcase")
    assert {case.get("name"): case.findtext("system-err") for case in cases if case.find("system-err") is not None} == {
        first.id: warning
    }
    assert run(capsys, "report", str(folder / "run.jsonl"), "--format", "md")[1] == report  # from the log alone
    assert_nothing_left(tmp_path)


def test_late_copies_merge_across_shards_in_id_order(tmp_path: Path) -> None:
    """Shards merged keep every scenario each engine answered again, once, as the scenario lines are ordered."""
    shards = []
    for late in (["albastini.trick.10", "albastini.trick.2"], [], ["albastini.trick.2", "altbaumer.deal.1"]):
        log = runlog.Log(header=runlog.header({"name": "e", "version": "1", "variants": []}, {}, 0))
        log.finish(0.1, late_copies=late)
        shards.append(log)
    merged = runlog.merge(shards)
    assert merged.late_copies == ["albastini.trick.2", "albastini.trick.10", "altbaumer.deal.1"]
    assert merged.footer is not None and not list(schemas.validator("run-log").iter_errors(merged.footer))
    quiet = runlog.merge(shards[1:2] * 2)
    assert quiet.footer is not None and "late_copies" not in quiet.footer and quiet.late_copies == []


def test_late_copies_past_what_a_footer_names_are_counted_and_said() -> None:
    """An engine that answers every deal of a long campaign twice: the footer, one line, names the first
    LATE_COPIES_KEPT and counts the rest, and the summary, the report, the warnings and merged shards say how many."""
    kept = runlog.LATE_COPIES_KEPT
    ids = [f"fuzz/1/{i}" for i in range(kept + 6)]

    def finished(late: list[str]) -> runlog.Log:
        log = runlog.Log(header=runlog.header({"name": "e", "version": "1", "variants": []}, {}, 0))
        log.finish(0.1, late_copies=late)
        return log

    log = finished(ids)
    assert log.late_copies == ids[:kept] and log.late_copies_unnamed == 6
    assert log.footer is not None and not list(schemas.validator("run-log").iter_errors(log.footer))
    assert "late_copies_unnamed" not in (finished(ids[:kept]).footer or {})
    summary = reports.summary(log)
    assert summary["late_copies_unnamed"] == 6 and not list(schemas.validator("summary").iter_errors(summary))
    assert f"\n- `{ids[kept - 1]}`\n- 6 more answered twice, not named: a run log names the first {kept:,}\n" in (
        reports.render_md(summary)
    )
    assert reports.late_copy_warnings(log)[-2:] == [
        reports.late_copy_warning(ids[kept - 1]), f"6 more answered twice, not named: a run log names the first {kept:,}"
    ]
    # merged with a shard that names 10 of the same and 20 others: 1,044 named in all, so 20 more besides the 6
    merged = runlog.merge([log, finished(ids[:10] + [f"fuzz/2/{i}" for i in range(20)])])
    assert merged.late_copies == ids[:kept] and merged.late_copies_unnamed == 20 + 6
    assert merged.footer is not None and not list(schemas.validator("run-log").iter_errors(merged.footer))
    docs = " ".join((kitdata.root() / "docs" / "guide" / "reports.md").read_text(encoding="utf-8").split())
    assert f"names the first {kept:,} of them; it counts any more as `\"late_copies_unnamed\"`" in docs


@pytest.fixture
def log_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The run log of a short run of the reference engine, as lines."""
    assert main(["verify", "--scenario", "albastini/trick", "--report-dir", str(tmp_path / "run")]) == 0
    capsys.readouterr()
    return (tmp_path / "run" / "run.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)


def test_report_locates_a_deeply_nested_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], log_lines: list[str]) -> None:
    log = tmp_path / "deep.jsonl"
    deep = log_lines[1].replace('"mismatch":null', '"mismatch":' + "[" * 5000 + "]" * 5000)
    assert deep != log_lines[1]
    log.write_text(log_lines[0] + deep + "".join(log_lines[2:]), encoding="utf-8")
    code, out, err = run(capsys, "report", str(log))
    assert code == 2 and out == ""
    assert f"{log}:2:1: $: expected at most 64 levels of nesting, found more" in err


def test_report_reads_a_log_cut_off_mid_line_as_incomplete(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], log_lines: list[str]
) -> None:
    log = tmp_path / "cut.jsonl"
    cut = len(log_lines) - 1  # the footer's line number, once the footer is cut short
    log.write_text("".join(log_lines[:-2]) + log_lines[-2][:40], encoding="utf-8")
    code, out, err = run(capsys, "report", str(log))
    assert code == 0
    assert f"note: {log}:{cut}: the last line is cut short" in err
    whole = cut - 2  # scenario lines before it
    assert f"The counts are partial: the run stopped while writing line {cut} of its log, left out: {whole} of" in out
    assert runlog.read(log).cut_line == cut
    code, out, _ = run(capsys, "report", str(log), "--format", "badge")
    assert json.loads(out)["message"].endswith(", run incomplete")


def test_a_report_is_written_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "report.md"
    outputs.write_text(target, "first\n")
    assert target.read_text(encoding="utf-8") == "first\n"

    def fail(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("conformance.run.outputs.os.replace", fail)
    with pytest.raises(DataError, match=f"{target}: cannot be written: disk full"):
        outputs.write_text(target, "second\n")
    assert target.read_text(encoding="utf-8") == "first\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]  # no temporary file left


def test_blank_lines_in_a_log_are_passed_over_and_the_lines_keep_their_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], log_lines: list[str]
) -> None:
    """Blank lines anywhere (a million of them here, a log anyone may have written) are read a line at a time and held
    nowhere, and a problem after them is still named at its own line; a last line cut short after them is still known
    for one."""
    gap = " \n" * 1_000_000
    log = tmp_path / "gaps.jsonl"
    log.write_text(gap + log_lines[0] + gap + "".join(log_lines[1:]) + gap + '{"type": "footer", "counts"', encoding="utf-8")
    tracemalloc.start()
    read = runlog.read(log)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert read.cut_line == 3_000_000 + len(log_lines) + 1 and len(read.scenarios) == len(log_lines) - 2
    assert peak < log.stat().st_size // 4  # neither the file nor a list of its lines (3 million of them, some 120 MB)
    broken = tmp_path / "broken.jsonl"
    broken.write_text(log_lines[0] + gap + "{\n" + "".join(log_lines[1:]), encoding="utf-8")
    code, _, err = run(capsys, "report", str(broken))
    assert code == 2 and err.startswith(f"{broken}:{1_000_000 + 2}:")


def test_a_large_log_holds_once_each_string_its_lines_repeat(tmp_path: Path, log_lines: list[str]) -> None:
    """A log's scenario lines repeat their keys, and the names of their outcome, game, variant, file and clauses: read
    back, each is one string for the whole log, not one a line, so that its lines take about twice its size in
    memory (five times, each line's own), and every report is as it would be of lines each read on its own."""
    header, *lines, _ = (json.loads(line) for line in log_lines)
    many = [{**line, "id": f"{line['id']}/{copy}"} for copy in range(5_000 // len(lines) + 1) for line in lines]
    footer = {"type": "footer", "counts": {"pass": len(many)}, "seconds": 1.0, "finished": header["started"]}
    log = tmp_path / "large.jsonl"
    log.write_text("".join(json.dumps(line, separators=(",", ":")) + "\n" for line in [header, *many, footer]), encoding="utf-8")
    tracemalloc.start()
    read = runlog.read(log)
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    assert len(read.scenarios) == len(many)
    assert held < 3 * log.stat().st_size, f"{held:,} bytes held for a log of {log.stat().st_size:,}"
    each_alone = runlog.Log(read.header, [json.loads(json.dumps(line)) for line in many], read.footer)
    for fmt in reports.FORMATS:
        assert reports.render(read, fmt) == reports.render(each_alone, fmt), fmt


def test_a_log_line_or_step_below_zero_is_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], log_lines: list[str]
) -> None:
    """A line or step number is a count from the file or the scenario: one below zero is no log the kit wrote."""
    line = json.loads(log_lines[1])
    line["line"] = -10**15
    log = tmp_path / "below.jsonl"
    log.write_text(log_lines[0] + json.dumps(line) + "\n" + "".join(log_lines[2:]), encoding="utf-8")
    code, out, err = run(capsys, "report", str(log))
    assert code == 2 and out == "" and "$.line: expected at least 0, found integer -1000000000000000" in err


def test_a_footer_counts_the_scenario_lines_above_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], log_lines: list[str]
) -> None:
    """A footer with other counts than its lines is no log of a run (the reports count the lines): it is located."""
    footer = json.loads(log_lines[-1])
    counted = footer["counts"]
    footer["counts"] = {"pass": 10**15}
    log = tmp_path / "counts.jsonl"
    log.write_text("".join(log_lines[:-1]) + json.dumps(footer) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "report", str(log))
    shown = ", ".join(f"{outcome} {n}" for outcome, n in sorted(counted.items()))
    assert code == 2 and out == ""
    assert f":{len(log_lines)}:" in err and f"$.counts: expected the counts of the scenario lines above it ({shown})" in err
    footer["counts"] = {**counted, "fail": 0}  # an outcome counted nought is the same count
    log.write_text("".join(log_lines[:-1]) + json.dumps(footer) + "\n", encoding="utf-8")
    assert run(capsys, "report", str(log))[0] == 0
