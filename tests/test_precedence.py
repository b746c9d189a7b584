"""The refusal precedence of spec/refusals.yaml: stated once as data, checked by validate, read by
the reference engine, and pinned by the scenarios. An engine with two codes of the order swapped
is a mutant: the scenario that pins the pair, and the fuzzer, must catch it."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from conformance.cli import main
from conformance.engines.adapter import InProcessAdapter, reference_adapter
from conformance.run import runlog, runner
from conformance.suite import scenarios, setup_check
from conformance.vocabulary import Outcome
from reference import VariantError, refusals
from reference.engine import Applied, Engine, compile_rules
from reference.rules import Rules
from specreader import kitdata, spec
from specreader.spec import Spec, load_spec_precedence
from specreader.yamlio import load

# Each pair of codes that apply at once somewhere, the one the precedence puts first first, and a
# scenario that expects the first where both apply.
PINNED: dict[tuple[str, str], str] = {
    (refusals.NOT_ALLOWED_TO_BID, refusals.NOT_YOUR_TURN): "albastini/otea/four-players-dealer-and-partner-excluded",
    (refusals.NOT_A_MAKER, refusals.NOT_YOUR_TURN): "altbaumer/refusals/lone-defender-maker-and-turn",
    (refusals.NOT_A_WINNER, refusals.ALREADY_ACTED): "albastini/dealer/side-names-its-dealer-once",
    (refusals.ALREADY_ACTED, refusals.NOT_YOUR_TURN): "albastini/refusals/already-acted-or-not-your-turn",
    (refusals.NOT_YOUR_TURN, refusals.CARD_NOT_IN_HAND): "altbaumer/refusals/play-turn-then-card-then-follow",
    (refusals.NOT_YOUR_TURN, refusals.NO_TREE_TO_TAKE): "altbaumer/refusals/cut-turn-before-tree",
    (refusals.NOT_YOUR_TURN, refusals.SUIT_ALREADY_BID): "albastini/refusals/already-acted-or-not-your-turn",
    (refusals.NOT_YOUR_TURN, refusals.MUST_FOLLOW_SUIT): "altbaumer/refusals/play-turn-then-card-then-follow",
    (refusals.CARD_NOT_IN_HAND, refusals.SUIT_ALREADY_BID): "albastini/refusals/bid-turn-then-card-then-suit",
    (refusals.CARD_NOT_IN_HAND, refusals.MUST_FOLLOW_SUIT): "altbaumer/refusals/play-turn-then-card-then-follow",
    (refusals.CARD_NOT_IN_HAND, refusals.MUST_TRUMP): "altbaumer/refusals/play-card-before-trump",
}

ORDER = load_spec_precedence("altbaumer")


def swapped(order: list[str], a: str, b: str) -> list[str]:
    out = list(order)
    i, j = out.index(a), out.index(b)
    out[i], out[j] = out[j], out[i]
    return out


@cache
def _rules_for(order: tuple[str, ...], variant_id: str) -> Rules:
    """Compiled once per order and variant: several tests share the spec's order and each swapped pair."""
    return compile_rules(spec.variant(variant_id), order)


def engine_with(order: list[str]) -> Callable[[str, dict[str, Any]], Engine]:
    """An engine factory like ``Engine.new``, every variant compiled with this refusal order."""

    def factory(variant_id: str, setup: dict[str, Any]) -> Engine:
        return Engine(_rules_for(tuple(order), variant_id), setup)

    return factory


def adapter_with(order: list[str]) -> InProcessAdapter:
    return InProcessAdapter(engine_with(order), {"name": "refusal-order-mutant"}, spec.variant_ids())


def turn_and_follow_swapped() -> InProcessAdapter:
    """``--engine test_precedence:turn_and_follow_swapped``: not_your_turn after must_follow_suit."""
    return adapter_with(swapped(ORDER, refusals.NOT_YOUR_TURN, refusals.MUST_FOLLOW_SUIT))


def test_the_spec_orders_each_pinned_pair_as_its_scenario_expects() -> None:
    for (first, then), _ in PINNED.items():
        assert ORDER.index(first) < ORDER.index(then), (first, then)


