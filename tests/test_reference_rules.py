"""The reference engine rule by rule: Otea, dealers, Altbaumer's cut, trumps, going alone, match."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance import strategies
from conformance.fuzz.shrink import from_position, without_won_cards
from conformance.suite.observing import clauses_of
from conformance.suite.scenarios import deck_of
from reference import Engine, SetupError, VariantError
from specreader.spec import kit_spec, variant, variant_ids

from depth import cases
from reference_support import apply_ok, code_of, deck, filled, play_out

ALT = "altbaumer-standard"
POSITION_DEALS = cases(quick=20, deep=3000)  # random deals per variant whose every position in play starts again


# ------------------------------------------------------------------ Otea
def test_otea_four_players_only_the_dealers_opponents_bid() -> None:
    engine = Engine.new("albastini-4p", filled("albastini-4p", 0, {1: ["5H"], 3: ["6H", "4S"]}, stock=["3C"]))
    snap = engine.snapshot()
    assert (snap["phase"], snap["to_act"]) == ("bidding", 1)
    assert code_of(engine, {"type": "bid", "seat": 2, "card": snap["hands"]["2"][0]}) == "not_allowed_to_bid"
    assert code_of(engine, {"type": "pass", "seat": 0}) == "not_allowed_to_bid"
    assert code_of(engine, {"type": "bid", "seat": 3, "card": "6H"}) == "not_your_turn"
    assert code_of(engine, {"type": "bid", "seat": 1, "card": "6H"}) == "card_not_in_hand"
    assert code_of(engine, {"type": "play", "seat": 1, "card": "5H"}) == "wrong_phase"
    apply_ok(engine, {"type": "bid", "seat": 1, "card": "5H"})
    assert code_of(engine, {"type": "bid", "seat": 1, "card": snap["hands"]["1"][1]}) == "already_acted"
    assert code_of(engine, {"type": "bid", "seat": 3, "card": "6H"}) == "suit_already_bid"
    assert {"type": "bid", "seat": 3, "card": "6H"} not in engine.legal_actions()
    events = apply_ok(engine, {"type": "bid", "seat": 3, "card": "4S"})
    types = [e["type"] for e in events]
    assert types == ["bid", "trump_turned", "bid_returned", "bid_returned", "indicator", "partners_look"]
    snap = engine.snapshot()
    assert (snap["trump"], snap["indicator"], snap["stock"][-1]) == ("C", "3C", "3C")
    assert [b["outcome"] for b in snap["bids"]] == ["returned", "returned"]
    assert (snap["phase"], snap["to_act"]) == ("play", 1)


def test_partners_look_only_before_the_first_card() -> None:
    engine = Engine.new("albastini-4p", filled("albastini-4p", 0, {}, stock=["3C"]))
    apply_ok(engine, {"type": "pass", "seat": 1})
    apply_ok(engine, {"type": "pass", "seat": 3})
    view = engine.view(1)
    assert view["partner_hand"] == {"3": engine.snapshot()["hands"]["3"]}
    apply_ok(engine, engine.legal_actions()[0])
    assert engine.view(1)["partner_hand"] is None


def test_two_player_game_has_no_look() -> None:
    engine = Engine.new("albastini-2p", filled("albastini-2p", 1, {}, stock=["3C"]))
    apply_ok(engine, {"type": "pass", "seat": 0})
    assert engine.view(0)["partner_hand"] is None


def test_refusals_follow_the_check_order() -> None:
    engine = Engine.new("albastini-2p", filled("albastini-2p", 1, {0: ["AH"]}, stock=["3C"]))
    assert code_of(engine, {"type": "play", "seat": 0, "card": "2H"}) == "invalid_action"
    assert code_of(engine, {"type": "play", "seat": 7, "card": "AH"}) == "invalid_action"
    assert code_of(engine, {"type": "play", "seat": 0, "card": "AH", "x": 1}) == "invalid_action"
    assert code_of(engine, {"type": "fold", "seat": 0}) == "invalid_action"
    assert code_of(engine, {"type": "play", "seat": True, "card": "AH"}) == "invalid_action"
    assert code_of(engine, {"type": "play", "seat": 0, "card": "AH"}) == "wrong_phase"
    apply_ok(engine, {"type": "pass", "seat": 0})
    assert code_of(engine, {"type": "play", "seat": 1, "card": "AH"}) == "not_your_turn"
    missing = next(c for c in deck("albastini-2p") if c not in engine.snapshot()["hands"]["0"])
    assert code_of(engine, {"type": "play", "seat": 0, "card": missing}) == "card_not_in_hand"


def test_briscola_turns_the_trump_card_at_once() -> None:
    setup = filled("briscola-2p", 1, {}, stock=["2D"])
    engine = Engine.new("briscola-2p", setup)
    snap = engine.snapshot()
    assert (snap["phase"], snap["trump"], snap["indicator"], snap["stock"][-1]) == ("play", "D", "2D", "2D")
    assert [e["type"] for e in engine.setup_events] == ["trump_turned", "indicator"]


# ------------------------------------------------------------------ next dealer (R2)
def _won_by_side0(history: list[int]) -> int:
    # The last trick of a four-player deal that side 0 wins on points.
    rest = [c for c in deck("albastini-4p") if c not in ("AH", "3C", "4C", "5C")]
    setup = {
        "dealer": history[-1],
        "dealer_history": history,
        "hands": {"0": ["AH"], "1": ["3C"], "2": ["4C"], "3": ["5C"]},
        "stock": [],
        "start": {"phase": "play", "trump": "S", "to_act": 0, "piles": {"0": rest}, "tricks": [8, 0]},
    }
    engine = Engine.new("albastini-4p", setup)
    for seat, card in enumerate(["AH", "3C", "4C", "5C"]):
        apply_ok(engine, {"type": "play", "seat": seat, "card": card})
    result = engine.snapshot()["result"]
    assert result["winner"] == 0
    return int(result["next_dealer"])


@pytest.mark.parametrize(
    ("history", "expected"),
    [
        ([3], 0),  # neither partner dealt: the first after the last dealer
        ([1], 2),
        ([0, 1, 2, 3], 0),  # seat 0 dealt longer ago
        ([2, 3, 0, 1], 2),
        ([0, 3], 2),  # seat 2 never dealt
    ],
)
def test_winning_pair_member_who_dealt_least_recently_deals(history: list[int], expected: int) -> None:
    assert _won_by_side0(history) == expected


# ------------------------------------------------------------------ Altbaumer
def _alt(stock: list[str], dealer: int = 3, **extra: Any) -> Engine:
    return Engine.new(ALT, filled(ALT, dealer, {}, stock=stock, **extra))


def test_turn_up_accept_then_discard_then_lone_decision() -> None:
    engine = _alt(["9H", "AS", "KS", "QS"])
    snap = engine.snapshot()
    assert (snap["phase"], snap["to_act"], snap["turned"]) == ("trump", 0, ["9H"])
    assert code_of(engine, {"type": "accept", "seat": 1}) == "not_your_turn"
    assert code_of(engine, {"type": "alone", "seat": 0}) == "wrong_phase"
    apply_ok(engine, {"type": "accept", "seat": 0})
    snap = engine.snapshot()
    assert (snap["trump"], snap["phase"], snap["makers"]) == ("H", "discard", 0)
    assert "9H" in snap["hands"]["0"] and len(snap["hands"]["0"]) == 6
    assert sorted(snap["dead"]) == sorted(["AS", "KS", "QS"])
    apply_ok(engine, {"type": "discard", "seat": 0, "card": "9H"})  # even the card just taken
    snap = engine.snapshot()
    assert (snap["phase"], snap["to_act"]) == ("lone", 0)
    assert code_of(engine, {"type": "alone", "seat": 1}) == "not_a_maker"
    assert code_of(engine, {"type": "alone", "seat": 2}) == "not_your_turn"
    apply_ok(engine, {"type": "pass", "seat": 0})
    assert code_of(engine, {"type": "alone", "seat": 0}) == "already_acted"
    apply_ok(engine, {"type": "pass", "seat": 2})
    snap = engine.snapshot()
    assert (snap["phase"], snap["to_act"], snap["lone"]) == ("play", 0, None)


def test_refuse_turns_until_another_suit_a_tree_counting_as_a_club() -> None:
    engine = _alt(["9H", "TH", "JC", "AS"])
    events = apply_ok(engine, {"type": "refuse", "seat": 0})
    made = next(e for e in events if e["type"] == "trump_made")
    assert (made["suit"], made["took"], made["compulsory"]) == ("C", ["JC"], False)
    snap = engine.snapshot()
    assert snap["turned"] == ["9H", "TH", "JC"]
    assert sorted(snap["dead"]) == sorted(["9H", "TH", "AS"])
    assert [a["type"] for a in engine.legal_actions()] == ["discard"] * 6


def test_stock_of_one_suit_is_compulsory_take_four_discard_four() -> None:
    engine = _alt(["9S", "TS", "JS", "QS"])
    events = apply_ok(engine, {"type": "refuse", "seat": 0})
    made = next(e for e in events if e["type"] == "trump_made")
    assert (made["suit"], made["compulsory"]) == ("S", True)
    assert len(engine.snapshot()["hands"]["0"]) == 9
    for _ in range(4):
        assert engine.snapshot()["phase"] == "discard"
        apply_ok(engine, engine.legal_actions()[0])
    snap = engine.snapshot()
    assert snap["phase"] == "lone" and len(snap["hands"]["0"]) == 5 and len(snap["dead"]) == 4


def test_partner_alone_sets_forehand_aside_and_the_next_active_player_leads() -> None:
    engine = _alt(["9H", "AS", "KS", "QS"])
    apply_ok(engine, {"type": "accept", "seat": 0})
    apply_ok(engine, engine.legal_actions()[0])
    apply_ok(engine, {"type": "pass", "seat": 0})
    forehand_hand = engine.snapshot()["hands"]["0"]
    apply_ok(engine, {"type": "alone", "seat": 2})
    snap = engine.snapshot()
    assert (snap["lone"], snap["phase"], snap["to_act"]) == (2, "play", 1)
    assert snap["hands"]["0"] == [] and set(forehand_hand) <= set(snap["dead"])
    events = play_out(engine, random.Random(1))
    assert all(len(e["cards"]) == 3 for e in events if e["type"] == "trick_won")
    assert engine.snapshot()["result"]["lone"] == 2


def test_cut_tree_taken_and_the_cutter_short_packet() -> None:
    cards = deck(ALT)
    for tree in ("JC", "QC"):  # QC shows at the cut, JC just before it
        cards.remove(tree)
    cards += ["JC", "QC"]
    engine = Engine.new(ALT, {"dealer": 0, "deck": cards})
    snap = engine.snapshot()
    assert (snap["phase"], snap["to_act"]) == ("cut", 3)  # the player before the dealer
    assert code_of(engine, {"type": "take_tree", "seat": 3, "card": "JC"}) == "no_tree_to_take"
    assert code_of(engine, {"type": "take_tree", "seat": 2, "card": "QC"}) == "not_your_turn"
    apply_ok(engine, {"type": "take_tree", "seat": 3, "card": "QC"})
    assert engine.legal_actions() == [{"type": "take_tree", "seat": 3, "card": "JC"}, {"type": "decline", "seat": 3}]
    apply_ok(engine, {"type": "take_tree", "seat": 3, "card": "JC"})
    snap = engine.snapshot()
    assert snap["trees_taken"] == ["QC", "JC"]
    assert {"QC", "JC"} <= set(snap["hands"]["3"])
    assert all(len(h) == 5 for h in snap["hands"].values()) and snap["stock_count"] == 4
    # Forehand (seat 1) got the top three cards, the cutter's first packet had one card.
    assert set(cards[:3]) <= set(snap["hands"]["1"])
    assert cards[6] in snap["hands"]["3"] and set(cards[7:10]) <= set(snap["hands"]["0"])
    assert snap["stock"] == cards[18:22]


def test_declined_tree_is_dealt_normally() -> None:
    cards = deck(ALT)
    cards.remove("QC")
    cards.append("QC")
    engine = Engine.new(ALT, {"dealer": 0, "deck": cards})
    apply_ok(engine, {"type": "decline", "seat": 3})
    snap = engine.snapshot()
    assert snap["trees_taken"] == [] and snap["stock"][-1] == "QC"
    assert snap["phase"] == "trump"


def test_deck_without_a_tree_at_the_cut_goes_straight_to_trumps() -> None:
    engine = Engine.new(ALT, {"dealer": 1, "deck": deck(ALT)})
    snap = engine.snapshot()
    assert (snap["phase"], snap["forehand"], snap["to_act"]) == ("trump", 2, 2)


def test_nines_name_the_dealer_and_must_match_the_sides() -> None:
    setup = filled(ALT, 0, {}, stock=["9H", "AS", "KS", "QS"])
    del setup["dealer"]
    setup["nines"] = {"0": "9D", "1": "9S", "2": "9H", "3": "9C"}
    assert Engine.new(ALT, setup).snapshot()["dealer"] == 3
    setup["nines"] = {"0": "9D", "1": "9H", "2": "9S", "3": "9C"}
    with pytest.raises(SetupError) as err:
        Engine.new(ALT, setup)
    assert err.value.path == ("nines",)
    setup["nines"] = {"0": "9D", "1": "9S", "2": "9H", "3": "9C"}
    setup["dealer"] = 0
    with pytest.raises(SetupError) as err:
        Engine.new(ALT, setup)
    assert (err.value.path, err.value.said) == (("dealer",), "the draw makes seat 3 the first dealer")


def test_nines_on_a_later_deal_are_held_to_the_first_dealer_of_the_history() -> None:
    """The draw makes the first dealer of the match: on a later deal, the first of ``dealer_history``, not this
    deal's dealer (altbaumer.deal.draw-partners)."""
    setup = filled(ALT, 0, {}, stock=["9H", "AS", "KS", "QS"])
    setup["nines"] = {"0": "9D", "1": "9S", "2": "9H", "3": "9C"}  # seat 3 deals first
    setup.update(dealer=0, dealer_history=[3, 0])
    assert Engine.new(ALT, setup).snapshot()["dealer"] == 0
    del setup["dealer"]  # the dealer is the last of the history
    assert Engine.new(ALT, setup).snapshot()["dealer"] == 0
    setup.update(dealer=0, dealer_history=[2, 3, 0])
    with pytest.raises(SetupError) as err:
        Engine.new(ALT, setup)
    assert (err.value.path, err.value.said) == (("dealer_history", 0), "the draw makes seat 3 the first dealer")


