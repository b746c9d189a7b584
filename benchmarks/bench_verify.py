"""Conformance-run throughput: the whole suite in process and over the engine protocol.

    python benchmarks/bench_verify.py [--rounds R]

Every run uses the reference engine and the same scenarios in the same process; the
protocol run serves it with ``python -m conformance.engines.serve`` (as ``--engine module:name``
serves any Python engine the kit did not write). Prints scenarios per second for each path
and the ratios of their times (targets: in-process >= 1,000/s, protocol >= 500/s, protocol time
<= 1.5x in-process). The best of R rounds is kept. Also times the pytest path
(``pytest --engine reference`` against ``--engine-cmd``), whose per-item overhead dominates.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.engines.adapter import EngineAdapter, reference_adapter
from conformance.engines.protocol import SubprocessAdapter
from conformance.run import runner
from conformance.suite import scenarios
from conformance.vocabulary import Outcome

SERVE = [sys.executable, "-m", "conformance.engines.serve"]


def suite_seconds(adapter: EngineAdapter, chosen: list[scenarios.Scenario]) -> float:
    """The whole suite as verify runs it (the protocol adapter keeps several requests in flight)."""
    started = time.perf_counter()
    for verdict in runner.run_all(adapter, chosen):
        if verdict.outcome is not Outcome.PASS:
            raise SystemExit(f"{verdict.scenario.id}: {verdict.outcome} {verdict.reason}")
    return time.perf_counter() - started


def pytest_seconds(*engine_args: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *engine_args, "scenarios"],
                   check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--no-pytest", action="store_true", help="skip the pytest-path timing")
    args = parser.parse_args()
    chosen = list(scenarios.kit_scenarios())
    local = reference_adapter()
    served = SubprocessAdapter(SERVE)
    try:
        for adapter in (local, served):  # warm each before timing
            suite_seconds(adapter, chosen)
        in_process = min(suite_seconds(local, chosen) for _ in range(args.rounds))
        protocol = min(suite_seconds(served, chosen) for _ in range(args.rounds))
    finally:
        served.close()
    n = len(chosen)
    print(f"{n} scenarios, best of {args.rounds} rounds")
    print(f"in-process       {in_process:7.3f} s  {n / in_process:8.0f} scenarios/s  (target >= 1,000/s)")
    print(f"protocol         {protocol:7.3f} s  {n / protocol:8.0f} scenarios/s  (target >= 500/s)")
    print(f"ratio protocol / in-process time: {protocol / in_process:.2f}x  (target <= 1.5x)")
    if not args.no_pytest:
        a = pytest_seconds("--engine", "reference")
        b = pytest_seconds("--engine-cmd", " ".join(SERVE))
        print(f"pytest in-process {a:6.2f} s, over the protocol {b:6.2f} s: ratio {b / a:.2f}x")


if __name__ == "__main__":
    main()
