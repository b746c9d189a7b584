"""The sdist holds what its own tests read: unpacked elsewhere, its kit loads, validates and passes tests from its files alone.

Every scenario running from an installed wheel is tests/test_wheel.py's; here a sample of each kind suffices."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from conformance.suite.scenarios import kit_scenarios

ROOT = Path(__file__).resolve().parent.parent

# Builds and installs the package: run on their own (`pytest -m distribution`), as .ci/run does.
pytestmark = pytest.mark.distribution

# Tests that read what only the sdist's extra folders hold: examples/ (the example engines, the layers' template
# engine), tests/golden/ (the recorded runs), docs/ (the glossary the site data loads) with rulesite's templates;
# and a scenario folder of each game.
SUBSET = (
    "tests/test_layers.py",
    "tests/test_golden_run.py",
    "tests/test_examples.py::test_js_engine_handshake",
    "tests/test_examples.py::test_js_engine_answers_bad_input_and_stops_cleanly",
    "tests/test_rulesite.py::test_shortcodes_draw_cards_and_refuse_typos",
    "tests/test_rulesite.py::test_prose_draws_card_codes_and_links_ids",
    "tests/test_rulesite.py::test_every_template_autoescapes",
    "scenarios/albastini/trick",
    "scenarios/altbaumer/trump",
    "scenarios/briscola/cards",
)


def test_the_unpacked_sdist_passes_its_own_tests(tmp_path: Path) -> None:
    script = "import sys; from hatchling.build import build_sdist; print(build_sdist(sys.argv[1]))"
    build = subprocess.run([sys.executable, "-c", script, str(tmp_path)], cwd=ROOT, check=True, capture_output=True, text=True)
    with tarfile.open(tmp_path / build.stdout.strip()) as archive:
        archive.extractall(tmp_path / "unpacked", filter="data")
    (top,) = (tmp_path / "unpacked").iterdir()
    env = {**os.environ, "PYTHONPATH": str(top)}  # ahead of the checkout's editable install

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, *args], cwd=top, env=env, capture_output=True, text=True)

    # one interpreter loads the kit once: where it comes from, how many scenarios, then `trickspec validate`
    where = ("import sys, conformance; from specreader import kitdata; from conformance.suite.scenarios import kit_scenarios;"
             "from conformance.cli import main; print(conformance.__file__); print(kitdata.root()); print(len(kit_scenarios()));"
             "sys.exit(main(['validate']))")
    found = run("-c", where)
    assert found.returncode == 0, found.stdout + found.stderr
    *paths, count, valid = found.stdout.splitlines()
    assert all(line.startswith(str(top)) for line in paths), found.stdout
    assert int(count) == len(kit_scenarios())  # every scenario file is in it
    assert valid.startswith("valid ("), found.stdout
    done = run("-m", "pytest", "-p", "no:cacheprovider", "-q", "--engine", "reference", *SUBSET)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    summary = done.stdout.splitlines()[-1]
    assert " passed" in summary and "failed" not in summary and "skipped" not in summary, summary
