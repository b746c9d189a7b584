"""Expectations on cards: whole sets, or only what a pile or the dead cards hold and lack."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from wrapped_engine import Wrapped

from conformance import pytest_scenarios
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


@pytest.mark.parametrize(
    ("expect", "snapshot", "found"),
    [
        ({"hands": {"0": ["AH"], "1": []}}, {"hands": "abc"}, [("hands", "<an object keyed by seat>", "abc")]),
        ({"holds": {"0": ["AH"]}, "lacks": {"1": ["AH"]}}, {"hands": 5}, [("hands", "<an object keyed by seat>", 5)]),
        ({"piles": {"0": ["AH"]}}, {"piles": {"0": ["AH"]}}, []),  # an index read in a mapping, as ever
        ({"piles": {"1": {"holds": ["AH"]}}}, {"piles": 7}, [("piles", "<a list by side>", 7)]),
        ({"result": {"tie": False, "winner": 1}}, {"result": None}, [("result", "<an object>", None)]),
        ({"snapshot": {"stock.0": "AH", "last_trick.winner": 1}}, {"stock": "AH", "last_trick": ["AH"]},
         [("stock", "<a list>", "AH"), ("last_trick", "<an object>", ["AH"])]),
    ],
    ids=["a string for hands", "a number for hands", "a mapping for piles", "a number for piles", "null for result",
         "by path"],
)  # fmt: skip
def test_a_path_through_a_value_of_another_shape_is_said_where_it_breaks(
    expect: dict[str, Any], snapshot: dict[str, Any], found: list[tuple[str, Any, Any]]
) -> None:
    assert differences(expect, snapshot) == found


@pytest.mark.parametrize(
    ("expect", "snapshot", "what"),
    [
        ({"hands": {"2": ["AH"]}}, {"hands": {"0": []}}, "hands.2 (as a set)"),
        ({"piles": {"1": ["AH"]}}, {"piles": [[]]}, "piles.1 (as a set)"),
        ({"result": {"tie": False}}, {"result": {}}, "result.tie"),
        ({"snapshot": {"last_trick.winner": 1}}, {}, "last_trick.winner"),
    ],
    ids=["a seat absent", "an index past the end", "a key absent", "a field absent"],
)
def test_a_field_not_reported_is_still_missing(expect: dict[str, Any], snapshot: dict[str, Any], what: str) -> None:
    [(said, _, observed)] = differences(expect, snapshot)
    assert (said, observed) == (what, untrusted.MISSING)


def test_a_shape_expected_is_written_bare_and_a_string_that_only_looks_like_one_is_not_taken_for_it() -> None:
    assert untrusted.difference("hands", untrusted.kind("an object keyed by seat"), "abc") == (
        'hands: expected <an object keyed by seat>, observed "abc"'
    )
    assert untrusted.difference("phase", "<Play>", "play") == 'phase: expected "<Play>", observed "play"'


class HandsAString(Wrapped):
    """The reference, reporting its hands as a string."""

    def snapshot(self) -> dict[str, Any]:
        return {**super().snapshot(), "hands": "abc"}


def test_hands_of_another_shape_are_said_to_be_so_in_every_report_not_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, reports = verified(tmp_path, capsys, "HandsAString", "albastini/deal/six-threes-dealer-1")
    said = 'hands: expected <an object keyed by seat>, observed "abc"'
    assert f"step 1: {said}" in out and "<missing>" not in out
    assert out.count(said) == 2  # once a step it is read at, not once a seat
    markdown = (reports / "report.md").read_text(encoding="utf-8")
    assert 'step 5: hands: expected &lt;an object keyed by seat&gt;, observed "abc"' in markdown
    [failure] = ET.parse(reports / "junit.xml").iter("failure")
    assert failure.get("message") == f"step 1: {said}" and failure.text == f"step 1: {said}\nstep 5: {said}"
    [line] = [json.loads(raw) for raw in (reports / "run.jsonl").read_text(encoding="utf-8").splitlines()[1:-1]]
    assert {(m["what"], m["expected"], m["observed"]) for m in line["mismatches"]} == {
        ("hands", "<an object keyed by seat>", "abc")
    }


def test_the_pytest_plugin_writes_a_shape_expected_bare() -> None:
    scenario = next(s for s in scenarios.kit_scenarios() if s.id == "albastini/deal/six-threes-dealer-1")
    answer = reference_adapter().run(runner.request_for(scenario))
    assert isinstance(answer, dict)
    answer["observations"][0]["snapshot"]["hands"] = "abc"
    said = pytest_scenarios.describe(runner.judge(scenario, answer))
    assert '  step 1 (scenarios/albastini/deal/deck-order.yaml:' in said
    assert '): hands\n    - expected: <an object keyed by seat>\n    + observed: "abc"' in said
