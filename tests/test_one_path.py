"""One path from files to verdicts: each file parsed once, each variant resolved once, and every
report rendered from the one log object that verify returns (the same one `report` reads back)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from conformance.engines.adapter import reference_adapter
from conformance.run import reports, runlog
from conformance.run.verify import verify
from conformance.suite import scenarios, schemas
from specreader import spec as specs
from specreader import yamlio


def test_each_scenario_file_is_parsed_once_and_each_variant_resolved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    spec, problems = specs.read()
    assert not problems
    parsed: Counter[Path] = Counter()
    real_load = yamlio.load

    def counting_load(path: Path) -> Any:
        parsed[Path(path)] += 1
        return real_load(path)

    resolutions: Counter[str] = Counter()
    real_merge_into_cache = specs.Spec._resolve

    def counting_resolve(self: specs.Spec, variant_id: str, stack: tuple[str, ...]) -> Any:
        if variant_id not in self._resolved:
            resolutions[variant_id] += 1
        return real_merge_into_cache(self, variant_id, stack)

    monkeypatch.setattr(scenarios, "load", counting_load)
    monkeypatch.setattr(specs.Spec, "_resolve", counting_resolve)
    files = scenarios.scenario_files()
    loaded = scenarios.load_files(files, spec)
    assert len(loaded) > 400
    assert set(parsed) == set(files) and set(parsed.values()) == {1}
    assert resolutions and set(resolutions.values()) == {1}
    assert {s.variant for s in loaded} <= set(resolutions)


def test_the_summary_and_every_report_come_from_the_log_as_written(tmp_path: Path) -> None:
    chosen = [s for s in scenarios.kit_scenarios() if s.game == "briscola"]
    path = tmp_path / "run.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        log = verify(reference_adapter(), chosen, stream=stream)
    assert log.complete and log.footer is not None
    assert not list(schemas.validator("run-log", "/$defs/footer").iter_errors(log.footer))
    read_back = runlog.read(path)
    assert len(read_back.scenarios) == len(chosen)
    assert read_back == log
    for fmt in reports.FORMATS:
        assert reports.render(log, fmt) == reports.render(read_back, fmt)