def _alt_last_trick(match: dict[str, Any], lone: int | None = None, sweep: bool = True) -> dict[str, Any]:
    """Altbaumer's fifth trick: side 0 (makers) has four tricks and takes the fifth if ``sweep``."""
    last = ["AH", "9S", "TH"] if lone is not None else ["AH", "9S", "TH", "TS"]
    if not sweep:
        last = ["9S", "AS", "TS", "KS"]  # seat 1's ace takes the last trick
    active = 3 if lone is not None else 4
    rest = [c for c in deck(ALT) if c not in last]
    pile0, dead = rest[: 4 * active], rest[4 * active:]
    seats = [0, 1, 3] if lone is not None else [0, 1, 2, 3]
    hands = {str(s): [c] for s, c in zip(seats, last, strict=True)}
    setup = {
        "dealer": 3,
        "hands": hands,
        "stock": [],
        "match": match,
        "start": {"phase": "play", "trump": "H", "to_act": 0, "piles": {"0": pile0}, "tricks": [4, 0], "makers": 0,
                  "lone": lone, "dead": dead},
    }
    engine = Engine.new(ALT, setup)
    while engine.legal_actions():
        apply_ok(engine, engine.legal_actions()[0])
    return engine.snapshot()


def test_tricks_score_and_round_won_at_five() -> None:
    snap = _alt_last_trick({"scores": [3, 2], "rounds": [0, 0]})
    assert snap["result"]["deal_score"] == [2, 0]
    assert snap["match"] == {"scores": [0, 0], "rounds": [1, 0], "round_winner": 0, "decider": False, "winner": None}


