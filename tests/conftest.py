"""Shared helpers for the kit's own tests."""

from __future__ import annotations

import gc
import importlib.util
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

if TYPE_CHECKING:
    import rulesite

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
T = TypeVar("T")


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
def site_data(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> rulesite.SiteData:
    """The kit's data as docs/hooks.py reads it for the site (with the glossary and the deal scripts), once a
    run, or from pytest's cache while nothing the site is made from has changed (tests/site_build.py). Shared:
    a test that changes it must change a copy."""
    import rulesite

    def load() -> rulesite.SiteData:
        return rulesite.load_site_data(ROOT, DOCS / "glossary.yaml", DOCS / "play")

    return _kept(request, tmp_path_factory, "site-data", load)


@pytest.fixture(scope="session")
def site_pages(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, site_data: rulesite.SiteData
) -> dict[str, str]:
    """Every generated page of the site, by its path under docs/, made from ``site_data`` once a run, or from
    pytest's cache as ``site_data`` is."""
    import rulesite

    return _kept(request, tmp_path_factory, "site-pages", lambda: rulesite.pages(site_data))


def _kept(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[], T]) -> T:
    import site_build

    config = request.config
    store = site_build.cache_folder(config, name) or _site_folder(tmp_path_factory) / name
    return site_build.kept(store, site_build.inputs_digest(), make)


def _site_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's own temporary folder, which under pytest-xdist holds each worker's."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def _shared_site(config: pytest.Config, run: Path) -> tuple[Path, str | None, str]:
    """The run's one site (tests/site_build.py): kept in pytest's cache when the cache is on, else in the run's
    own folder ``run``."""
    import site_build

    store = site_build.cache_folder(config, "site") or run / "sites"
    return site_build.shared(store, run, site_build.inputs_digest())


def _reads_built_site(item: pytest.Item) -> bool:
    return "built_site" in getattr(item, "fixturenames", ())


@pytest.hookimpl(trylast=True)  # after -m, -k and --deselect: the shares are of the tests that run
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests that read the built site run last, each file's in its order: the build, started with the run,
    goes on beside the other tests instead of keeping these waiting. Under ``-n auto``, the tests that wait run
    in lanes of their own (tests/lanes.py)."""
    import lanes

    given = getattr(config, "workerinput", {})
    items[:] = lanes.laid_out(items, given.get("workercount", 1), given.get("lanes", 0), last=_reads_built_site)


def pytest_configure(config: pytest.Config) -> None:
    """Before any test module is imported: the digest of what the site is made from (tests/site_build.py) is
    taken, so that a file changed while the run goes on gives the next run another key, and never leaves pages
    of the code imported before the change kept under the key of the code after it; the temporary files go to
    memory where they can; and the garbage collector is set for a test run."""
    import site_build

    site_build.inputs_digest()
    if not hasattr(config, "workerinput"):  # workers inherit the controller's environment and base folder
        _temporary_files_in_memory(config)
    # The youngest generation is collected every 10,000 allocations, not every 700: the tests allocate much and
    # free nearly all of it by reference counting. This alone took the collector's time in a run with workers
    # from 3.5 s to 2.0 s (most of the rest is the kit's own full collections), by a gc.callbacks timer in each
    # process.
    gc.set_threshold(10_000, 10, 10)


# A run writes some 8,000 small files (copies of the kit, corpora of broken files, engines' scripts, reports):
# on this machine's ext4 the kernel's time in a run with workers was 6 to 9 s, in memory under 5 s, and the
# run 1.3 s shorter (median of three pairs). Held in memory: pytest keeps the last three runs' (about 80 MB each).
_MEMORY = Path("/dev/shm")
_MEMORY_FREE = 2 * 1024**3


def _temporary_files_in_memory(config: pytest.Config) -> None:
    """``TMPDIR`` set to /dev/shm (Linux's tmpfs), for this process and those it starts, unless the user chose
    where temporary files go (``TMPDIR``, ``--basetemp``) or /dev/shm is missing, not writable or short of room."""
    if os.environ.get("TMPDIR") or config.getoption("basetemp") or not _MEMORY.is_dir():
        return
    if not os.access(_MEMORY, os.W_OK | os.X_OK) or shutil.disk_usage(_MEMORY).free < _MEMORY_FREE:
        return
    os.environ["TMPDIR"] = str(_MEMORY)
    tempfile.tempdir = None  # read TMPDIR again: something may have asked for the folder already


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection made (the tests, the scenarios and variants their modules load) lives the whole run, so
    it is moved out of the garbage collector's reach: its full collections, and the kit's own ``gc.collect()``
    when an in-process engine closes, then stop walking it again and again (measured in one run of the suite
    without workers: the collector's time 8.3 s before, 4.6 s after). What collection left for the collector
    goes first, so that nothing frozen is garbage (a finalizer, such as an engine's closing, then still runs)."""
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session", autouse=True)
def _site_built_early(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """When the run has tests that read the built site, the build starts with the run, beside the first
    tests, so that it is done, or nearly, when they come."""
    wanted = any(_reads_built_site(item) for item in request.session.items)
    if not wanted or not all(importlib.util.find_spec(name) for name in ("mkdocs", "filelock")):
        yield
        return
    # The run's folder is made here, not in the thread: pytest makes it on first use, and not thread-safely.
    # What the thread imports is imported here too (reading the installed packages imports more): an import
    # beside a test can break what iterates sys.modules, as Hypothesis does (tests/json_strategies.py).
    import filelock  # noqa: F401

    import site_build

    site_build.inputs_digest()
    thread = threading.Thread(target=_shared_site, args=(request.config, _site_folder(tmp_path_factory)), daemon=True)
    thread.start()
    yield
    thread.join()


@pytest.fixture(scope="session")
def built_site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rules site as ``mkdocs build --strict`` makes it, for the tests that read the built pages or its
    search index: built once per run (started with the run; under pytest-xdist by one worker while the others
    wait for it and read the same site), or reused from pytest's cache when none of its inputs changed
    (tests/site_build.py). Read-only: every test reads the same folder."""
    pytest.importorskip("mkdocs")
    out, failure, how = _shared_site(request.config, _site_folder(tmp_path_factory))
    assert failure is None, failure
    print(f"site {how}")
    return out


_LANES = pytest.StashKey[int]()  # the lanes of a run whose workers -n auto counted


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` starts ``lanes.LANES`` workers more than the machine has cores, lanes for the tests that wait
    (engines' timeouts, processes they start: about 20 s of a run), while the others keep every core busy
    (tests/lanes.py). ``PYTEST_XDIST_AUTO_NUM_WORKERS``, when set, is taken as it is, with no lanes; so is
    ``-n N``."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    from xdist.plugin import pytest_xdist_auto_num_workers as cores  # type: ignore[import-untyped]

    import lanes

    config.stash[_LANES] = lanes.LANES
    return int(cores(config)) + lanes.LANES


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """The controller tells each worker the lanes, so that every worker orders the tests alike (pytest-xdist
    runs none if they differ): as many as ``-n auto`` started workers for, under worksteal alone, whose shares
    they are laid out for."""
    config = node.config
    node.workerinput["lanes"] = config.stash.get(_LANES, 0) if config.getoption("dist") == "worksteal" else 0
