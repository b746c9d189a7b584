"""A difference said the same way by verify, fuzz and check-trace, with a hint of where two lists part."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.fuzz.compare import REPORT, Divergence
from conformance.suite import difference_text
from conformance.suite.comparisons import Mismatch, compare


def test_cards_compared_as_a_set_are_told_apart_by_what_one_lacks() -> None:
    (found,) = compare({"hands": {"0": ["AC", "KC", "7D"]}}, {"hands": {"0": ["7D", "AC", "QC"]}}, [], 1, 0)
    said = difference_text.said(found.what, found.expected, found.observed)
    assert said == 'hands.0 (as a set): expected ["7D", "AC", "KC"], observed ["7D", "AC", "QC"] (missing KC; extra QC)'


def test_a_list_in_its_order_is_told_apart_by_what_one_lacks_or_where_its_order_first_differs() -> None:
    stock = ["2D", "KH", "4H", "2S"]
    turned_over = [*stock[1:], stock[0]]  # the same cards, the first put last
    assert difference_text.hint("stock", stock, turned_over) == " (in another order: first at index 0, expected 2D, observed KH)"
    assert difference_text.hint("turned", ["2D"], ["4D"]) == " (missing 2D; extra 4D)"
    assert difference_text.hint("last_trick.cards", ["2D", "4D"], ["2D"]) == " (missing 4D)"
    assert difference_text.hint("stock", stock, stock) == ""


def test_legal_actions_compared_whole_are_told_apart_by_what_one_lacks() -> None:
    (found,) = compare({"legal": {"exactly": ["1 play 7H", "1 play 4D"]}}, {}, [{"type": "play", "seat": 1, "card": "7H"}],
                       2, 0)  # fmt: skip
    assert difference_text.hint(found.what, found.expected, found.observed) == " (missing 1 play 4D)"


@pytest.mark.parametrize(
    ("what", "expected", "observed"),
    [
        ("hands.0 holds", ["AC"], ["KC", "QC"]),  # what a hand must hold, against the hand: no two sides of one thing
        ("legal actions include", ["1 play 7H"], ["1 play 4D"]),
        ("totals", [4, 0], [0, 4]),  # no list of words
        ("trick", ["7H"], "<missing>"),
        ("hands.0 (as a set)", ["AC", "KC"], ["KC", "AC"]),  # the same set: nothing to hint
    ],
)
def test_no_hint_where_two_lists_are_no_two_sides_of_one_thing(what: str, expected: Any, observed: Any) -> None:
    assert difference_text.hint(what, expected, observed) == ""


def test_a_hint_is_cut_and_made_safe() -> None:
    """The engine's items are its own text: each is made safe and cut, and only the first few are named."""
    said = difference_text.hint("stock", [], [f"X{i}" for i in range(20)])
    assert said == " (extra X0 X1 X10 X11 X12 X13 X14 X15 and 12 more)"
    said = difference_text.hint("stock", [], ["\x1b[2J" + "y" * 100])
    assert "\x1b" not in said and "\\x1b[2J" in said and said.count("y") < 40 and "[cut: 104 characters in all]" in said
    assert difference_text.hint("stock", ["7H"] * 2000, []) == ""  # past any pack, no list is looked into


def test_fuzz_and_check_trace_say_a_divergence_as_verify_reports_do() -> None:
    mismatch = Mismatch(0, 1, "hands.1 (as a set)", ["7H", "AC"], ["4D", "AC"])
    said = 'hands.1 (as a set): expected ["7H", "AC"], observed ["4D", "AC"] (missing 7H; extra 4D)'
    assert Divergence(REPORT, 0, (mismatch,)).detail() == said