def test_four_tricks_score_one() -> None:
    snap = _alt_last_trick({"scores": [1, 0]}, sweep=False)
    assert snap["result"]["tricks"] == [4, 1]
    assert snap["result"]["deal_score"] == [1, 0]
    assert snap["match"]["scores"] == [2, 0] and snap["match"]["round_winner"] is None


def test_lone_sweep_wins_the_round_at_once() -> None:
    snap = _alt_last_trick({"scores": [0, 4], "rounds": [1, 0]}, lone=0)
    assert snap["result"]["lone"] == 0
    assert snap["match"]["round_winner"] == 0 and snap["match"]["winner"] == 0


def test_decider_is_a_single_deal() -> None:
    snap = _alt_last_trick({"scores": [0, 0], "rounds": [1, 1]}, sweep=False)
    assert snap["match"]["decider"] is True
    assert snap["match"]["winner"] == 0 and snap["match"]["rounds"] == [2, 1]


def test_makers_penalty_when_defenders_win() -> None:
    # Side 1 (defenders) with 3 tricks, makers 2: the makers score -1.
    last = ["9S", "AS", "TS", "KS"]  # spades led by seat 0; seat 1's AS wins
    rest = [c for c in deck(ALT) if c not in last]
    setup = {
        "dealer": 3,
        "hands": {str(s): [c] for s, c in enumerate(last)},
        "stock": [],
        "match": {"scores": [0, 0]},
        "start": {"phase": "play", "trump": "H", "to_act": 0, "piles": {"0": rest[:8], "1": rest[8:16]},
                  "tricks": [2, 2], "makers": 0, "dead": rest[16:]},
    }
    engine = Engine.new(ALT, setup)
    while engine.legal_actions():
        apply_ok(engine, engine.legal_actions()[0])
    result = engine.snapshot()["result"]
    assert (result["winner"], result["deal_score"], result["next_dealer"]) == (1, [-1, 1], 0)


# ------------------------------------------------------------------ setups and variants
@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda s: s.update(dealer=9), ("dealer",)),
        (lambda s: s["hands"]["0"].__setitem__(0, "2C"), ("hands", "0", 0)),
        (lambda s: s["hands"]["1"].__setitem__(0, s["hands"]["0"][0]), ("hands", "1", 0)),
        (lambda s: s["stock"].pop(), ()),
        (lambda s: s["hands"]["0"].append(s["stock"].pop()), ("hands", "0")),
        (lambda s: s.update(colour="red"), ("colour",)),
        (lambda s: s.update(dealer_history=[0, 2]), ("dealer_history", 1)),
        (lambda s: s.update(match={"vp": [1]}), ("match", "vp")),
    ],
)
def test_impossible_setups_name_the_path(change: Any, path: tuple[Any, ...]) -> None:
    setup = filled("albastini-2p", 1, {}, stock=[])
    change(setup)
    with pytest.raises(SetupError) as err:
        Engine.new("albastini-2p", setup)
    assert err.value.path == path


def test_start_checks_the_trick_and_hand_sizes() -> None:
    setup = filled("albastini-2p", 1, {0: ["AH"]}, stock=[], bottom=["6S"])
    setup["hands"]["0"].remove("AH")
    setup["start"] = {"phase": "play", "trump": "S", "to_act": 1, "indicator": "6S", "trick": [{"seat": 0, "card": "AH"}]}
    engine = Engine.new("albastini-2p", setup)
    assert engine.snapshot()["trick"] == [{"seat": 0, "card": "AH"}]
    bad = copy.deepcopy(setup)
    bad["start"]["to_act"] = 0
    with pytest.raises(SetupError) as err:
        Engine.new("albastini-2p", bad)
    assert err.value.path == ("start", "to_act")


def test_a_game_without_an_indicator_refuses_one_plainly() -> None:
    """Altbaumer turns no trump indicator: a mid-play start giving one is refused as such, not held to where an
    indicator would lie (there, a card out of play would pass)."""
    engine = Engine.new(ALT, {"dealer": 0, "deck": deck_of(variant(ALT))})
    while (snapshot := engine.snapshot())["phase"] != "play":
        engine.apply(engine.legal_actions()[0])
    assert snapshot["indicator"] is None and snapshot["dead"]
    start = {"phase": "play", "trump": snapshot["trump"], "to_act": snapshot["to_act"], "dead": snapshot["dead"]}
    for key in ("makers", "lone"):
        start[key] = snapshot[key]
    setup = {"dealer": 0, "hands": snapshot["hands"], "stock": snapshot["stock"], "start": start}
    assert Engine.new(ALT, setup).snapshot()["hands"] == snapshot["hands"]
    with pytest.raises(SetupError) as err:
        Engine.new(ALT, {**setup, "start": {**start, "indicator": snapshot["dead"][0]}})
    assert (err.value.path, err.value.said) == (("start", "indicator"), "this variant has no trump indicator")
    blamed = clauses_of(ALT).for_setup(err.value, ALT)  # the clauses of how its trumps are made, not the deal's
    assert blamed.clauses == ("altbaumer.trump.turn-up", "altbaumer.trump.refuse") and not blamed.unstated, blamed