def test_the_scenario_a_decision_names_tells_the_codes_apart() -> None:
    doc = spec.kit_spec().refusals_file
    assert doc is not None
    decisions = [e for e in doc.data["refusals"] if "decision" in e]
    assert decisions
    ids = {s.id: s for s in scenarios.kit_scenarios()}
    for entry in decisions:
        named = re.findall(r"[a-z]+/[a-z-]+/[a-z0-9-]+", " ".join(entry["decision"].split()))
        assert named and all(n in ids for n in named), (entry["code"], named)
        assert any(entry["code"] in ids[n].action_refusals() for n in named)


def test_every_variant_is_compiled_with_its_games_order() -> None:
    for vid in spec.variant_ids():
        rules = compile_rules(spec.variant(vid))
        assert rules.precedence.order == tuple(load_spec_precedence(rules.game))


def test_the_engine_answers_the_code_the_order_puts_first() -> None:
    # Seat 2 plays seat 0's TS while seat 1 is to act: out of turn, not held, and not a heart
    # though seat 2 holds hearts. Whichever of the three the order puts first is the answer.
    setup: dict[str, Any] = {
        "dealer": 3,
        "hands": {"0": ["9H", "QS", "JS", "TS", "9S"], "1": ["KH", "JC", "AD", "AS", "9C"],
                  "2": ["AH", "TH", "QH", "KS", "KD"], "3": ["JH", "AC", "KC", "TC", "QD"]},
        "stock": [],
        "start": {"phase": "play", "trump": "D", "to_act": 0, "makers": 0, "lone": None, "dead": ["QC", "JD", "TD", "9D"]},
    }
    three = (refusals.NOT_YOUR_TURN, refusals.CARD_NOT_IN_HAND, refusals.MUST_FOLLOW_SUIT)
    for code in three:
        order = [c for c in ORDER if c != code]
        order.insert(2, code)  # right after invalid_action and wrong_phase
        engine = engine_with(order)("altbaumer-standard", setup)
        assert isinstance(engine.apply({"type": "play", "seat": 0, "card": "9H"}), Applied)
        before = engine.snapshot()
        refused = engine.apply({"type": "play", "seat": 2, "card": "TS"})
        assert getattr(refused, "code", None) == code
        assert engine.snapshot() == before


@pytest.mark.parametrize(("pair", "scenario_id"), sorted(PINNED.items()), ids=["-".join(pair) for pair in sorted(PINNED)])
def test_an_engine_with_the_pair_swapped_fails_the_scenario_that_pins_it(pair: tuple[str, str], scenario_id: str) -> None:
    (scenario,) = [s for s in scenarios.kit_scenarios() if s.id == scenario_id]
    assert runner.run(adapter_with(ORDER), scenario).outcome is Outcome.PASS
    verdict = runner.run(adapter_with(swapped(ORDER, *pair)), scenario)
    assert verdict.outcome is Outcome.FAIL
    refusals = [m for m in verdict.mismatches if m.what.endswith("refused with")]
    assert any(m.expected == [pair[0]] and m.observed == pair[1] for m in refusals), verdict.mismatches


@pytest.mark.parametrize(
    "order",
    [
        swapped(ORDER, refusals.WRONG_PHASE, refusals.NOT_YOUR_TURN),  # a code before reading the phase
        swapped(ORDER, refusals.INVALID_ACTION, refusals.WRONG_PHASE),
        [c for c in ORDER if c != refusals.MUST_TRUMP],
        [*ORDER, refusals.NOT_YOUR_TURN],
    ],
)
def test_an_order_the_engine_cannot_follow_is_refused(order: list[str]) -> None:
    with pytest.raises(VariantError, match="refusal precedence"):
        compile_rules(spec.variant("altbaumer-standard"), order)


def test_the_fuzzer_compares_the_one_code_and_finds_the_swapped_pair(tmp_path: Path) -> None:
    status = main([
        "fuzz", "--engine", "test_precedence:turn_and_follow_swapped", "--variant", "altbaumer-standard",
        "--deals", "300", "--max-divergences", "1", "--out", str(tmp_path / "out"), "--report-dir", str(tmp_path),
    ])  # fmt: skip
    assert status == 1
    diverged = [s for s in runlog.read(tmp_path / "run.jsonl").scenarios if s["outcome"] != Outcome.PASS]
    mismatch = diverged[0]["mismatch"]
    assert mismatch is not None
    # One code expected, the reference's, though the mutant's is true as well (the swap moves
    # card_not_in_hand against both codes, so either pair may be the one found).
    assert mismatch["what"] == "refusal code" and len(mismatch["expected"]) == 1, mismatch
    assert mismatch["observed"] in ORDER and mismatch["observed"] != mismatch["expected"][0]
    (written,) = sorted((tmp_path / "out").glob("*.yaml"))
    (scenario,) = scenarios.load_files([written])
    assert runner.run(reference_adapter(), scenario).outcome is Outcome.PASS
    assert runner.run(turn_and_follow_swapped(), scenario).outcome is Outcome.FAIL


