"""The rules site as ``mkdocs build --strict`` makes it, for the tests that read the built pages."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def built(out: Path) -> Path:
    """The site built into ``out``, or the build already there; a failed build fails the test that asked, with
    mkdocs' output."""
    done_marker = out.with_name(f"{out.name}.built")
    if done_marker.exists():
        return out
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}", pytrace=False)
    done_marker.touch()
    return out
