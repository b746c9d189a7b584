"""``trickspec validate`` and ``trickspec coverage``: the spec and the scenarios checked, and what the scenarios cover."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from conformance.commands.exits import EXIT_FAILED, EXIT_OK, print_problems, usage_error
from conformance.measures import coverage
from conformance.measures.field_coverage import field_report
from conformance.suite import scenarios
from conformance.validate import validate
from specreader import roots, spec


def cmd_validate(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    problems = validate([Path(p) for p in args.paths] or None)
    if problems:
        return print_problems(problems)
    print(f"valid ({time.perf_counter() - started:.2f}s)")
    return EXIT_OK


def cmd_coverage(args: argparse.Namespace) -> int:
    if args.by_variant and not args.fields:
        return usage_error("--by-variant counts fields: give it with --fields")
    if args.fields:
        if roots.current():  # a house adds no field and no phase: the fields are pinned by the kit's suite
            return usage_error("--fields measures the kit's own scenarios: give it no --spec or --scenarios")
        text, complete = field_report(scenarios.kit_scenarios(), spec.kit_spec().games(), by_variant=args.by_variant)
        print(text)
        return EXIT_OK if complete else EXIT_FAILED
    rows = coverage.measure(spec.kit_spec(), scenarios.run_scenarios())
    house = roots.current().spec
    if house:  # the house's own clauses: the kit's are the kit's scenarios' to cover
        mine = roots.clause_ids(spec.kit_spec(), house)
        rows = [r for r in rows if r.clause in mine]
    print(coverage.table(rows))
    return EXIT_OK if all(r.complete for r in rows) else EXIT_FAILED
