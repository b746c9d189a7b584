"""How narrowly fuzz names a divergence: the clauses named for each, over engines with one rule wrong.

    python benchmarks/clauses_named.py [--deals N] [--variant V ...] [--each]

Not a speed: each engine is the reference playing a variant with one parameter changed (the
single-parameter mutants of ``trickspec selfcheck``, hybrids left out), fuzzed in this process for
N deals of seed 0, as ``trickspec fuzz`` judges and names them. For every distinct divergence found
(variant, field, clauses), how many clauses it is named after: how many divergences are named
after one, after each number, and the widest; with ``--each``, every divergence and its clauses, one a line, to
compare two checkouts' names one by one. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.engines.adapter import InProcessAdapter
from conformance.fuzz.worker import Key, Settings, Worker
from conformance.measures import selfcheck
from conformance.vocabulary import Outcome
from specreader import spec


def named(variant_id: str, deals: int) -> list[tuple[str, str, tuple[str, ...]]]:
    """Each distinct divergence of each mutant of the variant: the mutant, the field, the clauses named."""
    found = []
    for mutant in selfcheck.mutants(variant_id, hybrids=False):
        try:
            factory = selfcheck.reference_builder(mutant.data)
        except ValueError:  # a mutant the engine cannot build: nothing to fuzz
            continue
        adapter = InProcessAdapter(factory, {"name": mutant.name}, [variant_id])
        worker = Worker(Settings(seed=0, engine=None, engine_cmd=None, timeout=10.0), adapter, adapter.hello())
        first: dict[Key, tuple[str, str, tuple[str, ...]]] = {}
        for result in worker.run(list(range(deals)), (variant_id,)):
            if result.outcome is Outcome.FAIL and result.key is not None:
                first.setdefault(result.key, (mutant.name, str(result.field), result.clauses))
        found += first.values()
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--variant", action="append", help="a playable variant (repeatable; default: every one)")
    parser.add_argument("--each", action="store_true", help="also print every divergence with the clauses named")
    args = parser.parse_args(argv)
    found = [item for vid in args.variant or spec.variant_ids() for item in named(vid, args.deals)]
    if not found:
        print("no divergence found")
        return 0
    counts = [len(clauses) for _, _, clauses in found]
    print(f"{len(found)} divergences; clauses named: median {statistics.median(counts):g}, widest {max(counts)}")
    for number, times in sorted(Counter(counts).items()):
        print(f"  {number:>3} clause{'' if number == 1 else 's'}: {times} divergence{'' if times == 1 else 's'}")
    print("the widest:")
    for name, field, clauses in sorted(found, key=lambda item: -len(item[2]))[:5]:
        print(f"  {len(clauses)}  {name}  ({field})")
    if args.each:
        print("every divergence:")
        for name, field, clauses in sorted(found):
            print(f"  {name}  ({field})  {' '.join(clauses)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