ERRORS = kitdata.spec_dir() / "refusals.yaml"


def test_a_game_with_its_own_order_is_read_with_it(tmp_path: Path) -> None:
    own = swapped(ORDER, refusals.NOT_YOUR_TURN, refusals.CARD_NOT_IN_HAND)
    games = f"  games:\n    altbaumer:\n      order: [{', '.join(own)}]\n      reason: a test\n"
    path = tmp_path / "refusals.yaml"
    path.write_text(ERRORS.read_text(encoding="utf-8").replace("  reason: >-\n", games + "  reason: >-\n", 1), encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    read = Spec(refusals_file=load(path))
    assert read.precedence("altbaumer") == own and read.precedence("albastini") == ORDER


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("    - must_trump\n", ""), "$.precedence.order: expected every code exactly once; missing: must_trump"),
        (("    - must_trump\n", "    - must_trump\n    - must_win\n"),
         "$.precedence.order[12]: 'must_win' is not a code refusing an action"),
        (("  reason: >-\n", "  games:\n    whist:\n      order: [invalid_action]\n      reason: x\n  reason: >-\n"),
         "$.precedence.games.whist: unknown game 'whist'"),
        (("precedence:\n", "precedence_:\n"), "$: missing required key 'precedence'"),
        (("    - invalid_action\n    - wrong_phase\n", "    - wrong_phase\n    - invalid_action\n"),
         "$.precedence.order[0]: expected the order to begin invalid_action, wrong_phase, found 'wrong_phase'"),
        (("  reason: >-\n", "  games:\n    bisca:\n      order: [invalid_action]\n      reason: x\n  reason: >-\n"),
         "$.precedence.games.bisca.order: expected the order to begin invalid_action, wrong_phase, found only 1 code(s)"),
    ],
)
def test_validate_holds_the_order_to_the_code_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: tuple[str, str], message: str
) -> None:
    path = tmp_path / "refusals.yaml"
    path.write_text(ERRORS.read_text(encoding="utf-8").replace(*change, 1), encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_validate_holds_the_order_to_what_the_engine_reads_first(kit_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = kit_copy / "spec" / "refusals.yaml"
    text = path.read_text(encoding="utf-8")
    moved = "    - invalid_action\n    - wrong_phase\n    - not_allowed_to_bid\n"
    assert text.count(moved) == 1
    path.write_text(text.replace(moved, "    - not_allowed_to_bid\n    - invalid_action\n    - wrong_phase\n"), encoding="utf-8")
    line = text[: text.index(moved)].count("\n") + 1
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    problems = [p for p in err.splitlines() if not p.endswith("problem(s)")]
    assert problems[0] == (
        f"{path}:{line}:7: $.precedence.order[0]: expected the order to begin invalid_action, wrong_phase, found"
        " 'not_allowed_to_bid': the engine reads an action and its phase before any rule looks at it"
    )
    # Then, once each, the variants whose setups the reference engine could not check because of it.
    rest = problems[1:]
    assert rest and all("cannot be checked (the refusal precedence for " in p and f"({path})" in p for p in rest), rest
    assert len(rest) == len({re.findall(r"the setups of variant '([^']+)'", p)[0] for p in rest})


def test_a_variant_the_reference_cannot_play_is_a_problem_of_its_scenarios(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def unplayable(variant: Any, precedence: Any = None) -> Rules:
        raise VariantError("no such rule", ("components", "legality"))

    monkeypatch.setattr(setup_check, "compile_rules", unplayable)
    file = kitdata.scenarios_dir() / "altbaumer" / "refusals" / "precedence.yaml"
    assert main(["validate", str(file)]) == 2
    err = capsys.readouterr().err
    assert (
        "the setups of variant 'altbaumer-standard' cannot be checked (the reference engine cannot play it:"
        " $.components.legality: no such rule)"
    ) in err