@pytest.mark.parametrize("variant_id", [v for v in variant_ids() if v != ALT])
def test_a_game_without_makers_or_a_lone_player_refuses_them_plainly(variant_id: str) -> None:
    """Only Altbaumer's trumps are made by a side and let a maker go alone: elsewhere a mid-play start naming makers
    or a lone player is refused as such, not kept for the snapshot to report what the game never has."""
    engine = Engine.new(variant_id, {"dealer": 0, "deck": deck_of(variant(variant_id))})
    while (snapshot := engine.snapshot())["phase"] != "play":
        engine.apply(engine.legal_actions()[0])
    start = {"phase": "play", "trump": snapshot["trump"], "to_act": snapshot["to_act"], "indicator": snapshot["indicator"]}
    start |= {"makers": None, "lone": None}  # null: none, as the snapshot reports it
    setup = {"dealer": 0, "hands": snapshot["hands"], "stock": snapshot["stock"], "start": start}
    assert Engine.new(variant_id, setup).snapshot()["makers"] is None
    for key, value, said in (("makers", 0, "this variant has no makers"), ("lone", 0, "this variant has no lone player")):
        with pytest.raises(SetupError) as err:
            Engine.new(variant_id, {**setup, "start": {**start, key: value}})
        assert (err.value.path, err.value.said) == (("start", key), said)


def _altbaumer_at_the_first_lead(decisions: tuple[str, ...]) -> dict[str, Any]:
    """An Altbaumer setup starting as play begins: trumps made and the choice to go alone taken as ``decisions``
    say (dealer 3, so seat 0 is forehand), forehand discarding the first cards it may."""
    engine = _alt(["9H", "TH", "JC", "AS"])
    wanted = iter(decisions)
    while (snapshot := engine.snapshot())["phase"] != "play":
        legal = engine.legal_actions()
        kind = legal[0]["type"] if snapshot["phase"] == "discard" else next(wanted)
        apply_ok(engine, next(a for a in legal if a["type"] == kind))
    setup = from_position({"dealer": 3}, snapshot)
    assert setup is not None and len(snapshot["dead"]) >= 4
    return setup


@pytest.mark.parametrize(
    ("decisions", "leader"),
    [
        (("accept", "pass", "pass"), 0),
        (("refuse", "alone"), 0),  # forehand alone, its partner's hand out of play too
        (("accept", "pass", "alone"), 1),  # forehand's partner alone: forehand sits out, the next to play leads
    ],
)
def test_a_first_trick_led_by_another_seat_is_refused_though_making_trumps_left_cards_out_of_play(
    decisions: tuple[str, ...], leader: int
) -> None:
    """Altbaumer's stock is always out of play once trumps are made (the cards not taken, and as many discarded as
    were taken), and a lone player's partner's hand with it: those cards stand for no trick, so a start where they
    alone are out of play is at the first trick, which forehand leads. Cards out of play beyond them may stand for
    tricks the setup leaves uncounted (a position fuzz shrank): whoever leads, such a start is taken."""
    setup = _altbaumer_at_the_first_lead(decisions)
    start = setup["start"]
    assert start["to_act"] == leader and Engine.new(ALT, setup).snapshot()["to_act"] == leader
    playing = [int(seat) for seat, hand in setup["hands"].items() if hand]
    for seat in playing:
        if seat != leader:
            with pytest.raises(SetupError) as err:
                Engine.new(ALT, {**setup, "start": {**start, "to_act": seat}})
            assert (err.value.path, err.value.said) == (
                ("start", "to_act"),
                f"the first trick is led by seat {leader} (forehand, or the next to play if forehand sits out), not seat {seat}",
            )
    hands = {seat: hand[1:] if hand else [] for seat, hand in setup["hands"].items()}
    dead = [*start["dead"], *(hand[0] for hand in setup["hands"].values() if hand)]  # a trick's cards, uncounted
    other = next(seat for seat in playing if seat != leader)
    assert Engine.new(ALT, {**setup, "hands": hands, "start": {**start, "to_act": other, "dead": dead}})


@pytest.mark.parametrize("variant_id", variant_ids())
def test_a_start_recording_cards_no_deal_turns_is_refused(variant_id: str) -> None:
    """What a trump rule turns is bounded (one card for the Otea, at most the stock for the turn-up), and the card
    turned makes trumps (in the turn-up, the last turned, which forehand takes): a mid-play start recording every
    card of the trump suit as turned, or a card of another suit alone, gives what no deal turned."""
    engine = Engine.new(variant_id, {"dealer": 0, "deck": deck_of(variant(variant_id))})
    while (snapshot := engine.snapshot())["phase"] != "play":
        engine.apply(engine.legal_actions()[0])
    setup = from_position({"dealer": 0}, snapshot)
    assert setup is not None and setup["start"]["turned"]
    assert Engine.new(variant_id, setup).snapshot()["turned"] == snapshot["turned"]
    cards = engine.rules.cards
    of_trump = [code for c, code in enumerate(cards.codes) if cards.suits[cards.suit_of[c]] == snapshot["trump"]]
    other = next(code for c, code in enumerate(cards.codes) if code not in of_trump)
    for turned in (of_trump, [other]):
        with pytest.raises(SetupError) as err:
            Engine.new(variant_id, {**setup, "start": {**setup["start"], "turned": turned}})
        assert err.value.path[:2] == ("start", "turned") and err.value.parameter == "components.trump", err.value


def _swapped(setup: dict[str, Any], one: str, other: str) -> dict[str, Any]:
    """The setup with two cards swapped wherever either lies."""
    text = json.dumps(setup).replace(f'"{one}"', '"\0"').replace(f'"{other}"', f'"{one}"').replace('"\0"', f'"{other}"')
    swapped: dict[str, Any] = json.loads(text)
    return swapped


