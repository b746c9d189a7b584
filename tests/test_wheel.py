"""The built wheel carries spec/, schemas/ and scenarios/, and the rules site's templates: an installed kit works
outside a checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_installed_wheel_validates_and_verifies_outside_the_checkout(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(tmp_path), str(ROOT)],
        check=True, capture_output=True,
    )
    (wheel,) = tmp_path.glob("trickspec-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for data in ("spec/albastini/clauses.yaml", "schemas/scenario.schema.json", "scenarios/albastini/trick/anna-boris.yaml"):
        assert f"specreader/_data/{data}" in names
    templates = sorted(p.name for p in (ROOT / "rulesite" / "templates").glob("*.j2"))
    assert templates and all(f"rulesite/templates/{name}" in names for name in templates)
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}  # ahead of the checkout's editable install
    script = (
        "import conformance, sys; assert conformance.__file__.startswith(sys.argv[1]), conformance.__file__;"
        "from conformance.cli import main; raise SystemExit(main(['validate']) or main(['verify', '--game', 'altbaumer']))"
    )
    done = subprocess.run([sys.executable, "-c", script, str(site)], cwd=elsewhere, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[0].startswith("valid")
    assert done.stdout.strip().splitlines()[-1].endswith("passed, 0 failed")

    pages = (
        "import rulesite, sys; assert rulesite.__file__.startswith(sys.argv[1]), rulesite.__file__;"
        "print(len(rulesite.pages(rulesite.load_site_data())))"
    )
    done = subprocess.run([sys.executable, "-c", pages, str(site)], cwd=elsewhere, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert int(done.stdout) > 50
