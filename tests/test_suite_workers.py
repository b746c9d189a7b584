"""How the kit's own tests run: how many workers ``pytest -n auto`` starts (tests/conftest.py), the order it hands
them the tests in (tests/lanes.py), and where the temporary files go (tests/conftest.py)."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import lanes

xdist_plugin = pytest.importorskip("xdist.plugin")


def test_auto_starts_two_workers_more_than_the_cores(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    cores = xdist_plugin.pytest_xdist_auto_num_workers(request.config)
    assert request.config.hook.pytest_xdist_auto_num_workers(config=request.config) == cores + lanes.LANES


def test_the_number_in_the_environment_is_taken_as_it_is(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "5")
    assert request.config.hook.pytest_xdist_auto_num_workers(config=request.config) == 5


@pytest.fixture
def conftest(request: pytest.FixtureRequest) -> Any:
    """tests/conftest.py as pytest loaded it (``import conftest`` may find tests/hostile's instead)."""
    return request.config.pluginmanager.get_plugin(str(Path(__file__).with_name("conftest.py")))


@dataclass(eq=False)
class Worker:
    """What worksteal's scheduler uses of a worker: its name, the tests it is sent, and its shutting down."""

    gateway: SimpleNamespace
    shutting_down: bool = False
    sent: list[int] = field(default_factory=list)

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent += indices

    def shutdown(self) -> None:
        self.shutting_down = True


@pytest.mark.parametrize(("total", "workers"), [(1714, 4), (10, 3), (7, 2), (2, 4)])
def test_the_shares_are_those_worksteal_hands_out_at_the_start(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, total: int, workers: int
) -> None:
    from xdist.scheduler import worksteal  # type: ignore[import-untyped]

    monkeypatch.setattr(worksteal, "parse_tx_spec_config", lambda config: ["popen"] * workers)  # as under -n
    scheduler = worksteal.WorkStealingScheduling(request.config)
    nodes = [Worker(SimpleNamespace(id=f"gw{k}")) for k in range(workers)]
    for node in nodes:
        scheduler.add_node(node)
    for node in nodes:
        scheduler.add_node_collection(node, [f"test {i}" for i in range(total)])
    scheduler.schedule()
    shares = lanes.shares(total, workers)
    assert [node.sent for node in nodes] == [list(range(sum(shares[:k]), sum(shares[:k + 1]))) for k in range(workers)]


@dataclass
class Item:
    """What lanes reads of a pytest item: its name, and whether it is marked ``waits``."""

    name: str
    marked: bool = False

    def get_closest_marker(self, name: str) -> object | None:
        return name if self.marked and name == lanes.MARKER else None


def _items(spec: str) -> list[Item]:
    """``w`` a test that waits, ``c`` one that computes, ``s`` one to run last: named by kind and position."""
    return [Item(f"{kind}{i}", marked=kind == "w") for i, kind in enumerate(spec)]


def _laid(spec: str, workers: int, lane_count: int) -> list[str]:
    out = lanes.laid_out(_items(spec), workers, lane_count, last=lambda item: item.name.startswith("s"))
    return [item.name for item in out]


def test_the_tests_that_wait_head_the_shares_of_the_lanes_and_the_others_fill_them() -> None:
    # 12 tests for 4 workers: shares of 3. Lanes 2: the four that wait split two and two, each lane filled up.
    laid = _laid("wwwwccccccss", workers=4, lane_count=2)
    assert laid[:3] == ["w0", "w1", "c4"] and laid[3:6] == ["w2", "w3", "c5"]
    assert laid[6:] == ["c6", "c7", "c8", "c9", "s10", "s11"]


def test_a_lane_longer_than_a_share_runs_on_into_the_next() -> None:
    assert _laid("cwwwwwc", workers=3, lane_count=1) == ["w1", "w2", "w3", "w4", "w5", "c0", "c6"]


@pytest.mark.parametrize(("workers", "lane_count"), [(1, 1), (4, 0), (4, -1)])
def test_without_lanes_the_order_is_the_collection_s_with_the_last_at_the_end(workers: int, lane_count: int) -> None:
    assert _laid("wcswc", workers, lane_count) == ["w0", "c1", "w3", "c4", "s2"]


@pytest.mark.parametrize("spec", ["wcwcwcwcss", "cccc", "wwww", "sws", "scwcswwcs", ""])
@pytest.mark.parametrize(("workers", "lane_count"), [(2, 1), (4, 2), (4, 9), (9, 4)])
def test_every_test_is_laid_out_once_and_each_kind_keeps_its_order(spec: str, workers: int, lane_count: int) -> None:
    laid = _laid(spec, workers, lane_count)
    assert sorted(laid) == sorted(item.name for item in _items(spec))
    for kind in "wcs":
        assert [name for name in laid if name[0] == kind] == [item.name for item in _items(spec) if item.name[0] == kind]


@pytest.mark.parametrize(("given", "laid"), [({"workercount": 4, "lanes": 2}, "w0 w1 c4 w2 w3 c5 c6 c7 c8 c9 s10 s11"),
                                            ({"workercount": 4, "lanes": 0}, "w0 w1 w2 w3 c4 c5 c6 c7 c8 c9 s10 s11"),
                                            ({}, "w0 w1 w2 w3 c4 c5 c6 c7 c8 c9 s10 s11")])
def test_a_worker_lays_the_tests_out_by_what_the_controller_gave_it(conftest: Any, given: dict[str, int], laid: str) -> None:
    """In a worker (``workerinput``), the workers and lanes the controller gave; in a run without workers, none."""
    config = SimpleNamespace(workerinput=given) if given else SimpleNamespace()
    collected = "w0 w1 w2 w3 s10 c4 c5 c6 c7 c8 s11 c9"  # the site's readers (s) anywhere, as collected
    items: list[Any] = [Item(name, marked=name.startswith("w")) for name in collected.split(" ")]
    for item in items:
        item.fixturenames = ["built_site"] if item.name.startswith("s") else []
    conftest.pytest_collection_modifyitems(config, items)
    assert " ".join(item.name for item in items) == laid


@pytest.mark.parametrize(("counted", "dist", "given"), [(2, "worksteal", 2), (None, "worksteal", 0), (2, "load", 0)])
def test_the_controller_gives_every_worker_the_lanes(conftest: Any, counted: int | None, dist: str, given: int) -> None:
    """As many lanes as -n auto started workers for, under worksteal alone; none with -n N."""
    stash = pytest.Stash()
    if counted is not None:
        stash[conftest._LANES] = counted
    config = SimpleNamespace(stash=stash, getoption=lambda name: dist)
    node = SimpleNamespace(config=config, workerinput={"workercount": 4})
    conftest.pytest_configure_node(node)
    assert node.workerinput == {"workercount": 4, "lanes": given}


@pytest.mark.parametrize(
    ("tmpdir", "basetemp", "room", "chosen"),
    [(None, None, 10 * 1024**3, "memory"), ("/elsewhere", None, 10 * 1024**3, "/elsewhere"),
     (None, "/base", 10 * 1024**3, None), (None, None, 1024**2, None)],
)
def test_the_temporary_files_go_to_memory_unless_the_user_chose_or_it_is_short(
    conftest: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
    tmpdir: str | None, basetemp: str | None, room: int, chosen: str | None,
) -> None:
    memory = tmp_path / "shm"
    memory.mkdir()
    monkeypatch.setattr(conftest, "_MEMORY", memory)
    monkeypatch.setattr(conftest.shutil, "disk_usage", lambda path: SimpleNamespace(free=room))
    if tmpdir is None:
        monkeypatch.delenv("TMPDIR", raising=False)
    else:
        monkeypatch.setenv("TMPDIR", tmpdir)
    monkeypatch.setattr(tempfile, "tempdir", tempfile.tempdir)  # restored after the test, as TMPDIR is
    conftest._temporary_files_in_memory(SimpleNamespace(getoption=lambda name: basetemp))
    assert os.environ.get("TMPDIR") == (str(memory) if chosen == "memory" else chosen)
    if chosen == "memory":
        assert tempfile.gettempdir() == str(memory)