@pytest.mark.parametrize("variant_id", [v for v in variant_ids() if "draw" in variant(v)["components"]])
def test_a_start_s_indicator_shows_trumps_and_is_the_card_turned_where_none_can_take_its_place(variant_id: str) -> None:
    """The indicator is the card turned for trumps, or, where players bid, a card of its suit the compulsory exchange
    put in its place: a mid-play start whose indicator is of another suit is refused, and so, where no one bids, is one
    whose card turned is not the indicator (another trump, sitting in a hand)."""
    engine = Engine.new(variant_id, {"dealer": 0, "deck": deck_of(variant(variant_id))})
    while (snapshot := engine.snapshot())["phase"] != "play":
        engine.apply(engine.legal_actions()[0])
    setup = from_position({"dealer": 0}, snapshot)
    assert setup is not None and setup["start"].get("indicator") == snapshot["indicator"] is not None
    Engine.new(variant_id, setup)  # as play leaves it: taken
    cards = engine.rules.cards
    other_suit = next(code for code in cards.codes if code[-1] != snapshot["trump"])
    with pytest.raises(SetupError) as err:  # the card of another suit where the indicator lies, and it in its place
        Engine.new(variant_id, _swapped(setup, snapshot["indicator"], other_suit))
    assert err.value.path == ("start", "indicator") and "the indicator shows trumps" in err.value.said, err.value
    twice = {**setup, "start": {**setup["start"], "turned": [snapshot["indicator"]] * 2}}
    with pytest.raises(SetupError) as err:  # a card turned twice: put on how trumps are made, not the deal's form
        Engine.new(variant_id, twice)
    assert err.value.path == ("start", "turned") and err.value.parameter == "components.trump", err.value
    another = next(c for c in cards.codes if c[-1] == snapshot["trump"] and c not in (snapshot["indicator"], *snapshot["turned"]))
    given = {**setup, "start": {**setup["start"], "turned": [another]}}
    if variant(variant_id)["components"]["trump"].get("bidders") != "none":  # an exchange may have put a bid card there
        bidder = setup["hands"]["1"]  # seat 1 bids, the dealer's opponent: the card turned went into its hand
        held = given if another in bidder else _swapped(given, another, bidder[0])
        Engine.new(variant_id, {**held, "start": {**held["start"], "turned": [another]}})
        return
    with pytest.raises(SetupError) as err:
        Engine.new(variant_id, given)
    assert err.value.path == ("start", "turned", 0) and "the card turned is the indicator" in err.value.said, err.value


def _altbaumer_turned(answer: str, stock: list[str], decisions: tuple[str, ...] = ("pass", "pass")) -> dict[str, Any]:
    """An Altbaumer setup starting as play begins (dealer 3, so seat 0 is forehand): forehand answers the turned card
    ``answer``, keeps the cards it takes, and the makers decide to go alone as ``decisions`` say."""
    engine = _alt(stock)
    apply_ok(engine, {"type": answer, "seat": 0})
    taken = set(stock) & set(engine.snapshot()["hands"]["0"])
    wanted = iter(decisions)
    while (snapshot := engine.snapshot())["phase"] != "play":
        legal = engine.legal_actions()
        if snapshot["phase"] == "discard":
            apply_ok(engine, next(a for a in legal if a["card"] not in taken))
        else:
            kind = next(wanted)
            apply_ok(engine, next(a for a in legal if a["type"] == kind))
    setup = from_position({"dealer": 3}, snapshot)
    assert setup is not None and Engine.new(ALT, setup).snapshot()["turned"] == snapshot["turned"]
    return setup


def _moved(setup: dict[str, Any], card: str, seat: int) -> dict[str, Any]:
    """The setup with ``card`` swapped with the first card of ``seat``'s hand, what it records as turned kept."""
    start = {key: value for key, value in setup["start"].items() if key != "turned"}
    swapped = _swapped({**setup, "start": start}, card, setup["hands"][str(seat)][0])
    return {**swapped, "start": {**swapped["start"], "turned": setup["start"]["turned"]}}


_IN_ITS_HAND = "so it lies in its hand, out of play (dead) or in a trick it played"


@pytest.mark.parametrize(
    ("setup", "where", "said", "clauses"),
    [
        # refused: 9H turned, then AS of another suit, taken; 9H is dead, in no hand
        (_moved(_altbaumer_turned("refuse", ["9H", "AS", "JC", "KD"]), "9H", 2), ("hands", "2", 0),
         "9H was turned and not taken, so it is out of play (dead)", ("altbaumer.trump.dead-cards",)),
        (_moved(_altbaumer_turned("refuse", ["9H", "AS", "JC", "KD"]), "AS", 2), ("hands", "2", 0),
         f"AS was turned and taken by forehand, seat 0, on refusing, as the first card of another suit, {_IN_ITS_HAND}",
         ("altbaumer.trump.refuse",)),
        # accepted, or the stock all one suit and every card taken: in forehand's hand, not another's
        (_moved(_altbaumer_turned("accept", ["9H", "AS", "JC", "KD"]), "9H", 1), ("hands", "1", 0),
         f"9H was turned and taken by forehand, seat 0, on accepting its suit, {_IN_ITS_HAND}", ("altbaumer.trump.accept",)),
        (_moved(_altbaumer_turned("refuse", ["9H", "TH", "JH", "QH"]), "JH", 3), ("hands", "3", 0),
         f"JH was turned and taken by forehand, seat 0, bound to take the whole stock, all of one suit, {_IN_ITS_HAND}",
         ("altbaumer.trump.all-one-suit",)),
        # forehand's partner alone: forehand's hand, the card taken with it, is out of play
        (_moved(_altbaumer_turned("accept", ["9H", "AS", "JC", "KD"], ("pass", "alone")), "9H", 1), ("hands", "1", 0),
         "9H was turned and taken by forehand, seat 0, on accepting its suit, so it lies out of play (dead)",
         ("altbaumer.trump.accept",)),
    ],
)
def test_a_start_placing_a_turned_card_where_no_deal_leaves_it_is_refused(
    setup: dict[str, Any], where: tuple[Any, ...], said: str, clauses: tuple[str, ...]
) -> None:
    """Forehand takes the last card turned (every card, from a stock all of one suit) and the other cards turned are
    dead: a mid-play start with a card turned in a hand no deal gives it to is refused where the card lies, on the
    clause saying where making trumps put it: for a card taken, the clause of the decision that took it, which the
    refusal says."""
    with pytest.raises(SetupError) as err:
        Engine.new(ALT, setup)
    assert (err.value.path, err.value.said) == (where, said), err.value
    assert clauses_of(ALT).for_setup(err.value, ALT).clauses == clauses


def test_a_card_turned_and_taken_is_played_by_forehand_alone() -> None:
    """The card forehand took may be on the table as forehand's card, never as another seat's."""
    setup = _altbaumer_turned("accept", ["9H", "AS", "JC", "KD"])
    hands = setup["hands"]
    assert "9H" in hands["0"] and setup["start"]["to_act"] == 0
    led, followed = next(c for c in hands["0"] if c != "9H"), hands["1"][0]

    def trick(first: str, second: str, leader_keeps: list[str], follower_keeps: list[str]) -> dict[str, Any]:
        played = [{"seat": 0, "card": first}, {"seat": 1, "card": second}]
        start = {**setup["start"], "to_act": 2, "trick": played}
        return {**setup, "hands": {**hands, "0": leader_keeps, "1": follower_keeps}, "start": start}

    rest_0 = [c for c in hands["0"] if c not in ("9H", led)]
    assert Engine.new(ALT, trick("9H", followed, [*rest_0, led], hands["1"][1:])).snapshot()["trick"][0]["card"] == "9H"
    with pytest.raises(SetupError) as err:  # seat 1 playing forehand's card, forehand holding one of seat 1's instead
        Engine.new(ALT, trick(led, "9H", [*rest_0, followed], hands["1"][1:]))
    assert err.value.path == ("start", "trick", 1) and "taken by forehand, seat 0" in err.value.said, err.value


