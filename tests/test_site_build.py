"""tests/site_build.py: the built site is reused only while nothing the build reads has changed, and a
failed build is never kept."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

import site_build


def _tree(root: Path) -> Path:
    for name, text in {"mkdocs.yml": "site_name: x\n", "docs/index.md": "# x\n", "spec/a.yaml": "a: 1\n",
                       "tests/test_x.py": "", "docs/__pycache__/h.pyc": "", "reports/run.jsonl": "",
                       "examples/js/tests/engine.test.js": ""}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def _digest(root: Path) -> str:
    site_build.inputs_digest.cache_clear()
    return site_build.inputs_digest(root)


@pytest.mark.parametrize("changed", ["docs/index.md", "spec/a.yaml", "mkdocs.yml", "docs/new.md",
                                     "examples/js/tests/engine.test.js"])
def test_a_change_to_what_the_build_reads_is_another_site(tmp_path: Path, changed: str) -> None:
    root = _tree(tmp_path)
    before = _digest(root)
    (root / changed).write_text("changed\n", encoding="utf-8")
    assert _digest(root) != before


@pytest.mark.parametrize("changed", ["tests/test_x.py", "docs/__pycache__/h.pyc", "reports/run.jsonl", ".git/HEAD",
                                     "examples/js/node_modules/x.js"])
def test_the_tests_and_what_is_never_committed_are_not_inputs(tmp_path: Path, changed: str) -> None:
    root = _tree(tmp_path)
    before = _digest(root)
    (root / changed).parent.mkdir(parents=True, exist_ok=True)
    (root / changed).write_text("changed\n", encoding="utf-8")
    assert _digest(root) == before


def test_a_moved_file_is_another_site(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    before = _digest(root)
    (root / "spec/a.yaml").rename(root / "spec/b.yaml")
    assert _digest(root) != before


class FakeBuilds:
    """Stands in for mkdocs: records each build asked for, and fails while ``failing``."""

    def __init__(self) -> None:
        self.asked: list[Path] = []
        self.failing = False

    def __call__(self, out: Path) -> str | None:
        self.asked.append(out)
        if self.failing:
            return "mkdocs build --strict failed: a broken link"
        out.mkdir()
        (out / "index.html").write_text(str(len(self.asked)), encoding="utf-8")
        return None


@pytest.fixture
def builds() -> FakeBuilds:
    return FakeBuilds()  # given to shared(), never patched in: the build beside the tests must not meet it


def _runs(tmp_path: Path, n: int) -> list[Path]:
    runs = [tmp_path / f"run{i}" for i in range(n)]
    for run in runs:
        run.mkdir()
    return runs


def test_a_site_is_built_once_and_reused_by_later_runs(tmp_path: Path, builds: FakeBuilds) -> None:
    store = tmp_path / "cache"
    first_run, second_run = _runs(tmp_path, 2)
    site, failure, how = site_build.shared(store, first_run, "k1", builds)
    assert failure is None and how.startswith("built in ") and (site / "index.html").read_text() == "1"
    assert site_build.shared(store, first_run, "k1", builds)[2] == how  # the same run: as it was built
    again, failure, how = site_build.shared(store, second_run, "k1", builds)
    assert (again, failure) == (site, None) and how.startswith("reused from pytest's cache")
    assert len(builds.asked) == 1


def test_other_inputs_build_again_and_replace_the_old_site(tmp_path: Path, builds: FakeBuilds) -> None:
    store = tmp_path / "cache"
    (run,) = _runs(tmp_path, 1)
    old = site_build.shared(store, run, "k1", builds)[0]
    new = site_build.shared(store, run, "k2", builds)[0]
    assert len(builds.asked) == 2 and not old.exists() and (new / "index.html").read_text() == "2"


def test_a_failed_build_is_the_run_s_failure_and_is_built_again_next_run(tmp_path: Path, builds: FakeBuilds) -> None:
    store = tmp_path / "cache"
    first_run, second_run = _runs(tmp_path, 2)
    builds.failing = True
    _, failure, _ = site_build.shared(store, first_run, "k1", builds)
    assert failure is not None and "broken link" in failure
    builds.failing = False
    assert site_build.shared(store, first_run, "k1", builds)[1] == failure  # the run's other workers: the same failure
    assert len(builds.asked) == 1 and not (store / "k1").exists()  # nothing of it kept
    _, failure, how = site_build.shared(store, second_run, "k1", builds)
    assert failure is None and how.startswith("built in ") and len(builds.asked) == 2


def test_a_value_is_made_once_for_its_inputs_and_again_for_others(tmp_path: Path) -> None:
    made: list[str] = []

    def make(key: str) -> dict[str, str]:
        made.append(key)
        return {"page.md": f"made for {key}"}

    store = tmp_path / "cache"
    assert site_build.kept(store, "k1", lambda: make("k1")) == {"page.md": "made for k1"}
    assert site_build.kept(store, "k1", lambda: make("k1")) == {"page.md": "made for k1"}
    assert site_build.kept(store, "k2", lambda: make("k2")) == {"page.md": "made for k2"}
    assert made == ["k1", "k2"] and [p.name for p in store.glob("*.pickle")] == ["k2.pickle"]


def test_a_kept_value_that_does_not_load_is_made_again(tmp_path: Path) -> None:
    store = tmp_path / "cache"
    store.mkdir()
    (store / "k1.pickle").write_bytes(b"not a pickle")
    assert site_build.kept(store, "k1", lambda: "made") == "made"
    assert site_build.kept(store, "k1", lambda: "made again") == "made"


def test_the_cache_folder_is_pytest_s_and_none_without_a_cache(tmp_path: Path) -> None:
    assert site_build.cache_folder(SimpleNamespace(), "site") is None  # -p no:cacheprovider: no attribute at all

    class Cache:  # pytest's Cache.mkdir: a folder of its own under .pytest_cache/d/
        def __init__(self, writable: bool) -> None:
            self.writable = writable

        def mkdir(self, name: str) -> Path:
            if not self.writable:
                raise PermissionError(13, "Permission denied", name)
            folder = tmp_path / "d" / name
            folder.mkdir(parents=True, exist_ok=True)
            return folder

    assert site_build.cache_folder(SimpleNamespace(cache=Cache(writable=False)), "site") is None
    assert site_build.cache_folder(SimpleNamespace(cache=Cache(writable=True)), "site") == tmp_path / "d" / "trickspec-site"


def test_the_build_never_reads_the_house_folders_a_test_beside_it_runs_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The build starts beside the first tests, one of which may have named house folders in the environment."""
    seen: list[dict[str, str]] = []

    def run(*args: object, env: dict[str, str], **kwargs: object) -> SimpleNamespace:
        seen.append(env)
        return SimpleNamespace(returncode=0, stdout="", stderr="")

    monkeypatch.setenv("TRICKSPEC_SPEC", str(tmp_path / "house"))
    monkeypatch.setenv("TRICKSPEC_SCENARIOS", str(tmp_path / "house-scenarios"))
    monkeypatch.setenv("KEPT", "yes")
    assert site_build.build(tmp_path / "site", run) is None
    assert [("TRICKSPEC_SPEC" in env, "TRICKSPEC_SCENARIOS" in env, env.get("KEPT")) for env in seen] == [(False, False, "yes")]
