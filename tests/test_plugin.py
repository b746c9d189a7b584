"""The pytest plugin: inert without an engine, scenario ids as test ids, clause selection, expectations judged as
verify judges them, the kit's scenarios by default, pytest-xdist.

The plugin's behaviour is tested with pytest run in this process (pytester); only what needs a fresh interpreter
or other processes (what importing the plugin loads, pytest-xdist workers) starts one.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conformance.pytest_scenarios import describe
from conformance.run.runner import Verdict
from conformance.suite.comparisons import Mismatch
from conformance.suite.scenarios import kit_scenarios
from conformance.vocabulary import Outcome

pytest_plugins = ["pytester"]

# pytester forgets the modules a run imports, and hypothesis's pytest plugin imports hypothesis at the end of every
# run: imported here, before any run, it is imported once instead of once a run (seconds each)
with contextlib.suppress(ImportError):
    import hypothesis  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
ONE = "scenarios/albastini/trick/anna-boris.yaml"
ARGS = ("-p", "no:cacheprovider", "-q", "-rA")

Run = Callable[..., pytest.RunResult]


@pytest.fixture
def pytest_run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Run:
    """pytest in this process, from the checkout's root: its ini file, and the scenario paths as a user types them."""
    pytester.syspathinsert(ROOT / "tests")  # lets --engine name a test module's engine
    monkeypatch.chdir(ROOT)

    def _run(*args: str) -> pytest.RunResult:
        return pytester.runpytest_inprocess(*ARGS, *args)

    return _run


def two_player_only() -> object:
    """``--engine test_plugin:two_player_only``: the reference, declaring two-player Albastini alone."""
    from conformance.engines.adapter import InProcessAdapter
    from reference import Engine

    return InProcessAdapter(Engine.new, {"name": "two-player-only"}, ["albastini-2p"])


def test_an_unsupported_scenario_is_skipped_at_its_own_line_with_one_prefix(pytest_run: Run) -> None:
    done = pytest_run("--engine", "test_plugin:two_player_only", "-rs", "scenarios/albastini/cards/rank-order-3p.yaml")
    out = str(done.stdout)
    skips = re.findall(r"^SKIPPED \[1\] (\S+): (.*)$", out, re.M)
    assert skips and all(re.search(r"rank-order-3p\.yaml:\d+$", where) for where, _ in skips), out
    assert {why for _, why in skips} == {"unsupported: the engine does not declare albastini-3p"}, out
    assert len({where for where, _ in skips}) == len(skips)  # each scenario named, none merged into another
    # and a run that judged none of its scenarios is no pass, as verify says
    assert done.ret == 1 and f"trickspec: every scenario run ({len(skips)}) was unsupported or skipped" in out
    mixed = pytest_run("--engine", "test_plugin:two_player_only", "scenarios/albastini/cards/rank-order-3p.yaml", ONE)
    assert mixed.ret == 0 and "nothing was judged" not in str(mixed.stdout), mixed.stdout  # one scenario judged


def test_a_run_judging_nothing_fails_with_workers_too(tmp_path: Path) -> None:
    """pytest-xdist's workers run the scenarios; the controller, which holds every report, says it."""
    args = ["--engine", "test_plugin:two_player_only", "-n", "2", "scenarios/albastini/cards/rank-order-3p.yaml"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "pytest", *ARGS, *args], capture_output=True, text=True, cwd=ROOT, env=env)
    assert done.returncode == 1 and "was unsupported or skipped, so nothing was judged" in done.stdout, done.stdout


def test_inert_without_an_engine(pytest_run: Run) -> None:
    done = pytest_run("scenarios/albastini/trick")
    assert done.ret == 5, done.stdout  # nothing collected: the plugin adds no items by itself
    markers = str(pytest_run("--markers").stdout)
    assert "albastini_5p" not in markers and "clause(id)" not in markers
    assert "albastini_5p:" in str(pytest_run("--markers", "--engine", "reference").stdout)


def test_importing_the_plugin_loads_nothing_of_the_kit() -> None:
    # a fresh interpreter: this one has the kit loaded already
    script = "import sys, conformance.plugin; print(' '.join(sorted(sys.modules)))"
    loaded = set(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split())
    kit = {name for name in loaded if name.split(".")[0] in ("conformance", "specreader", "reference", "yaml", "jsonschema")}
    assert kit == {"conformance", "conformance.plugin"}
    assert "pytest" not in loaded  # pytest has it loaded already; a plain import of the module costs nothing more


