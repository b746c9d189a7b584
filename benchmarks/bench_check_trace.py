"""check-trace figures: games judged per second from a trace, beside the reference's own deal rate.

    python benchmarks/bench_check_trace.py [--games N] [--rounds R] [--variant V]
    python benchmarks/bench_check_trace.py --write FILE [--games N] [--variant V]
    valgrind --tool=cachegrind --cache-sim=no python benchmarks/bench_check_trace.py --judge FILE

A trace of N games is written first, each played by the reference with random legal moves and
reported in full after every action (the snapshot and the legal actions: what an engine that
reports everything writes). Then, in this process and in rounds: the reference playing the same
games from their deals with the snapshot and legal actions read after every action (the floor: no
trace read, nothing compared), the same without reading them (the reference's bare deal rate),
the trace's lines read as check-trace reads them (strict JSON, the schema, the setup) with nothing
judged, the same lines only parsed by orjson (the least any reader in Python pays), and
``check-trace`` over the file with one job and with two (target for two-player Albastini: 5,000
games/s with two jobs on a 2-core machine). Each figure is the median of its
rounds; the ratios are against the floor of the same round. The bound is what two jobs would reach
if reading a line and the floor were all a game cost, both cores doing both; the ceiling, the same
with the line only parsed: no reading of a trace in Python that replays it through the reference
reaches past it. None is asserted.

``--write`` only writes the trace; ``--judge`` only judges a trace's games once, in this process and
untimed, for an instruction counter, which the machine's load does not move (its count for a trace of
N + 1 games, less that for the first game alone, over N).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.suite.scenarios import deck_of
from conformance.traces import checking, reading
from conformance.traces.line_problems import NoGame
from conformance.vocabulary import Outcome
from reference import Engine
from specreader.spec import variant as resolved

TARGET = 5000  # games/s with two jobs, two-player Albastini


def write_trace(path: Path, variant_id: str, games: int) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """The trace file, and each game's setup and actions (for the floor to replay)."""
    rng = random.Random(1)
    deck, players = deck_of(resolved(variant_id)), int(resolved(variant_id)["players"])
    played = []
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps({"trace": 1, "engine": {"name": "reference", "version": "bench"}}) + "\n")
        for number in range(games):
            rng.shuffle(deck)
            setup = {"dealer": number % players, "deck": list(deck)}
            engine = Engine.new(variant_id, setup)
            observations = [{"snapshot": engine.snapshot(), "legal": engine.legal_actions()}]
            actions = []
            while legal := engine.legal_actions():
                actions.append(rng.choice(legal))
                engine.apply(actions[-1])
                observations.append({"snapshot": engine.snapshot(), "legal": engine.legal_actions()})
            game = {"game": number, "variant": variant_id, "setup": setup, "actions": actions, "observations": observations}
            out.write(json.dumps(game) + "\n")
            played.append((setup, actions))
    return played


def replay(variant_id: str, played: list[tuple[dict[str, Any], list[dict[str, Any]]]], read: bool) -> float:
    started = time.perf_counter()
    for setup, actions in played:
        engine = Engine.new(variant_id, setup)
        if read:
            engine.snapshot(), engine.legal_actions()
        for action in actions:
            engine.apply(action)
            if read:
                engine.snapshot(), engine.legal_actions()
    return time.perf_counter() - started


def read(path: Path) -> float:
    lines = [line for line in reading.lines([path]) if isinstance(line, reading.TraceLine)]
    started = time.perf_counter()
    for line in lines:
        if isinstance(reading.read_games(line), NoGame):
            raise SystemExit(f"line {line.number} of the trace is no game")
    return time.perf_counter() - started


def parse(path: Path) -> float:
    raw = [line.raw for line in reading.lines([path]) if isinstance(line, reading.TraceLine)]
    started = time.perf_counter()
    for line in raw:
        orjson.loads(line)
    return time.perf_counter() - started


def check(path: Path, jobs: int) -> float:
    done = checking.run(checking.Plan((path,), jobs=jobs))
    if done.log.failed or done.problems:
        raise SystemExit(f"the trace did not pass: {done.log.counts()}")
    return done.seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--variant", default="albastini-2p")
    parser.add_argument("--write", type=Path, metavar="FILE", help="only write the trace to FILE")
    parser.add_argument("--judge", type=Path, metavar="FILE", help="only judge FILE's games once, untimed")
    args = parser.parse_args(argv)
    if args.write:
        write_trace(args.write, args.variant, args.games)
        return 0
    if args.judge:
        lines = [line for line in reading.lines([args.judge]) if isinstance(line, reading.TraceLine)]
        judged, _ = checking.judge_lines((), lines)
        failed = [j for j in judged if isinstance(j, NoGame) or j[0].outcome is not Outcome.PASS]
        return 1 if failed or not judged else 0
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "trace.jsonl"
        played = write_trace(path, args.variant, args.games)
        size = path.stat().st_size
        print(f"{args.variant}: {args.games:,} games, {size / args.games / 1024:.1f} KiB a game in the trace")
        rows: dict[str, list[float]] = {"floor": [], "bare": [], "read": [], "parse": [], "jobs 1": [], "jobs 2": []}
        for _ in range(args.rounds):
            rows["floor"].append(replay(args.variant, played, read=True))
            rows["bare"].append(replay(args.variant, played, read=False))
            rows["read"].append(read(path))
            rows["parse"].append(parse(path))
            rows["jobs 1"].append(check(path, 1))
            rows["jobs 2"].append(check(path, 2))
        floor = statistics.median(rows["floor"])
        names = {
            "floor": "the reference, snapshot and legal actions after every action",
            "bare": "the reference's bare deal rate (nothing read)",
            "read": "the trace's lines read, nothing judged",
            "parse": "the trace's lines only parsed (orjson), nothing checked",
            "jobs 1": "check-trace, one job",
            "jobs 2": "check-trace, two jobs",
        }
        for key, seconds in rows.items():
            median = statistics.median(seconds)
            print(f"{names[key]:<62} {args.games / median:>8,.0f} games/s  {median / floor:5.2f}x the floor's time")
        bound = 2 * args.games / (statistics.median(rows["read"]) + floor)
        print(f"{'the bound: two jobs, a game costing its reading and the floor':<62} {bound:>8,.0f} games/s")
        ceiling = 2 * args.games / (statistics.median(rows["parse"]) + floor)
        print(f"{'the ceiling: two jobs, a game costing its parse and the floor':<62} {ceiling:>8,.0f} games/s")
        two = args.games / statistics.median(rows["jobs 2"])
        print(f"target {TARGET:,} games/s with two jobs: {'met' if two >= TARGET else 'not met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
