"""Shared helpers for the kit's own tests."""

from __future__ import annotations

import os
import subprocess
import sys
import time
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


@pytest.fixture(scope="session")
def site_data() -> rulesite.SiteData:
    """The kit's data as docs/hooks.py reads it for the site (with the glossary and the deal scripts), once a
    session. Shared: a test that changes it must change a copy."""
    import rulesite

    return rulesite.load_site_data(ROOT, DOCS / "glossary.yaml", DOCS / "play")


@pytest.fixture(scope="session")
def site_pages(site_data: rulesite.SiteData) -> dict[str, str]:
    """Every generated page of the site, by its path under docs/, made once a session from ``site_data``."""
    import rulesite

    return rulesite.pages(site_data)


def _build_site(out: Path) -> str | None:
    """Build the site into ``out`` with ``mkdocs build --strict``: None, or why it failed."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        return f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    print(f"site built in {time.perf_counter() - started:.1f}s")
    return None


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rules site as ``mkdocs build --strict`` makes it, built once per test run for the tests that read
    the built pages or its search index: under pytest-xdist the first worker to ask builds it into the run's
    shared temporary folder, holding a lock, and the others wait and read the same site (or its failure)."""
    pytest.importorskip("mkdocs")
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        out = tmp_path_factory.mktemp("site")
        failure = _build_site(out)
    else:
        from filelock import FileLock

        shared = tmp_path_factory.getbasetemp().parent  # the run's folder, above each worker's own
        out, built, failed = shared / "site", shared / "site.built", shared / "site.failed"
        with FileLock(shared / "site.lock"):
            if failed.exists():
                failure = failed.read_text(encoding="utf-8")
            elif built.exists():
                failure = None
            else:
                failure = _build_site(out)
                if failure is None:
                    built.touch()
                else:
                    failed.write_text(failure, encoding="utf-8")
    assert failure is None, failure
    return out
