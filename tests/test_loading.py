"""Loading scenarios to run them is apart from validating them: the kit's own are validated when the kit is
built and tested, so loading them starts no reference engine; a house folder is validated whole before its
scenarios run, so that a bad scenario is never blamed on the engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_scenario_files import scenario_file

from conformance.cli import main
from conformance.suite import scenarios, setup_check
from reference import engine as reference_engine


@pytest.fixture
def engines_built(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every reference engine started and every variant compiled for it from here on, counted."""
    built: list[str] = []
    start = reference_engine.Engine.__init__
    compile_rules = setup_check.compile_rules

    def counted_start(self: Any, *args: Any, **kwargs: Any) -> None:
        built.append("engine")
        start(self, *args, **kwargs)

    def counted_compile(*args: Any, **kwargs: Any) -> Any:
        built.append("rules")
        return compile_rules(*args, **kwargs)

    monkeypatch.setattr(reference_engine.Engine, "__init__", counted_start)
    monkeypatch.setattr(setup_check, "compile_rules", counted_compile)
    return built


def test_loading_the_kit_s_scenarios_to_run_them_starts_no_reference_engine(engines_built: list[str]) -> None:
    scenarios.kit_scenarios.cache_clear()
    try:
        loaded = scenarios.run_scenarios()
    finally:
        scenarios.kit_scenarios.cache_clear()
    assert len(loaded) >= 560
    assert engines_built == []


def test_validating_the_same_files_starts_the_reference_on_every_setup(engines_built: list[str]) -> None:
    files = scenarios.scenario_files()
    loaded = scenarios.load_files(files)
    assert engines_built.count("engine") >= len([s for s in loaded if not s.refuse_setup]) // 2
    assert "rules" in engines_built


def test_a_house_scenario_no_deal_can_start_from_is_refused_before_any_engine_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    path = scenario_file(folder)
    path.write_text(path.read_text().replace("indicator: 6S}", "indicator: 6S, piles: {0: [AD, 7D, KD]}}"), encoding="utf-8")
    status = main(["verify", "--scenarios", str(folder), "--engine-cmd", "false", "--report-dir", str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert status == 2
    assert f"{path}:12:75: $.scenarios[0].setup.start.piles[\"0\"]: a deal cannot start from this setup" in err, err
    assert not (tmp_path / "r" / "run.jsonl").exists()  # the engine was never started, nothing was judged
