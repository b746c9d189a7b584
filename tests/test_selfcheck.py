"""`trickspec selfcheck`: one-parameter variant mutants, each run against its variant's scenarios."""

from __future__ import annotations

import pytest

from conformance import selfcheck
from conformance.cli import main
from specreader import spec


def _differences(a: object, b: object, path: str = "") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for key in sorted(set(a) | set(b)):
            out += _differences(a.get(key), b.get(key), f"{path}.{key}" if path else key)
        return out
    return [] if a == b else [path]


def test_each_mutant_changes_one_parameter_or_component() -> None:
    base = spec.variant("albastini-4p")
    found = list(selfcheck.mutants("albastini-4p"))
    assert len(found) > 15
    for mutant in found:
        changed = _differences(base, mutant.data)
        assert changed and all(path.startswith(mutant.parameter) for path in changed), (mutant.name, changed)


def test_a_rank_bug_is_killed_by_a_rank_scenario() -> None:
    verdicts = {v.mutant.change: v for v in selfcheck.run_mutants(["albastini-2p"], stop_at_first=False)
                if v.mutant.parameter == "ranking.plain_order"}
    queen_over_jack = verdicts["swaps J and Q"]
    assert not queen_over_jack.survived
    assert any(sid.startswith("albastini/cards/") for sid in queen_over_jack.killed_by)


def test_the_score_is_printed_and_can_gate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfcheck", "--variant", "albastini-2p"]) == 0
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1].startswith("mutation score: ")
    assert main(["selfcheck", "--variant", "albastini-2p", "--fail-under", "100.1"]) == 1
