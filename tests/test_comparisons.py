"""Expectations on cards: whole sets, or only what a pile or the dead cards hold and lack."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from wrapped_engine import Wrapped

from conformance.cli import main
from conformance.engines.adapter import reference_adapter
from conformance.run import runner
from conformance.suite import scenarios
from conformance.suite.comparisons import COMPARISONS, action_text, compare, flags_agreed, kinds_agree
from conformance.text import untrusted
from conformance.vocabulary import Outcome

SNAPSHOT = {"piles": [["AH", "3S"], []], "dead": ["6S"], "hands": {"0": ["KC"]}}


def differences(expect: dict[str, Any], snapshot: dict[str, Any] = SNAPSHOT) -> list[tuple[str, Any, Any]]:
    return [(m.what, m.expected, m.observed) for m in compare(expect, snapshot, [], step=1, line=1)]


@pytest.mark.parametrize(
    "expect",
    [
        {"piles": {"0": ["3S", "AH"], "1": []}},
        {"piles": {"0": {"holds": ["AH"], "lacks": ["KC"]}, "1": {"lacks": ["AH"]}}},
        {"dead": ["6S"]},
        {"dead": {"holds": ["6S"], "lacks": ["AH", "KC"]}},
    ],
)
def test_what_a_pile_or_the_dead_cards_hold_and_lack_is_met(expect: dict[str, Any]) -> None:
    assert differences(expect) == []


@pytest.mark.parametrize(
    ("expect", "found"),
    [
        ({"piles": {"0": ["AH"]}}, [("piles.0 (as a set)", ["AH"], ["AH", "3S"])]),
        ({"piles": {"0": {"holds": ["AH", "KC"]}}}, [("piles.0 holds", ["AH", "KC"], ["AH", "3S"])]),
        ({"piles": {"1": {"lacks": ["KC"]}, "0": {"lacks": ["3S"]}}}, [("piles.0 lacks", ["3S"], ["AH", "3S"])]),
        ({"dead": {"holds": ["AH"], "lacks": ["6S"]}}, [("dead holds", ["AH"], ["6S"]), ("dead lacks", ["6S"], ["6S"])]),
    ],
)
def test_what_a_pile_or_the_dead_cards_miss_is_named(expect: dict[str, Any], found: list[tuple[str, Any, Any]]) -> None:
    assert differences(expect) == found


def test_dead_cards_not_reported_at_all_lack_nothing() -> None:
    assert differences({"dead": {"lacks": ["AH"]}}, {"piles": SNAPSHOT["piles"]}) == [("dead lacks", ["AH"], "<missing>")]


@pytest.mark.parametrize(
    ("expect", "snapshot"),
    [
        ({"to_act": 1}, {"to_act": True}),
        ({"lone": True}, {"lone": 1}),
        ({"result": {"tie": False}}, {"result": {"tie": 0}}),
        ({"totals": [0, 1]}, {"totals": [False, True]}),
        ({"snapshot": {"last_trick.winner": 1}}, {"last_trick": {"winner": True}}),
    ],
    ids=["true for 1", "1 for true", "0 for false", "booleans in a list", "by path"],
)
def test_a_boolean_is_not_a_number_as_it_is_in_python(expect: dict[str, Any], snapshot: dict[str, Any]) -> None:
    assert len(compare(expect, snapshot, [], 0, 1)) == 1


def test_one_json_number_is_one_whether_written_1_or_1_0() -> None:
    assert compare({"to_act": 1, "totals": [0, 60]}, {"to_act": 1.0, "totals": [0.0, 60]}, [], 0, 1) == []


def legal_differences(seat: Any, card: Any = "9D") -> list[tuple[str, Any, Any]]:
    legal = [{"seat": seat, "type": "play", "card": card}]
    return [(m.what, m.expected, m.observed) for m in compare({"legal": {"exactly": ["1 play 9D"]}}, {}, legal, 0, 1)]


def test_a_legal_action_s_seat_is_one_json_number_whether_written_1_or_1_0() -> None:
    assert legal_differences(1) == legal_differences(1.0) == []


@pytest.mark.parametrize(
    ("seat", "card", "written"),
    [
        ("1", "9D", '"1" play 9D'),
        (True, "9D", "true play 9D"),
        (None, "9D", "null play 9D"),
        (1, ["9D"], '1 play ["9D"]'),
        ({1}, "9D", "{1} play 9D"),  # no JSON value: an in-process engine's own object
    ],
    ids=["a string", "a boolean", "no seat", "a card in a list", "a set"],
)
def test_a_legal_action_that_is_not_the_expected_json_is_not_taken_for_it(seat: Any, card: Any, written: str) -> None:
    assert legal_differences(seat, card) == [("legal actions (exactly)", ["1 play 9D"], [written])]


def test_a_whole_report_s_fast_path_tells_true_from_one() -> None:
    reference = {"to_act": 1, "hands": {"0": ["AH"]}, "result": {"tie": False, "tricks": [0, 1]}}
    assert kinds_agree(reference, {"to_act": 1, "hands": {"0": ["AH"]}, "result": {"tie": False, "tricks": [0, 1]}})
    assert kinds_agree(reference, {"to_act": 1})  # a field not reported is not looked at
    assert not kinds_agree(reference, {"to_act": True})
    assert not kinds_agree(reference, {"result": {"tie": 0, "tricks": [0, 1]}})
    assert not kinds_agree(reference, {"result": {"tie": False, "tricks": [False, 1]}})
    assert kinds_agree([1.0], [1])  # one JSON number
    reference_result = {"tie": False, "double": True, "totals": [60, 60]}
    assert flags_agreed(reference_result, dict(reference_result)) == 2  # the reference's flags the engine reported
    assert flags_agreed(reference_result, {"totals": [60, 60]}) == 0  # a result reported in part
    assert flags_agreed(reference_result, {"tie": 0}) is None


def test_a_field_not_reported_reads_missing_not_as_a_string_the_engine_sent() -> None:
    [(what, expected, observed)] = differences({"dealer": 1}, {})
    assert untrusted.difference(what, expected, observed) == "dealer: expected 1, observed <missing>"
    assert untrusted.difference("dealer", 1, "1") == 'dealer: expected 1, observed "1"'


def test_a_hand_of_cards_each_in_a_list_is_no_hand_of_those_cards() -> None:
    """A hand is compared as a set of card names: a list holding lists is another hand, said as a mismatch,
    not the error counting its unhashable items would raise."""
    assert COMPARISONS["hands"]({"0": ["AH"]}, {"hands": {"0": [["AH"]]}}, []) == [("hands.0 (as a set)", ["AH"], [["AH"]])]


def test_an_engine_reporting_each_card_of_a_hand_in_a_list_fails_and_the_judge_does_not_raise() -> None:
    """What an engine reports is untrusted: hands of the wrong shape fail the scenario that checks them."""
    scenario = next(s for s in scenarios.kit_scenarios() if s.id == "albastini/deal/six-threes-dealer-1")
    answer = reference_adapter().run(runner.request_for(scenario))
    assert isinstance(answer, dict)
    snapshot = answer["observations"][0]["snapshot"]
    assert snapshot is not None
    wrapped = {seat: [[card] for card in cards] for seat, cards in snapshot["hands"].items()}
    snapshot["hands"] = wrapped
    verdict = runner.judge(scenario, answer)
    assert verdict.outcome == Outcome.FAIL, verdict
    assert [(m.step, m.what, m.observed) for m in verdict.mismatches] == [
        (1, f"hands.{seat} (as a set)", wrapped[seat]) for seat in map(str, range(6))
    ]


def test_a_legal_entry_that_is_no_action_is_written_as_the_json_the_engine_sent() -> None:
    legal: list[Any] = [1, "x", None, ["\x1b[2J\u202e"]]
    [(_, _, observed)] = [(m.what, m.expected, m.observed) for m in compare({"legal": {"exactly": []}}, {}, legal, 0, 1)]
    assert observed == ['"x"', "1", '["\\u001b[2J\\u202e"]', "null"]  # made safe as every value an engine sends
    assert action_text("y" * 10_000).endswith(f"[cut: more than {untrusted.CAP} characters in all]")


class LegalNoActions(Wrapped):
    """The reference, offering the number 1 and the string "x" among its legal actions."""

    def legal_actions(self) -> list[Any]:
        return [1, "x", *super().legal_actions()]


def verified(tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str, scenario: str) -> tuple[str, Path]:
    status = main(["verify", "--engine", f"{__name__}:{engine}", "--scenario", scenario, "--report-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 1, out
    return out, tmp_path


def test_legal_entries_that_are_no_actions_are_shown_as_the_json_the_engine_sent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, _ = verified(tmp_path, capsys, "LegalNoActions", "briscola/play/four-players-deal-and-trump-card")
    differences = [line for line in out.splitlines() if "legal actions" in line]
    assert differences and all('extra "x" 1)' in line and '"\\"x\\""' in line for line in differences), out
    assert "'x'" not in out
