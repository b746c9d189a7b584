"""`trickspec fuzz`: random deals played on an engine and on the reference engine, compared.

Each hand-written mutant of the reference engine, served over the protocol, is found within
seconds and comes back as a scenario file that validates, names the mutant's clause, fails on
the mutant and passes on the reference. Engines that agree with the reference (the reference
served over the protocol, the JavaScript example) show no divergence, and the shards of a
campaign add up to the single run.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import re
import shutil
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from conformance.cli import main
from conformance.engines.adapter import InProcessAdapter, reference_adapter
from conformance.fuzz import campaign, naming, shrink
from conformance.fuzz.compare import ERROR, REFUSAL, REPORT, Expected, first_divergence
from conformance.fuzz.deals import Case, generate, reference_reports
from conformance.run import runlog, runner
from conformance.suite import observing
from conformance.suite.scenarios import deck_of, load_files
from conformance.vocabulary import EngineError, ErrorKind, Outcome
from reference import Engine
from reference.engine import compile_rules
from specreader.spec import variant, variant_ids

from depth import cases
from mutants import MUTANTS, _patched, mutant_adapter, mutant_engine

ROOT = Path(__file__).resolve().parent.parent
SERVE_MUTANT = Path(__file__).resolve().parent / "serve_mutant.py"
JS_ENGINE = ROOT / "examples" / "js-albastini-2p" / "engine.js"
MUTANT_VARIANT = "albastini-2p"  # the variant whose rules the first hand-written mutants change


# A test whose patch a worker inherits as it is forked: where workers are spawned, they would not have it.
FORKED_WORKERS = pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="the patched worker is forked"
)


def off_suit_wins() -> InProcessAdapter:
    """A mutant as an in-process engine (``--engine test_fuzz:off_suit_wins``)."""
    return mutant_adapter("off-suit-wins")


def queen_above_jack() -> InProcessAdapter:
    """``--engine test_fuzz:queen_above_jack``: the mutant ranking the queen above the jack."""
    return mutant_adapter("queen-above-jack")


def stalls_mid_deal() -> InProcessAdapter:
    """``--engine test_fuzz:stalls_mid_deal``: the off-suit mutant, which plays whole deals at once but stalls past
    its timeout on a deal started mid-way, which only the shrinker asks for."""
    broken = mutant_engine("off-suit-wins")

    def new(variant_id: str, setup: dict[str, Any]) -> Any:
        if isinstance(setup.get("start"), dict):
            time.sleep(1.0)
        return broken(variant_id, setup)

    return InProcessAdapter(new, {"name": "stalls-mid-deal"}, [MUTANT_VARIANT])


def indicator_to_winner() -> InProcessAdapter:
    """``--engine test_fuzz:indicator_to_winner``: the mutant whose last draw hands the indicator to the trick's
    winner, which shows in the hand of whichever seat won it."""
    return mutant_adapter("indicator-to-winner")


def off_suit_wins_but_mid_trick() -> InProcessAdapter:
    """``--engine test_fuzz:off_suit_wins_but_mid_trick``: the off-suit mutant, which plays a deal started with a trick
    under way as the reference does: a divergence on a trick's last card is shown only from the trick's start."""
    broken = mutant_engine("off-suit-wins")

    def new(variant_id: str, setup: dict[str, Any]) -> Any:
        start = setup.get("start")
        if isinstance(start, dict) and start.get("trick"):
            return Engine.new(variant_id, setup)
        return broken(variant_id, setup)

    return InProcessAdapter(new, {"name": "off-suit-wins-but-mid-trick"}, [MUTANT_VARIANT])


class StopsHalfWay:
    """The reference, which answers every deal of more than ten actions unsupported half-way, with the
    observations up to there: for one reason on a play, another on any other action."""

    def __init__(self) -> None:
        self.reference = reference_adapter()

    def hello(self) -> dict[str, Any]:
        return {**self.reference.hello(), "name": "stops-half-way"}

    def run(self, request: dict[str, Any]) -> Any:
        answer = self.reference.run(request)
        actions = request["actions"]
        if len(actions) <= 10 or not isinstance(answer, dict):
            return answer
        half = len(actions) // 2
        reason = "no plays past the middle" if actions[half]["type"] == "play" else "no other actions past the middle"
        observations = answer["observations"][: half + 1]
        return {"id": request["id"], "observations": observations, "error": {"kind": "unsupported", "message": reason}}

    def close(self) -> None:
        self.reference.close()


def stops_half_way() -> StopsHalfWay:
    """``--engine test_fuzz:stops_half_way``."""
    return StopsHalfWay()


class OddLegal(StopsHalfWay):
    """The reference, whose every observation offers the legal actions in the ODD_LEGAL environment variable."""

    def run(self, request: dict[str, Any]) -> Any:
        answer = self.reference.run(request)
        for observation in answer.get("observations", []) if isinstance(answer, dict) else []:
            observation["legal"] = json.loads(os.environ["ODD_LEGAL"])
        return answer


class OddRefusal(StopsHalfWay):
    """The reference, whose every refusal is the ODD_REJECTED environment variable instead."""

    def run(self, request: dict[str, Any]) -> Any:
        answer = self.reference.run(request)
        for observation in answer.get("observations", []) if isinstance(answer, dict) else []:
            if observation.get("rejected"):
                observation["rejected"] = json.loads(os.environ["ODD_REJECTED"])
        return answer


def odd_refusal() -> OddRefusal:
    """``--engine test_fuzz:odd_refusal``."""
    return OddRefusal()


class OddDeal(StopsHalfWay):
    """The reference, which answers a request to deal (--deal engine) with the ODD_DEAL environment variable."""

    def run(self, request: dict[str, Any]) -> Any:
        if str(request["id"]).endswith("/deal"):
            return {"id": request["id"], **json.loads(os.environ["ODD_DEAL"])}
        return self.reference.run(request)


def odd_deal() -> OddDeal:
    """``--engine test_fuzz:odd_deal``."""
    return OddDeal()


class EachItsOwnReason(StopsHalfWay):
    """Answers every deal unsupported, for a reason naming the deal."""

    def run(self, request: dict[str, Any]) -> Any:
        return {"id": request["id"], "observations": [], "error": {"kind": "unsupported", "message": f"not {request['id']}"}}


def each_its_own_reason() -> EachItsOwnReason:
    """``--engine test_fuzz:each_its_own_reason``."""
    return EachItsOwnReason()


def misspelt() -> InProcessAdapter:
    """``--engine test_fuzz:misspelt``: the reference, declaring 'briscola2p', no variant of the kit."""
    return InProcessAdapter(Engine.new, {"name": "misspelt"}, ["briscola2p"])


def odd_legal() -> OddLegal:
    """``--engine test_fuzz:odd_legal``."""
    return OddLegal()


FORGED = "\n425 passed, 0 failed\n"
NASTY = "\x1b[31mred\x1b[0m <script>alert(1)</script> \x00\u202e" + FORGED


class NastyEngine:
    """Answers with control characters and a forged closing line wherever it can, an error message
    of 100,000 characters on Briscola, and refuses nothing."""

    def hello(self) -> dict[str, Any]:
        return {
            "name": "nasty\x1b[2J" + FORGED,
            "version": "1",
            "language": "python",
            "variants": ["albastini-2p", "briscola-2p"],
        }

    def run(self, request: dict[str, Any]) -> dict[str, Any]:
        observation = {"rejected": None, "snapshot": {"phase": NASTY, "to_act": NASTY}, "legal": [NASTY]}
        answer: dict[str, Any] = {"id": request["id"], "observations": [observation] * (len(request["actions"]) + 1)}
        if request["variant"] == "briscola-2p":
            answer["error"] = {"kind": "crash", "message": NASTY + "y" * 100_000}
        return answer

    def close(self) -> None:
        pass


def fuzz(*args: str) -> int:
    return main(["fuzz", *args])


def lines_of(log: runlog.Log) -> list[tuple[Any, ...]]:
    """What a run log says of each deal, without timings."""
    return [(s["id"], s["outcome"], s["variant"], s["clauses"], s["mismatches"]) for s in log.scenarios]


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_a_mutant_is_found_and_shrunk_to_a_scenario_that_fails_on_it(name: str, tmp_path: Path) -> None:
    command = f"{sys.executable} {SERVE_MUTANT} {name}"
    status = fuzz(
        "--engine-cmd",
        command,
        "--variant",
        MUTANTS[name].variant,
        "--time",
        "10",
        "--max-divergences",
        "1",
        "--out",
        str(tmp_path / "out"),
        "--report-dir",
        str(tmp_path / "reports"),
    )
    assert status == 1
    (written,) = sorted((tmp_path / "out").glob("*.yaml"))
    (scenario,) = load_files([written])  # it validates
    assert scenario.source == {"derived": "found by trickspec fuzz, seed 0"}
    assert MUTANTS[name].clause in scenario.clauses
    assert runner.run(reference_adapter(), scenario).outcome is Outcome.PASS
    assert runner.run(mutant_adapter(name), scenario).outcome is Outcome.FAIL
    diverged = [s for s in runlog.read(tmp_path / "reports" / "run.jsonl").scenarios if s["outcome"] != Outcome.PASS]
    assert diverged[0]["file"] == str(written) and diverged[0]["clauses"] == list(scenario.clauses)


def tree_lead_binds_nobody() -> InProcessAdapter:
    """``--engine test_fuzz:tree_lead_binds_nobody``."""
    return mutant_adapter("tree-lead-binds-nobody")


def other_tree_not_a_trump() -> InProcessAdapter:
    """``--engine test_fuzz:other_tree_not_a_trump``."""
    return mutant_adapter("other-tree-not-a-trump")


@pytest.mark.parametrize(
    ("engine", "named"),
    [
        # offering any card to a Tree lead: the plays the reference refuses break the Tree lead's duty alone, not
        # the duty to follow suit it is a case of, nor the duties of other leads refusing with the same code
        ("tree_lead_binds_nobody", {("altbaumer.trees.tree-lead",)}),
        # and withholding the other Tree from it: the clause saying the other Tree meets the duty, beside the one
        # leaving the choice among the trumps (a duty to head the trick would take a play away too)
        ("other_tree_not_a_trump", {("altbaumer.trees.tree-lead",), ("altbaumer.trees.tree-lead", "altbaumer.play.no-overtake")}),
    ],
)
def test_a_difference_in_the_plays_is_named_after_the_duty_of_the_card_led(
    engine: str, named: set[tuple[str, ...]], tmp_path: Path
) -> None:
    status = fuzz(
        "--engine", f"test_fuzz:{engine}", "--variant", "altbaumer-standard", "--deals", "300", "--report-dir", str(tmp_path)
    )
    assert status == 1
    failed = [s for s in runlog.read(tmp_path / "run.jsonl").scenarios if s["outcome"] == Outcome.FAIL]
    assert failed and {tuple(s["clauses"]) for s in failed} == named


class _Overtakes:
    """Altbaumer's legality with a duty to head the trick: of the cards a player may play, one beating the card led
    where the player holds any."""

    def __init__(self, original: Any) -> None:
        self.original, self.free = original, original.free

    def legal(self, hand: list[int], led: int, t: Any) -> list[int]:
        allowed, code = self.original.allowed(hand, led, t)
        power = t.led_key[t.eff_suit[led]]
        beating = [c for c in allowed if power[c] > power[led]] if code is not None else []
        return beating or allowed

    def check(self, hand: list[int], card: int, led: int, t: Any) -> str | None:
        return None if card in self.legal(hand, led, t) else self.original.allowed(hand, led, t)[1]


def overtakes() -> InProcessAdapter:
    """``--engine test_fuzz:overtakes``."""
    rules = _patched("legality", _Overtakes)(variant("altbaumer-standard"))
    return InProcessAdapter(lambda _variant, setup: Engine(rules, setup), {"name": "overtakes"}, ["altbaumer-standard"])


def test_a_play_taken_from_a_player_whose_every_card_follows_suit_is_named_after_no_duty_to_head_the_trick(
    tmp_path: Path,
) -> None:
    """A hand all of the suit led is held to follow it, though every card in it does: withholding the cards that
    do not beat the lead breaks the clause leaving any card of the suit, not the free choice of a player who can
    neither follow nor trump."""
    status = fuzz("--engine", "test_fuzz:overtakes", "--variant", "altbaumer-standard", "--deals", "300",
                  "--report-dir", str(tmp_path))  # fmt: skip
    assert status == 1
    failed = [s for s in runlog.read(tmp_path / "run.jsonl").scenarios if s["outcome"] == Outcome.FAIL]
    named = {tuple(s["clauses"]) for s in failed}
    assert ("altbaumer.play.follow-suit", "altbaumer.play.no-overtake") in named  # the duty held to, and the choice
    assert not [clauses for clauses in named if "altbaumer.play.free-discard" in clauses], named
    # on every lead, an ordinary club's too, where a choice about the card led is left as well
    assert all("altbaumer.play.no-overtake" in clauses for clauses in named), named
    assert ("altbaumer.trees.club-lead-choice", "altbaumer.play.no-overtake") in named


class _NoTreeOnClubs:
    """Altbaumer's legality taking the Trees away from a player answering an ordinary club lead with clubs."""

    def __init__(self, original: Any) -> None:
        self.original, self.free = original, original.free

    def legal(self, hand: list[int], led: int, t: Any) -> list[int]:
        allowed, code = self.original.allowed(hand, led, t)
        top, suit_of = self.original.is_top, self.original.suit_of
        club_lead = suit_of[led] == self.original.top_suit and not t.is_trump[led]
        ordinary = [c for c in allowed if not top[c]]
        return ordinary if club_lead and code == "must_follow_suit" and ordinary else allowed

    def check(self, hand: list[int], card: int, led: int, t: Any) -> str | None:
        return None if card in self.legal(hand, led, t) else self.original.check(hand, card, led, t) or "must_follow_suit"


