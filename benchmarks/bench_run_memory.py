"""A long run's memory: the peak resident size of ``trickspec check-trace --report-dir``, and of ``trickspec
report`` reading its log back, by the number of games.

    python benchmarks/bench_run_memory.py [--games N ...] [--variant V]

For each N (default 25,000 and 100,000), a trace of N games is written, each game the reference's with
random legal moves and no observation (the lightest line a game can have, so that the run's own records
weigh most), and ``check-trace`` judges it in a process of its own, writing every report. Then, each in a
process of its own: ``report`` renders report.md from that run's log, and from the logs of the same games
judged as two shards (``--shard 1/2`` and ``2/2``), merged. Printed: each run's seconds and peak resident
size, as the operating system counts it for that process. None is asserted; a run whose memory does not
grow with the games shows the same peak for each N.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.suite.scenarios import deck_of
from reference import Engine
from specreader.spec import variant as resolved

DISTINCT = 50  # games played; the trace repeats them under new numbers

# Run in a child of a child, so that the peak counted is that run's alone (RUSAGE_CHILDREN keeps the largest).
_MEASURE = "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); " \
    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"


def write_trace(path: Path, variant_id: str, games: int) -> None:
    rng = random.Random(1)
    deck = deck_of(resolved(variant_id))
    played = []
    for _ in range(DISTINCT):
        rng.shuffle(deck)
        setup = {"dealer": 0, "deck": list(deck)}
        engine = Engine.new(variant_id, setup)
        actions = []
        while legal := engine.legal_actions():
            actions.append(rng.choice(legal))
            engine.apply(actions[-1])
        played.append((setup, actions))
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps({"trace": 1, "engine": {"name": "reference", "version": "bench"}}) + "\n")
        for number in range(games):
            setup, actions = played[number % DISTINCT]
            out.write(json.dumps({"game": number, "variant": variant_id, "setup": setup, "actions": actions}) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[25_000, 100_000])
    parser.add_argument("--variant", default="briscola-2p")
    args = parser.parse_args(argv)
    trickspec = [sys.executable, "-m", "conformance.cli"]
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        for games in args.games:
            trace = folder / f"trace-{games}.jsonl"
            write_trace(trace, args.variant, games)
            reports = folder / f"reports-{games}"
            _measured(f"{args.variant}: {games:>9,} games", [*trickspec, "check-trace", "--report-dir", str(reports), str(trace)])
            report = [*trickspec, "report", "--output", str(folder / "report.md")]
            _measured(f"{'report':>{len(args.variant) + 1}} {games:>9,} games", [*report, str(reports / "run.jsonl")])
            shards = [folder / f"shard-{k}-{games}" for k in (1, 2)]
            for k, shard in enumerate(shards, start=1):
                subprocess.run([*trickspec, "check-trace", "--shard", f"{k}/2", "--report-dir", str(shard), str(trace)],
                               check=True, capture_output=True)  # fmt: skip
            merged = [*report, *(str(shard / "run.jsonl") for shard in shards)]
            _measured(f"{'merged':>{len(args.variant) + 1}} {games:>9,} games", merged)
    return 0


def _measured(name: str, command: list[str]) -> None:
    """Run ``command`` in a process of its own and print its seconds and peak resident size."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _MEASURE, *command], check=True, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    peak = int(done.stdout.split()[-1]) / 1024  # kilobytes on Linux
    print(f"{name}  {seconds:7.1f} s  peak {peak:7.1f} MiB")


if __name__ == "__main__":
    sys.exit(main())
