"""The built wheel carries spec/, schemas/ and scenarios/, the rules site's templates, typed packages and the
licence: an installed kit works outside a checkout, and pytest there runs every scenario."""

from __future__ import annotations

import os
import posixpath
import re
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from conformance.suite.scenarios import kit_scenarios

ROOT = Path(__file__).resolve().parent.parent

# Builds and installs the package: run on their own (`pytest -m distribution`), as .ci/run does.
pytestmark = pytest.mark.distribution
PACKAGES = ("specreader", "conformance", "reference", "rulesite")


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(out), str(ROOT)],
        check=True, capture_output=True,
    )
    (built,) = out.glob("trickspec-*.whl")
    return built


def test_the_wheel_holds_the_data_the_types_and_the_licence(wheel: Path) -> None:
    archive = zipfile.ZipFile(wheel)
    names = archive.namelist()
    for data in ("spec/albastini/clauses.yaml", "schemas/scenario.schema.json", "scenarios/albastini/trick/anna-boris.yaml",
                 "docs/protocol.md", "docs/guide/traces.md", "docs/reference/fields/albastini.md",
                 "examples/whole-game/briscola.py"):
        assert f"specreader/_data/{data}" in names
    templates = sorted(p.name for p in (ROOT / "rulesite" / "templates").glob("*.j2"))
    assert templates and all(f"rulesite/templates/{name}" in names for name in templates)
    assert all(f"{package}/py.typed" in names for package in PACKAGES)
    (info,) = {name.split("/")[0] for name in names if ".dist-info/" in name}
    assert f"{info}/licenses/LICENSE" in names
    metadata = Parser().parsestr(archive.read(f"{info}/METADATA").decode())
    assert metadata["License-Expression"] == "MIT"
    assert "Typing :: Typed" in metadata.get_all("Classifier", [])
    assert "Homepage, https://trickspec.dev" in metadata.get_all("Project-URL", [])


def test_every_link_of_the_docs_shipped_leads_to_what_the_wheel_holds(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    folders = {"/".join(name.split("/")[:depth]) for name in names for depth in range(1, name.count("/") + 1)}
    docs = sorted(name for name in names if name.startswith("specreader/_data/docs/") and name.endswith(".md"))
    assert len(docs) > 10
    for page in docs:
        text = zipfile.ZipFile(wheel).read(page).decode()
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)\s]*)?\)", text):
            if "://" in target or target.startswith("mailto:"):
                continue
            where = posixpath.normpath(posixpath.join(posixpath.dirname(page), target))
            assert where in names or where in folders, f"{page} links to {target}, which the wheel does not hold"


def test_installed_wheel_validates_and_verifies_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
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
    where = "from conformance.cli import main; raise SystemExit(main(['where']))"
    done = subprocess.run([sys.executable, "-c", where], cwd=elsewhere, env=env, capture_output=True, text=True)
    assert done.returncode == 0 and "not installed" not in done.stdout, done.stdout + done.stderr
    assert f"docs       {site}/specreader/_data/docs" in done.stdout

    pages = (
        "import rulesite, sys; assert rulesite.__file__.startswith(sys.argv[1]), rulesite.__file__;"
        "print(len(rulesite.pages(rulesite.load_site_data())))"
    )
    done = subprocess.run([sys.executable, "-c", pages, str(site)], cwd=elsewhere, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert int(done.stdout) > 50

def test_pip_install_in_an_empty_venv_then_pytest_in_an_empty_folder_runs_every_scenario(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    # This venv's pip installs into the empty one; the wheel's dependencies come from the package index (or pip's cache).
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", str(wheel)], capture_output=True, text=True
    )
    assert install.returncode == 0, install.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run([python, "-m", "pytest", "--engine", "reference"], cwd=empty, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"scenarios in {venv.resolve()}/lib/" in done.stdout  # the wheel's own, under site-packages
    assert f"= {len(kit_scenarios())} passed in " in done.stdout.splitlines()[-1]


@pytest.mark.parametrize("venv_name", [".venv", "venv"])
def test_the_kit_installed_in_the_project_s_own_venv_runs_every_scenario_from_any_folder_of_it(
    wheel: Path, tmp_path: Path, venv_name: str
) -> None:
    """The commonest layout: the kit installed into ``.venv`` (or ``venv``) inside the user's project, pytest run
    from the project's root or a folder of it. pytest passes over such folders; the way to the kit's scenarios is
    not passed over, and nothing else in the environment (a package's own tests) is collected."""
    project = tmp_path / "project"
    venv = project / venv_name
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "-q", str(wheel)], capture_output=True, text=True
    )
    assert install.returncode == 0, install.stderr
    (project / "test_mine.py").write_text("def test_mine():\n    pass\n", encoding="utf-8")
    (project / "sub").mkdir()
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    for where, expected in ((project, len(kit_scenarios()) + 1), (project / "sub", len(kit_scenarios()))):
        done = subprocess.run([python, "-m", "pytest", "--engine", "reference", "-q", "-p", "no:cacheprovider"],
                              cwd=where, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.splitlines()[-1].startswith(f"{expected} passed in "), done.stdout[-2000:]
