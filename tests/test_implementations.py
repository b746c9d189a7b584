"""Engines nobody here wrote, run through their adapters (examples/libbisca, examples/naipes, examples/briscola-gym).

Each engine's result must match its expectation file exactly: every failure listed, of the kind
listed, and nothing listed that did not fail. The committed run logs of the Implementations page
must not be older than the scenarios they ran. briscola-gym needs its own install step
(examples/briscola-gym/README.md); without it its tests are skipped, except in CI (env var ``CI``
set), where a missing engine is a failure.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance import implementations
from conformance.engines.adapter import EngineAdapter, beyond_the_table, reference_adapter
from conformance.engines.protocol import SubprocessAdapter
from conformance.implementations import IMPLEMENTATIONS, Implementation
from conformance.run import expectations, runlog, runner
from conformance.run.verify import verify
from conformance.suite import scenarios
from conformance.vocabulary import Outcome
from reference import Engine
from specreader import spec

ROOT = Path(__file__).resolve().parent.parent
PUBLISHED = {i.key: i for i in IMPLEMENTATIONS if i.expect}  # the engines published by others
NEEDS = {"libbisca": "libbisca", "naipes": "naipes", "briscola-gym": "briscola_gym"}  # the package each adapter drives


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def _require(package: str) -> None:
    try:
        importlib.import_module(package)
    except ImportError as err:
        reason = f"{package} is not installed ({err}): see examples/{package.replace('_', '-')}/README.md"
        if _in_ci():
            pytest.fail(f"CI is set, so not skipping: {reason}", pytrace=False)
        pytest.skip(reason)


@pytest.fixture(params=sorted(PUBLISHED))
def published(request: pytest.FixtureRequest) -> Iterator[tuple[Implementation, EngineAdapter]]:
    item = PUBLISHED[request.param]
    _require(NEEDS[item.key])
    engine = implementations.open_implementation(item, ROOT)
    yield item, engine
    engine.close()


def test_each_published_engine_fails_exactly_as_its_expectation_file_says(
    published: tuple[Implementation, EngineAdapter],
) -> None:
    item, engine = published
    assert item.expect is not None
    known = expectations.load(ROOT / item.expect)
    chosen = implementations.declared(scenarios.kit_scenarios(), engine.hello()["variants"])
    log = verify(engine, chosen, expectations=known)
    outcomes = {line["id"]: line["outcome"] for line in log.scenarios}
    surprises = [f"{line['id']}: {line['outcome']} ({line['note'] or line['error']})" for line in log.scenarios if line["note"]]
    assert surprises == [], "results the expectation file does not describe"
    fine = (Outcome.PASS, Outcome.XFAIL, Outcome.UNSUPPORTED)
    assert log.failed == 0, [f"{i}: {o}" for i, o in outcomes.items() if o not in fine]
    listed = {sid for sid, entry in known.entries.items() if entry.outcome is not Outcome.SKIPPED}
    assert {sid for sid, o in outcomes.items() if o == Outcome.XFAIL} == listed, "an entry whose scenario no longer fails"
    assert sum(o == Outcome.PASS for o in outcomes.values()) > 0
    # The example's README says what the run gives: the counts, and of how many scenarios.
    counted = Counter(outcomes.values())
    said = f"{counted[Outcome.PASS]} passed, {counted[Outcome.XFAIL]} xfail, {counted[Outcome.UNSUPPORTED]} unsupported"
    said += f" (of {len(outcomes)} "
    assert said in (ROOT / item.expect).parent.joinpath("README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("setup", "lacking"),
    [
        ({"dealer": 1, "hands": {"0": [], "1": []}, "start": {"to_act": 0, "piles": {"1": []}, "lone": None}}, None),
        ({"dealer": 2, "deck": []}, "seat 2"),
        ({"dealer": 0, "hands": {"0": [], "1": [], "2": []}}, "seat 2"),
        ({"dealer": 0, "dealer_history": [1, 3, 0]}, "seat 3"),
        ({"dealer": 0, "start": {"to_act": 1, "trick": [{"seat": 0, "card": "AC"}, {"seat": 5, "card": "3C"}]}}, "seat 5"),
        ({"dealer": 0, "start": {"to_act": 0, "piles": {"0": [], "2": []}}}, "side 2"),
        ({"dealer": 0, "start": {"to_act": 0, "makers": 3}}, "side 3"),
    ],
)
def test_an_adapter_over_a_table_of_two_is_told_the_seat_or_side_it_lacks(
    setup: dict[str, Any], lacking: str | None
) -> None:
    """An engine with two players cannot be given a third seat: its adapter answers unsupported, naming it."""
    assert beyond_the_table(setup, 2) == lacking


def test_each_unsupported_scenario_says_why(published: tuple[Implementation, EngineAdapter]) -> None:
    _item, engine = published
    chosen = implementations.declared(scenarios.kit_scenarios(), engine.hello()["variants"])
    verdicts = [runner.run(engine, s) for s in chosen]
    unsupported = [v for v in verdicts if v.outcome is Outcome.UNSUPPORTED]
    assert unsupported, "the refusal scenarios need a refusal code neither engine's API gives"
    assert all(v.reason.startswith("unsupported: ") and len(v.reason) > 30 for v in unsupported)


def test_libbisca_over_the_protocol_answers_as_in_process() -> None:
    _require("libbisca")
    adapter = SubprocessAdapter([sys.executable, str(ROOT / "examples" / "libbisca" / "libbisca_adapter.py")], timeout=30)
    try:
        hello = adapter.hello()
        assert hello["name"] == "libbisca" and hello["homepage"] == "https://github.com/NunoMCSilva/libbisca"
        chosen = [s for s in scenarios.kit_scenarios() if s.id.startswith(("bisca/deal/", "bisca/play/out-of-turn"))]
        got = {v.scenario.id: v.outcome for v in runner.run_all(adapter, chosen, set(hello["variants"]))}
    finally:
        adapter.close()
    assert got == {
        "bisca/deal/dealer-1-deals-seat-0-first": Outcome.FAIL,
        "bisca/deal/dealer-0-deals-seat-1-first": Outcome.FAIL,
        "bisca/deal/refused-hand-of-four": Outcome.UNSUPPORTED,  # it deals three-card hands only
        # its loader takes a position as given (F4)
        "bisca/deal/refused-trump-card-on-top-of-the-stock": Outcome.FAIL,
        "bisca/deal/refused-trump-card-under-the-stock-without-indicator": Outcome.FAIL,
        "bisca/deal/refused-trump-card-drawn-while-the-stock-lasts": Outcome.FAIL,
        "bisca/deal/refused-stock-without-indicator": Outcome.FAIL,
        "bisca/deal/refused-indicator-out-of-play-while-the-stock-lasts": Outcome.UNSUPPORTED,  # no cards out of play
        "bisca/play/out-of-turn-refused": Outcome.UNSUPPORTED,
    }


def test_naipes_over_the_protocol_answers_as_in_process() -> None:
    _require("naipes")
    adapter = SubprocessAdapter([sys.executable, str(ROOT / "examples" / "naipes" / "naipes_adapter.py")], timeout=30)
    in_process = implementations.open_implementation(PUBLISHED["naipes"], ROOT)
    try:
        hello = adapter.hello()
        assert hello == in_process.hello() and hello["homepage"] == "https://github.com/naipes-com/naipes"
        chosen = [s for s in scenarios.kit_scenarios() if s.variant in hello["variants"]]
        served = {v.scenario.id: (v.outcome, v.mismatches) for v in runner.run_all(adapter, chosen, set(hello["variants"]))}
        here = {v.scenario.id: (v.outcome, v.mismatches) for v in runner.run_all(in_process, chosen, set(hello["variants"]))}
    finally:
        adapter.close()
        in_process.close()
    assert served == here and len(served) == len(chosen)
    assert {sid for sid, (outcome, _) in served.items() if outcome is Outcome.FAIL} == {  # the expectation file's
        e.id for e in expectations.load(ROOT / "examples" / "naipes" / "expectations.yaml").entries.values()
    }


@pytest.mark.parametrize("who", ["leader", "follower"])
def test_naipes_refuses_a_card_out_of_turn_itself_and_nothing_changes(who: str) -> None:
    """naipes' own refusal (play_card's out-of-turn error, raised before it changes anything) reaches the kit as
    not_your_turn, for the lead (the scenario briscola/play/out-of-turn-refused) and for the reply, and the position
    is the one before; a card the player out of turn does not even hold is refused the same way."""
    _require("naipes")
    engine = implementations.open_implementation(PUBLISHED["naipes"], ROOT)
    request = next(_random_games("briscola-2p", 1, seed=5))
    setup = request["setup"]
    leader, other = 1 - setup["dealer"], setup["dealer"]
    lead, reply = setup["hands"][str(leader)][0], setup["hands"][str(other)][0]
    first = [] if who == "leader" else [{"type": "play", "seat": leader, "card": lead}]
    wrong = other if who == "leader" else leader  # the seat whose turn it is not
    not_held = setup["stock"][0]
    request["actions"] = [
        *first,
        {"type": "play", "seat": wrong, "card": reply if who == "leader" else setup["hands"][str(leader)][1]},
        {"type": "play", "seat": wrong, "card": not_held},
        {"type": "play", "seat": 1 - wrong, "card": lead if who == "leader" else reply},
    ]
    answer = engine.run(request)  # type: ignore[arg-type]
    assert "error" not in answer, answer
    before, refused, refused_not_held, played = answer["observations"][len(first) :]
    for observation in (refused, refused_not_held):
        assert observation["rejected"]["code"] == "not_your_turn" and "out-of-turn" in observation["rejected"]["message"]
        assert observation["snapshot"] == before["snapshot"] and observation["legal"] == before["legal"]
    assert played["rejected"] is None and played["snapshot"] != before["snapshot"]


def test_an_unsupported_answer_is_unsupported_when_what_it_observed_was_right() -> None:
    scenario = next(s for s in scenarios.kit_scenarios() if s.id == "bisca/play/out-of-turn-refused")
    observations: list[dict[str, Any]] = [{"rejected": None, "snapshot": {}, "legal": []}]
    answer = {"id": scenario.id, "observations": observations, "error": {"kind": "unsupported", "message": "no seat"}}
    verdict = runner.judge(scenario, answer)
    assert (verdict.outcome, verdict.mismatches, verdict.reason) == (Outcome.UNSUPPORTED, [], "unsupported: no seat")


@pytest.mark.parametrize("item", IMPLEMENTATIONS, ids=lambda i: i.key)
def test_each_committed_log_is_not_older_than_the_scenarios_it_ran(item: Implementation) -> None:
    log = runlog.read(item.log_path(ROOT))
    assert log.complete
    stale = implementations.stale(log, scenarios.kit_scenarios())
    assert stale == [], f"{item.log_path(ROOT)} is stale; refresh with: python -m conformance.implementations {item.key}"
    assert {line["id"] for line in log.scenarios} == set(log.header.get("scenario_digests", {}))


def test_a_changed_scenario_makes_its_log_stale() -> None:
    log = runlog.read(PUBLISHED["libbisca"].log_path(ROOT))
    first = next(iter(log.header["scenario_digests"]))
    log.header["scenario_digests"][first] = "0" * 16
    next(line for line in log.scenarios if line["id"] == first)["line"] += 1  # moved as well
    del log.header["scenario_digests"][sorted(log.header["scenario_digests"])[-1]]
    moved = log.scenarios[-1]
    where = f"{moved['file']}:{moved['line']}"
    moved["line"] += 1
    reasons = implementations.stale(log, scenarios.kit_scenarios())
    assert f"{first}: changed since the run" in reasons
    assert any(r.endswith("added since the run") for r in reasons)
    assert f"{moved['id']}: moved to {where} since the run, which logged {moved['file']}:{moved['line']}" in reasons
    assert not any(r.startswith(f"{first}: moved") for r in reasons)  # changed, and said once
    assert len(reasons) == len({r.split(": ")[0] for r in reasons})


def test_an_unsupported_answer_fails_when_what_it_observed_first_was_wrong() -> None:
    scenario = next(s for s in scenarios.kit_scenarios() if s.id == "bisca/score/sixty-one-wins")  # expects totals first
    observations: list[dict[str, Any]] = [{"rejected": None, "snapshot": {"totals": [0, 0]}, "legal": []}]
    answer = {"id": scenario.id, "observations": observations, "error": {"kind": "unsupported", "message": "no match"}}
    verdict = runner.judge(scenario, answer)
    assert verdict.outcome is Outcome.FAIL
    assert [(m.what, m.expected, m.observed) for m in verdict.mismatches] == [("totals", [51, 59], [0, 0])]
    assert verdict.reason == "unsupported: no match"



def _random_games(variant: str, count: int, seed: int) -> Iterator[dict[str, Any]]:
    """Requests for games the reference engine plays with random legal cards, from dealt hands and a stock."""
    rng = random.Random(seed)
    deck_spec = spec.variant(variant)["deck"]
    pack = [rank + suit for suit in deck_spec["suits"].split() for rank in deck_spec["ranks"].split()]
    for n in range(count):
        rng.shuffle(pack)
        dealer = rng.randint(0, 1)
        setup = {"dealer": dealer, "hands": {str(1 - dealer): pack[0:3], str(dealer): pack[3:6]}, "stock": pack[6:]}
        engine = Engine.new(variant, setup)
        actions: list[dict[str, Any]] = []
        for _ in range(rng.randint(1, 40)):
            legal = engine.legal_actions()
            if not legal:
                break
            actions.append(rng.choice(legal))
            engine.apply(actions[-1])
        observe = list(range(len(actions) + 1))
        yield {"id": f"random/{n}", "variant": variant, "setup": setup, "actions": actions, "observe": observe}


# What libbisca and naipes keep, in the reference engine's words: every other field is left out by their adapters.
KEPT = ("phase", "to_act", "trump", "indicator", "stock", "stock_count", "trick", "last_trick", "piles", "tricks", "totals")


def _kept(observation: dict[str, Any]) -> Any:
    snapshot = observation["snapshot"]
    result = snapshot.get("result")
    return (
        {key: snapshot.get(key) for key in KEPT},
        {seat: sorted(cards) for seat, cards in snapshot["hands"].items()},
        result and {key: result[key] for key in ("winner", "tie", "totals")},
        sorted(json.dumps(action, sort_keys=True) for action in observation["legal"]),
    )


@pytest.mark.parametrize(("key", "variant"), [("libbisca", "bisca-2p"), ("naipes", "briscola-2p")])
def test_an_engine_plays_random_games_from_dealt_hands_as_the_reference_does(key: str, variant: str) -> None:
    """The adapter translates and nothing else: from hands already dealt (how each engine deals then plays no
    part), the engine agrees with the reference at every step of 60 random games, in everything it keeps."""
    _require(NEEDS[key])
    item = PUBLISHED[key]
    engine = implementations.open_implementation(item, ROOT)
    reference = reference_adapter()
    for request in _random_games(variant, 60, seed=13):
        ours, theirs = reference.answer(request), engine.run(request)  # type: ignore[arg-type]
        assert "error" not in theirs, theirs
        assert [_kept(o) for o in theirs["observations"]] == [_kept(o) for o in ours["observations"]], request
