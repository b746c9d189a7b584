"""The pytest plugin: inert without an engine, scenario ids as test ids, clause selection, strict expectations."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ONE = "scenarios/albastini/trick/anna-boris.yaml"


def pytest_run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "tests")}  # lets --engine name a test module's engine
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rA", *args],
                          capture_output=True, text=True, cwd=ROOT, env=env)


def test_inert_without_an_engine() -> None:
    done = pytest_run("scenarios/albastini/trick")
    assert done.returncode == 5, done.stdout  # nothing collected: the plugin adds no items by itself


def test_items_are_scenario_ids_and_clauses_select() -> None:
    done = pytest_run("--engine", "reference", ONE, "-k", "albastini.cards.rank-order", "--collect-only")
    assert done.returncode == 0, done.stdout
    assert "anna-boris-same-suit-ace-wins" in done.stdout
    assert "anna-boris-trump-captures" not in done.stdout  # it does not name the rank-order clause


def test_markers_select_by_variant() -> None:
    done = pytest_run("--engine", "reference", "scenarios/albastini", "-m", "albastini_5p", "--collect-only")
    assert done.returncode == 0
    assert "five-players" in done.stdout and "anna-boris" not in done.stdout


def test_expectation_file_is_strict(tmp_path: Path) -> None:
    expect = tmp_path / "expect.yaml"
    expect.write_text(
        "engine: reference\nspec_version: any\nexpectations:\n"
        "  - {id: albastini/trick/anna-boris-trump-captures, outcome: fail, reason: claimed broken}\n"
        "  - {id: albastini/trick/anna-boris-same-suit-ace-wins, outcome: skipped, reason: not today}\n",
        encoding="utf-8",
    )
    done = pytest_run("--engine", "reference", ONE, "--expect", str(expect))
    assert done.returncode == 1, done.stdout
    assert "XPASS(strict)" in done.stdout and "anna-boris-trump-captures" in done.stdout
    assert "SKIPPED" in done.stdout and "not today" in done.stdout


def test_failure_names_clause_and_diff() -> None:
    done = pytest_run("--engine", "test_verify_cli:PlantedBug", "scenarios/albastini/cards/rank-order.yaml")
    assert done.returncode == 1
    assert "clause albastini.cards.rank-order:" in done.stdout
    assert "- expected:" in done.stdout and "+ observed:" in done.stdout


def test_a_bad_expectation_file_is_a_usage_error(tmp_path: Path) -> None:
    expect = tmp_path / "expect.yaml"
    expect.write_text("engine: reference\n", encoding="utf-8")
    done = pytest_run("--engine", "reference", ONE, "--expect", str(expect))
    assert done.returncode == 4, done.stdout + done.stderr  # pytest's usage error
    assert f"{expect}:1:1: $: missing required key 'spec_version', 'expectations'" in done.stderr
    assert "INTERNALERROR" not in done.stdout + done.stderr and "Traceback" not in done.stdout + done.stderr


def test_an_engine_that_cannot_be_imported_is_a_usage_error() -> None:
    done = pytest_run("--engine", "nosuchmodule:Engine", ONE)
    assert done.returncode == 4, done.stdout + done.stderr
    assert "engine unusable: ModuleNotFoundError: No module named 'nosuchmodule'" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
