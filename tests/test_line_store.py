"""A run's scenario lines in bounded memory (conformance/run/line_store.py): the lines beyond those kept in memory
(20,000) on disk, read back in order, and every report rendered from them as from lines held in memory."""

from __future__ import annotations

import errno
import json
import os
import signal
from heapq import merge as heapq_merge
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from conformance.cli import main
from conformance.run import line_store, reports, runlog
from conformance.run.line_store import Lines
from conformance.text import untrusted
from specreader import limits


def _line(n: int) -> dict[str, object]:
    return {"id": f"s{n}", "outcome": "pass" if n % 3 else "fail", "nested": {"cards": ["AH", "7D"], "n": n}}


def test_lines_beyond_those_kept_are_read_back_in_order_as_often_as_asked() -> None:
    lines = Lines((_line(n) for n in range(10)), kept=3)
    assert "9 of them on disk" in repr(lines)
    assert len(lines._recent) < 3  # the rest went to the file
    expected = [_line(n) for n in range(10)]
    assert list(lines) == expected and list(lines) == expected and lines == expected
    assert len(lines) == 10 and lines[0] == _line(0) and lines[-1] == _line(9) and lines[4] == _line(4)
    with pytest.raises(IndexError):
        lines[10]
    assert Lines() == [] and not Lines() and lines != expected[:-1]


def test_a_line_appended_while_lines_are_read_is_not_among_them() -> None:
    lines = Lines((_line(n) for n in range(5)), kept=2)
    reading = iter(lines)
    assert next(reading) == _line(0)
    for n in range(5, 9):  # batches written out meanwhile
        lines.append(_line(n))
    assert [line["id"] for line in reading] == ["s1", "s2", "s3", "s4"]
    assert [line["id"] for line in lines][-1] == "s8"


def test_every_report_of_a_log_kept_on_disk_is_the_one_kept_in_memory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long run's lines go to disk: its reports, JUnit's written a case at a time, are those of its lines in
    memory, byte for byte."""
    assert main(["verify", "--variant", "albastini-2p", "--report-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    in_memory = runlog.read(tmp_path / "run.jsonl")
    monkeypatch.setattr(line_store, "KEPT", 7)
    on_disk = runlog.read(tmp_path / "run.jsonl")
    assert "on disk" in repr(on_disk.scenarios) and " 0 of them" in repr(in_memory.scenarios)
    for fmt in reports.FORMATS:
        assert reports.render(on_disk, fmt) == reports.render(in_memory, fmt), fmt
    assert (tmp_path / "junit.xml").read_text(encoding="utf-8") == reports.render(on_disk, "junit")


def test_junit_written_a_case_at_a_time_is_laid_out_as_the_whole_tree_would_be(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["verify", "--engine", "lacking_engine:TieBug", "--report-dir", str(tmp_path)])  # failures and unsupported
    capsys.readouterr()
    written = (tmp_path / "junit.xml").read_text(encoding="utf-8")
    assert "<failure " in written and "<skipped " in written
    tree = ET.fromstring(written.split("\n", 1)[1])
    ET.indent(tree)
    assert written == '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(tree, encoding="unicode") + "\n"


def test_a_run_stopped_while_lines_are_written_out_leaves_a_log_that_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A signal arriving as a batch of lines goes to disk is taken once the line is kept and counted: the footer
    counts the lines above it, and the log reads back."""
    trace = tmp_path / "games.jsonl"
    game = {"variant": "briscola-2p", "setup": {"dealer": 0, "deck": ["AC", "3C", "KC", "QC", "JC", "2D", "7H", "rest"]},
            "actions": []}  # fmt: skip
    trace.write_text("".join(json.dumps({**game, "game": n}) + "\n" for n in range(40)), encoding="utf-8")
    monkeypatch.setattr(line_store, "KEPT", 5)
    write_out = Lines._write_out
    calls = []

    def stopped(self: Lines) -> None:
        calls.append(1)
        if len(calls) == 3:
            os.kill(os.getpid(), signal.SIGTERM)
        write_out(self)

    monkeypatch.setattr(Lines, "_write_out", stopped)
    status = main(["check-trace", "--report-dir", str(tmp_path / "reports"), str(trace)])
    capsys.readouterr()
    assert status == 143 and len(calls) >= 3
    log = runlog.read(tmp_path / "reports" / "run.jsonl")  # the footer's counts are those of the lines above it
    assert log.interrupted == "SIGTERM" and sum(log.counts().values()) == len(log.scenarios) < 40


