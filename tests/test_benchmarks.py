"""The engine benchmark runs and reports what it says it reports (at a size that times nothing: speed is
measured in benchmarks/, never asserted in tests)."""

from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

from specreader.spec import variant_ids

pytest_plugins = ["pytester"]

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_engine.py"


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("bench_engine", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def test_the_engine_benchmark_reports_both_apis_and_the_floor_for_every_variant(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load()
    assert bench.main(["--deals", "3", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^baseline .*: [\d,]+ deals/s$", out, re.MULTILINE), out
    assert re.search(r"^the baseline's rules behind legal_ids/apply_id .*: [\d,]+ deals/s, \d+\.\d\dx$", out, re.MULTILINE), out
    assert re.search(r"^the same behind the engine's structure .*: [\d,]+ deals/s, \d+\.\d\dx$", out, re.MULTILINE), out
    ids = set(variant_ids())
    rows = {cells[0]: cells[1:] for cells in map(str.split, out.splitlines()) if cells and cells[0] in ids}
    assert sorted(rows) == sorted(variant_ids())
    for cells in rows.values():
        assert re.fullmatch(r"[\d,]+ \d+\.\d\d [\d,]+ \d+\.\d\d", " ".join(cells[:4])), cells
    assert rows["albastini-2p"][4] == "ids:" and rows["altbaumer-standard"][4] == "dict:"  # each target, judged


@pytest.mark.parametrize("measure", ["baseline", "floor", "staged-floor", "dict", "ids"])
def test_one_measure_plays_alone_and_quietly_for_an_instruction_counter(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, measure: str
) -> None:
    bench = _load()
    played: list[tuple[Any, ...]] = []

    def recorded(name: str, play: Any) -> Any:
        def record(*args: Any) -> float:
            played.append((name, *args))
            return float(play(*args))
        return record

    for name, play in list(bench.ONLY.items()):
        monkeypatch.setitem(bench.ONLY, name, recorded(name, play))
    assert bench.main(["--only", measure, "--variant", "altbaumer-standard", "--deals", "2", "--seed", "7"]) == 0
    assert played == [(measure, "altbaumer-standard", 2, 7)]
    assert capsys.readouterr().out == ""


def test_the_check_trace_benchmark_reports_every_row(capsys: pytest.CaptureFixture[str]) -> None:
    path = BENCH.parent / "bench_check_trace.py"
    spec = importlib.util.spec_from_file_location("bench_check_trace", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--games", "4", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    for row in ("the reference, snapshot", "the reference's bare deal rate", "check-trace, one job", "check-trace, two jobs"):
        assert re.search(rf"^{re.escape(row)}.* [\d,]+ games/s +\d+\.\d\dx the floor's time$", out, re.MULTILINE), out
    assert re.search(r"^target 5,000 games/s with two jobs: (met|not met)$", out, re.MULTILINE), out


def test_the_check_trace_benchmark_reports_every_row_and_judges_a_trace_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = importlib.util.spec_from_file_location("bench_check_trace", BENCH.with_name("bench_check_trace.py"))
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--games", "3", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    rows = (
        "the reference, snapshot and legal actions after every action",
        "the reference's bare deal rate (nothing read)",
        "the trace's lines read, nothing judged",
        "the trace's lines only parsed (orjson), nothing checked",
        "check-trace, one job",
        "check-trace, two jobs",
        "the bound: two jobs, a game costing its reading and the floor",
        "the ceiling: two jobs, a game costing its parse and the floor",
    )
    for row in rows:
        assert re.search(rf"^{re.escape(row)} +[\d,]+ games/s", out, re.MULTILINE), out
    trace = tmp_path / "trace.jsonl"
    assert bench.main(["--write", str(trace), "--games", "2"]) == 0 and capsys.readouterr().out == ""
    assert len(trace.read_text().splitlines()) == 3  # a header and two games
    assert bench.main(["--judge", str(trace)]) == 0 and capsys.readouterr().out == ""
    trace.write_text(trace.read_text().replace('"trick": []', '"trick": [{"seat": 0, "card": "AS"}]', 1))
    assert bench.main(["--judge", str(trace)]) == 1  # a game that differs is no figure


def test_the_locate_benchmark_reports_each_case(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_locate", BENCH.with_name("bench_locate.py"))
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--mib", "1"]) == 0
    out = capsys.readouterr().out
    for name in bench.CASES:
        assert re.search(rf"^{re.escape(name)} +\d+\.\d s  peak +[\d,]+ MiB$", out, re.MULTILINE), out


def test_the_memory_benchmark_reports_each_run(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_run_memory", BENCH.with_name("bench_run_memory.py"))
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--games", "30", "60"]) == 0
    out = capsys.readouterr().out
    for games in (30, 60):
        for name in ("briscola-2p:", "report", "merged"):
            assert re.search(rf"^ *{name} +{games} games +\d+\.\d s  peak +\d+\.\d MiB$", out, re.MULTILINE), out
