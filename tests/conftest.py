"""Shared helpers for the kit's own tests."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import rulesite

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str], Path]:
    def _write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    return _write


@pytest.fixture
def kit_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The kit's data copied, and used by validate in place of the kit's own."""
    from conformance.suite import scenarios, schemas
    from specreader import kitdata, spec

    # The kit's own spec, schemas and scenarios, read once a process and kept, are read before the copy stands
    # in: a copy a test breaks is then never what the worker's later tests read.
    spec.kit_spec()
    schemas.registry()
    scenarios.kit_scenarios()
    root = tmp_path / "kit"
    for folder in ("spec", "schemas", "scenarios"):
        shutil.copytree(kitdata.root() / folder, root / folder)
    monkeypatch.setattr(kitdata, "root", lambda: root)
    return root


@pytest.fixture(scope="session")
def site_data() -> rulesite.SiteData:
    """The kit's data as docs/hooks.py reads it for the site (with the glossary and the deal scripts), once a
    run. Shared: a test that changes it must change a copy."""
    import rulesite

    return rulesite.load_site_data(ROOT, DOCS / "glossary.yaml", rulesite.DEALS)


@pytest.fixture(scope="session")
def site_pages(site_data: rulesite.SiteData) -> dict[str, str]:
    """Every generated page of the site, by its path under docs/, made from ``site_data`` once a run."""
    import rulesite

    return rulesite.pages(site_data)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The rules site as ``mkdocs build --strict`` makes it, for the tests that read the built pages or its
    search index. Read-only: every test reads the same folder. Built once a run: under pytest-xdist the first
    worker to ask builds it while the others wait on the lock (pytest-xdist's documented way to share a
    session fixture), since a build takes seconds."""
    pytest.importorskip("mkdocs")
    import site_build

    if worker_id == "master":
        return site_build.built(tmp_path_factory.getbasetemp() / "site")
    from filelock import FileLock

    shared = tmp_path_factory.getbasetemp().parent
    with FileLock(shared / "site.lock"):
        return site_build.built(shared / "site")
