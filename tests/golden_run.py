"""Recorded runs: ``trickspec verify`` output, run log and reports, with the timings taken out.

tests/test_golden_run.py runs them again and compares with tests/golden/<run>/; tests/golden/record.py
records them. The reference run covers every scenario; the mixed run (tests/golden_engine.py, with
tests/golden/mixed-expectations.yaml) reaches every outcome and every report section but one: the scenarios
answered twice, which only an engine over the protocol can reach (tests/hostile/test_commands.py).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

from conformance.cli import main

HERE = Path(__file__).resolve().parent / "golden"

RUNS: dict[str, list[str]] = {
    "reference": ["verify"],
    "mixed": ["verify", "--engine", "golden_engine:mixed", "--expect", str(HERE / "mixed-expectations.yaml")],
}

REPORTS = ("run.jsonl", "report.md", "junit.xml", "summary.json", "badge.json")

_TIMED_KEYS = {"seconds": 0, "started": "<time>", "finished": "<time>", "spec_version": "<spec>"}


def _untimed_json(value: object) -> object:
    if isinstance(value, dict):
        return {k: _TIMED_KEYS.get(k, _untimed_json(v)) if k in _TIMED_KEYS else _untimed_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_untimed_json(v) for v in value]
    return value


def _untimed(file: str, text: str, reports: Path) -> str:
    """The file with what changes from run to run replaced: times, rates, the spec digest, the folder."""
    text = text.replace(str(reports), "<reports>").replace(str(HERE), "<golden>")
    if file == "run.jsonl":
        lines = [json.loads(line) for line in text.splitlines()]
        return "".join(json.dumps(_untimed_json(line), ensure_ascii=False, sort_keys=True) + "\n" for line in lines)
    if file.endswith(".json"):
        return json.dumps(_untimed_json(json.loads(text)), indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    text = re.sub(r'time="[0-9.]+"', 'time="<time>"', text)
    text = re.sub(r"spec `?[0-9][^ `]*`?", "spec <spec>", text)
    return re.sub(r"in [0-9.]+s \([0-9]+/s\)", "in <time>", text)


def recorded_run(name: str, reports: Path) -> dict[str, str]:
    """Run ``name`` writing its reports into ``reports``; what it printed and wrote, untimed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main([*RUNS[name], "--report-dir", str(reports)])
    files = {"exit-status.txt": f"{code}\n", "stdout.txt": _untimed("stdout.txt", out.getvalue(), reports)}
    for file in REPORTS:
        files[file] = _untimed(file, (reports / file).read_text(encoding="utf-8"), reports)
    return files
