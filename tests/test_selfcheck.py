"""`trickspec selfcheck`: one-parameter variant mutants, each run against its variant's scenarios, each
reported by its fate; only rule kills count in the kill rate."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.measures import neighbours, selfcheck
from conformance.suite import scenarios
from specreader import spec
from specreader.spec import Spec


@pytest.fixture
def only(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[[str], bool]], None]:
    """Run selfcheck as if the kit had only the scenarios whose ids pass the test, so that a
    scenario added elsewhere does not change what a test shows."""
    def keep(wanted: Callable[[str], bool]) -> None:
        kept = tuple(s for s in scenarios.kit_scenarios() if wanted(s.id))
        monkeypatch.setattr(scenarios, "kit_scenarios", lambda: kept)
    return keep


@pytest.fixture
def making(monkeypatch: pytest.MonkeyPatch) -> Callable[[Callable[[selfcheck.Mutant], bool]], None]:
    """Run selfcheck making only the mutants that pass the test, for a test that reads no others: a
    mutant's fate does not depend on the others run."""
    def keep(wanted: Callable[[selfcheck.Mutant], bool]) -> None:
        every = selfcheck.mutants

        def chosen(variant_id: str, kit: Spec | None = None, hybrids: bool = True) -> Iterator[selfcheck.Mutant]:
            return (m for m in every(variant_id, kit, hybrids) if wanted(m))

        monkeypatch.setattr(selfcheck, "mutants", chosen)
    return keep


def _starting_past_five(sid: str) -> bool:
    return sid in ("albastini/match/two-open-ended", "briscola/score/two-players-111-to-9-scores-one")


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


def test_a_rank_bug_is_killed_by_a_rank_scenario(making: Callable[[Callable[[selfcheck.Mutant], bool]], None]) -> None:
    making(lambda m: m.parameter == "ranking.plain_order")
    verdicts = {v.mutant.change: v for v in selfcheck.run_mutants(["albastini-2p"], stop_at_first=False)}
    queen_over_jack = verdicts["swaps J and Q"]
    assert not queen_over_jack.survived
    assert any(sid.startswith("albastini/cards/") for sid in queen_over_jack.killed_by)


def _fates(variant_id: str) -> dict[str, selfcheck.MutantResult]:
    return {r.mutant.name: r for r in selfcheck.run_mutants([variant_id])}


def test_a_mutant_killed_only_by_refusing_a_setup_is_no_rule_kill(only: Callable[[Callable[[str], bool]], None]) -> None:
    # An open match read as one to 5, given only a scenario that starts past 5: it refuses that setup.
    only(_starting_past_five)
    result = _fates("albastini-2p")["albastini-2p: components.match open -> vp-target"]
    assert result.fate is selfcheck.Fate.SETUPS_REFUSED
    assert not result.killed_by and list(result.setup_refused) == ["albastini/match/two-open-ended"]
    assert "already won" in result.setup_refused["albastini/match/two-open-ended"]


def test_a_mutant_the_engine_cannot_build_says_why() -> None:
    result = _fates("albastini-2p")["albastini-2p: components.draw.indicator last-drawer -> dead"]
    assert result.fate is selfcheck.Fate.UNBUILDABLE
    assert "do not draw out evenly" in result.unbuildable


def test_a_listed_equivalent_is_reported_with_its_reason_not_as_a_survivor() -> None:
    result = _fates("briscola-2p")["briscola-2p: components.score.win_over 60 -> 59"]
    assert result.fate is selfcheck.Fate.EQUIVALENT and not result.survived
    assert result.equivalent.startswith("Two sides share all 120 card points")


def test_the_kill_rate_counts_rule_kills_over_the_mutants_that_could_be_killed(
    only: Callable[[Callable[[str], bool]], None],
) -> None:
    only(_starting_past_five)
    results = list(selfcheck.run_mutants(["briscola-2p"], hybrids=False))
    killed, scored = selfcheck.kill_rate(results)
    fates = [r.fate for r in results]
    assert killed == fates.count(selfcheck.Fate.KILLED)
    assert scored == killed + fates.count(selfcheck.Fate.SETUPS_REFUSED) + fates.count(selfcheck.Fate.SURVIVED)
    assert fates.count(selfcheck.Fate.SURVIVED) > 1 and scored < len(results)
    # a target already reached; a trump rule whose side makes trumps, which a position naming no makers never starts
    refused = {r.mutant.change for r in results if r.fate is selfcheck.Fate.SETUPS_REFUSED}
    assert refused == {"open -> vp-target", "otea -> turn-up"}, refused