def test_a_log_naming_many_games_gives_the_junit_of_one_pass_per_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past SUITES_PASSED_OVER games (a log made by hand) the lines are grouped in one pass, not read once a game."""
    main(["verify", "--engine", "lacking_engine:TieBug", "--game", "albastini", "--report-dir", str(tmp_path)])
    capsys.readouterr()
    read = runlog.read(tmp_path / "run.jsonl")
    many = runlog.Log(read.header, [{**line, "game": f"g{n % 40}"} for n, line in enumerate(read.scenarios)], read.footer)
    grouped = reports.render(many, "junit")
    assert grouped.count("<testsuite ") == 40 > reports.SUITES_PASSED_OVER
    monkeypatch.setattr(reports, "SUITES_PASSED_OVER", 100)
    assert reports.render(many, "junit") == grouped


def _shard_log(tmp_path: Path, name: str, ids: list[str]) -> Path:
    """A run log of scenario lines with these ids, in this order, made from a real run's first line; an id ending in
    ``*`` is given without it on a line its schema refuses (an outcome of 7)."""
    source = tmp_path / "source"
    if not source.exists():
        assert main(["verify", "--variant", "briscola-2p", "--report-dir", str(source)]) == 0
    header, scenario, *_, footer = (source / "run.jsonl").read_text(encoding="utf-8").splitlines()
    made = [json.dumps({**json.loads(scenario), "id": i.rstrip("*"), **({"outcome": 7} if i.endswith("*") else {})})
            for i in ids]  # fmt: skip
    counts = {json.loads(scenario)["outcome"]: len(ids)}
    path = tmp_path / name
    path.write_text("\n".join([header, *made, json.dumps({**json.loads(footer), "counts": counts})]) + "\n", "utf-8")
    return path


def test_a_log_in_id_order_is_read_holding_no_id_and_a_repeat_is_found_out_of_order_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """While ids come in order (numbers as numbers) none can be a repeat and only the latest is held; past the first
    out of order, each is, and a repeat of a line before that one is found with its line, a line its schema refused
    too. The lines are kept on disk past the first few, as a long log's are."""
    monkeypatch.setattr(line_store, "KEPT", 2)
    ordered = runlog.read(_shard_log(tmp_path, "ordered.jsonl", [f"game/{n}" for n in range(1, 30)]))
    assert [line["id"] for line in ordered.scenarios][8:10] == ["game/9", "game/10"]
    ids = runlog._Ids(Lines())
    assert [ids.seen_at(f"g{n}", n, kept=n != 2) for n in (1, 2, 10)] == [None, None, None]
    assert ids._every is None and list(ids._numbers) == [1, 10] and ids._not_kept == {"g2": 2}
    for ids_given, line, repeated, first in [
        (["g1", "g2", "g2"], 4, "g2", 3),
        (["g1", "g2", "g10", "g3", "g2"], 6, "g2", 3),
        (["g1", "g2", "g10", "g3", "g10"], 6, "g10", 4),
        (["g5", "g1", "g1"], 4, "g1", 3),
        (["g1", "g3*", "g2", "g3"], 5, "g3", 3),  # refused by its schema, its id still seen
        (["g1*", "g2", "g3", "g2", "g1"], 6, "g1", 2),
        (["g1", "g2*", "g2"], 4, "g2", 3),
    ]:
        log = _shard_log(tmp_path, "repeats.jsonl", ids_given)
        assert main(["report", str(log)]) == 2
        err = capsys.readouterr().err
        said = f"{log}:{line}:"
        assert said in err and f"found {repeated} again (first at line {first})" in err.split(said, 1)[1].split("\n")[0], err


def test_shards_are_merged_in_id_order_as_they_are_read_or_sorted_when_not_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    merges = []

    def merge(*iterables: Any, key: Any) -> Any:
        merges.append(len(iterables))
        return heapq_merge(*iterables, key=key)

    monkeypatch.setattr(runlog.heapq, "merge", merge)
    shards = [[f"game/{n}" for n in range(k, 40, 3)] for k in range(3)]
    logs = [runlog.read(_shard_log(tmp_path, f"shard{k}.jsonl", ids)) for k, ids in enumerate(shards)]
    merged = [line["id"] for line in runlog.merge(logs).scenarios]
    assert merged == [f"game/{n}" for n in range(40)] and merges == [3]  # as they are read
    shuffled = runlog.read(_shard_log(tmp_path, "shuffled.jsonl", list(reversed(shards[1]))))
    assert [line["id"] for line in runlog.merge([logs[0], shuffled, logs[2]]).scenarios] == merged and merges == [3]
    assert runlog.merge_notes(logs) == [] and runlog.merge_problems(logs, ["0", "1", "2"]) == []


