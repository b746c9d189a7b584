"""The accounts' worked examples, played through the reference engine's public API."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance import strategies
from reference import Engine

from reference_support import apply_ok, code_of, deck, filled, play_drawn, split, values

ANNA, BORIS = 0, 1  # two players: Boris deals, so Anna (the player after him) leads


def _anna_boris(boris_card: str) -> Engine:
    setup = filled("albastini-2p", BORIS, {ANNA: ["AH", "KC", "QD", "4C", "5D"], BORIS: [boris_card, "6C", "4D", "5C", "QC"]},
                   stock=["6S"])
    engine = Engine.new("albastini-2p", setup)
    apply_ok(engine, {"type": "pass", "seat": ANNA})  # the turned 6S makes spades trumps
    assert engine.snapshot()["trump"] == "S"
    apply_ok(engine, {"type": "play", "seat": ANNA, "card": "AH"})
    return engine


def test_zero_value_trump_takes_the_ace() -> None:
    engine = _anna_boris("3S")
    events = apply_ok(engine, {"type": "play", "seat": BORIS, "card": "3S"})
    won = next(e for e in events if e["type"] == "trick_won")
    assert (won["winner"], won["points"]) == (BORIS, 11)
    assert engine.snapshot()["totals"] == [0, 11]


def test_seven_of_the_led_suit_gives_anna_21() -> None:
    engine = _anna_boris("7H")
    events = apply_ok(engine, {"type": "play", "seat": BORIS, "card": "7H"})
    won = next(e for e in events if e["type"] == "trick_won")
    assert (won["winner"], won["points"]) == (ANNA, 21)
    assert {"type": "ndoa", "seat": ANNA, "card": "7H"} in events
    snap = engine.snapshot()
    assert snap["totals"] == [21, 0]
    assert snap["last_trick"] == {"cards": [{"seat": 0, "card": "AH"}, {"seat": 1, "card": "7H"}], "winner": 0, "points": 21}


def _last_trick_of_four(side0_before: int, last: list[str]) -> Engine:
    """A four-player deal at its last trick, seat 0 to lead, spades trumps, stock empty."""
    worth = values("albastini-4p")
    rest = [c for c in deck("albastini-4p") if c not in last]
    pile0, pile1 = split(rest, worth, 16, side0_before)
    setup = {
        "dealer": 3,
        "hands": {str(s): [c] for s, c in enumerate(last)},
        "stock": [],
        "start": {"phase": "play", "trump": "S", "to_act": 0, "piles": {"0": pile0, "1": pile1}, "tricks": [4, 4]},
    }
    engine = Engine.new("albastini-4p", setup)
    for seat, card in enumerate(last):
        apply_ok(engine, {"type": "play", "seat": seat, "card": card})
    return engine


def test_72_48_scores_one_victory_point() -> None:
    snap = _last_trick_of_four(61, ["AH", "3C", "4C", "5C"]).snapshot()
    assert snap["phase"] == "over"
    assert snap["totals"] == [72, 48]
    result = snap["result"]
    assert (result["winner"], result["vp"], result["double"], result["tie"]) == (0, 1, False, False)
    assert snap["match"]["vp"] == [1, 0]
    assert snap["match"]["sheet"] == {"0": 1, "1": 0, "2": 1, "3": 0}


def test_losers_under_their_mrithi_line_give_two() -> None:
    snap = _last_trick_of_four(90, ["AH", "3C", "4C", "5C"]).snapshot()
    assert snap["totals"] == [101, 19]
    assert (snap["result"]["vp"], snap["result"]["double"]) == (2, True)


def test_a_tie_scores_nothing_and_the_dealer_deals_again() -> None:
    snap = _last_trick_of_four(60, ["6C", "3C", "4C", "5C"]).snapshot()
    assert snap["totals"] == [60, 60]
    result = snap["result"]
    assert (result["winner"], result["tie"], result["vp"], result["next_dealer"]) == (None, True, 0, 3)
    assert snap["match"]["vp"] == [0, 0]


def test_bid_five_three_turned_the_bidder_holds_the_three() -> None:
    setup = filled("albastini-2p", BORIS, {ANNA: ["5H", "KC", "QD", "4C", "5D"]}, stock=["3H"])
    engine = Engine.new("albastini-2p", setup)
    events = apply_ok(engine, {"type": "bid", "seat": ANNA, "card": "5H"})
    assert {"type": "exchanged", "seat": ANNA, "gave": "5H", "took": "3H"} in events
    snap = engine.snapshot()
    assert "3H" in snap["hands"]["0"] and "5H" not in snap["hands"]["0"]
    assert snap["indicator"] == "5H"
    assert snap["stock"][-1] == "5H"
    assert snap["trump"] == "H"
    assert snap["bids"] == [{"seat": 0, "card": "5H", "outcome": "exchanged"}]


def test_altbaumer_club_lead_with_diamonds_trumps() -> None:
    # Dealer 3, so seat 0 (forehand) has led 9C; seat 1 holds AC and JC.
    setup = {
        "dealer": 3,
        "hands": {
            "0": ["QC", "KC", "TC", "9H"],
            "1": ["AC", "JC", "KH", "TS", "9S"],
            "2": ["9D", "AH", "TH", "QH", "JH"],
            "3": ["AD", "KD", "TD", "QD", "JD"],
        },
        "stock": [],
        "start": {"phase": "play", "trump": "D", "to_act": 1, "trick": [{"seat": 0, "card": "9C"}], "makers": 0,
                  "dead": ["AS", "KS", "QS", "JS"]},
    }
    engine = Engine.new("altbaumer-standard", setup)
    assert engine.legal_actions() == [{"type": "play", "seat": 1, "card": "AC"}, {"type": "play", "seat": 1, "card": "JC"}]
    assert code_of(engine, {"type": "play", "seat": 1, "card": "KH"}) == "must_follow_suit"
    apply_ok(engine, {"type": "play", "seat": 1, "card": "JC"})
    # Seat 2: no ordinary club and no Tree, but the trump 9D: a heart is refused.
    assert code_of(engine, {"type": "play", "seat": 2, "card": "AH"}) == "must_trump"
    assert engine.legal_actions() == [{"type": "play", "seat": 2, "card": "9D"}]
    apply_ok(engine, {"type": "play", "seat": 2, "card": "9D"})
    events = apply_ok(engine, {"type": "play", "seat": 3, "card": "AD"})
    won = next(e for e in events if e["type"] == "trick_won")
    assert won["winner"] == 1  # the Tree JC beats even the ace of trumps


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_five_players_never_draw_the_indicator(data: st.DataObject) -> None:
    engine = Engine.new("albastini-5p", data.draw(strategies.setups("albastini-5p"), "setup"))
    events = list(engine.setup_events)
    counts = []
    while legal := engine.legal_actions():
        events += apply_ok(engine, data.draw(st.sampled_from(legal).map(dict), "action"))
        snap = engine.snapshot()
        if snap["phase"] == "play" and not snap["trick"]:
            counts.append(snap["stock_count"])
            assert snap["stock"][-1] == snap["indicator"]  # under the stock all deal long
    assert counts[0] == 11 and counts[-1] == 1 and sorted(set(counts)) == [1, 6, 11]
    snap = engine.snapshot()
    indicator = snap["indicator"]
    assert snap["dead"] == [indicator] and snap["stock"] == []  # out of play once the deal is over
    assert not any(e["type"] == "drew" and e["card"] == indicator for e in events)
    assert sum(snap["tricks"]) == 7
    assert sum(snap["totals"]) == 120 - values("albastini-5p")[indicator]


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_three_players_the_indicator_goes_to_the_player_before_the_winner(data: st.DataObject) -> None:
    engine = Engine.new("albastini-3p", data.draw(strategies.setups("albastini-3p"), "setup"))
    events = play_drawn(engine, data)
    indicator = engine.snapshot()["indicator"]
    winner = None
    for event in events:
        if event["type"] == "trick_won":
            winner = event["winner"]
        if event["type"] == "drew" and event["card"] == indicator:
            assert winner is not None
            assert event["seat"] == (winner - 1) % 3
            break
    else:
        pytest.fail("the indicator was never drawn")
