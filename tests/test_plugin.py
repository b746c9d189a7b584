"""The pytest plugin: inert without an engine, scenario ids as test ids, clause selection, strict expectations.

Each run is pytest in this process through ``pytester``: what is under test is the plugin's
behaviour, not its installation (tests/test_wheel.py covers that), so no interpreter starts per run.
The plugin comes from its ``pytest11`` entry point, as in a user's run.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent
ALBASTINI = ROOT / "scenarios" / "albastini"
ONE = str(ALBASTINI / "trick" / "anna-boris.yaml")

Run = Callable[..., pytest.RunResult]


@pytest.fixture
def pytest_run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Run:
    monkeypatch.syspath_prepend(str(ROOT / "tests"))  # lets --engine name a test module's engine

    def run(*args: str) -> pytest.RunResult:
        # no:cacheprovider: the run's rootdir is the kit (its pyproject.toml), where no cache is to be written
        return pytester.runpytest_inprocess("-p", "no:cacheprovider", "-q", "-rA", *args)

    return run


def output(done: pytest.RunResult) -> str:
    return "\n".join(done.outlines)


def errors(done: pytest.RunResult) -> str:
    return "\n".join(done.errlines)


def test_inert_without_an_engine(pytest_run: Run) -> None:
    done = pytest_run(str(ALBASTINI / "trick"))
    assert done.ret == pytest.ExitCode.NO_TESTS_COLLECTED, output(done)  # the plugin adds no items by itself


def test_items_are_scenario_ids_and_clauses_select(pytest_run: Run) -> None:
    done = pytest_run("--engine", "reference", ONE, "-k", "albastini.cards.rank-order", "--collect-only")
    assert done.ret == pytest.ExitCode.OK, output(done)
    assert "anna-boris-same-suit-ace-wins" in output(done)
    assert "anna-boris-trump-captures" not in output(done)  # it does not name the rank-order clause


def test_markers_select_by_variant(pytest_run: Run) -> None:
    done = pytest_run("--engine", "reference", str(ALBASTINI), "-m", "albastini_5p", "--collect-only")
    assert done.ret == pytest.ExitCode.OK, output(done)
    assert "five-players" in output(done) and "anna-boris" not in output(done)


def test_expectation_file_is_strict(pytest_run: Run, tmp_path: Path) -> None:
    expect = tmp_path / "expect.yaml"
    expect.write_text(
        "engine: reference\nspec_version: any\nexpectations:\n"
        "  - {id: albastini/trick/anna-boris-trump-captures, outcome: fail, reason: claimed broken}\n"
        "  - {id: albastini/trick/anna-boris-same-suit-ace-wins, outcome: skip, reason: not today}\n",
        encoding="utf-8",
    )
    done = pytest_run("--engine", "reference", ONE, "--expect", str(expect))
    assert done.ret == pytest.ExitCode.TESTS_FAILED, output(done)
    assert "XPASS(strict)" in output(done) and "anna-boris-trump-captures" in output(done)
    assert "SKIPPED" in output(done) and "not today" in output(done)


def test_failure_names_clause_and_diff(pytest_run: Run) -> None:
    done = pytest_run("--engine", "test_verify_cli:PlantedBug", str(ALBASTINI / "cards" / "rank-order.yaml"))
    assert done.ret == pytest.ExitCode.TESTS_FAILED, output(done)
    assert "clause albastini.cards.rank-order:" in output(done)
    assert "- expected:" in output(done) and "+ observed:" in output(done)


def test_a_bad_expectation_file_is_a_usage_error(pytest_run: Run, tmp_path: Path) -> None:
    expect = tmp_path / "expect.yaml"
    expect.write_text("engine: reference\n", encoding="utf-8")
    done = pytest_run("--engine", "reference", ONE, "--expect", str(expect))
    assert done.ret == pytest.ExitCode.USAGE_ERROR, output(done) + errors(done)
    assert f"{expect}:1:1: $: missing required key 'spec_version', 'expectations'" in errors(done)
    assert "INTERNALERROR" not in output(done) + errors(done) and "Traceback" not in output(done) + errors(done)


def test_an_engine_that_cannot_be_imported_is_a_usage_error(pytest_run: Run) -> None:
    done = pytest_run("--engine", "nosuchmodule:Engine", ONE)
    assert done.ret == pytest.ExitCode.USAGE_ERROR, output(done) + errors(done)
    assert "engine unusable: ModuleNotFoundError: No module named 'nosuchmodule'" in errors(done)
    assert "Traceback" not in output(done) + errors(done)