def test_header_names_the_engine_and_the_spec(pytest_run: Run) -> None:
    from conformance.run.runlog import spec_version
    from specreader.kitdata import kit_version

    done = pytest_run("--engine", "reference", ONE, "--collect-only", "-v")  # -v undoes -q, which hides the header
    assert f"trickspec: engine trickspec-reference {kit_version()}, spec {spec_version()}, scenarios in " in str(done.stdout)


def test_an_empty_engine_command_is_refused(pytest_run: Run) -> None:
    done = pytest_run("--engine-cmd", "", ONE)
    assert done.ret == 4, str(done.stdout) + str(done.stderr)
    assert "BadCommand: expected an engine command, found ''" in str(done.stderr)


def test_items_are_scenario_ids_and_clauses_select(pytest_run: Run) -> None:
    done = pytest_run("--engine", "reference", ONE, "-k", "albastini.cards.rank-order", "--collect-only")
    assert done.ret == 0, done.stdout
    assert "anna-boris-same-suit-ace-wins" in str(done.stdout)
    assert "anna-boris-trump-captures" not in str(done.stdout)  # it does not name the rank-order clause


def test_markers_select_by_variant(pytest_run: Run) -> None:
    done = pytest_run("--engine", "reference", "scenarios/albastini", "-m", "albastini_5p", "--collect-only")
    assert done.ret == 0
    assert "five-players" in str(done.stdout) and "anna-boris" not in str(done.stdout)


def test_expectation_file_is_strict(pytest_run: Run, tmp_path: Path) -> None:
    expect = tmp_path / "expect.yaml"
    expect.write_text(
        "engine: reference\nspec_version: any\nexpectations:\n"
        "  - {id: albastini/trick/anna-boris-trump-captures, outcome: fail, reason: claimed broken}\n"
        "  - {id: albastini/trick/anna-boris-same-suit-ace-wins, outcome: skipped, reason: not today}\n",
        encoding="utf-8",
    )
    done = pytest_run("--engine", "reference", ONE, "--expect", str(expect))
    assert done.ret == 1, done.stdout
    out = str(done.stdout)
    assert f"FAILED {ONE}::albastini/trick/anna-boris-trump-captures" in out
    assert "expectation file: expected fail (claimed broken) but it passed" in out
    assert f"SKIPPED [1] {ONE}: not today" in out


def test_expected_failures_are_judged_by_kind(pytest_run: Run, tmp_path: Path) -> None:
    """As verify judges them: a failure of the kind listed is xfail, of another kind a failure with a note."""
    expect = tmp_path / "expect.yaml"
    expect.write_text(
        "engine: golden-mixed\nspec_version: any\nexpectations:\n"
        "  - {id: albastini/cards/jack-beats-queen-3p, outcome: fail, reason: queen above jack}\n"
        "  - {id: albastini/dealer/clockwise-team-choice, outcome: fail, reason: listed as a failure}\n"
        "  - {id: briscola/cards/four-players-three-beats-king, outcome: fail, reason: not declared}\n",
        encoding="utf-8",
    )
    files = ("scenarios/albastini/cards/rank-order-3p.yaml", "scenarios/albastini/dealer/team-choice.yaml",
             "scenarios/briscola/cards/rank-order-4p.yaml")
    done = pytest_run("--engine", "golden_engine:mixed", *files, "--expect", str(expect), "-k",
                      "jack-beats-queen-3p or clockwise-team-choice or four-players-three-beats-king")
    assert done.ret == 1, done.stdout
    out = str(done.stdout)
    assert "XFAIL scenarios/albastini/cards/rank-order-3p.yaml::albastini/cards/jack-beats-queen-3p - queen above" in out
    assert "FAILED scenarios/albastini/dealer/team-choice.yaml::albastini/dealer/clockwise-team-choice" in out
    assert "expectation file: expected fail, the failure is now error" in out
    assert "engine error: setup: ValueError: clockwise play is not implemented" in out
    assert "expected fail, but the engine does not declare the variant" in out  # skipped, with the note
    assert "1 failed, 1 skipped, 19 deselected, 1 xfailed" in out
    done.assert_outcomes(failed=1, skipped=1, deselected=19, xfailed=1)


