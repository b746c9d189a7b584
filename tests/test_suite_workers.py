"""How many workers ``pytest -n auto`` starts for the kit's own tests (tests/conftest.py)."""

from __future__ import annotations

import pytest

xdist_plugin = pytest.importorskip("xdist.plugin")


def test_auto_starts_one_worker_more_than_the_cores(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)
    cores = xdist_plugin.pytest_xdist_auto_num_workers(request.config)
    assert request.config.hook.pytest_xdist_auto_num_workers(config=request.config) == cores + 1


def test_the_number_in_the_environment_is_taken_as_it_is(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_XDIST_AUTO_NUM_WORKERS", "5")
    assert request.config.hook.pytest_xdist_auto_num_workers(config=request.config) == 5
