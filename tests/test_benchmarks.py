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


TWO_TESTS = """
import subprocess, sys

def test_spins():
    sum(range(300_000))

def test_starts_a_process():
    subprocess.run([sys.executable, "-c", "sum(range(2_000_000))"], check=True)
"""


def test_the_suite_cpu_plugin_records_each_test_and_sums_them(pytester: pytest.Pytester, tmp_path: Path) -> None:
    pytester.syspathinsert(BENCH.parent)
    pytester.makepyfile(test_two=TWO_TESTS)
    log = tmp_path / "cpu"
    for _ in range(2):  # a second run into the same folder replaces the first
        assert pytester.runpytest_inprocess("-p", "suite_cpu", "--cpu-log", str(log), "-p", "no:cacheprovider").ret == 0
    suite_cpu = importlib.import_module("suite_cpu")
    read, unreadable = suite_cpu.lines(log)
    recorded = {line["test"].rsplit("/", 1)[-1]: line for line in read}  # the node ids start where pytest puts the root
    assert len(read) == 2 and unreadable == 0
    assert sorted(recorded) == ["test_two.py::test_spins", "test_two.py::test_starts_a_process"]
    assert recorded["test_two.py::test_starts_a_process"]["children"] > 0  # the other's may hold a process ended beside it
    assert recorded["test_two.py::test_spins"]["user"] + recorded["test_two.py::test_spins"]["system"] > 0
    (log / "cut.jsonl").write_text('{"test": "cut', encoding="utf-8")  # a worker ended mid-line
    out = suite_cpu.summary(log, top=5)
    assert out.startswith("2 tests: ") and "test_two.py::test_starts_a_process\n" in out + "\n"
    assert "1 line(s) could not be read" in out
    assert suite_cpu.summary(tmp_path / "none", top=5) == f"no test was recorded in {tmp_path / 'none'}"
    assert suite_cpu.main([str(tmp_path / "none")]) == 1


def test_without_a_cpu_log_the_plugin_records_nothing(pytester: pytest.Pytester) -> None:
    pytester.syspathinsert(BENCH.parent)
    pytester.makepyfile(test_two=TWO_TESTS)
    assert pytester.runpytest_inprocess("-p", "suite_cpu", "-p", "no:cacheprovider").ret == 0
    written = {p.relative_to(pytester.path).parts[0] for p in pytester.path.rglob("*")}
    assert written - {"__pycache__"} == {"test_two.py"}  # the tests' own bytecode, where Python writes it, and no log