def test_failure_names_clause_and_diff(pytest_run: Run) -> None:
    done = pytest_run("--engine", "test_verify_cli:PlantedBug", "scenarios/albastini/cards/rank-order.yaml")
    assert done.ret == 1
    out = str(done.stdout)
    assert "clause albastini.cards.rank-order:" in out
    assert "- expected:" in out and "+ observed:" in out


def test_a_bad_expectation_file_is_a_usage_error(pytest_run: Run, tmp_path: Path) -> None:
    expect = tmp_path / "expect.yaml"
    expect.write_text("engine: reference\n", encoding="utf-8")
    done = pytest_run("--engine", "reference", ONE, "--expect", str(expect))
    both = str(done.stdout) + str(done.stderr)
    assert done.ret == 4, both  # pytest's usage error
    assert f"{expect}:1:1: $: missing required key 'spec_version', 'expectations'" in str(done.stderr)
    assert "INTERNALERROR" not in both and "Traceback" not in both


def test_an_engine_that_cannot_be_imported_is_a_usage_error(pytest_run: Run) -> None:
    done = pytest_run("--engine", "nosuchmodule:Engine", ONE)
    both = str(done.stdout) + str(done.stderr)
    assert done.ret == 4, both
    assert "no module named 'nosuchmodule'" in str(done.stderr)
    assert "Traceback" not in both


def test_the_kit_scenarios_run_by_default_in_any_folder(pytest_run: Run, monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)  # an empty folder: the plugin finds the kit's data by where it is installed
    done = pytest_run("--engine", "reference")
    assert done.ret == 0, done.stdout
    assert done.outlines[-1].startswith(f"{len(kit_scenarios())} passed in ")


def test_this_checkout_collects_each_scenario_once(pytest_run: Run) -> None:
    done = pytest_run("--engine", "reference", "--collect-only")  # testpaths: tests and scenarios
    assert done.ret == 0, done.stdout
    assert sum(".yaml::" in line for line in done.outlines) == len(kit_scenarios())


