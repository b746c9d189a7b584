"""`trickspec verify`, `report` and `smoke`: verdicts, exit codes, reports and expectation files."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from conformance import expectations, runlog, schemas
from conformance.cli import main
from conformance.spec import variant
from reference.engine import Engine, compile_rules

SERVE = f"{sys.executable} -m reference.serve"


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


@pytest.mark.parametrize("fmt", ["md", "junit", "json", "badge"])
def test_report_renders_a_log(tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    assert main(["verify", "--scenario", "albastini/trick", "--report-dir", str(tmp_path)]) == 0
    capsys.readouterr()
    code, out, _ = run(capsys, "report", str(tmp_path / "run.jsonl"), "--format", fmt)
    assert code == 0
    assert out == (tmp_path / {"md": "report.md", "junit": "junit.xml", "json": "summary.json",
                               "badge": "badge.json"}[fmt]).read_text()


def test_report_of_a_broken_log_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "run.jsonl"
    log.write_text('{"type": "header"}\nnot json\n', encoding="utf-8")
    code, _, err = run(capsys, "report", str(log))
    assert code == 2
    assert f"{log}:1:1: $: 'kit' is a required property" in err
    assert "'id' is a required property" not in err  # judged as the header it says it is
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
    assert out.strip().splitlines()[-1] == "4 passed, 0 failed"


def test_smoke_explains_a_silent_engine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "mute.py"
    script.write_text("import sys\nfor line in sys.stdin:\n    pass\n", encoding="utf-8")
    code, out, _ = run(capsys, "smoke", "--engine-cmd", f"{sys.executable} {script}", "--timeout", "0.5")
    assert code == 3
    assert "FAIL handshake" in out and "no answer within 0.5 s" in out