def _otea_in_play(
    variant_id: str, dealer: int, hands: dict[int, list[str]], top: str, bids: dict[int, str], plays: int = 0
) -> dict[str, Any]:
    """A setup begun in play where a deal leaves it: ``top`` turned, the seats of ``bids`` bidding their card and the
    other bidders passing, then ``plays`` cards played (the first legal each)."""
    engine = Engine.new(variant_id, filled(variant_id, dealer, hands, stock=[top]))
    while (snapshot := engine.snapshot())["phase"] == "bidding":
        seat = snapshot["to_act"]
        apply_ok(engine, {"type": "bid", "seat": seat, "card": bids[seat]} if seat in bids else {"type": "pass", "seat": seat})
    for _ in range(plays):
        apply_ok(engine, engine.legal_actions()[0])
    setup = from_position({"dealer": dealer}, engine.snapshot())
    assert setup is not None and Engine.new(variant_id, setup).snapshot()["turned"] == [top]
    return setup


def _relocated(setup: dict[str, Any], card: str, other: str, **start: Any) -> dict[str, Any]:
    """The setup with two cards swapped where they lie, what the start records of them (turned, indicator) kept, and
    the keys ``start`` names set (None: left out)."""
    kept = {key: setup["start"][key] for key in ("turned", "indicator") if key in setup["start"]}
    swapped = _swapped({**setup, "start": {k: v for k, v in setup["start"].items() if k not in kept}}, card, other)
    given = {**swapped["start"], **kept, **start}
    return {**swapped, "start": {key: value for key, value in given.items() if value is not None}}


_ALB_EXCHANGED = _otea_in_play("albastini-2p", 1, {0: ["5H"]}, "3H", {0: "5H"})  # seat 0 took 3H for 5H
_ALB_TURNED = _otea_in_play("albastini-2p", 1, {}, "3C", {})  # seat 0 passed: 3C is the indicator
_BRISCOLA = _otea_in_play("briscola-2p", 1, {}, "2D", {})
_BISCA = _otea_in_play("bisca-2p", 1, {}, "2D", {})
# Dealer 0: seat 1 took 3H for 5H, led, and seat 2, the dealer's partner, played to the trick.
_ALB_4P = _otea_in_play("albastini-4p", 0, {1: ["5H", "AC"]}, "3H", {1: "5H"}, plays=2)
_PLACED = ("albastini.otea.indicator-placement",)
_EXCHANGED = ("albastini.otea.compulsory-exchange",)
_ON_TOP = "lies under the stock, its last card, until it is drawn, not on top of it"


@pytest.mark.parametrize(
    ("variant_id", "setup", "where", "said", "clauses"),
    [
        # not exchanged, the card turned lies under the stock until it is drawn: not on top of it, nor inside it
        ("briscola-2p", _relocated(_BRISCOLA, "2D", _BRISCOLA["stock"][0], indicator=None), ("stock", 0),
         f"2D, the card turned, {_ON_TOP}", ("briscola.deal.trump-card",)),
        ("bisca-2p", _relocated(_BISCA, "2D", _BISCA["stock"][1], indicator=None), ("stock", 1),
         "2D, the card turned, lies under the stock, its last card, until it is drawn, not inside it",
         ("bisca.deal.trump-card",)),
        ("albastini-2p", _relocated(_ALB_TURNED, "3C", _ALB_TURNED["stock"][0], indicator=None), ("stock", 0),
         f"3C, the card turned, {_ON_TOP}", _PLACED),
        # ... and a deal reports it there as the indicator
        ("briscola-2p", _relocated(_BRISCOLA, "2D", "2D", indicator=None), ("stock", len(_BRISCOLA["stock"]) - 1),
         "2D, the card turned, lies under the stock as the trump indicator: expected start.indicator 2D",
         ("briscola.deal.trump-card",)),
        ("albastini-2p", _relocated(_ALB_TURNED, "3C", "3C", indicator=None), ("stock", len(_ALB_TURNED["stock"]) - 1),
         "3C, the card turned, lies under the stock as the trump indicator: expected start.indicator 3C", _PLACED),
        # ... while the stock lasts: in no hand
        ("bisca-2p", _relocated(_BISCA, "2D", _BISCA["hands"]["0"][0], indicator=None), ("hands", "0", 0),
         "2D, the card turned, lies under the stock as the trump indicator until the stock is drawn out",
         ("bisca.deal.trump-card",)),
        # exchanged, the card turned went into the bidder's hand: in no stock, in no hand of a seat that does not bid
        ("albastini-2p", _relocated(_ALB_EXCHANGED, "3H", _ALB_EXCHANGED["stock"][0]), ("stock", 0),
         "3H was exchanged for 5H, the indicator: a bidder took it into hand, so it lies in no stock", _EXCHANGED),
        ("albastini-2p", _relocated(_ALB_EXCHANGED, "3H", _ALB_EXCHANGED["hands"]["1"][2]), ("hands", "1", 2),
         "3H was exchanged for 5H, the indicator: a bidder took it into hand, so seat 0 holds or played it, not seat 1",
         _EXCHANGED),
        ("albastini-4p", _relocated(_ALB_4P, "3H", _ALB_4P["start"]["trick"][1]["card"]), ("start", "trick", 1),
         "3H was exchanged for 5H, the indicator: a bidder took it into hand, so one of seats 1 and 3 holds or played "
         "it, not seat 2", _EXCHANGED),
        # with no indicator given, the card turned or the bid card exchanged for it lies under the stock unreported
        ("albastini-2p", _relocated(_ALB_EXCHANGED, "3H", "3H", indicator=None),
         ("hands", "0", _ALB_EXCHANGED["hands"]["0"].index("3H")),
         "3H, the card turned, lies under the stock as the trump indicator, or a bid card exchanged for it does: "
         "expected start.indicator", ("albastini.otea.compulsory-exchange", "albastini.otea.indicator-placement")),
    ],
)
def test_a_start_placing_the_card_turned_where_no_deal_leaves_it_is_refused(
    variant_id: str, setup: dict[str, Any], where: tuple[Any, ...], said: str, clauses: tuple[str, ...]
) -> None:
    """The dealer's card turned lies face up under the stock, its last card, as the indicator until it is drawn;
    exchanged for a bid card (Albastini's compulsory exchange), it is in the bidder's hand until played: a mid-play
    start with it elsewhere is refused where it lies, on the clause saying where the deal put it."""
    with pytest.raises(SetupError) as err:
        Engine.new(variant_id, setup)
    assert (err.value.path, err.value.said) == (where, said), err.value
    blamed = clauses_of(variant_id).for_setup(err.value, variant_id)
    assert blamed.clauses == clauses and not blamed.unstated, blamed


