"""A wrong engine must fail: deliberately broken copies of the reference engine are run through
the scenarios, and each must be caught with its clause named and a diff shown."""

from __future__ import annotations

import json

import pytest

from conformance.pytest_scenarios import describe
from conformance.run import runner
from conformance.suite import scenarios
from conformance.vocabulary import Outcome

from mutants import MUTANTS, mutant_adapter


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_mutant_is_caught_with_clause_and_diff(name: str) -> None:
    clause = MUTANTS[name].clause
    adapter = mutant_adapter(name)
    chosen = [s for s in scenarios.kit_scenarios() if clause in s.clauses]
    assert chosen, f"no scenario checks {clause}"
    outcomes = [runner.run(adapter, s) for s in chosen]
    failed = [o for o in outcomes if o.outcome == Outcome.FAIL]
    assert failed, f"mutant {name} passed every scenario of {clause}"
    report = describe(failed[0])
    assert f"clause {clause}:" in report
    assert "- expected:" in report and "+ observed:" in report
    for line in report.splitlines():  # each value written as JSON (null, true, "7H"), whatever the engine's language
        if line.strip().startswith(("- expected:", "+ observed:")):
            json.loads(line.split(":", 1)[1])