def test_xdist_workers_each_run_an_engine_of_their_own(tmp_path: Path) -> None:
    """Under pytest-xdist the controller only shakes hands (for the header); each worker starts its own engine.

    Worker processes are the point, so pytest runs in one of its own."""
    started = tmp_path / "started"
    started.mkdir()
    engine = ("import os, pathlib, sys; pathlib.Path(sys.argv[1], str(os.getpid())).touch();"
              "from conformance.engines.serve import main; raise SystemExit(main([]))")
    command = shlex.join([sys.executable, "-c", engine, str(started)])
    args = ("-n", "2", "--engine-cmd", command, "scenarios/albastini/trick")
    done = subprocess.run([sys.executable, "-m", "pytest", *ARGS, *args], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    ran = [s for s in kit_scenarios() if s.file.startswith("scenarios/albastini/trick/")]
    assert done.stdout.splitlines()[-1].startswith(f"{len(ran)} passed in ")
    assert len(list(started.iterdir())) == 3  # the controller's handshake and one engine per worker


def test_a_worker_whose_engine_will_not_start_fails_its_scenarios_saying_why(tmp_path: Path) -> None:
    """The controller's engine shakes hands, the worker's does not (a lock, a port, a licence): each scenario of the
    worker fails with the reason, no worker is lost to a traceback, and the run does not end as one with no test."""
    engine = ("import os, sys\n"
              "if os.environ.get('PYTEST_XDIST_WORKER'):\n"
              "    sys.stderr.write('cannot start here\\n'); sys.exit(5)\n"
              "from conformance.engines.serve import main\n"
              "raise SystemExit(main())\n")
    script = tmp_path / "engine.py"
    script.write_text(engine, encoding="utf-8")
    args = ("-n", "1", "--engine-cmd", shlex.join([sys.executable, str(script)]), ONE)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST_")}  # this run's own workers' alone
    done = subprocess.run([sys.executable, "-m", "pytest", *ARGS, *args], capture_output=True, text=True, cwd=ROOT, env=env)
    assert done.returncode == pytest.ExitCode.TESTS_FAILED, done.stdout + done.stderr
    assert "engine unusable: " in done.stdout and "cannot start here" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr and "node down" not in done.stdout
    assert re.search(r"^[1-9]\d* failed in ", done.stdout.splitlines()[-1]), done.stdout


def test_an_answer_sent_again_after_its_scenario_was_judged_blames_no_other(pytest_run: Run, tmp_path: Path) -> None:
    """pytest runs one scenario at a time, so the kit lets go of each answer at once: a copy that comes after it
    (here as the next request comes, before its answer) is a warning naming the scenario answered twice, and the
    next scenario passes on the same engine. (A copy that comes before the kit let go is blamed on its own
    scenario: tests/hostile/test_engine_process.py.)"""
    first, second = [s.id for s in kit_scenarios() if s.file == ONE][:2]
    script = tmp_path / "twice.py"
    script.write_text(
        "import json, subprocess, sys\n"
        "served = subprocess.Popen([sys.executable, '-m', 'conformance.engines.serve'], stdin=subprocess.PIPE,\n"
        "                          stdout=subprocess.PIPE, text=True, bufsize=1)\n"
        "copy = ''\n"
        "for line in sys.stdin:\n"
        "    sys.stdout.write(copy); copy = ''\n"
        "    served.stdin.write(line); served.stdin.flush()\n"
        "    if json.loads(line).get('cmd') == 'stop':\n"
        "        break\n"
        "    answer = served.stdout.readline()\n"
        "    sys.stdout.write(answer); sys.stdout.flush()\n"
        f"    if json.loads(line).get('id') == {first!r}:\n"
        "        copy = answer\n",
        encoding="utf-8",
    )
    done = pytest_run("--engine-cmd", shlex.join([sys.executable, str(script)]), "-p", "no:randomly", ONE)
    out = str(done.stdout)
    assert done.ret == pytest.ExitCode.OK, out
    assert f"PASSED {ONE}::{second}" in out and f"the engine answered {first!r} twice" in out, out


def test_a_broken_scenario_file_is_a_collection_error_at_it_and_the_others_still_run(
    pytest_run: Run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The run's scenarios are read once for every file; when one file does not load, each is read alone, so
    the broken one is reported where it is wrong and the others run (where pytest goes on after collection errors)."""
    from conformance.suite import scenarios
    from specreader import kitdata

    folder = tmp_path / "scenarios"
    (folder / "albastini").mkdir(parents=True)
    good = folder / "albastini" / "anna-boris.yaml"
    good.write_text((ROOT / ONE).read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "albastini" / "broken.yaml").write_text(
        "variant: albastini-2p\nscenarios:\n  - id: albastini/broken/x\n    nonsense: 1\n", encoding="utf-8"
    )
    monkeypatch.setattr(kitdata, "scenarios_dir", lambda: folder)
    scenarios.kit_scenarios.cache_clear()
    try:
        done = pytest_run("--engine", "reference", "--continue-on-collection-errors", str(folder))
    finally:
        scenarios.kit_scenarios.cache_clear()
    out = str(done.stdout)
    assert done.ret == pytest.ExitCode.TESTS_FAILED, out
    assert "ERROR collecting albastini/broken.yaml" in out, out
    assert "broken.yaml:4:5: $.scenarios[0].nonsense: unknown key 'nonsense'" in out, out
    ran = len(scenarios.load_files([good]))
    assert f"{ran} passed, 1 error" in done.outlines[-1], out


def test_an_engine_is_judged_only_on_the_fields_it_declares(pytest_run: Run) -> None:
    """As verify judges it: a scenario checking only fields the engine lacks is skipped as unsupported, a scenario
    checking some is judged on the others, and a bug in a field it reports still fails."""
    paths = ("-rs", "scenarios/albastini/score", "scenarios/altbaumer/match")
    done = pytest_run("--engine", "lacking_engine:Lacking", *paths)
    outcomes, out = done.parseoutcomes(), str(done.stdout)
    assert outcomes.get("passed", 0) > 20 and "failed" not in outcomes, out
    assert "unsupported: it checks only fields the engine does not report: " in out
    bug = pytest_run("--engine", "lacking_engine:TieBug", *paths)
    assert bug.parseoutcomes().get("failed", 0) > 0 and "result.tie" in str(bug.stdout)


def test_a_failure_says_where_two_lists_part_as_the_reports_do() -> None:
    """The plugin's text of a failure carries the hint verify's reports give a hand: what is missing, what extra."""
    scenario = next(s for s in kit_scenarios() if s.variant == "briscola-2p")
    hand = Mismatch(2, scenario.line, "hands.0 (as a set)", ["AC", "KC", "7D"], ["7D", "AC", "QC"])
    text = describe(Verdict(scenario, Outcome.FAIL, [hand]))
    assert '    + observed: ["7D", "AC", "QC"]\n      (missing KC; extra QC)' in text, text