_ALB_5P = _otea_in_play("albastini-5p", 0, {}, "3D", {})  # everybody passed: 3D, turned, lies under the stock
_ALB_5P_DRAWN = _otea_in_play("albastini-5p", 0, {}, "3D", {}, plays=10)  # two tricks and draw rounds: 3D alone left
_NO_INDICATOR = "while the stock lasts the trump indicator lies face up under it, its last card: expected start.indicator"
_OUT_OF_PLAY = "the indicator lies under the stock, its last card, while the stock lasts, not out of play or elsewhere"
_KEPT = "the indicator is never drawn: it lies under the stock, its last card, for the whole deal, so a stock in play holds it"


def _unrecorded(setup: dict[str, Any]) -> dict[str, Any]:
    """The setup's start with neither the indicator nor the card turned given."""
    start = {key: value for key, value in setup["start"].items() if key not in ("indicator", "turned")}
    return {**setup, "start": start}


def _indicator_out_of_play(setup: dict[str, Any], players: int) -> dict[str, Any]:
    """The indicator, the stock's last card, put out of play, with the cards off its top that leave the stock a
    multiple of the players (a trick's cards set aside, as fuzz shrinks a position)."""
    stock = setup["stock"]
    top = (len(stock) - 1) % players
    dead = [*stock[:top], stock[-1]]
    return {**setup, "stock": stock[top:-1], "start": {**setup["start"], "dead": dead}}


def _stock_drawn_out(setup: dict[str, Any], **start: Any) -> dict[str, Any]:
    """The setup with its stock, the indicator alone, emptied: the indicator out of play, and ``start`` set."""
    (indicator,) = setup["stock"]
    given = {**setup["start"], "dead": [*setup["start"].get("dead", []), indicator], **start}
    return {**setup, "stock": [], "start": {key: value for key, value in given.items() if value is not None}}


@pytest.mark.parametrize(
    ("variant_id", "setup", "where", "said", "clauses"),
    [
        # while the stock lasts, the indicator lies under it, given as the start's indicator
        ("briscola-2p", _unrecorded(_BRISCOLA), ("start", "indicator"), _NO_INDICATOR, ("briscola.deal.trump-card",)),
        ("albastini-2p", _unrecorded(_ALB_EXCHANGED), ("start", "indicator"), _NO_INDICATOR, _PLACED),
        ("albastini-5p", _unrecorded(_ALB_5P), ("start", "indicator"), _NO_INDICATOR, _PLACED),
        # ... not out of play: it leaves the stock only as it is drawn (with five players, as the deal ends)
        ("bisca-2p", _indicator_out_of_play(_BISCA, 2), ("start", "indicator"), _OUT_OF_PLAY, ("bisca.deal.trump-card",)),
        ("albastini-2p", _indicator_out_of_play(_ALB_TURNED, 2), ("start", "indicator"), _OUT_OF_PLAY,
         ("albastini.draw.indicator-last-drawer",)),
        ("albastini-5p", _indicator_out_of_play(_ALB_5P, 5), ("start", "indicator"), _OUT_OF_PLAY,
         ("albastini.five-players.indicator-dead",)),
        # with five players it is never drawn: the stock holds it for the whole of play
        ("albastini-5p", _stock_drawn_out(_ALB_5P_DRAWN), ("stock",), _KEPT, ("albastini.five-players.indicator-dead",)),
        ("albastini-5p", _stock_drawn_out(_ALB_5P_DRAWN, indicator=None, turned=None), ("stock",), _KEPT,
         ("albastini.five-players.indicator-dead",)),
    ],
)
def test_a_start_where_no_deal_leaves_the_indicator_is_refused(
    variant_id: str, setup: dict[str, Any], where: tuple[Any, ...], said: str, clauses: tuple[str, ...]
) -> None:
    """The indicator lies face up under the stock, its last card, from the moment trumps are made until it is drawn,
    and with five Albastini players it is never drawn: a mid-play start with a stock and no indicator, with the
    indicator out of play while the stock lasts, or with five players and no stock is refused, on the clause saying
    where the indicator lies."""
    with pytest.raises(SetupError) as err:
        Engine.new(variant_id, setup)
    assert (err.value.path, err.value.said) == (where, said), err.value
    blamed = clauses_of(variant_id).for_setup(err.value, variant_id)
    assert blamed.clauses == clauses and not blamed.unstated, blamed


def _where_the_card_turned_lies(snapshot: dict[str, Any]) -> str:
    turned = snapshot["turned"][0]
    if turned in snapshot["stock"]:
        return "under the stock"
    held = any(turned in hand for hand in snapshot["hands"].values())
    return f"{'drawn' if snapshot['indicator'] == turned else 'exchanged'}, {'held' if held else 'played'}"


def _where_the_indicator_lies(snapshot: dict[str, Any]) -> str:
    stock = snapshot["stock"]
    if not stock:
        return "drawn"
    assert stock[-1] == snapshot["indicator"], snapshot  # while the stock lasts, its last card
    return "alone under the stock" if len(stock) == 1 else "under the stock"


@pytest.mark.parametrize("variant_id", [v for v in variant_ids() if variant(v)["components"]["trump"]["rule"] == "otea"])
def test_a_start_where_play_leaves_the_card_turned_is_taken(variant_id: str) -> None:
    """Every position random deals reach in play starts a deal again, and so does each with its cards won put out of
    play (as fuzz shrinks it): the card turned under the stock, drawn, exchanged into a bidder's hand, played; the
    indicator under the stock while it lasts, then drawn; a five-player indicator never drawn, alone under the stock
    once the draw rounds are done."""
    rng = random.Random(variant_id)
    components = variant(variant_id)["components"]
    cards, players = deck(variant_id), int(variant(variant_id)["players"])
    seen: set[str] = set()
    indicators: set[str] = set()
    for _ in range(POSITION_DEALS):
        setup = {"dealer": rng.randrange(players), "deck": rng.sample(cards, len(cards))}
        engine = Engine.new(variant_id, setup)
        while engine.legal_ids():
            if (snapshot := engine.snapshot())["phase"] == "play":
                position = from_position(setup, snapshot)
                for start in (position, without_won_cards(position) if position is not None else None):
                    if start is not None:
                        assert Engine.new(variant_id, start).snapshot()["turned"] == snapshot["turned"], start
                seen.add(_where_the_card_turned_lies(snapshot))
                indicators.add(_where_the_indicator_lies(snapshot))
            engine.apply_id(rng.choice(engine.legal_ids()))
    never_drawn = components["draw"]["indicator"] == "dead"
    drawn = {"drawn, held", "drawn, played"} if not never_drawn else set()
    exchanged = {"exchanged, held", "exchanged, played"} if components["trump"]["bidders"] != "none" else set()
    assert seen == {"under the stock", *drawn, *exchanged}
    assert indicators == {"under the stock", "alone under the stock" if never_drawn else "drawn"}


