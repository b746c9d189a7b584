"""`trickspec verify` prints and writes what it did when the runs were recorded (timings aside).

A failure here means a change altered a verdict, a log line or a report. If that was the point of
the change, re-record with ``python tests/golden/record.py`` and review the diff of tests/golden/.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from golden_run import HERE, RUNS, recorded_run


@pytest.mark.parametrize("name", list(RUNS))
def test_a_run_prints_and_writes_what_was_recorded(name: str, tmp_path: Path) -> None:
    now = recorded_run(name, tmp_path)
    for file, text in now.items():
        recorded = (HERE / name / file).read_text(encoding="utf-8")
        if text != recorded:
            diff = difflib.unified_diff(recorded.splitlines(), text.splitlines(), f"recorded/{file}", f"now/{file}", lineterm="")
            pytest.fail(f"{name}/{file} differs from the recording:\n" + "\n".join(list(diff)[:60]))


def test_the_mixed_run_reaches_every_outcome() -> None:
    log = (HERE / "mixed" / "run.jsonl").read_text(encoding="utf-8")
    for outcome in ("pass", "fail", "error", "unsupported", "skipped", "xfail", "xpass"):
        assert f'"outcome": "{outcome}"' in log, outcome