def test_shards_that_share_a_scenario_or_come_from_different_engines_are_not_merged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A scenario in two shards would be counted twice, and a report of two engines' runs would bear the first one's
    name: each is a problem at the log at fault, and no report is made."""
    shards = [str(_shard_log(tmp_path, f"shard{k}.jsonl", [f"game/{n}" for n in range(k, 40, 3)])) for k in range(3)]
    overlap = str(_shard_log(tmp_path, "overlap.jsonl", ["game/4", "game/5", "game/7", "game/99"]))
    capsys.readouterr()
    assert main(["report", *shards, overlap]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{overlap}: scenario game/4 and 2 more also in {shards[1]}: expected shards that share no scenario (each would "
        "be counted twice)",
        "1 problem(s)",
    ]
    other = tmp_path / "other.jsonl"
    header, *rest = Path(shards[2]).read_text(encoding="utf-8").splitlines()
    other.write_text("\n".join([json.dumps({**json.loads(header), "engine": {"name": "other", "version": "2"}}), *rest]))
    assert main(["report", shards[0], shards[1], str(other)]) == 2
    problem = capsys.readouterr().err.splitlines()[0]
    assert problem.startswith(f"{other}:1:1: $.engine: a run of other 2 beside one of trickspec-reference "), problem
    assert problem.endswith(f"({shards[0]}): expected the shards of one engine's run"), problem
    assert main(["report", *shards]) == 0


def test_a_log_line_longer_than_the_limit_is_a_located_problem_and_the_rest_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    log = _shard_log(tmp_path, "run.jsonl", ["a", "b"])
    lines = log.read_text(encoding="utf-8").splitlines()
    long = json.dumps({**json.loads(lines[2]), "note": "x" * 5000})
    log.write_text("\n".join([*lines[:2], long, *lines[3:]]) + "\n", encoding="utf-8")
    monkeypatch.setattr(limits, "MAX_LINE_BYTES", 4096)
    capsys.readouterr()
    assert main(["report", str(log)]) == 2
    assert capsys.readouterr().err.splitlines() == [f"{log}:3:1: $: expected a line of at most 4,096 bytes", "1 problem(s)"]


def test_a_file_of_many_problems_is_read_no_further(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A trace given to report by mistake: its lines are no log's, and past the bound on problems it is not read on."""
    monkeypatch.setattr(limits, "MAX_PROBLEMS", 5)
    trace = tmp_path / "games.jsonl"
    trace.write_text("".join(json.dumps({"variant": "briscola-2p", "game": n}) + "\n" for n in range(50)), "utf-8")
    assert main(["report", str(trace)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-2:] == [f"{trace}:6:1: $: read no further: more than 5 problems by this line", "7 problem(s)"], err


def test_a_temporary_file_that_cannot_be_written_is_said_as_the_temporary_folder_s(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    log = _shard_log(tmp_path, "run.jsonl", [f"g{n}" for n in range(10)])
    capsys.readouterr()

    def full(*args: Any, **kwargs: Any) -> Any:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(line_store, "KEPT", 3)
    monkeypatch.setattr(line_store.tempfile, "TemporaryFile", full)
    assert main(["report", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("trickspec: No space left on device: writing a run's lines to a temporary file in "), err
    assert str(log) not in err


def _with_options(log: Path, options: dict[str, Any]) -> Path:
    """The log with these options in its header."""
    header, *rest = log.read_text(encoding="utf-8").splitlines()
    log.write_text("\n".join([json.dumps({**json.loads(header), "options": options}), *rest]) + "\n", encoding="utf-8")
    return log


def test_shards_of_runs_given_other_options_are_not_merged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A check of other traces, or a conformance run held to another expectation file, is another run: each such
    shard is a problem naming what differs; where a shard wrote, how it was split, run and named its engine, and (for
    a conformance run) which scenarios it chose may differ."""
    def shards(*options: dict[str, Any]) -> list[str]:
        count = len(options)
        made = [_shard_log(tmp_path, f"s{k}.jsonl", [f"game/{n}" for n in range(k, 9, count)]) for k in range(count)]
        return [str(_with_options(log, given)) for log, given in zip(made, options, strict=True)]

    capsys.readouterr()
    trace = {"command": "check-trace", "trace": ["games.jsonl"], "jobs": 1}
    same = shards(trace, {**trace, "shard": [2, 2], "jobs": 4, "report_dir": "r2", "out": "o2"})
    assert main(["report", *same, "--format", "badge"]) == 0
    capsys.readouterr()
    other = shards(trace, {**trace, "trace": ["others.jsonl"], "expect": "known.yaml"})
    assert main(["report", *other, "--format", "badge"]) == 2
    assert capsys.readouterr().err.splitlines()[0] == (
        f"{other[1]}:1:1: $.options.expect: a check of traces given other options than {other[0]} (--expect known.yaml, "
        "there not given; --trace others.jsonl, there games.jsonl): expected the shards of one check of traces"
    )
    run = {"expect": "known.yaml", "variant": ["briscola-2p"], "timeout": 10.0}
    chosen = shards(run, {**run, "variant": ["bisca-2p"], "game": ["bisca"], "timeout": 30.0, "engine_cmd": "node e.js"})
    assert main(["report", *chosen, "--format", "badge"]) == 0
    capsys.readouterr()
    held = shards(run, {**run, "expect": "other.yaml", "validate_protocol": True})
    assert main(["report", *held, "--format", "badge"]) == 2
    assert capsys.readouterr().err.splitlines()[0] == (
        f"{held[1]}:1:1: $.options.expect: a run given other options than {held[0]} (--expect other.yaml, there "
        "known.yaml; --validate-protocol, there not given): expected the shards of one run"
    )


def test_an_id_longer_than_the_cap_is_a_located_problem_never_split(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An id of megabytes split into its parts (id_order) would cost tens of times its size: it is refused by the
    run log's schema, at its line and column, and never ordered."""
    log = _shard_log(tmp_path, "run.jsonl", ["a", "b"])
    header, first, *rest = log.read_text(encoding="utf-8").splitlines()
    long = json.dumps({**json.loads(first), "id": "1a" * (runlog.ID_CAP // 2 + 1)})
    log.write_text("\n".join([header, long, *rest]) + "\n", encoding="utf-8")
    ordered = []
    real = runlog.id_order
    monkeypatch.setattr(runlog, "id_order", lambda given: ordered.append(len(given)) or real(given))
    capsys.readouterr()
    assert main(["report", str(log)]) == 2
    column = long.index('"1a') + 1
    assert capsys.readouterr().err.splitlines()[0].startswith(
        f"{log}:2:{column}: $.id: expected at most {runlog.ID_CAP} characters, found string"
    )
    assert ordered and max(ordered) <= runlog.ID_CAP
    schema = json.loads((Path(__file__).parent.parent / "schemas" / "run-log.schema.json").read_text(encoding="utf-8"))
    scenario, footer = schema["$defs"]["scenario"]["properties"], schema["$defs"]["footer"]["properties"]
    assert scenario["id"]["maxLength"] == footer["late_copies"]["items"]["maxLength"] == runlog.ID_CAP


def test_a_log_s_large_values_are_kept_as_far_as_a_report_shows_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A value of millions of items in a log is millions of objects when read: each line keeps only what a report
    shows of its values, and the report is the one the whole values make."""
    log = _shard_log(tmp_path, "run.jsonl", ["a", "b"])
    header, *scenario_lines, footer = log.read_text(encoding="utf-8").splitlines()
    huge = [[]] * 50_000
    mismatch = {"step": 1, "line": 3, "what": "hand of A (as a set)", "expected": huge, "observed": {"k": huge}}
    made = [json.dumps({**json.loads(line), "outcome": "fail", "mismatch": mismatch, "mismatches": [mismatch] * 2,
                        "expected": {"id": "a", "differences": huge}}) for line in scenario_lines]  # fmt: skip
    counts = json.dumps({**json.loads(footer), "counts": {"fail": 2}})
    log.write_text("\n".join([header, *made, counts]) + "\n", encoding="utf-8")
    read = runlog.read(log)
    assert all(len(json.dumps(line)) < 16 * untrusted.CAP for line in read.scenarios)  # of 0.9 MB each
    capsys.readouterr()
    for form in ("md", "junit", "json"):
        assert main(["report", str(log), "--format", form]) == 0
        made = capsys.readouterr().out
        with monkeypatch.context() as whole:  # the report of the values kept whole, as they were before
            whole.setattr(untrusted, "shown_part", lambda value, cap=0: value)
            assert main(["report", str(log), "--format", form]) == 0
        assert made == capsys.readouterr().out and "[cut: " in made
