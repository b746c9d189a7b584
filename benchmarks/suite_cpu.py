"""Where the test suite's time goes: each test's CPU, in its worker and in the processes it starts.

    PYTHONPATH=benchmarks .venv/bin/python -m pytest -p suite_cpu --cpu-log DIR [pytest's options...]
    .venv/bin/python benchmarks/suite_cpu.py DIR [--top N]

The plugin (loaded by each pytest-xdist worker too) writes one JSON line per test to a file of
its process in DIR: the test's id, the CPU its process spent on it (user and system), the CPU of
the processes it started and waited for (``RUSAGE_CHILDREN``) and its wall time. The summary
adds them up: the whole, the costliest files and tests, and the time the tests spent waiting
(wall time less CPU, summed over the workers: engines' timeouts, slow starts, closing). The
totals leave out what is not a test: starting the workers and collecting. A process started
beside the tests, not by one (the rules site's build, on the first run after a change), is
counted in the test its worker was running when it ended.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-log", metavar="DIR", help="write each test's CPU to a file of this process in DIR")


def _cpu(who: int) -> tuple[float, float]:
    usage = resource.getrusage(who)
    return usage.ru_utime, usage.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    folder = item.config.getoption("--cpu-log")
    if not folder:
        yield
        return
    own, children, started = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN), time.perf_counter()
    yield
    wall = time.perf_counter() - started
    own_after, children_after = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
    line = {
        "test": item.nodeid,
        "user": own_after[0] - own[0],
        "system": own_after[1] - own[1],
        "children": sum(children_after) - sum(children),
        "wall": wall,
    }
    Path(folder).mkdir(parents=True, exist_ok=True)
    with open(Path(folder) / f"{os.getpid()}.jsonl", "a", encoding="utf-8") as log:
        log.write(json.dumps(line) + "\n")


def _lines(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for path in sorted(folder.glob("*.jsonl")) for line in path.read_text(encoding="utf-8").splitlines()]


def summary(folder: Path, top: int) -> str:
    lines = _lines(folder)
    if not lines:
        return f"no test was recorded in {folder}"

    def cpu(line: dict[str, Any]) -> float:
        return float(line["user"] + line["system"] + line["children"])
    own = sum(line["user"] + line["system"] for line in lines)
    children = sum(line["children"] for line in lines)
    waiting = sum(max(0.0, line["wall"] - cpu(line)) for line in lines)
    by_file: defaultdict[str, float] = defaultdict(float)
    for line in lines:
        by_file[line["test"].split("::")[0]] += cpu(line)
    costliest = sorted(lines, key=cpu, reverse=True)
    held = sum(cpu(line) for line in costliest[:top])
    out = [
        f"{len(lines)} tests: {own + children:.1f} s of CPU, {own:.1f} s in pytest's processes"
        f" (of it {sum(line['system'] for line in lines):.1f} s in the kernel), {children:.1f} s in the processes they started",
        f"waiting (wall time less CPU, summed): {waiting:.1f} s; the {top} costliest tests hold"
        f" {held:.1f} s ({held / (own + children):.0%})",
        "",
        "costliest files (CPU s):",
        *(f"  {seconds:6.2f}  {name}" for name, seconds in sorted(by_file.items(), key=lambda kv: -kv[1])[:top]),
        "",
        "costliest tests (CPU s, of it in started processes):",
        *(f"  {cpu(line):6.2f} {line['children']:6.2f}  {line['test']}" for line in costliest[:top]),
    ]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("folder", type=Path, help="the --cpu-log folder of a run")
    parser.add_argument("--top", type=int, default=20, help="files and tests listed (default 20)")
    args = parser.parse_args(argv)
    print(summary(args.folder, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