def no_tree_on_clubs() -> InProcessAdapter:
    """``--engine test_fuzz:no_tree_on_clubs``."""
    rules = _patched("legality", _NoTreeOnClubs)(variant("altbaumer-standard"))
    return InProcessAdapter(lambda _variant, setup: Engine(rules, setup), {"name": "no-tree-on-clubs"}, ["altbaumer-standard"])


def test_a_tree_taken_from_a_club_lead_is_named_after_the_choice_it_leaves(tmp_path: Path) -> None:
    """Not after the clause leaving any card to a player holding no club nor Tree, which refuses with another code:
    its choice is another duty's."""
    status = fuzz("--engine", "test_fuzz:no_tree_on_clubs", "--variant", "altbaumer-standard", "--deals", "300",
                  "--report-dir", str(tmp_path))  # fmt: skip
    assert status == 1
    failed = [s for s in runlog.read(tmp_path / "run.jsonl").scenarios if s["outcome"] == Outcome.FAIL]
    named = {tuple(s["clauses"]) for s in failed}
    assert failed and named == {("altbaumer.trees.club-lead-choice", "altbaumer.play.no-overtake")}, named


class TakesAnyOutOfPhase(Engine):
    """Takes an action of the kinds in ``ANY_PHASE`` whatever the phase, changing nothing."""

    __slots__ = ()

    def apply(self, action: dict[str, Any]) -> Any:
        applied = super().apply(action)
        if action.get("type") in os.environ.get("ANY_PHASE", "").split() and getattr(applied, "code", "") == "wrong_phase":
            return None  # taken: no refusal
        return applied


def takes_any_out_of_phase() -> InProcessAdapter:
    """``--engine test_fuzz:takes_any_out_of_phase``."""
    return InProcessAdapter(TakesAnyOutOfPhase.new, {"name": "takes-any-out-of-phase"}, variant_ids())


