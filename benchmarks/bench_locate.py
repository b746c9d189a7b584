"""Locating a problem in a long engine line: seconds and peak memory of ``json_line`` refusing it.

    python benchmarks/bench_locate.py [--mib M]

Each case is a line of about M MiB (a list of zeros) with one problem, first or last: a number
beyond the kit's limits, a key twice. Each is read in a fresh process, so that its peak resident
memory is its own; the line itself is part of it. None is asserted.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CASES = {
    "a number beyond the limits, first": ('b"[1e400," + b"0," * N + b"0]"'),
    "a key twice, last": ('b"[" + b"0," * N + b\'{"a": 1, "a": 2}]\''),
}

# Run in the child: build the line, refuse it, print the seconds and the peak resident memory in KiB.
CHILD = """
import resource, sys, time
sys.path.insert(0, {root!r})
from conformance.text import untrusted
N = {items}
raw = {line}
started = time.perf_counter()
try:
    untrusted.json_line(raw)
except untrusted.Unreadable:
    pass
print(time.perf_counter() - started, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mib", type=int, default=8)
    args = parser.parse_args(argv)
    items = args.mib * 1024 * 1024 // 2
    for name, line in CASES.items():
        code = CHILD.format(root=str(ROOT), items=items, line=line)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        seconds, peak = done.stdout.split()
        print(f"{name:<40} {float(seconds):6.1f} s  peak {int(peak) / 1024:8,.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
