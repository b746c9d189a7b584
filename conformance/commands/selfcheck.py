"""``trickspec selfcheck``: the suite mutation-tested, with the reference's one-parameter mutants and hybrids."""

from __future__ import annotations

import argparse
from collections import Counter

from conformance.commands.exits import EXIT_BAD_DATA, EXIT_FAILED, EXIT_OK, usage_error
from conformance.measures import selfcheck
from conformance.suite import declared_variants, scenarios
from specreader.spec import EQUIVALENTS_FILE


def cmd_selfcheck(args: argparse.Namespace) -> int:
    scenario_variants = sorted({s.variant for s in scenarios.kit_scenarios()})  # those a mutant can be judged by
    if unknown := [v for v in args.variant or () if v not in scenario_variants]:
        named = ", ".join(declared_variants.with_nearest(v, scenario_variants) for v in unknown)
        return usage_error(f"--variant {named}: expected a variant the kit's scenarios play")
    results = list(selfcheck.run_mutants(args.variant, hybrids=not args.no_hybrids))
    fates = list(selfcheck.Fate)
    per_row: dict[tuple[str, str], Counter[selfcheck.Fate]] = {}
    for r in results:
        per_row.setdefault((r.mutant.variant, r.mutant.kind), Counter())[r.fate] += 1
    width = max((len(name) for name, _ in per_row), default=7)
    print(f"{'variant':<{width}}  kind       mutants  " + "  ".join(fates))
    # A variant's parameter mutants, then its hybrids.
    for (name, kind), counts in sorted(per_row.items(), key=lambda row: (row[0][0], row[0][1] == "hybrid")):
        cells = "  ".join(f"{counts[fate]:>{len(fate)}}" for fate in fates)
        print(f"{name:<{width}}  {kind:<9}  {counts.total():>7}  {cells}")
    # The same refusal of the same change, in several variants, is said once.
    unbuildable: dict[tuple[str, str], list[str]] = {}
    for r in results:
        if r.fate is selfcheck.Fate.UNBUILDABLE:
            unbuildable.setdefault((r.mutant.what, r.unbuildable), []).append(r.mutant.variant)
    for (change, why), variants in unbuildable.items():
        print(f"CANNOT BUILD {change} in {', '.join(variants)}: {why}")
    for r in results:
        if r.fate is selfcheck.Fate.EQUIVALENT:
            print(f"EQUIVALENT {r.mutant.name}: {r.equivalent}")
    for r in results:
        if r.fate is selfcheck.Fate.SETUPS_REFUSED:
            first, why = next(iter(r.setup_refused.items()))
            more = f" and {len(r.setup_refused) - 1} more" if len(r.setup_refused) > 1 else ""
            print(f"SETUPS REFUSED {r.mutant.name}: refused the setup of {first}{more} ({why}); the others pass")
    for r in results:
        if r.survived:
            print(f"SURVIVED {r.mutant.name} (no scenario of {r.scenarios} fails)")
    untold = [r for r in results if r.untold_hybrid]
    for r in untold:
        print(f"HYBRID NOT TOLD APART {r.mutant.name}: write a scenario it fails, or list it in spec/{EQUIVALENTS_FILE}")
    wrong = [r for r in results if r.wrongly_equivalent]
    for r in wrong:
        print(f"NOT EQUIVALENT {r.mutant.name}: killed by {r.killed_by[0]}; remove it from spec/{EQUIVALENTS_FILE}")
    killed, scored = selfcheck.kill_rate(results)
    percent = 100.0 * killed / scored if scored else 100.0
    total = Counter(r.fate for r in results)
    hybrids = Counter(r.fate for r in results if r.mutant.kind == "hybrid")
    if hybrids:
        print(
            f"hybrids: {hybrids[selfcheck.Fate.KILLED]} of {hybrids.total()} killed, {len(untold)} not told apart; "
            f"{hybrids[selfcheck.Fate.EQUIVALENT]} equivalent, {hybrids[selfcheck.Fate.UNBUILDABLE]} the engine cannot build"
        )
    print(
        f"kill rate: {killed}/{scored} mutants killed by a scenario they played ({percent:.1f}%); "
        f"not counted: {total[selfcheck.Fate.EQUIVALENT]} equivalent, {total[selfcheck.Fate.UNBUILDABLE]} the engine cannot build"
    )
    if wrong:
        return EXIT_BAD_DATA
    below = args.fail_under is not None and percent < args.fail_under
    return EXIT_FAILED if below or untold else EXIT_OK