@pytest.mark.parametrize(
    ("kind", "named"),
    [
        # one code refuses both: going alone too late breaks the timing of going alone; a decline with no Tree
        # showing, the cut's clause that says when a Tree may be declined
        ("alone", ("altbaumer.lone.timing",)),
        ("decline", ("altbaumer.deal.tree-at-cut",)),
    ],
)
def test_an_action_taken_out_of_its_phase_is_named_after_the_clauses_of_its_kind(
    kind: str, named: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANY_PHASE", kind)
    engine = "test_fuzz:takes_any_out_of_phase"
    status = fuzz("--engine", engine, "--variant", "altbaumer-standard", "--deals", "500", "--report-dir", str(tmp_path))
    assert status == 1
    failed = [s for s in runlog.read(tmp_path / "run.jsonl").scenarios if s["outcome"] == Outcome.FAIL]
    assert failed and {tuple(s["clauses"]) for s in failed} == {named}


class OffersTheNextDeal(Engine):
    """Once the deal is over, offers seat 0 the next deal, as a team game of Albastini's does."""

    __slots__ = ()

    def legal_actions(self) -> list[dict[str, Any]]:
        offered = {"type": "take_deal", "seat": 0}
        return [*super().legal_actions(), offered] if self.snapshot()["phase"] == "over" else super().legal_actions()


def offers_the_next_deal() -> InProcessAdapter:
    """``--engine test_fuzz:offers_the_next_deal``."""
    return InProcessAdapter(OffersTheNextDeal.new, {"name": "offers-the-next-deal"}, variant_ids())


@pytest.mark.parametrize(
    ("variant", "clause"),
    [
        ("altbaumer-standard", "altbaumer.deal.next-dealer"),
        ("briscola-2p", "briscola.play.in-turn"),  # which says Briscola has no action but a card played
        ("bisca-2p", "bisca.score.over-sixty"),
        ("albastini-2p", "albastini.dealer.winner-deals"),
    ],
)
def test_a_choice_offered_once_the_deal_is_over_is_named_after_who_deals_next(
    variant: str, clause: str, tmp_path: Path
) -> None:
    """The rule saying who deals next leaves nobody a choice: not every clause of every phase's legal actions."""
    engine = "test_fuzz:offers_the_next_deal"
    status = fuzz("--engine", engine, "--variant", variant, "--deals", "3", "--report-dir", str(tmp_path))
    assert status == 1
    failed = [s for s in runlog.read(tmp_path / "run.jsonl").scenarios if s["outcome"] == Outcome.FAIL]
    assert failed and {tuple(s["clauses"]) for s in failed} == {(clause,)}


def altbaumer_ranked_otherwise() -> InProcessAdapter:
    """``--engine test_fuzz:altbaumer_ranked_otherwise``: Altbaumer with the ranking of ``RANKING`` (JSON)."""
    changed = {**variant("altbaumer-standard"), "ranking": json.loads(os.environ["RANKING"])}
    rules = compile_rules(changed)
    return InProcessAdapter(lambda _variant, setup: Engine(rules, setup), {"name": "ranked-otherwise"}, ["altbaumer-standard"])


@pytest.mark.parametrize(
    ("ranking", "named"),
    [
        # the ten above the ace off trumps: only tricks without a trump show it
        ({"plain_order": "T A K Q J 9"}, ("cards.plain-order", "cards.ordinary-clubs", "play.trick-winner")),
        ({"trump_order": "K A T Q J 9"}, ("cards.trump-order", "cards.trump-count", "play.trick-winner")),
        # JC above QC: only tricks holding a Tree
        ({"top_trumps": ["JC", "QC"]}, ("cards.trees", "cards.trump-count", "play.trick-winner", "trees.power-kept")),
    ],
)
def test_a_trick_won_otherwise_is_named_after_the_clauses_ruling_on_what_it_holds(
    ranking: dict[str, Any], named: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seven clauses say who wins an Altbaumer trick; a trick without a trump is none of the Trees' business."""
    monkeypatch.setenv("RANKING", json.dumps({**variant("altbaumer-standard")["ranking"], **ranking}))
    engine = "test_fuzz:altbaumer_ranked_otherwise"
    status = fuzz("--engine", engine, "--variant", "altbaumer-standard", "--deals", "40", "--report-dir", str(tmp_path))
    assert status == 1
    failed = [s for s in runlog.read(tmp_path / "run.jsonl").scenarios if s["outcome"] == Outcome.FAIL]
    winners = {tuple(s["clauses"]) for s in failed if "last_trick.winner" in s["mismatch"]["what"]}
    assert winners == {tuple(f"altbaumer.{clause}" for clause in named)}


@pytest.mark.parametrize(
    ("engine", "named"),
    [
        # the trick given to an off-suit card: the clause saying none wins, with those of ranks and who wins
        ("off_suit_wins", ("cards.rank-order", "play.trick-winner", "play.off-suit-never-wins")),
        # given to a card of the suit led ranked otherwise: not the off-suit card's clause
        ("queen_above_jack", ("cards.rank-order", "play.trick-winner")),
    ],
)
def test_a_trick_won_otherwise_is_named_after_the_clauses_ruling_on_the_card_it_is_given_to(
    engine: str, named: tuple[str, ...], tmp_path: Path
) -> None:
    """Three clauses say who wins an Albastini trick; that an off-suit card never wins rules where one is given it."""
    status = fuzz("--engine", f"test_fuzz:{engine}", "--variant", MUTANT_VARIANT, "--deals", "40",
                  "--report-dir", str(tmp_path))  # fmt: skip
    assert status == 1
    failed = [s for s in runlog.read(tmp_path / "run.jsonl").scenarios if s["outcome"] == Outcome.FAIL]
    winners = {tuple(s["clauses"]) for s in failed if "last_trick.winner" in s["mismatch"]["what"]}
    assert winners == {tuple(f"albastini.{clause}" for clause in named)}


def altbaumer_scored_otherwise() -> InProcessAdapter:
    """``--engine test_fuzz:altbaumer_scored_otherwise``: Altbaumer with the parameters of ``CHANGED`` (JSON, by
    component) changed."""
    base = variant("altbaumer-standard")
    changed = json.loads(os.environ["CHANGED"])
    components = {name: {**part, **changed.get(name, {})} for name, part in base["components"].items()}
    rules = compile_rules({**base, "components": components})
    return InProcessAdapter(lambda _variant, setup: Engine(rules, setup), {"name": "scored-otherwise"}, [base["id"]])


@pytest.mark.parametrize(
    ("changed", "named"),
    [
        # a round won at 4, in a deal played alone: the clauses of the round won and the lone sweep, not the deciding
        # deal's
        ({"match": {"round_target": 4}}, {("match.round-win", "match.lone-sweep")}),
        # a deciding deal won with four tricks: the deciding deal's clause alone
        ({"match": {"decider_tricks": 4}}, {("match.decider",)}),
    ],
)
def test_an_altbaumer_round_won_otherwise_is_named_after_the_clauses_ruling_on_how_the_deal_ended(
    changed: dict[str, Any], named: set[tuple[str, ...]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three clauses observe the round an Altbaumer deal wins; which rule hangs on whether the deal decides the
    match, and whether a player went alone."""
    monkeypatch.setenv("CHANGED", json.dumps(changed))
    status = fuzz("--engine", "test_fuzz:altbaumer_scored_otherwise", "--variant", "altbaumer-standard", "--deals", "40",
                  "--report-dir", str(tmp_path))  # fmt: skip
    assert status == 1
    failed = [s for s in runlog.read(tmp_path / "run.jsonl").scenarios if s["outcome"] == Outcome.FAIL]
    found = {tuple(s["clauses"]) for s in failed if "match.round_winner" in s["mismatch"]["what"]}
    assert found == {tuple(f"altbaumer.{clause}" for clause in clauses) for clauses in named}


MRITHI = variant("albastini-3p")["components"]["score"]  # the mrithi line's score, as three players keep it


def albastini_scored_otherwise() -> InProcessAdapter:
    """``--engine test_fuzz:albastini_scored_otherwise``: the variant ``VARIANT`` with its score rule ``SCORE`` (JSON)."""
    base = variant(os.environ["VARIANT"])
    changed = {**base, "components": {**base["components"], "score": json.loads(os.environ["SCORE"])}}
    rules = compile_rules(changed)
    return InProcessAdapter(lambda _variant, setup: Engine(rules, setup), {"name": "scored-otherwise"}, [base["id"]])


@pytest.mark.parametrize(
    ("variant_id", "score", "named"),
    [
        # a win scored otherwise: the clause of the single win, not the line, the double or the tie
        ("albastini-3p", {**MRITHI, "single": 2}, ("albastini.score.deal-winner",)),
        # a double scored otherwise: the clauses of the double, not who wins nor the line deciding it
        ("albastini-3p", {**MRITHI, "double": 3}, ("albastini.score.double", "albastini.score.every-loser-checked")),
        # a deal nobody is over 60 in, given to the best total: the clause saying nobody scores
        ("albastini-over60-3p", MRITHI, ("albastini.over-60.nobody-over-60",)),
    ],
)
def test_a_deal_s_victory_points_given_otherwise_are_named_after_the_clauses_ruling_on_how_it_ended(
    variant_id: str, score: dict[str, Any], named: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five clauses of three-player Albastini observe the VP a deal gives; each rules on deals ending one way."""
    monkeypatch.setenv("VARIANT", variant_id)
    monkeypatch.setenv("SCORE", json.dumps(score))
    engine = "test_fuzz:albastini_scored_otherwise"
    status = fuzz("--engine", engine, "--variant", variant_id, "--deals", "40", "--report-dir", str(tmp_path))
    assert status == 1
    failed = [s for s in runlog.read(tmp_path / "run.jsonl").scenarios if s["outcome"] == Outcome.FAIL]
    points = {tuple(s["clauses"]) for s in failed if "result.vp" in s["mismatch"]["what"]}
    assert points == {named}


def albastini_dealt_otherwise() -> InProcessAdapter:
    """``--engine test_fuzz:albastini_dealt_otherwise``: the variant ``VARIANT`` whose next dealer is the next player
    in play order, whoever won."""
    base = variant(os.environ["VARIANT"])
    dealer = {"rule": "next-in-play-order"}
    rules = compile_rules({**base, "components": {**base["components"], "dealer": dealer}})
    return InProcessAdapter(lambda _variant, setup: Engine(rules, setup), {"name": "dealt-otherwise"}, [base["id"]])


@pytest.mark.parametrize(
    ("variant_id", "named"),
    [
        # a deal won: the clause of the winner dealing; a tie: that of the dealer staying
        ("albastini-3p", {("albastini.dealer.winner-deals",), ("albastini.dealer.same-after-tie",)}),
        # over 60, a deal nobody wins without a tie: the dealer staying too
        ("albastini-over60-3p", {("albastini.dealer.winner-deals",), ("albastini.dealer.same-after-tie",)}),
    ],
)
def test_a_next_dealer_given_otherwise_is_named_after_the_clauses_ruling_on_how_the_deal_ended(
    variant_id: str, named: set[tuple[str, ...]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two clauses of three-player Albastini say who deals next; which rules hangs on whether somebody won the deal."""
    monkeypatch.setenv("VARIANT", variant_id)
    status = fuzz("--engine", "test_fuzz:albastini_dealt_otherwise", "--variant", variant_id, "--deals", "40",
                  "--report-dir", str(tmp_path))  # fmt: skip
    assert status == 1
    failed = [s for s in runlog.read(tmp_path / "run.jsonl").scenarios if s["outcome"] == Outcome.FAIL]
    assert {tuple(s["clauses"]) for s in failed if "result.next_dealer" in s["mismatch"]["what"]} == named


def test_a_bug_shown_at_any_seat_is_one_divergence_filed_without_the_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The indicator handed to the trick's winner shows in that seat's hand: filed under the field without the seat
    (``hands``, not ``hands.0``), one bug is one divergence, written once, whichever seat it showed at."""
    status = fuzz("--engine", "test_fuzz:indicator_to_winner", "--deals", "40", "--variant", MUTANT_VARIANT,
                  "--report-dir", str(tmp_path))  # fmt: skip
    printed = capsys.readouterr().out
    assert status == 1, printed
    found = [line for line in printed.splitlines() if line.startswith("FAIL ")]
    assert [line.split(" (")[0] for line in found] == [f"FAIL {MUTANT_VARIANT} hands"], printed
    assert "\n1 distinct divergence\n" in printed
    detail = printed.split(found[0])[1].splitlines()[2]
    assert re.fullmatch(r"  hands\.\d \(as a set\): expected .*, observed .* \((missing|extra) \w\w.*\)", detail), detail


def test_a_divergence_late_in_a_deal_is_shrunk_to_a_start_before_it_where_it_still_shows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The shrinker starts the deal mid-way, latest first, going back as long as the engine does not diverge: here
    not from the trick under way, so from the trick's start, two actions before the divergence."""
    out = tmp_path / "out"
    status = fuzz("--engine", "test_fuzz:off_suit_wins_but_mid_trick", "--deals", "30", "--variant", MUTANT_VARIANT,
                  "--max-divergences", "1", "--out", str(out), "--report-dir", str(tmp_path / "reports"))  # fmt: skip
    printed = capsys.readouterr().out
    assert status == 1, printed
    (written,) = out.glob("*.yaml")
    assert f"  scenario: {written} (2 actions, from a mid-deal position)" in printed, printed
    (scenario,) = load_files([written])
    assert scenario.setup["start"]["phase"] == "play" and "trick" not in scenario.setup["start"]
    assert len(scenario.actions()) == 2 and "shrunk to 2 actions from a mid-deal position" in scenario.description
    assert runner.run(reference_adapter(), scenario).outcome is Outcome.PASS
    assert runner.run(off_suit_wins_but_mid_trick(), scenario).outcome is Outcome.FAIL


def test_the_served_reference_agrees_with_the_reference_in_process_on_every_variant(tmp_path: Path) -> None:
    command = f"{sys.executable} -m conformance.engines.serve"
    assert fuzz("--engine-cmd", command, "--deals", "240", "--jobs", "2", "--report-dir", str(tmp_path)) == 0
    seen = {s["variant"] for s in runlog.read(tmp_path / "run.jsonl").scenarios}
    assert seen == set(variant_ids())


def test_the_javascript_example_agrees_with_the_reference_on_every_deal_drawn(tmp_path: Path) -> None:
    deals = cases(quick=300, deep=2000)
    if shutil.which("node") is None:
        if os.environ.get("CI"):
            pytest.fail("node is not on PATH: CI must run the JavaScript example engine")
        pytest.skip("node is not on PATH")
    status = fuzz("--engine-cmd", f"node {JS_ENGINE}", "--deals", str(deals), "--jobs", "2", "--report-dir", str(tmp_path))
    log = runlog.read(tmp_path / "run.jsonl")
    assert status == 0, [s["mismatch"] for s in log.scenarios if s["outcome"] != Outcome.PASS][:3]
    assert len(log.scenarios) == deals and {s["variant"] for s in log.scenarios} == {"albastini-2p"}


def test_stalls_on_the_shrinker_s_candidates_neither_give_up_on_the_engine_nor_make_a_scenario(tmp_path: Path) -> None:
    """Shrinking stops at the first candidate the engine stalls on: the campaign's own deals are all played and
    judged, and the scenario written is the deal as it ran, which fails on the engine when run again."""
    out = tmp_path / "out"
    # Served, under a timeout that leaves a whole deal room on a loaded machine (at 0.2 s one timed out in CI), the
    # stall twice it, and the time a loaded machine takes to start Python and the kit for the start.
    engine = ("--engine", "test_fuzz:stalls_mid_deal", "--variant", MUTANT_VARIANT, "--timeout", "0.5",
              "--startup-timeout", "60")
    assert fuzz(*engine, "--deals", "6", "--out", str(out), "--report-dir", str(tmp_path)) == 1
    outcomes = [s["outcome"] for s in runlog.read(tmp_path / "run.jsonl").scenarios]
    assert len(outcomes) == 6 and set(outcomes) <= {Outcome.PASS, Outcome.FAIL} and Outcome.FAIL in outcomes
    written = sorted(out.glob("*.yaml"))
    assert written and not any("-error-" in p.name for p in written)
    for scenario in load_files(written):
        assert "start" not in scenario.setup  # the deal as it ran: no mid-deal start held up
        assert runner.run(stalls_mid_deal(), scenario).outcome is Outcome.FAIL
        assert runner.run(reference_adapter(), scenario).outcome is Outcome.PASS


def test_a_campaign_that_never_starts_leaves_the_folder_s_last_run_log_as_it_was(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    log.write_text("the last run's log\n", encoding="utf-8")
    unusable = ("--engine-cmd", str(tmp_path / "no-such-engine"), "--variant", MUTANT_VARIANT, "--deals", "3")
    assert fuzz(*unusable, "--report-dir", str(tmp_path)) == 3
    assert log.read_text(encoding="utf-8") == "the last run's log\n"
    assert fuzz(*unusable, "--report-dir", str(tmp_path / "new")) == 3
    assert not (tmp_path / "new" / "run.jsonl").exists()  # no empty log that no report can be made from


def test_two_shards_merged_are_the_single_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = (
        "--engine",
        "test_fuzz:off_suit_wins",
        "--variant",
        "albastini-2p",
        "--variant",
        "briscola-2p",
        "--deals",
        "200",
        "--seed",
        "9",
        "--sampled",  # the sampled comparisons, end to end: the off-suit winner is found by them too
    )
    assert fuzz(*engine, "--jobs", "2", "--report-dir", str(tmp_path / "one")) == 1
    for k in (1, 2):
        assert fuzz(*engine, "--shard", f"{k}/2", "--report-dir", str(tmp_path / f"shard{k}")) == 1
    one = runlog.read(tmp_path / "one" / "run.jsonl")
    shards = [runlog.read(tmp_path / f"shard{k}" / "run.jsonl") for k in (1, 2)]
    assert [len(s.scenarios) for s in shards] == [100, 100]
    assert lines_of(runlog.merge(shards)) == lines_of(one)
    assert any(outcome == Outcome.FAIL for _, outcome, *_ in lines_of(one))
    capsys.readouterr()
    assert main(["report", str(tmp_path / "one" / "run.jsonl")]) == 0
    single = capsys.readouterr().out
    assert main(["report", *(str(tmp_path / f"shard{k}" / "run.jsonl") for k in (2, 1))]) == 0
    assert capsys.readouterr().out == single


def test_the_deals_of_a_seed_are_the_same_wherever_they_are_drawn() -> None:
    variants = tuple(variant_ids())
    first = [generate(4, i, variants).request() for i in range(40)]
    assert [generate(4, i, variants).request() for i in range(40)] == first
    assert [generate(5, i, variants).request() for i in range(40)] != first


@pytest.mark.parametrize(
    ("args", "status", "said"),
    [
        (["--deals", "10", "--time", "1"], 2, "not both"),
        (["--variant", "nope"], 2, "unknown variant nope"),
        (["--engine", "test_fuzz:misspelt"], 2, "no variant of the kit, only 'briscola2p' (did you mean 'briscola-2p'?)"),
        (["--engine-cmd", "/nonexistent/engine"], 3, "engine unusable"),
    ],
)
def test_bad_usage_and_unusable_engines_end_as_verify_does(
    args: list[str], status: int, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert fuzz(*args) == status
    assert said in capsys.readouterr().err


def test_engine_text_never_reaches_the_terminal_or_a_scenario_raw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert fuzz("--engine", "test_fuzz:NastyEngine", "--deals", "16", "--out", str(out), "--report-dir", str(tmp_path)) == 1
    shown = capsys.readouterr()
    for text in (shown.out, shown.err, (tmp_path / "run.jsonl").read_text(encoding="utf-8")):
        assert "\x1b" not in text and "\u202e" not in text and "\n425 passed" not in text
        assert len(text) < 200_000
    written = sorted(out.glob("*.yaml"))
    assert written and "<script>" not in "".join(p.read_text(encoding="utf-8") for p in written)
    for scenario in load_files(written):
        assert runner.run(reference_adapter(), scenario).outcome is Outcome.PASS


def copying_engine(tmp_path: Path, kept: int, sent: int) -> tuple[str, ...]:
    """The served reference, the answer to its ``kept``-th run sent again after that to its ``sent``-th."""
    script = tmp_path / "copies.py"
    script.write_text(
        "import json, subprocess, sys\n"
        "served = subprocess.Popen([sys.executable, '-m', 'conformance.engines.serve'], stdin=subprocess.PIPE,\n"
        "                          stdout=subprocess.PIPE, text=True, bufsize=1)\n"
        "runs, kept = 0, None\n"
        "for line in sys.stdin:\n"
        "    served.stdin.write(line); served.stdin.flush()\n"
        "    if json.loads(line).get('cmd') == 'stop':\n"
        "        break\n"
        "    answer = served.stdout.readline()\n"
        "    sys.stdout.write(answer)\n"
        "    runs += json.loads(line).get('cmd') == 'run'\n"
        f"    if runs == {kept} and kept is None:\n"
        "        kept = answer\n"
        f"    elif kept and runs == {sent}:\n"
        "        sys.stdout.write(kept); kept = ''\n"
        "    sys.stdout.flush()\n",
        encoding="utf-8",
    )
    return ("--engine-cmd", f"{sys.executable} {script}", "--variant", MUTANT_VARIANT)


def test_a_deal_answered_again_after_the_next_one_fails_with_it_and_no_other(tmp_path: Path) -> None:
    """The served reference, its second deal's answer sent again after the third's: that copy is set aside by the
    adapter (docs/protocol.md), and the deal it answered fails as answered twice; the next deal passes."""
    status = fuzz(*copying_engine(tmp_path, 2, 3), "--deals", "6", "--jobs", "1", "--report-dir", str(tmp_path))
    log = runlog.read(tmp_path / "run.jsonl")
    deals = log.scenarios
    assert status == 1 and [s["outcome"] for s in deals] == ["pass", "error", "pass", "pass", "pass", "pass"]
    assert f"the engine answered {deals[1]['id']!r} twice" in str(deals[1])
    assert log.late_copies == []  # said by the deal itself


def test_a_deal_answered_again_after_its_batch_was_judged_is_named_in_the_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The last deal of the first batch answered again after the first deal of the next: too late to fail it, so
    every deal passes, and the log, the reports and a warning name it."""
    first = campaign.FIRST_BATCH
    status = fuzz(*copying_engine(tmp_path, first, first + 1), "--deals", str(first + 4), "--jobs", "1",
                  "--report-dir", str(tmp_path))
    log = runlog.read(tmp_path / "run.jsonl")
    late = log.scenarios[first - 1]["id"]
    assert status == 0 and log.counts()["pass"] == first + 4 and log.late_copies == [late]
    assert f"warning: the engine answered {late!r} twice, the second time after the kit had judged it" in capsys.readouterr().err
    assert json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))["late_copies"] == [late]


def test_a_scenario_written_replaces_a_link_of_its_name_and_never_writes_through_it(tmp_path: Path) -> None:
    """The names of the scenarios written follow from the seed: a link of one such name in the folder, to a file
    elsewhere, is replaced by the scenario, and the file it pointed to is left as it was."""
    args = ("--engine", "test_fuzz:NastyEngine", "--deals", "16", "--report-dir", str(tmp_path))
    first = tmp_path / "first"
    assert fuzz(*args, "--out", str(first)) == 1
    name = sorted(first.glob("*.yaml"))[0].name
    victim = tmp_path / "victim.txt"
    victim.write_text("left alone\n", encoding="utf-8")
    again = tmp_path / "again"
    again.mkdir()
    (again / name).symlink_to(victim)
    assert fuzz(*args, "--out", str(again)) == 1
    assert victim.read_text(encoding="utf-8") == "left alone\n"
    assert not (again / name).is_symlink() and (again / name).read_text(encoding="utf-8") == (first / name).read_text(
        encoding="utf-8"
    )


@pytest.mark.parametrize("variant_id", ["albastini-2p", "albastini-4p", "albastini-5p", "altbaumer-standard", "briscola-4p"])
def test_a_position_shrunk_without_its_won_cards_still_starts_a_deal(variant_id: str) -> None:
    """The shrinker's last step puts the cards won out of play and counts no trick: whoever leads, the reference
    still starts a deal from it (cards out of play may stand for tricks the setup leaves uncounted)."""
    from conformance.fuzz.shrink import from_position, without_won_cards
    from reference import Engine
    from reference.errors import SetupError

    tried = 0
    for setup, snapshot in _positions(variant_id, seed=7, deals=20):
        shrunk = from_position(setup, snapshot)
        plain = without_won_cards(shrunk) if shrunk is not None else None
        if plain is not None and snapshot["to_act"] != snapshot["forehand"]:
            try:
                Engine.new(variant_id, plain)
            except SetupError as err:
                raise AssertionError(f"{plain}: {err}") from None
            tried += 1
    assert tried > 20


def _positions(variant_id: str, *, seed: int, deals: int) -> Any:
    """Every position of ``deals`` random deals the reference plays with random legal moves: each deal's setup
    and the snapshot there."""
    import random

    from reference import Engine

    rng = random.Random(seed)
    v = variant(variant_id)
    cards = [rank + suit for suit in v["deck"]["suits"].split() for rank in v["deck"]["ranks"].split()]
    for _ in range(deals):
        setup = {"dealer": rng.randrange(int(v["players"])), "deck": rng.sample(cards, len(cards))}
        engine = Engine.new(variant_id, setup)
        while engine.legal_ids():
            yield setup, engine.snapshot()
            engine.apply_id(rng.choice(engine.legal_ids()))


def test_deals_an_engine_cannot_play_are_counted_by_reason_and_never_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unsupported answer whose observations agree is no divergence: nothing to shrink, no scenario (it could only
    be unsupported too); such deals are counted apart, by their reason."""
    out, reports = tmp_path / "out", tmp_path / "reports"
    args = ("--engine", "test_fuzz:stops_half_way", "--deals", "60", "--variant", "albastini-2p", "--variant", "briscola-2p")
    status = fuzz(*args, "--out", str(out), "--report-dir", str(reports), "--max-divergences", "1")
    printed = capsys.readouterr().out
    outcomes = [s["outcome"] for s in runlog.read(reports / "run.jsonl").scenarios]
    assert status == 0, printed
    assert len(outcomes) == 60 and outcomes.count("unsupported") > 10  # --max-divergences counts no unsupported deal
    assert not out.exists() or not list(out.iterdir())
    assert "0 distinct divergences" in printed
    listed = [line for line in printed.splitlines() if line.startswith("UNSUPPORTED")]
    assert {line.split(" (")[0] for line in listed} <= {
        f"UNSUPPORTED {v} unsupported: {reason}"
        for v in ("albastini-2p", "briscola-2p")
        for reason in ("no plays past the middle", "no other actions past the middle")
    }
    assert sum(int(line.rsplit("; ", 1)[1].split()[0]) for line in listed) == outcomes.count("unsupported")


def test_a_legal_action_text_that_reads_as_no_action_is_not_tried() -> None:
    """Naming tries the texts of legal actions on the reference; a seat that is a digit but no number (superscript
    two), or a text of spaces alone, is no action rather than a raise."""
    assert naming._actions({"\u00b2 play 7C", "   ", "", "1 play 7C"}) == [{"type": "play", "seat": 1, "card": "7C"}]


@pytest.mark.parametrize("legal", ["[1]", "[null]", '["x"]', '["1 frob"]', "[[1]]", '["0 play 7C extra"]', '[{"a": 1}]'])
def test_legal_actions_that_read_as_no_action_are_a_divergence_of_the_deal(
    legal: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Naming the clauses behind legal actions that differ once tried each engine's item as an action: one that
    read as none stopped the campaign with no deal blamed."""
    monkeypatch.setenv("ODD_LEGAL", legal)
    status = fuzz("--engine", "test_fuzz:odd_legal", "--deals", "4", "--variant", "briscola-2p", "--report-dir", str(tmp_path))
    printed = capsys.readouterr().out
    assert status == 1, printed
    assert "FAIL briscola-2p legal.play" in printed
    assert [s["outcome"] for s in runlog.read(tmp_path / "run.jsonl").scenarios] == ["fail"] * 4


@pytest.mark.parametrize("rejected", ["{}", '"no"', "true", '{"code": 5}'])
def test_a_refusal_without_a_code_is_malformed_not_an_action_accepted(
    rejected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ODD_REJECTED", rejected)
    fuzz("--engine", "test_fuzz:odd_refusal", "--deals", "10", "--variant", "briscola-2p", "--report-dir", str(tmp_path))
    printed = capsys.readouterr().out
    assert "expected rejected to be null or an object with a refusal code" in printed, printed
    assert "accepted" not in printed


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ('{"observations": {"a": 1}}', "ERROR briscola-2p error (fuzz/0/0, not seen again): the engine did not show its deal"),
        ('{"observations": 5}', "ERROR briscola-2p error (fuzz/0/0, not seen again): the engine did not show its deal"),
        ('{"error": {"kind": "unsupported", "message": "no seeds"}}', "UNSUPPORTED briscola-2p unsupported: no seeds"),
        # a deal the kit cannot read as one, and one the rules do not allow: the engine's, on its setup
        ('{"observations": [{"snapshot": {"hands": "abc"}}]}', "FAIL briscola-2p setup (first at fuzz/0/0; 3 deals)"),
        ('{"observations": [{"snapshot": {"hands": {"0": ["AC", "3C", "KC"], "1": ["QC", "JC", "7C"]}, "stock": []}}]}',
         "FAIL briscola-2p setup (first at fuzz/0/0; 3 deals)"),
    ],
)
def test_a_deal_the_engine_does_not_show_is_that_deal_s_result(
    answer: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ODD_DEAL", answer)
    fuzz("--engine", "test_fuzz:odd_deal", "--deal", "engine", "--deals", "3", "--variant", "briscola-2p",
         "--report-dir", str(tmp_path))  # fmt: skip
    printed = capsys.readouterr().out
    assert any(line.startswith(said) for line in printed.splitlines()), printed
    assert len(runlog.read(tmp_path / "run.jsonl").scenarios) == 3


def test_divergences_not_seen_again_are_listed_up_to_a_bound_and_the_rest_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deals that diverged once and not again are listed one by one, the first SHOWN of them: the others are
    counted, so that the terminal neither grows with the campaign nor hides that there were more."""
    from conformance.fuzz.summary import SHOWN

    monkeypatch.setenv("ODD_DEAL", '{"observations": 5}')
    status = fuzz("--engine", "test_fuzz:odd_deal", "--deal", "engine", "--deals", str(SHOWN + 3), "--variant", "briscola-2p",
                  "--report-dir", str(tmp_path))  # fmt: skip
    printed = capsys.readouterr().out
    assert status == 1, printed
    listed = [line for line in printed.splitlines() if line.startswith("ERROR briscola-2p error (")]
    assert [line.split(",")[0] for line in listed] == [f"ERROR briscola-2p error (fuzz/0/{i}" for i in range(SHOWN)]
    assert "\n... and 3 more deals like these (the run log lists them)\n" in printed, printed
    assert f"0 distinct divergences, {SHOWN + 3} not seen again" in printed


def test_an_engine_crashing_on_a_card_is_one_divergence_shrunk_to_that_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A crash leaves no observation to say where in the deal it came: the case is cut by halves as long as it still
    crashes, then started as late as it does, and every deal that crashes is the same divergence."""
    script = tmp_path / "crashes_on_7c.py"
    script.write_text(
        f"import sys\nsys.path[:0] = [{str(ROOT)!r}, {str(ROOT / 'examples' / 'python-subprocess')!r}]\n"
        "import engine\nrun = engine.run\n"
        "def crashing(request):\n"
        "    if any(action.get('card') == '7C' for action in request.get('actions', [])):\n"
        "        sys.exit(1)\n"
        "    return run(request)\n"
        "engine.run = crashing\nsys.exit(engine.main())\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    status = fuzz("--engine-cmd", f"{sys.executable} {script}", "--deals", "12", "--variant", "briscola-2p", "--out", str(out))
    printed = capsys.readouterr().out
    assert status == 1, printed
    assert "ERROR briscola-2p error.crash (first at fuzz/0/0; 12 deals)" in printed, printed
    (written,) = out.glob("*.yaml")
    (scenario,) = load_files([written])
    assert [a.get("card") for a in scenario.actions()] == ["7C"]
    assert runner.run(reference_adapter(), scenario).outcome is Outcome.PASS


def test_deals_unsupported_each_for_a_reason_of_its_own_keep_a_bounded_list(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An engine may give every deal a reason of its own: the reasons kept are bounded, the deals all counted."""
    monkeypatch.setattr(campaign.limits, "MAX_PROBLEMS", 3)
    # and a campaign that compared no deal is no pass: the engine could not be used
    assert fuzz("--engine", "test_fuzz:each_its_own_reason", "--deals", "20", "--variant", "briscola-2p") == 3
    out, err = capsys.readouterr()
    assert len([line for line in out.splitlines() if line.startswith("UNSUPPORTED")]) == 3
    assert "... and 17 deals more unsupported for other reasons (the run log lists them)" in out, out
    assert out.strip().splitlines()[-1] == "0 passed, 0 failed, 20 unsupported"
    said = "engine unusable: it answered every deal unsupported at its setup, so nothing was compared"
    assert err.strip().splitlines()[-1] == said


def undeclared() -> InProcessAdapter:
    """``--engine test_fuzz:undeclared``: an engine keeping no dealer, match or result.vp, that does not say so:
    nearly every deal diverges, over a few variants on a different field."""
    from lacking_engine import Lacking

    return InProcessAdapter(Lacking.new, {"name": "undeclared"}, variant_ids())


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_max_divergences_stops_at_the_deal_that_found_the_last_one(
    jobs: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Deals are judged in batches; the campaign stopped at the end of a batch, with every divergence it held."""
    status = fuzz("--engine", "test_fuzz:undeclared", "--deals", "200", "--jobs", jobs, "--max-divergences", "2",
                  "--timeout", "300", "--report-dir", str(tmp_path))  # a loaded machine's slow deal is no timeout here
    printed = capsys.readouterr().out
    assert status == 1, printed
    assert "\n2 distinct divergences\n" in printed, printed
    assert "\nengine: undeclared · spec " in printed  # an engine with no version is not said to be version None
    deals = runlog.read(tmp_path / "run.jsonl").scenarios
    assert deals[-1]["outcome"] == "fail", deals[-1]  # the last deal logged found the second divergence


STATED = ("phase", "trump", "to_act", "hands", "stock", "trick", "piles", "tricks", "totals", "dead", "makers", "lone", "turned")


@pytest.mark.parametrize("variant_id", ["albastini-2p", "albastini-5p", "altbaumer-standard", "bisca-2p", "briscola-2p"])
def test_a_deal_started_where_the_shrinker_starts_it_reports_what_the_position_states(variant_id: str) -> None:
    """Started mid-deal from a position the shrinker writes, the reference reports that position's fields as the
    whole deal did, the cards turned before it among them: an engine that keeps the turned trump card, as the
    fields page says, had every mid-deal start of its deals diverge on ``turned`` and came back unshrunk."""
    from conformance.fuzz.shrink import from_position
    from reference import Engine

    started = 0
    for setup, snapshot in _positions(variant_id, seed=3, deals=5):
        if (position := from_position(setup, snapshot)) is not None:
            again = Engine.new(variant_id, position).snapshot()
            assert {k: again[k] for k in STATED} == {k: snapshot[k] for k in STATED}, position
            started += snapshot["turned"] != []
    assert started > 20


def test_cards_turned_before_a_start_are_cards_of_the_deck_and_no_place_of_them() -> None:
    from conformance.fuzz.shrink import from_position
    from reference import Engine
    from reference.errors import SetupError

    setup = {"dealer": 0, "deck": [rank + suit for suit in "SHCD" for rank in "A3KQJ76542"]}
    engine = Engine.new("briscola-2p", setup)
    engine.apply_id(engine.legal_ids()[0])
    position = from_position(setup, engine.snapshot())
    assert position is not None and position["start"]["turned"] == engine.snapshot()["turned"] != []
    assert position["start"]["turned"][0] in position["stock"]  # the trump card, under the stock and turned both
    with pytest.raises(SetupError, match=r"\$\.start\.turned\[0\]: expected a card of this deck; found 'ZZ'"):
        Engine.new("briscola-2p", {**position, "start": {**position["start"], "turned": ["ZZ"]}})


def test_the_javascript_example_starts_where_the_shrinker_starts_a_deal_as_the_reference_does() -> None:
    """Every play position fuzz would start a shrunk case from, the cards turned before it among its fields."""
    from conformance.engines.protocol import SubprocessAdapter
    from conformance.fuzz.shrink import from_position

    if shutil.which("node") is None:
        if os.environ.get("CI"):
            pytest.fail("node is not on PATH: CI must run the JavaScript example engine")
        pytest.skip("node is not on PATH")
    positions = [
        (position, snapshot)
        for setup, snapshot in _positions("albastini-2p", seed=5, deals=1)
        if (position := from_position(setup, snapshot)) is not None
    ]
    js = SubprocessAdapter(["node", str(JS_ENGINE)], timeout=30.0)
    try:
        for number, (position, snapshot) in enumerate(positions):
            answer = js.run({"id": str(number), "variant": "albastini-2p", "setup": position, "actions": []})
            assert isinstance(answer, dict) and "error" not in answer, answer
            reported = answer["observations"][0]["snapshot"]
            assert {k: reported[k] for k in STATED} == {k: snapshot[k] for k in STATED}, position
    finally:
        js.close()
    assert positions and all(snapshot["turned"] for _, snapshot in positions)


TURNED_AND_WON = """\
variant: bisca-2p
scenarios:
  - id: bisca/test/turned-and-won
    title: The trump card turned, drawn and won; every other card won too
    clauses: [bisca.deal.trump-card]
    source: {derived: a test}
    setup:
      dealer: 0
      hands: {0: [AC], 1: [3C]}
      stock: []
      start: {phase: play, trump: S, to_act: 0, turned: [2S], piles: {0: [rest]}, tricks: [19, 0]}
    steps:
      - play: {0: AC, 1: 3C}
        expect:
          snapshot: {turned: [2S]}
"""


def test_a_card_a_start_records_as_turned_is_left_to_rest_to_place(tmp_path: Path) -> None:
    """start.turned is a record: rest places its card where the position puts it (here, a pile)."""
    from conformance.validate import validate

    path = tmp_path / "turned.yaml"
    path.write_text(TURNED_AND_WON, encoding="utf-8")
    assert validate([path]) == []
    (scenario,) = load_files([path])
    assert runner.run(reference_adapter(), scenario).outcome is Outcome.PASS
    path.write_text(TURNED_AND_WON.replace("turned: [2S]", "turned: [2S, 2S]", 1), encoding="utf-8")
    assert [p.message for p in validate([path])] == [
        "a deal cannot start from this setup: expected each card turned once"
    ]


def test_the_bid_steer_bids_in_the_suit_of_the_card_that_will_be_turned() -> None:
    """The steer toward the Otea's compulsory exchange bids in the suit of the stock's first card, the one turned
    at the end of the bidding; with no bid of that suit to make it leaves the choice to random play."""
    from conformance.fuzz import steering

    steer = next(s for s in steering.STEERS if s.name == "bid-in-turned-suit")
    assert steer.choose is not None and steer.applies(variant("albastini-2p"))
    deck = deck_of(variant("albastini-2p"))
    told_apart = 0  # deals whose stock's first and last cards are of different suits
    for seed in range(40):
        shuffled = deck[:]
        random.Random(seed).shuffle(shuffled)
        engine = Engine.new("albastini-2p", {"dealer": 0, "deck": shuffled})
        stock, legal = engine.snapshot()["stock"], engine.legal_actions()
        matching = [a for a in legal if a["type"] == "bid" and a["card"][-1] == stock[0][-1]]
        chosen = steer.choose(random.Random(seed), legal, engine.snapshot)
        assert chosen in matching if matching else chosen is None, (seed, stock, chosen)
        told_apart += bool(matching) and stock[-1][-1] != stock[0][-1]
    assert told_apart > 10


def _one_action() -> tuple[Expected, dict[str, Any], dict[str, Any]]:
    """The reference's side of a Briscola deal of one legal action, and its observations before and after it."""
    engine = Engine.new("briscola-2p", {"dealer": 0, "deck": deck_of(variant("briscola-2p"))})
    before = (engine.snapshot(), engine.legal_actions())
    engine.apply(before[1][0])
    after = (engine.snapshot(), engine.legal_actions())
    expected = Expected((None,), {0: before, 1: after})
    return expected, {"snapshot": before[0], "legal": before[1]}, {"rejected": None, "snapshot": after[0], "legal": after[1]}


def test_an_answer_with_an_observation_per_action_and_no_more_nor_fewer_is_compared() -> None:
    """One observation after the setup and one per action: an answer short of them stopped part-way, and is an
    error where it stopped; one with more is malformed, whatever the observations say."""
    expected, first, second = _one_action()
    assert first_divergence(expected, {"observations": [first, second]}) is None
    short = first_divergence(expected, {"observations": [first]})
    assert short is not None and (short.kind, short.position) == (ERROR, 1)
    assert short.detail() == "malformed: expected 2 observations, found 1"
    long = first_divergence(expected, {"observations": [first, second, second]})
    assert long is not None and (long.kind, long.position) == (ERROR, 0)
    assert long.detail() == "malformed: expected 2 observations (one after setup, one per action), found 3"


def test_an_engine_refusing_a_legal_action_diverges_on_that_action_filed_under_it_accepted() -> None:
    """The reference accepts the action: any refusal of it, with whatever code, is a divergence of its own, said as
    the action accepted (there is no code to expect) and filed apart from the refusals the reference makes."""
    expected, first, _ = _one_action()
    refused = {**first, "rejected": {"code": "not_your_turn", "message": "no"}}
    divergence = first_divergence(expected, {"observations": [first, refused]})
    assert divergence is not None and (divergence.kind, divergence.position, divergence.allowed) == (REFUSAL, 1, None)
    assert [(m.what, m.expected, m.observed) for m in divergence.mismatches] == [("action accepted", "accepted", "not_your_turn")]
    assert divergence.detail() == 'action accepted: expected "accepted", observed "not_your_turn"'
    setup = {"dealer": 0, "deck": deck_of(variant("briscola-2p"))}
    case = Case("briscola-2p", setup, (first["legal"][0],), expected.refusals)
    assert naming.name(case, divergence, [expected.reports[0], expected.reports[1]])[0] == "rejected.accepted"


@pytest.mark.parametrize(
    ("variant_id", "named"),
    [
        ("briscola-2p", ("briscola.play.free", "briscola.play.in-turn", "briscola.play.draw")),  # dealt into play
        ("albastini-2p", (  # dealt into the Otea's bidding: not the clause of who deals next, which is of legal.over
            "albastini.otea.eligible-bidders", "albastini.otea.turn-order", "albastini.otea.one-turn-each",
            "albastini.otea.bid-or-pass", "albastini.otea.distinct-suits", "albastini.otea.turn-up",
            "albastini.otea.compulsory-exchange", "albastini.otea.bids-return", "albastini.otea.indicator-placement",
            "albastini.play.first-lead",
        )),
    ],
)  # fmt: skip
def test_an_error_as_a_deal_is_dealt_in_a_game_observing_nothing_as_dealt_is_named_after_the_phase_it_is_dealt_into(
    variant_id: str, named: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game none of whose clauses observes a field @setup: an engine failing on the deal as dealt breaks the clauses
    of the phase the deal is dealt into, not every clause of any phase's legal actions, nor none."""
    case = _dealt_where_nothing_is_observed_as_dealt(variant_id, monkeypatch)
    crashed = first_divergence(Expected((), {}), EngineError(ErrorKind.CRASH, "exited"))
    assert crashed is not None and (crashed.kind, crashed.position) == (ERROR, 0)
    assert naming.name(case, crashed, reference_reports(case)) == ("error.crash", named, observing.SETUP)


def test_hands_dealt_otherwise_in_a_game_observing_nothing_as_dealt_are_named_after_the_phase_dealt_into(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The clauses observing the hands as the Otea's bidding leaves them, not those of the hands in play too."""
    case = _dealt_where_nothing_is_observed_as_dealt("albastini-2p", monkeypatch)
    reports = reference_reports(case)
    snapshot, legal = reports[0]
    dealt_otherwise = {**snapshot, "hands": {**snapshot["hands"], "0": snapshot["hands"]["0"][1:]}}
    expected = Expected((), {0: reports[0]}, observing.clauses_of("albastini-2p").fields)
    differs = first_divergence(expected, {"observations": [{"snapshot": dealt_otherwise, "legal": legal}]})
    assert differs is not None and (differs.kind, differs.position, differs.field) == (REPORT, 0, "hands.0")
    bidding = ("albastini.otea.bid-or-pass", "albastini.otea.compulsory-exchange", "albastini.otea.bids-return")
    assert naming.name(case, differs, reports) == ("hands", bidding, observing.SETUP)


def _dealt_where_nothing_is_observed_as_dealt(variant_id: str, monkeypatch: pytest.MonkeyPatch) -> Case:
    """A deal of the variant, named as though none of its clauses observed a field @setup."""
    clauses = observing.clauses_of(variant_id)
    as_dealt_unobserved = observing.VariantClauses(
        replace(c, observes=tuple(o for o in c.observes if o.phase != observing.SETUP)) for c in clauses.clauses
    )
    monkeypatch.setattr(naming, "clauses_of", lambda _variant: as_dealt_unobserved)
    return Case(variant_id, {"dealer": 0, "deck": deck_of(variant(variant_id))}, (), ())


def _deaf_to_sigterm(settings: Any, link: Any, engines: Any, parents: Any) -> None:
    import signal

    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _work(settings, link, engines, parents)


_work = campaign._work


DEAF_ENGINE = """\
import json, os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
with open(os.path.join(sys.argv[1], str(os.getpid())), "w"):
    pass
sys.stdin.readline()
print(json.dumps({"started": True, "protocol": 1, "implementation": {"name": "deaf", "variants": ["briscola-2p"]}}),
      flush=True)
while True:  # deaf to its input closing, and to SIGTERM
    time.sleep(1)
"""


@FORKED_WORKERS
def test_workers_deaf_to_sigterm_are_killed_with_their_engines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that lives through the SIGTERM that stops it is killed once the grace is over, and the engine it
    started with it, which cannot be left to see its input close: neither stopping a campaign nor closing its pool
    waits for ever, nor leaves a process."""
    from conformance.fuzz.worker import Settings

    script, pids = tmp_path / "deaf.py", tmp_path / "pids"
    script.write_text(DEAF_ENGINE, encoding="utf-8")
    pids.mkdir()
    monkeypatch.setattr(campaign, "_work", _deaf_to_sigterm)
    monkeypatch.setattr(campaign, "_ABANDON_GRACE", 0.5)
    for end in ("abandon", "close"):
        pool = campaign._Pool(Settings(0, None, f"{sys.executable} {script} {pids}", 10.0), 2)
        if end == "close":  # told to stop, they stop: made to hang first, as on a batch that never ends
            monkeypatch.setattr(pool, "links", [])
        started = time.monotonic()
        getattr(pool, end)()
        assert not any(process.is_alive() for process in pool.processes), end
        assert time.monotonic() - started < 5, end
        time.sleep(0.2)  # an orphan is reaped by whoever adopts it
        assert [int(p.name) for p in pids.iterdir() if _running(int(p.name))] == [], end


def _running(pid: int) -> bool:
    """Whether a process runs (a zombie, ended and waiting to be reaped, does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False


def test_shards_of_different_campaigns_are_not_merged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Shards of one seed run with other variants, deals, dealer or sampling are no one campaign's: report names what
    differs, at the log at fault, and makes no report; how each shard was run and where it wrote may differ."""
    one = ("--deals", "8", "--variant", "briscola-2p")
    assert fuzz(*one, "--shard", "1/2", "--report-dir", str(tmp_path / "a")) == 0
    assert fuzz(*one, "--shard", "2/2", "--jobs", "2", "--timeout", "30", "--report-dir", str(tmp_path / "b")) == 0
    other = ("--deals", "12", "--variant", "bisca-2p", "--deal", "engine", "--sampled")
    assert fuzz(*other, "--shard", "2/2", "--report-dir", str(tmp_path / "c")) == 0
    a, b, c = (str(tmp_path / name / "run.jsonl") for name in "abc")
    capsys.readouterr()
    assert main(["report", a, b, "--format", "badge"]) == 0
    assert main(["report", a, c, "--format", "badge"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{c}:1:1: $.options.deal: a campaign given other options than {a} (--deal engine, there kit; --deals 12, there 8; "
        "--sampled, there not given; variants bisca-2p, there briscola-2p): expected the shards of one campaign",
        "1 problem(s)",
    ]
    assert fuzz("--deals", "1000", "--variant", "briscola-2p", "--shard", "7/500", "--report-dir", str(tmp_path / "d")) == 0
    assert fuzz("--variant", "briscola-2p", "--shard", "8/500", "--report-dir", str(tmp_path / "e")) == 0
    assert main(["report", str(tmp_path / "d" / "run.jsonl"), str(tmp_path / "e" / "run.jsonl"), "--format", "badge"]) == 0


def _raising_before_judging(monkeypatch: pytest.MonkeyPatch, stage: str) -> None:
    """The kit fails on deal 3 before the engine's answer is judged, in this process and in the workers it forks:
    drawing the deal (the reference playing the deal it sends, or the one the engine dealt), or reading the deal the
    engine dealt as the reference's setup."""
    from conformance.fuzz import worker

    if stage == "drawing":
        drawn = worker.generate

        def raising(seed: int, index: int, *args: Any, **kwargs: Any) -> Any:
            if index == 3:
                raise RuntimeError("no deal")
            return drawn(seed, index, *args, **kwargs)

        monkeypatch.setattr(worker, "generate", raising)
    else:
        read = worker.dealt_setup
        _, asked = worker.engine_dealt(0, 3, ("briscola-2p",))

        def raising_too(snapshot: Any, variant: str, sent: Any) -> Any:
            if sent == asked:
                raise RuntimeError("no deal")
            return read(snapshot, variant, sent)

        monkeypatch.setattr(worker, "dealt_setup", raising_too)


@FORKED_WORKERS
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize(("deal", "stage", "doing"), [
    ("kit", "drawing", "drawing this deal"),
    ("engine", "drawing", "drawing this deal"),
    ("engine", "reading", "reading the engine's deal"),
])  # fmt: skip
def test_a_deal_whose_drawing_raises_is_an_error_of_the_kit_s(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, jobs: str, deal: str, stage: str,
    doing: str,
) -> None:
    """The reference failing to play the deal it draws (or the one the engine dealt), or to read the engine's deal,
    is that deal's error of the kit's, never the engine's, saying what the kit was doing there, as standard error does
    with the traceback, once: the campaign goes on, the reports are written, and it exits 4."""
    _raising_before_judging(monkeypatch, stage)
    report_dir = tmp_path / "r"
    status = fuzz("--variant", "briscola-2p", "--deals", "10", "--jobs", jobs, "--deal", deal, "--report-dir", str(report_dir))
    out, err = capsys.readouterr()
    assert status == 4, out + err
    said = (f"kit fault: the kit raised RuntimeError: no deal while {doing}, a fault of the kit's, not the "
            "engine's: please report it with this command and the deal's id, fuzz/0/3")  # fmt: skip
    assert f"KIT FAULT 1 deal not judged (first at fuzz/0/3)\n  {said}\n" in out, out
    assert "\n9 passed, 1 failed (1 error)\n" in out, out
    assert err.count("Traceback (most recent call last):") == 1 and "a fuzz worker failed" not in err, err
    assert f"the kit failed on fuzz/0/3 while {doing} (a fault of the kit's, not the engine's)" in err, err
    lines = {line["id"]: line for line in runlog.read(report_dir / "run.jsonl").scenarios}
    assert list(lines) == [f"fuzz/0/{n}" for n in range(10)]
    faulty = lines["fuzz/0/3"]
    assert (faulty["outcome"], faulty["variant"], faulty["error"]) == ("error", "briscola-2p", said), faulty
    assert (report_dir / "summary.json").is_file()


@FORKED_WORKERS
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_worker_s_work_raising_outside_any_deal_stops_the_campaign_as_the_kit_s_fault(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, jobs: str
) -> None:
    """What a worker does outside any deal (here, asking what the engine is to deal) is the kit's alone: a raise there
    stops the campaign as a worker's own crash does, saying it is the kit's fault, never that the engine is unusable,
    with the traceback once on standard error, the reports of the deals judged, and the exit status 4."""
    from conformance.fuzz import worker

    asked = worker.engine_dealt

    def raising(seed: int, index: int, variants: Any) -> Any:
        if index == 20:
            raise RuntimeError("no dealer")
        return asked(seed, index, variants)

    monkeypatch.setattr(worker, "engine_dealt", raising)
    report_dir = tmp_path / "r"
    status = fuzz("--deal", "engine", "--variant", "briscola-2p", "--deals", "40", "--jobs", jobs, "--report-dir",
                  str(report_dir))  # fmt: skip
    out, err = capsys.readouterr()
    assert status == 4, out + err
    log = runlog.read(report_dir / "run.jsonl")
    judged = len(list(log.scenarios))
    said = (f"stopped after {judged} deals: a worker's work outside any deal raised RuntimeError: no dealer, a fault of "
            "the kit's, not the engine's: please report it with this command")  # fmt: skip
    assert said in out.splitlines(), out
    assert log.footer is None and judged < 20
    assert err.count("Traceback (most recent call last):") == 1 and "engine unusable" not in err, err
    assert "the kit failed in a worker (a fault of the kit's, not the engine's)" in err, err
    assert sorted(p.name for p in report_dir.iterdir()) == ["badge.json", "junit.xml", "report.md", "run.jsonl", "summary.json"]


@FORKED_WORKERS
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_worker_raising_as_it_starts_stops_the_campaign_as_the_kit_s_fault(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, jobs: str
) -> None:
    """Before the first deal too: the engine has answered its handshake, and what the worker makes of it raises."""
    from conformance.fuzz import worker

    def raising(reports: object) -> Any:
        raise KeyError("reports")

    monkeypatch.setattr(worker, "declared", raising)
    status = fuzz("--variant", "briscola-2p", "--deals", "10", "--jobs", jobs)
    out, err = capsys.readouterr()
    assert status == 4, out + err
    said = ("stopped before the first deal: a worker's work outside any deal raised KeyError: 'reports', a fault of the "
            "kit's, not the engine's: please report it with this command")  # fmt: skip
    assert err.strip().splitlines()[-1] == said, err
    assert err.count("Traceback (most recent call last):") == 1 and "engine unusable" not in err, err


@FORKED_WORKERS
@pytest.mark.parametrize("in_process", [False, True])
def test_a_worker_that_exits_before_it_answers_is_the_kit_s_fault_unless_the_engine_is_loaded_into_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, in_process: bool
) -> None:
    """An engine running in a process of its own cannot end its worker: a worker exiting is the kit's fault, said so,
    with the reports of the deals judged (exit 4). Loaded into the worker (--in-process), the engine may have ended it,
    and cannot be used (exit 3)."""
    import os

    from conformance.fuzz import worker

    run = worker.Worker.run

    def exiting(self: Any, indices: list[int], variants: tuple[str, ...]) -> Any:
        if 20 in indices:
            os._exit(3)
        return run(self, indices, variants)

    monkeypatch.setattr(worker.Worker, "run", exiting)
    report_dir = tmp_path / "r"
    status = fuzz("--engine", "own_deal_engine:OwnDeal", *(["--in-process"] if in_process else []), "--variant",
                  "briscola-2p", "--deals", "100", "--jobs", "2", "--report-dir", str(report_dir))  # fmt: skip
    out, err = capsys.readouterr()
    ended = "a worker process ended before it answered (exit code 3)"
    if in_process:
        assert status == 3 and err.strip().splitlines()[-1] == f"engine unusable: {ended}", out + err
        return
    assert status == 4, out + err
    judged = len(list(runlog.read(report_dir / "run.jsonl").scenarios))
    said = f"stopped after {judged} deals: {ended}, a fault of the kit's, not the engine's: please report it with this command"
    assert said in out.splitlines() and "engine unusable" not in err, out + err
    assert sorted(p.name for p in report_dir.iterdir()) == ["badge.json", "junit.xml", "report.md", "run.jsonl", "summary.json"]


FAULTY_DEAL = "fuzz/0/0"  # a deal off_suit_wins diverges on, whose judging the kit fails on


def _faulty_judging(monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """The kit fails on FAULTY_DEAL, as a bug of its own that the engine's answer set off would: judging the answer
    raises, or locating its divergence does; in this process, and in the workers it forks."""
    from conformance.fuzz import worker

    if where == "judging":
        judged = worker.first_divergence

        def raising(expected: Expected, answer: object) -> Any:
            if isinstance(answer, dict) and answer.get("id") == FAULTY_DEAL:
                raise TypeError("no such place \x1b[31mred")
            return judged(expected, answer)

        monkeypatch.setattr(worker, "first_divergence", raising)
    else:
        locate = shrink.Shrinker.locate

        def raising_too(self: shrink.Shrinker, case: Case, position: int, rid: str, *args: Any) -> Any:
            if rid == FAULTY_DEAL:
                raise TypeError("no such place \x1b[31mred")
            return locate(self, case, position, rid, *args)

        monkeypatch.setattr(shrink.Shrinker, "locate", raising_too)


@FORKED_WORKERS
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("where", ["judging", "locating"])
def test_a_deal_whose_judging_raises_is_an_error_of_the_kit_s_never_a_divergence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, jobs: str, where: str
) -> None:
    """The deal is an error saying the kit failed on it, not the engine, and what it was doing (judging the answer,
    or locating its divergence), made safe, asking for a report with the command and its id; it is neither shrunk
    nor written as a scenario, nor listed as a divergence; every other deal is judged, and the divergence is found
    from the next deal showing it; the summary says it once, the traceback is shown once on standard error after a
    line saying the same, the reports are written, and the campaign exits 4."""
    _faulty_judging(monkeypatch, where)
    out_dir, report_dir = tmp_path / "out", tmp_path / "r"
    status = fuzz("--engine", "test_fuzz:off_suit_wins", "--variant", MUTANT_VARIANT, "--deals", "12", "--jobs", jobs,
                  "--timeout", "300", "--out", str(out_dir), "--report-dir", str(report_dir))  # fmt: skip
    out, err = capsys.readouterr()
    assert status == 4, out + err
    doing = "judging this deal" if where == "judging" else "locating this deal's divergence"
    said = (f"kit fault: the kit raised TypeError: no such place \\x1b[31mred while {doing}, a fault of the "
            f"kit's, not the engine's: please report it with this command and the deal's id, {FAULTY_DEAL}")  # fmt: skip
    assert f"KIT FAULT 1 deal not judged (first at {FAULTY_DEAL})\n  {said}\n" in out and out.count(said) == 1, out
    assert "Traceback" not in out and "\x1b" not in out + err and "not seen again" not in out, out + err
    assert err.count("Traceback (most recent call last):") == 1, err
    assert f"the kit failed on {FAULTY_DEAL} while {doing} (a fault of the kit's, not the engine's)" in err, err
    lines = list(runlog.read(report_dir / "run.jsonl").scenarios)
    assert [line["id"] for line in lines] == [f"fuzz/0/{n}" for n in range(12)]
    faulty, others = lines[0], lines[1:]
    assert (faulty["outcome"], faulty["error"], faulty["file"], faulty["clauses"]) == ("error", said, "", []), faulty
    assert {line["outcome"] for line in others} == {"pass", "fail"}, others
    first = next(line for line in others if line["outcome"] == "fail")
    assert f"(first at {first['id']}; " in out and f"(first at {FAULTY_DEAL};" not in out, out
    written = sorted(path.name for path in out_dir.iterdir())
    assert written and not any(name.endswith(f"-0-{FAULTY_DEAL.rsplit('/', 1)[1]}.yaml") for name in written), written
    fails = sum(line["outcome"] == "fail" for line in others)
    assert f"\n{len(others) - fails} passed, {fails + 1} failed (1 error)\n" in out, out


def test_hands_of_another_shape_diverge_once_where_the_shape_breaks() -> None:
    """As a scenario says it: the field where the engine's value cannot hold the path, the shape it needs, and what
    the engine sent there, once for the whole hand however many seats read through it."""
    expected, first, second = _one_action()
    expected.fields = frozenset({"hands"})
    stringed = {**first, "snapshot": {**first["snapshot"], "hands": "abc"}}
    divergence = first_divergence(expected, {"observations": [stringed, second]})
    assert divergence is not None and (divergence.kind, divergence.position, divergence.field) == (REPORT, 0, "hands.0")
    assert [(m.what, m.expected, m.observed) for m in divergence.mismatches] == [("hands", "<an object keyed by seat>", "abc")]
    assert divergence.detail() == 'hands: expected <an object keyed by seat>, observed "abc"'
