"""The rules site as ``mkdocs build --strict`` makes it, for the tests that read the built pages, and the
site's data and generated pages for the tests that read those: made once per run, or reused from
pytest's cache when nothing they are made from has changed since.

The site is made from the checkout (every file but the tests and what is never committed) and the
installed packages, so a digest of both names it. A site is kept only when its build succeeded;
a failure is built, and reported, again on every run. ``pytest --cache-clear`` (or running with
``-p no:cacheprovider``) makes everything afresh.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import pickle
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import TypeVar

from specreader import roots

T = TypeVar("T")

ROOT = Path(__file__).resolve().parents[1]

# Never read by the build: the tests and version control, at the top of the checkout; what is never
# committed (.gitignore), anywhere.
_NOT_READ_AT_TOP = frozenset({"tests", ".git"})
_NEVER_COMMITTED = frozenset({
    ".venv", "site", "reports", "build", "dist", "node_modules",
    ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", "__pycache__",
})


@cache  # once a process: the inputs do not change while the tests run
def inputs_digest(root: Path = ROOT) -> str:
    """A digest of every file the build may read under ``root`` (path and bytes) and of the Python
    and the packages installed: any change to one of them is another site."""
    digest = hashlib.blake2b(_installed(), digest_size=16)
    for path in sorted(_files(root, top=True)):
        data = path.read_bytes()
        digest.update(b"%s\0%d\0" % (path.relative_to(root).as_posix().encode(), len(data)))  # so no two trees read alike
        digest.update(data)
    return digest.hexdigest()


@cache
def _installed() -> bytes:
    """The Python and every package installed, by name and version."""
    dists = sorted(f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions())
    return hashlib.blake2b("\n".join([sys.version, *dists]).encode(), digest_size=32).digest()


def _files(folder: Path, *, top: bool = False) -> list[Path]:
    found: list[Path] = []
    for entry in folder.iterdir():
        name = entry.name
        if name in _NEVER_COMMITTED or name.endswith(".egg-info") or (top and name in _NOT_READ_AT_TOP):
            continue
        if entry.is_dir() and not entry.is_symlink():
            found += _files(entry)
        elif entry.is_file():
            found.append(entry)
    return found


def cache_folder(config: object, name: str) -> Path | None:
    """pytest's cache folder for ``name`` (of a pytest.Config); None with the cache off (``-p no:cacheprovider``,
    when the config has no cache at all) or where it cannot be written."""
    pytest_cache = getattr(config, "cache", None)
    if pytest_cache is None:
        return None
    try:
        return Path(pytest_cache.mkdir(f"trickspec-{name}"))
    except OSError:
        return None


def _without_house_folders(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment less the house folders (specreader/roots.py): the site is the kit's own, and a build
    started beside the tests may start while one of them runs the kit on house folders, which it names there."""
    return {name: value for name, value in environ.items() if name not in (roots.SPEC_VARIABLE, roots.SCENARIOS_VARIABLE)}


def build(out: Path, run: Callable[..., subprocess.CompletedProcess[str]] = subprocess.run) -> str | None:
    """Build the site into ``out`` with ``mkdocs build --strict``: None, or why it failed. (``run`` is for the
    tests, given, never patched in: the build beside the tests must not meet a stand-in.)"""
    done = run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
        cwd=ROOT,
        env={**_without_house_folders(os.environ), "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        return f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return None


def shared(
    store: Path, run: Path, key: str, make: Callable[[Path], str | None] = build
) -> tuple[Path, str | None, str]:
    """The site for the inputs ``key`` names, kept in ``store`` (pytest's cache, or the run's own folder):
    built (by ``make``) by the first process or thread of the run to ask while it holds the lock; the others
    wait for it and get the same site, or the same failure, which is kept in ``run`` only. Sites of other
    inputs in ``store`` are removed. Returns the site, the failure, and a line saying how the site came to be."""
    from filelock import FileLock

    store.mkdir(parents=True, exist_ok=True)
    here = store / key
    out, built = here / "site", here / "built"
    failed, built_now = run / "site.failed", run / "site.built-in-this-run"
    with FileLock(store / "site.lock"):
        if failed.exists():
            return out, failed.read_text(encoding="utf-8"), "failed"
        if built.exists():
            how = built.read_text(encoding="utf-8").strip()
            return out, None, how if built_now.exists() else f"reused from pytest's cache, its inputs unchanged ({how})"
        for old in store.iterdir():
            if old.is_dir():
                shutil.rmtree(old, ignore_errors=True)  # other inputs' sites, or what an interrupted build left
        here.mkdir()
        started = time.perf_counter()
        failure = make(out)
        if failure is not None:
            shutil.rmtree(here, ignore_errors=True)
            failed.write_text(failure, encoding="utf-8")
            return out, failure, "failed"
        built.write_text(f"built in {time.perf_counter() - started:.1f}s, inputs {key}\n", encoding="utf-8")
        built_now.touch()
        return out, None, built.read_text(encoding="utf-8").strip()


def kept(store: Path, key: str, make: Callable[[], T]) -> T:
    """``make()`` for the inputs ``key`` names: made by the first process of the run to ask while it holds
    the lock, and kept in ``store`` (pytest's cache, or the run's own folder) for the others and for later
    runs. Pickled: the cache is this checkout's own, written by these tests."""
    from filelock import FileLock

    store.mkdir(parents=True, exist_ok=True)
    path = store / f"{key}.pickle"
    with FileLock(store / "lock"):
        if path.exists():
            try:
                value: T = pickle.loads(path.read_bytes())
                return value
            except Exception:  # written by other code (a class since renamed): made again
                pass
        value = make()
        for old in store.glob("*.pickle"):
            old.unlink()
        written = path.with_suffix(".partial")
        written.write_bytes(pickle.dumps(value))
        written.replace(path)  # whole or not at all, should the run be cut short
        return value
