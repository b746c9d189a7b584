"""Scenario files with bad data: located errors from validate and from pytest collection, never a crash."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.scenarios import expand_setup
from conformance.spec import variant

GOOD = """\
# yaml-language-server: $schema=../schemas/scenario.schema.json
variant: albastini-2p
scenarios:
  - id: test/topic/{name}
    title: A trick
    clauses: [{clause}]
    source: {{derived: a test}}
    setup:
      dealer: 1
      hands: {{0: [AH, KC, QD, 4C, 5D], 1: [3S, 7H, 6C, 4D, 5C]}}
      stock: [rest, 6S]
      start: {{phase: play, trump: S, to_act: 0, indicator: 6S}}
    steps:
      - play: {{0: {lead}, 1: 3S}}
        expect: {{last_trick: {{winner: 1, points: 11}}}}
"""


def scenario_file(tmp_path: Path, name: str = "ok", clause: str = "albastini.play.trick-winner", lead: str = "AH") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(GOOD.format(name=name, clause=clause, lead=lead), encoding="utf-8")
    return path


def errors(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str]:
    code = main(["validate", str(path)])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err


def test_a_good_file_is_valid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(scenario_file(tmp_path))]) == 0


@pytest.mark.parametrize(
    ("lead", "line", "message"),
    [
        ("10H", "14:19", "$.scenarios[0].steps[0].play[\"0\"]: expected a card code"),
        ("XS", "14:19", "found string \"XS\""),
        ("9H", "14:19", "expected a card of albastini-2p, found '9H'"),
        ("'no'", "14:19", "found string \"no\""),
    ],
)
def test_bad_card_codes_are_located(tmp_path: Path, capsys: pytest.CaptureFixture[str], lead: str, line: str,
                                    message: str) -> None:
    path = scenario_file(tmp_path, lead=lead)
    code, err = errors(capsys, path)
    assert code == 2
    assert f"{path}:{line}:" in err and message in err


def test_unknown_clause_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario_file(tmp_path, clause="albastini.play.no-such-rule")
    code, err = errors(capsys, path)
    assert code == 2
    assert f"{path}:6:15: $.scenarios[0].clauses[0]: unknown clause 'albastini.play.no-such-rule'" in err


def test_clause_of_another_variant_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario_file(tmp_path, clause="albastini.five-players.indicator-dead")
    code, err = errors(capsys, path)
    assert code == 2 and "applies only to albastini-5p, not albastini-2p" in err


def test_duplicate_ids_across_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario_file(tmp_path, name="same")
    copy = tmp_path / "sub" / "again.yaml"
    copy.parent.mkdir()
    copy.write_text((tmp_path / "same.yaml").read_text(), encoding="utf-8")
    code, err = errors(capsys, tmp_path)
    assert code == 2 and "duplicate scenario id 'test/topic/same'" in err


def test_card_placed_twice_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario_file(tmp_path)
    path.write_text(path.read_text().replace("1: [3S, 7H", "1: [AH, 7H"), encoding="utf-8")
    code, err = errors(capsys, path)
    assert code == 2 and "AH is placed twice" in err


def test_rest_fills_the_deck_in_order() -> None:
    v = variant("albastini-2p")
    setup = expand_setup({"hands": {"0": ["AH"]}, "stock": ["rest", "6S"]}, v)
    assert len(setup["stock"]) == 35 and setup["stock"][-1] == "6S" and "AH" not in setup["stock"]
    assert setup["stock"][:3] == ["AC", "7C", "KC"]


def test_pytest_collection_reports_the_location(tmp_path: Path) -> None:
    """A bad scenario file inside scenarios/ fails collection with file:line, not a traceback."""
    root = Path(__file__).resolve().parent.parent
    bad = root / "scenarios" / "zz-test-bad.yaml"
    bad.write_text(GOOD.format(name="bad", clause="albastini.play.nope", lead="AH"), encoding="utf-8")
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "--engine", "reference", str(bad), "-q",
                               "-p", "no:cacheprovider"], capture_output=True, text=True, cwd=root)
    finally:
        bad.unlink()
    assert done.returncode != 0
    assert "zz-test-bad.yaml:6:15: $.scenarios[0].clauses[0]: unknown clause" in done.stdout
    assert "Traceback" not in done.stdout