@pytest.mark.parametrize(
    ("turned", "trump", "refused_at"),
    [
        (["9H", "TH", "JC"], "C", None),  # refused: turned until another suit shows, a Tree counting as a club
        (["9S", "TS", "JS", "QS"], "S", None),  # the stock all one suit: every card turned, all taken
        (["JC"], "C", None),  # accepted
        (["9H", "TH"], "H", 1),  # turning goes on after a second heart
        (["9H", "JC", "TH"], "H", 1),  # and stops at the first club
        (["9H", "TH", "JC"], "H", 2),  # the club shown is taken: clubs are trumps
        (["9S", "TS", "JS", "QS", "KS"], "S", 4),  # never more than the stock
    ],
)
def test_the_cards_a_turn_up_records_are_those_turned_until_another_suit_shows(
    turned: list[str], trump: str, refused_at: int | None
) -> None:
    if refused_at is None:  # a deal turning them, so that each lies where it leaves them
        answer = "accept" if len(turned) == 1 else "refuse"
        setup = _altbaumer_turned(answer, [*turned, "AD", "KD", "QD"][:4])
    else:
        setup = _altbaumer_at_the_first_lead(("refuse", "pass", "pass"))
    given = {**setup, "start": {**setup["start"], "turned": turned, "trump": trump}}
    if refused_at is None:
        assert Engine.new(ALT, given).snapshot()["turned"] == turned
        return
    with pytest.raises(SetupError) as err:
        Engine.new(ALT, given)
    assert err.value.path == ("start", "turned", refused_at), err.value


def _variant(**components: Any) -> dict[str, Any]:
    v = variant("albastini-2p")
    v["components"].update(components)
    return v


@pytest.mark.parametrize(
    ("v", "path"),
    [
        (_variant(trump={"rule": "auction"}), ("components", "trump", "rule")),
        (_variant(score={"rule": "mrithi", "line_per_member": 10, "single": 1, "double": 2, "bonus": 1}),
         ("components", "score", "bonus")),
        (_variant(sorcery={"rule": "x"}), ("components", "sorcery")),
        (_variant(match={"rule": "rounds", "round_target": 5, "rounds_to_win": 2}), ("components", "match", "rule")),
    ],
)
def test_unknown_rules_are_clear_variant_errors(v: dict[str, Any], path: tuple[str, ...]) -> None:
    with pytest.raises(VariantError) as err:
        Engine.from_variant(v, filled("albastini-2p", 1, {}, stock=[]))
    assert err.value.path == path


@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_direction_changes_no_behaviour(data: st.DataObject) -> None:
    setup = data.draw(strategies.setups("albastini-4p"), "setup")
    a, b = Engine.new("albastini-4p", setup), Engine.new("albastini-clockwise", setup)
    while legal := a.legal_actions():
        assert legal == b.legal_actions()
        action = data.draw(st.sampled_from(legal).map(dict), "action")
        assert a.apply(action) == b.apply(action)
    snap_a, snap_b = a.snapshot(), b.snapshot()
    assert snap_a.pop("variant") != snap_b.pop("variant")
    assert snap_a == snap_b


def test_nothing_the_variant_states_is_hard_coded() -> None:
    """A made-up variant: other ranks and values, 4-card hands, packets of 2, a 70 line."""
    v = variant("briscola-2p")
    v["id"] = "made-up"
    v["deck"] = {"suits": "S H", "ranks": "K Q J T 9 8 7 6"}
    v["values"] = {"K": 5, "T": 10, "8": 1}
    v["ranking"] = {"plain_order": "T K Q J 9 8 7 6"}
    v["deal"] = {"hand_size": 4, "packets": [2]}
    v["components"]["score"] = {"rule": "over-threshold", "win_over": 20, "single": 3}
    for seed in range(20):
        rng = random.Random(seed)
        cards = [r + s for s in "SH" for r in "KQJT9876"]
        rng.shuffle(cards)
        engine = Engine.from_variant(v, {"dealer": 0, "deck": cards})
        assert engine.snapshot()["hands"]["1"] == sorted(cards[:2] + cards[4:6], key=(
            lambda c: ("SH".index(c[1]), "KQJT9876".index(c[0]))))
        play_out(engine, rng)
        snap = engine.snapshot()
        assert sum(snap["totals"]) == 2 * 16
        winner = snap["result"]["winner"]
        assert (winner is not None) == (max(snap["totals"]) > 20 and snap["totals"][0] != snap["totals"][1])
        if winner is not None:
            assert snap["result"]["vp"] == 3


def test_unknown_variant_is_a_clear_error() -> None:
    with pytest.raises(VariantError, match="no variant 'albastini-7p'"):
        Engine.new("albastini-7p", {"dealer": 0, "deck": []})


def test_legal_actions_are_shared_read_only_json() -> None:
    engine = Engine.new("albastini-2p", filled("albastini-2p", 1, {}, stock=["3C"]))
    action = engine.legal_actions()[0]
    with pytest.raises(TypeError):
        action["seat"] = 1
    mutable = copy.deepcopy(action)
    mutable["seat"] = 1
    assert type(mutable) is dict and engine.legal_actions()[0] == {"type": "pass", "seat": 0}


def test_every_over_60_table_plays_to_the_target_it_agrees() -> None:
    """albastini.over-60.vp-target: the target is agreed before play, commonly 5 or 10; the variant's is the usual one."""
    over60 = [v for v in variant_ids() if variant(v)["components"]["match"]["rule"] == "vp-target"]
    assert len(over60) >= 6
    for vid in over60:
        sides = len(variant(vid)["sides"])
        for target in (5, 10, 1, 25):
            deck = deck_of(variant(vid))
            snapshot = Engine.new(vid, {"dealer": 0, "deck": deck, "match": {"vp": [0] * sides, "target": target}}).snapshot()
            assert snapshot["match"]["target"] == target, vid
        assert Engine.new(vid, {"dealer": 0, "deck": deck_of(variant(vid))}).snapshot()["match"]["target"] == 5


@pytest.mark.parametrize(
    ("clause_id", "score_rule"),
    [("albastini.score.every-loser-checked", "mrithi"), ("albastini.over-60.nobody-over-60", "over-threshold")],
)
def test_clauses_on_three_sides_or_more_name_exactly_those_tables(clause_id: str, score_rule: str) -> None:
    """R7 and R8 speak of tables with several losing sides: each clause names every such table of its scoring, and
    no table of two sides, where a deal has one loser and nobody over 60 only on a tie."""
    named = set(kit_spec().clause_index()[clause_id]["variants"])
    tables = {
        v for v in variant_ids()
        if variant(v)["game"] == "albastini" and variant(v)["components"]["score"]["rule"] == score_rule
    }
    assert named == {v for v in tables if len(variant(v)["sides"]) >= 3}
