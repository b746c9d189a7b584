"""Where the test suite's time goes: each test's CPU, in its worker and in the processes it waits for.

    PYTHONPATH=benchmarks .venv/bin/python -m pytest -p suite_cpu --cpu-log DIR [pytest's options...]
    .venv/bin/python benchmarks/suite_cpu.py DIR [--top N]

The plugin (loaded by each pytest-xdist worker too) writes one JSON line per test to a file of
its process in DIR, which a run empties first: the test's id, the CPU its process spent while it
ran (user and system; threads left running beside it by earlier tests included), the CPU of the
processes waited for while it ran (``RUSAGE_CHILDREN``: a process is counted in the test during
which it was reaped, a process never waited for not at all) and its wall time. The summary adds
them up: the whole, the costliest files and tests, and the time the tests spent waiting (wall
time less CPU, summed over the workers: engines' timeouts, slow starts, closing). The totals
leave out what is not a test: starting the workers and collecting. A process started beside the
tests (the rules site's build, on the first run after a change) is counted in the test its
worker was running when it ended.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

SUFFIX = ".jsonl"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-log", metavar="DIR", help="write each test's CPU to a file of this process in DIR (emptied first)")


def pytest_configure(config: pytest.Config) -> None:
    folder = config.getoption("--cpu-log")
    if not folder:
        return
    folder = Path(folder).resolve()
    config.option.cpu_log = str(folder)  # workers start with the controller's options, already absolute
    if not hasattr(config, "workerinput"):  # the run's first process: a new run, a new log
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob(f"*{SUFFIX}"):
            old.unlink()


def _cpu(who: int) -> tuple[float, float]:
    usage = resource.getrusage(who)
    return usage.ru_utime, usage.ru_stime


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, object, object]:
    folder = item.config.getoption("--cpu-log")
    if not folder:
        return (yield)
    own, children, started = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN), time.perf_counter()
    try:
        return (yield)
    finally:
        wall = time.perf_counter() - started
        own_after, children_after = _cpu(resource.RUSAGE_SELF), _cpu(resource.RUSAGE_CHILDREN)
        line = {
            "test": item.nodeid,
            "user": own_after[0] - own[0],
            "system": own_after[1] - own[1],
            "children": sum(children_after) - sum(children),
            "wall": wall,
        }
        with open(Path(folder) / f"{os.getpid()}{SUFFIX}", "a", encoding="utf-8") as log:
            log.write(json.dumps(line) + "\n")


def lines(folder: Path) -> tuple[list[dict[str, Any]], int]:
    """The tests recorded in ``folder``, and how many lines could not be read (a worker ended mid-line)."""
    read: list[dict[str, Any]] = []
    unreadable = 0
    for path in sorted(folder.glob(f"*{SUFFIX}")):
        for text in path.read_text(encoding="utf-8").splitlines():
            try:
                read.append(json.loads(text))
            except json.JSONDecodeError:
                unreadable += 1
    return read, unreadable


def _cpu_of(line: dict[str, Any]) -> float:
    return float(line["user"] + line["system"] + line["children"])


def summary(folder: Path, top: int) -> str:
    recorded, unreadable = lines(folder)
    if not recorded:
        return f"no test was recorded in {folder}"
    own = sum(line["user"] + line["system"] for line in recorded)
    children = sum(line["children"] for line in recorded)
    total = own + children
    waiting = sum(max(0.0, line["wall"] - _cpu_of(line)) for line in recorded)
    by_file: defaultdict[str, float] = defaultdict(float)
    for line in recorded:
        by_file[line["test"].split("::")[0]] += _cpu_of(line)
    costliest = sorted(recorded, key=_cpu_of, reverse=True)
    held = sum(_cpu_of(line) for line in costliest[:top])
    out = [
        f"{len(recorded)} tests: {total:.1f} s of CPU, {own:.1f} s in pytest's processes"
        f" (of it {sum(line['system'] for line in recorded):.1f} s in the kernel),"
        f" {children:.1f} s in the processes they waited for",
        f"waiting (wall time less CPU, summed): {waiting:.1f} s; the {top} costliest tests hold"
        f" {held:.1f} s ({held / total:.0%})" if total else f"waiting (wall time less CPU, summed): {waiting:.1f} s",
        *([f"{unreadable} line(s) could not be read"] if unreadable else []),
        "",
        "costliest files (CPU s):",
        *(f"  {seconds:6.2f}  {name}" for name, seconds in sorted(by_file.items(), key=lambda kv: -kv[1])[:top]),
        "",
        "costliest tests (CPU s, of it in the processes waited for):",
        *(f"  {_cpu_of(line):6.2f} {line['children']:6.2f}  {line['test']}" for line in costliest[:top]),
    ]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("folder", type=Path, help="the --cpu-log folder of a run")
    parser.add_argument("--top", type=int, default=20, help="files and tests listed (default 20)")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"suite_cpu: no folder {args.folder}", file=sys.stderr)
        return 1
    print(summary(args.folder, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