def test_the_kill_rate_is_printed_and_can_gate(capsys: pytest.CaptureFixture[str],
                                           only: Callable[[Callable[[str], bool]], None]) -> None:
    only(lambda sid: sid.startswith("albastini/cards/") or _starting_past_five(sid))
    assert main(["selfcheck", "--variant", "albastini-2p", "--no-hybrids"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].split()[3:] == ["killed", "setups", "refused", "survived", "equivalent", "cannot", "build"]
    assert lines[1].split()[:3] == ["albastini-2p", "parameter", "27"]
    assert any(line.startswith("SETUPS REFUSED albastini-2p: components.match open -> vp-target") for line in lines)
    assert any(line.startswith("CANNOT BUILD components.draw.indicator last-drawer -> dead in albastini-2p: ") for line in lines)
    assert lines[-1].startswith("kill rate: 12/23 mutants killed by a scenario they played (52.2%)")
    assert main(["selfcheck", "--variant", "albastini-2p", "--no-hybrids", "--fail-under", "100"]) == 1


def test_a_kill_rate_equal_to_the_gate_passes_it(capsys: pytest.CaptureFixture[str],
                                                making: Callable[[Callable[[selfcheck.Mutant], bool]], None],
                                                only: Callable[[Callable[[str], bool]], None]) -> None:
    """--fail-under fails a kill rate below it: a rate exactly at the gate (5 of 8, 62.5%) passes."""
    only(lambda sid: sid.startswith("albastini/cards/"))
    making(lambda m: m.parameter == "ranking.plain_order")
    assert main(["selfcheck", "--variant", "albastini-2p", "--no-hybrids", "--fail-under", "62.5"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1].startswith("kill rate: 5/8 mutants killed by a scenario they played (62.5%)")
    assert main(["selfcheck", "--variant", "albastini-2p", "--no-hybrids", "--fail-under", "62.6"]) == 1


def test_an_equivalent_a_scenario_kills_is_bad_data(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    wrong = {("albastini-2p", "ranking.plain_order", "swaps J and Q", ""): "a claim the suite disproves"}
    monkeypatch.setattr(selfcheck, "equivalents", lambda kit=None: wrong)
    assert main(["selfcheck", "--variant", "albastini-2p", "--no-hybrids"]) == 2
    out = capsys.readouterr().out
    assert "NOT EQUIVALENT albastini-2p: ranking.plain_order swaps J and Q: killed by " in out


EQUIVALENT = """equivalents:
  - variants: [briscola-2p, albastini-base, no-such-variant]
    parameter: components.score.win_over
    change: 60 -> 59
    reason: Two sides share all the points.
  - variants: [briscola-2p]
    parameter: components.score.win_over
    change: 60 -> 58
    reason: Not a mutant selfcheck makes.
"""


def test_validate_checks_each_listed_equivalent_names_a_mutant(write: Callable[[str, str], Path],
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = write("selfcheck-equivalents.yaml", EQUIVALENT)
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [
        f"{path}:2:29: $.equivalents[0].variants[1]: expected a playable variant, found 'albastini-base'",
        f"{path}:2:45: $.equivalents[0].variants[2]: expected a playable variant, found 'no-such-variant'",
        f"{path}:6:16: $.equivalents[1].variants[0]: selfcheck makes no mutant components.score.win_over 60 -> 58 of briscola-2p",
        "3 problem(s)",
    ]


def test_neighbours_are_the_variants_at_the_same_table_sharing_most_rules() -> None:
    kit = spec.kit_spec()
    assert neighbours.neighbours("albastini-4p", kit) == ["albastini-clockwise", "albastini-over60", "briscola-4p"]
    assert neighbours.neighbours("albastini-3p", kit) == ["albastini-over60-3p"]
    assert neighbours.neighbours("altbaumer-standard", kit) == []  # one rule in common with any other


def test_the_hybrids_of_mrithi_and_over_60_take_the_score_and_the_match() -> None:
    base, other = spec.variant("albastini-4p"), spec.variant("albastini-over60")
    made = {m.what: m for m in selfcheck.mutants("albastini-4p") if m.neighbour == "albastini-over60"}
    assert set(made) == {
        "components.score mrithi -> over-threshold from albastini-over60",
        "components.match open -> vp-target from albastini-over60",
    }
    score = made["components.score mrithi -> over-threshold from albastini-over60"]
    mixed = {**base, "components": {**base["components"], "score": other["components"]["score"]}}
    assert score.kind == "hybrid" and score.data == mixed


def test_a_hybrid_takes_one_parameter_where_the_rule_is_the_same() -> None:
    made = {m.what for m in selfcheck.mutants("albastini-over60-2p") if m.neighbour == "bisca-2p"}
    assert {"components.score.double 2 -> absent from bisca-2p", "deal.hand_size 5 -> 3 from bisca-2p"} <= made
    # Both doubling parameters at once too, since one without the other does not build.
    assert any(w.startswith("components.score {") and w.endswith("from bisca-2p") for w in made)


def test_a_hybrid_is_killed_by_a_scenario_the_neighbour_would_fail(only: Callable[[Callable[[str], bool]], None]) -> None:
    only(lambda sid: sid.startswith("albastini/match/"))
    result = _fates("albastini-2p")["albastini-2p: components.match open -> vp-target from albastini-over60-2p"]
    assert result.fate is selfcheck.Fate.KILLED
    assert result.killed_by == ["albastini/match/two-past-five-open-ended"]


def test_every_hybrid_of_the_kit_is_killed_or_listed_equivalent(
    making: Callable[[Callable[[selfcheck.Mutant], bool]], None],
) -> None:
    making(lambda m: m.kind == "hybrid")
    results = list(selfcheck.run_mutants())
    assert all(r.mutant.kind == "hybrid" for r in results)
    assert len(results) > 100
    assert [r.mutant.name for r in results if r.untold_hybrid or r.wrongly_equivalent] == []


def test_a_hybrid_not_told_apart_fails_selfcheck(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    listed = selfcheck.equivalents()
    direction = ("albastini-4p", "direction", "anticlockwise -> clockwise", "albastini-clockwise")
    assert direction in listed
    monkeypatch.setattr(selfcheck, "equivalents", lambda kit=None: {k: v for k, v in listed.items() if k != direction})
    assert main(["selfcheck", "--variant", "albastini-4p"]) == 1
    out = capsys.readouterr().out
    assert "HYBRID NOT TOLD APART albastini-4p: direction anticlockwise -> clockwise from albastini-clockwise" in out
    assert "hybrids: " in out and ", 1 not told apart;" in out
    assert main(["selfcheck", "--variant", "albastini-4p", "--no-hybrids"]) == 0


def test_validate_checks_a_listed_hybrid_names_its_neighbour(write: Callable[[str, str], Path],
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = write("selfcheck-equivalents.yaml", """equivalents:
  - variants: [albastini-4p]
    parameter: direction
    change: anticlockwise -> clockwise
    neighbour: briscola-4p
    reason: Briscola is played anticlockwise, so no such hybrid is made.
""")
    assert main(["validate", str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{path}:2:16: $.equivalents[0].variants[0]: selfcheck makes no mutant direction anticlockwise -> clockwise "
        "from briscola-4p of albastini-4p",
        "1 problem(s)",
    ]


@pytest.mark.parametrize("given", ["albastini-3P", "albastini", "house-table"])
def test_a_variant_no_scenario_plays_is_a_usage_error_not_a_full_kill_rate(
    capsys: pytest.CaptureFixture[str], given: str
) -> None:
    """A misspelt id, or one of a base variant or of a house's, mutates nothing: a kill rate of 0 of 0 would pass
    any gate."""
    assert main(["selfcheck", "--variant", given, "--fail-under", "90"]) == 2
    out, err = capsys.readouterr()
    assert "kill rate" not in out and f"usage error: --variant {given!r}" in err
    assert "expected a variant the kit's scenarios play" in err
    assert ("(did you mean 'albastini-3p'?)" in err) is (given == "albastini-3P")


@pytest.mark.parametrize("gate", ["nan", "-5", "100.5", "inf", "ninety"])
def test_a_gate_no_kill_rate_can_meet_or_miss_is_refused(capsys: pytest.CaptureFixture[str], gate: str) -> None:
    with pytest.raises(SystemExit) as ended:
        main(["selfcheck", "--variant", "albastini-2p", "--fail-under", gate])
    assert ended.value.code == 2
    assert f"expected a percentage from 0 to 100, found {gate!r}" in capsys.readouterr().err
