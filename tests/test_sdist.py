"""The sdist holds what its own tests read: unpacked elsewhere, its tests pass from its files alone."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The tests that read what only the sdist's extra folders hold: examples/, docs/ and mkdocs.yml,
# tests/golden/; and the scenarios themselves.
SUBSET = ("tests/test_examples.py", "tests/test_rulesite.py", "tests/test_golden_run.py", "tests/test_layers.py", "scenarios")


def test_the_unpacked_sdist_passes_its_own_tests(tmp_path: Path) -> None:
    script = "import sys; from hatchling.build import build_sdist; print(build_sdist(sys.argv[1]))"
    build = subprocess.run([sys.executable, "-c", script, str(tmp_path)], cwd=ROOT, check=True, capture_output=True, text=True)
    with tarfile.open(tmp_path / build.stdout.strip()) as archive:
        archive.extractall(tmp_path / "unpacked", filter="data")
    (top,) = (tmp_path / "unpacked").iterdir()
    env = {**os.environ, "PYTHONPATH": str(top)}  # ahead of the checkout's editable install
    where = "import conformance; from specreader import kitdata; print(conformance.__file__); print(kitdata.root())"
    found = subprocess.run([sys.executable, "-c", where], cwd=top, env=env, capture_output=True, text=True, check=True)
    assert all(line.startswith(str(top)) for line in found.stdout.splitlines()), found.stdout
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--engine", "reference", *SUBSET],
        cwd=top, env=env, capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    summary = done.stdout.splitlines()[-1]
    assert " passed in " in summary and "skipped" not in summary, summary
