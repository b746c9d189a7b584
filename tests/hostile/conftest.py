"""Runs of `trickspec verify` the battery watches from outside, as a user would start them.

Each costs a start of the kit (about a second of processor), so a run starts only when a test
first asks for it, in whichever pytest-xdist worker that is, and runs in the background while
the test waits for it; a test that watches several starts them together.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hostile_engines import engine

HERE = Path(__file__).resolve().parent

# `trickspec` itself, with SIGINT handled as Python does by default: were pytest run as a background
# job, its children would inherit SIGINT ignored, and the kit leaves an ignored signal ignored.
TRICKSPEC = [
    sys.executable,
    "-c",
    "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from conformance.cli import console; console(sys.argv[1:])",
]


@dataclass
class Background:
    """One `trickspec verify` running in the background, writing its reports to ``folder / "reports"``."""

    folder: Path
    process: subprocess.Popen[str]
    began: float = field(default_factory=time.monotonic)


class BackgroundRuns:
    """The battery's background runs by name, each started when first asked for and stopped at the
    end of the session (those no test waited for as a user would, so they end their engines).

    ``SIGINT`` and ``SIGTERM``: an engine that answers two scenarios and then hangs (with no timeout
    to speak of), for a test to interrupt."""

    def __init__(self, tmp_path_factory: pytest.TempPathFactory) -> None:
        self._tmp_path_factory = tmp_path_factory
        self._runs: dict[str, Background] = {}

    def start(self, *names: str) -> None:
        for name in names:
            if name not in self._runs:
                self._runs[name] = self._started(name)

    def __getitem__(self, name: str) -> Background:
        self.start(name)
        return self._runs[name]

    def _started(self, name: str) -> Background:
        folder = self._tmp_path_factory.mktemp(name.replace(" ", "-"))
        if name in ("SIGINT", "SIGTERM"):
            argv = ["--engine-cmd", shlex.join(engine(folder, "two-then-hang")), "--variant", "albastini-2p",
                    "--timeout", "600"]
        else:
            raise KeyError(name)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
        process = subprocess.Popen(
            [*TRICKSPEC, "verify", *argv, "--report-dir", str(folder / "reports")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        return Background(folder, process)

    def stop(self) -> None:
        for run in self._runs.values():
            if run.process.poll() is None:
                run.process.terminate()
                try:
                    run.process.communicate(timeout=10)
                except subprocess.TimeoutExpired:
                    run.process.kill()
                    run.process.communicate()


@pytest.fixture(scope="session")
def background(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BackgroundRuns]:
    runs = BackgroundRuns(tmp_path_factory)
    yield runs
    runs.stop()
