"""Shared helpers for the kit's own tests."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
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
    from specreader import kitdata

    root = tmp_path / "kit"
    for folder in ("spec", "schemas", "scenarios"):
        shutil.copytree(kitdata.root() / folder, root / folder)
    monkeypatch.setattr(kitdata, "root", lambda: root)
    return root


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
    return None


def _site_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the run's one site is built: the run's own temporary folder, which under pytest-xdist holds each
    worker's."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _shared_build(folder: Path) -> tuple[Path, str | None]:
    """The site in ``folder``, built by the first process or thread of the run to ask while it holds the lock;
    the others wait for it and get the same site, or the same failure. Returns the site and the failure."""
    from filelock import FileLock

    out, built, failed = folder / "site", folder / "site.built", folder / "site.failed"
    with FileLock(folder / "site.lock"):
        if failed.exists():
            return out, failed.read_text(encoding="utf-8")
        if not built.exists():
            started = time.perf_counter()
            failure = _build_site(out)
            if failure is not None:
                failed.write_text(failure, encoding="utf-8")
                return out, failure
            built.write_text(f"site built in {time.perf_counter() - started:.1f}s\n", encoding="utf-8")
    return out, None


def _reads_built_site(item: pytest.Item) -> bool:
    return "built_site" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests that read the built site run last, each file's in its order: the build, started with the run,
    goes on beside the other tests instead of keeping these waiting."""
    items.sort(key=_reads_built_site)


@pytest.fixture(scope="session", autouse=True)
def _site_built_early(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """When the run has tests that read the built site, the build starts with the run, beside the first
    tests, so that it is done, or nearly, when they come."""
    wanted = any(_reads_built_site(item) for item in request.session.items)
    if not wanted or not all(importlib.util.find_spec(name) for name in ("mkdocs", "filelock")):
        yield
        return
    thread = threading.Thread(target=_shared_build, args=(_site_folder(tmp_path_factory),), daemon=True)
    thread.start()
    yield
    thread.join()


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rules site as ``mkdocs build --strict`` makes it, built once per test run for the tests that read
    the built pages or its search index: started with the run, and under pytest-xdist built by one worker
    into the run's shared temporary folder while the others wait for it and read the same site."""
    pytest.importorskip("mkdocs")
    out, failure = _shared_build(_site_folder(tmp_path_factory))
    assert failure is None, failure
    print((out.parent / "site.built").read_text(encoding="utf-8"), end="")
    return out
