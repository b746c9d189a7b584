"""Runs of `trickspec verify` the battery watches from outside, as a user would start them.

Each costs a start of the kit (about a second of processor), so they all start together, in the
background, with the battery's first test; the tests that watch them wait for their own.
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

from conformance import scenarios

HERE = Path(__file__).resolve().parent

# `trickspec` itself, with SIGINT handled as Python does by default: were pytest run as a background
# job, its children would inherit SIGINT ignored, and the kit leaves an ignored signal ignored.
TRICKSPEC = [
    sys.executable,
    "-c",
    "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from conformance.cli import main; sys.exit(main(sys.argv[1:]))",
]


@dataclass
class Background:
    """One `trickspec verify` running in the background, writing its reports to ``folder / "reports"``."""

    folder: Path
    process: subprocess.Popen[str]
    began: float = field(default_factory=time.monotonic)


def first_three_player_scenario() -> str:
    return next(s.id for s in scenarios.kit_scenarios() if s.variant == "albastini-3p")


@pytest.fixture(scope="session", autouse=True)
def background(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Background]]:
    """``SIGINT`` and ``SIGTERM``: an engine that answers two scenarios and then hangs (with no
    timeout to speak of), for a test to interrupt; ``stuck thread``: an in-process engine that never
    returns from one scenario, under a 0.3 s timeout."""
    argvs: dict[str, list[str]] = {}
    folders: dict[str, Path] = {}
    for name in ("SIGINT", "SIGTERM"):
        folders[name] = tmp_path_factory.mktemp(name)
        command = shlex.join(engine(folders[name], "two-then-hang"))
        argvs[name] = ["--engine-cmd", command, "--variant", "albastini-2p", "--timeout", "600"]
    folders["stuck thread"] = tmp_path_factory.mktemp("stuck")
    argvs["stuck thread"] = ["--engine", "hostile_engines:HangsOnThreePlayers", "--timeout", "0.3",
                             "--scenario", first_three_player_scenario()]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    runs = {
        name: Background(
            folders[name],
            subprocess.Popen(
                [*TRICKSPEC, "verify", *argv, "--report-dir", str(folders[name] / "reports")],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            ),
        )
        for name, argv in argvs.items()
    }
    yield runs
    for run in runs.values():  # those no test waited for: stopped as a user would, so they end their engines
        if run.process.poll() is None:
            run.process.terminate()
            try:
                run.process.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                run.process.kill()
                run.process.communicate()
