"""Legal playouts of every playable variant, drawn action by action, checking invariants at every step.

Each test draws a setup, then at each step the action from the engine's own legal actions and a few
illegal attempts (conformance.strategies), so a broken invariant shrinks to a short game.
Four deals per variant in the suite, 500 under ``TRICKSPEC_DEEP=1`` (tests/depth.py).
"""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance import strategies
from reference import Applied, Engine
from specreader.jsontypes import Json
from specreader.spec import variant, variant_ids

from depth import cases
from reference_support import deck, placed, values

EXAMPLES = cases(quick=4, deep=500)


@cache
def _resolved(variant_id: str) -> Json:
    """The variant once per variant, for reading only (``variant()`` deep-copies it at every call)."""
    return variant(variant_id)


def _check_snapshot(variant_id: str, snap: Json) -> None:
    v = _resolved(variant_id)
    order = deck(variant_id)
    worth = values(variant_id)
    assert sorted(placed(snap)) == sorted(order), "every card in exactly one place"
    for hand in snap["hands"].values():
        assert hand == sorted(hand, key=order.index), "hands in canonical order"
    per_trick = v["players"]
    if snap["lone"] is not None:
        per_trick -= len(next(side for side in v["sides"] if snap["lone"] in side)) - 1
    for side, pile in enumerate(snap["piles"]):
        assert snap["totals"][side] == sum(worth[c] for c in pile)
        assert len(pile) == snap["tricks"][side] * per_trick
    assert (snap["to_act"] is None) == (snap["phase"] == "over")
    if snap["phase"] == "over":
        assert sum(snap["totals"]) + sum(worth[c] for c in snap["dead"]) == sum(worth.values())
        assert not any(snap["hands"].values()) and not snap["stock"]
        if variant_id.startswith("albastini") and v["players"] != 5:
            assert sum(snap["totals"]) == 120


def _check_views(engine: Engine, snap: Json, players: int) -> None:
    public = {b["card"] for b in snap["bids"]} | set(snap["turned"]) | set(snap["trees_taken"]) | {snap["indicator"]}
    for seat in range(players):
        view = engine.view(seat)
        assert view["hand"] == snap["hands"][str(seat)]
        assert view["hand_counts"] == [len(snap["hands"][str(s)]) for s in range(players)]
        hidden = set(snap["stock"]) | set(snap["dead"])
        hidden |= {c for s, hand in snap["hands"].items() if s != str(seat) for c in hand}
        seen = {b["card"] for b in view["bids"]} | set(view["turned"]) | set(view["trees_taken"])
        seen |= {t["card"] for t in view["trick"]}
        if view["last_trick"] is not None:
            seen |= {t["card"] for t in view["last_trick"]["cards"]}
        if view["indicator"] is not None:
            seen.add(view["indicator"])
        assert not (seen & hidden) - public, f"seat {seat} sees hidden cards"
        if view["partner_hand"] is not None:
            assert snap["phase"] in ("lone", "play") and not snap["trick"] and not snap["last_trick"]
            for partner, hand in view["partner_hand"].items():
                assert hand == snap["hands"][partner]


def _revokes(legal: list[Json], snap: Json) -> list[Json]:
    """Every card of the acting seat's hand, under each action type that names a card now: one not legal is a revoke."""
    shapes = {(a["type"], a["seat"]) for a in legal if "card" in a}
    return [{"type": kind, "seat": seat, "card": c} for kind, seat in sorted(shapes) for c in snap["hands"][str(seat)]]


MALFORMED: Json = {"type": "play", "seat": 0}  # a play without its card
ATTEMPTS = st.integers(0, 2)  # illegal attempts drawn at each step, besides the revokes and MALFORMED


@pytest.mark.parametrize("variant_id", variant_ids())
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_playouts_keep_the_invariants(variant_id: str, data: st.DataObject) -> None:
    players = variant(variant_id)["players"]
    setup = data.draw(strategies.setups(variant_id), "setup")
    engine = Engine.new(variant_id, setup)
    actions: list[Json] = []
    snapshots: list[Json] = []
    while True:
        snap = engine.snapshot()
        snapshots.append(snap)
        _check_snapshot(variant_id, snap)
        _check_views(engine, snap, players)
        legal = engine.legal_actions()
        assert len({str(sorted(a.items())) for a in legal}) == len(legal), "legal actions listed once"
        attempts = [data.draw(strategies.illegal_attempts(variant_id, legal, snap["hands"]), "illegal")
                    for _ in range(data.draw(ATTEMPTS, "attempts"))]
        for action in [*attempts, *_revokes(legal, snap), MALFORMED]:
            if action in legal:
                continue
            outcome = engine.apply(action)
            assert not isinstance(outcome, Applied), f"{action} accepted but not listed as legal"
            assert engine.snapshot() == snap, f"rejecting {action} changed the state"
        if not legal:
            break
        action = data.draw(st.sampled_from(legal).map(dict), "action")
        outcome = engine.apply(action)
        assert isinstance(outcome, Applied), f"legal {action} refused: {outcome}"
        actions.append(action)
    replay = Engine.new(variant_id, setup)
    assert replay.snapshot() == snapshots[0]
    for action, expected in zip(actions, snapshots[1:], strict=True):
        replay.apply(action)
        assert replay.snapshot() == expected


@pytest.mark.parametrize("variant_id", variant_ids())
def test_a_copy_is_the_same_deal_and_independent(variant_id: str) -> None:
    """``Engine.copy`` at every step of a deal: the copy keeps its position while the original plays on,
    then plays on to the original's end, and the original is not moved by the copies."""
    rng = random.Random(variant_id)
    cards = deck(variant_id)
    rng.shuffle(cards)
    engine = Engine.new(variant_id, {"dealer": 0, "deck": cards})
    copies: list[tuple[Engine, Json, int]] = []
    actions: list[Json] = []
    while legal := engine.legal_actions():
        copies.append((engine.copy(), engine.snapshot(), len(actions)))
        action = dict(rng.choice(legal))
        assert isinstance(engine.apply(action), Applied)
        actions.append(action)
    final = engine.snapshot()
    for twin, position, played in copies:
        assert twin.snapshot() == position
        for action in actions[played:]:
            assert isinstance(twin.apply(action), Applied)
        assert twin.snapshot() == final
    assert engine.snapshot() == final


@pytest.mark.parametrize("variant_id", variant_ids())
def test_a_match_goes_on_from_the_setup_a_deal_leaves(variant_id: str) -> None:
    """Deal after deal of random legal play, each started from ``next_setup`` of the one before and a new
    deck: the next dealer is the one the result names, the match is as the deal before left it, and there is
    no next deal once the match is won."""
    rng = random.Random(variant_id)
    cards = deck(variant_id)
    setup: Json | None = {"dealer": 0}
    ended = None
    for _ in range(40):
        assert setup is not None
        rng.shuffle(cards)
        engine = Engine.new(variant_id, {**setup, "deck": list(cards)})
        start = engine.snapshot()
        if ended is not None:
            assert start["dealer"] == ended["result"]["next_dealer"]
            went_on = {k: v for k, v in ended["match"].items() if k not in ("winner", "round_winner", "decider")}
            assert {k: start["match"][k] for k in went_on} == went_on
            assert start["match"]["winner"] is None
        while legal := engine.legal_actions():
            engine.apply(dict(rng.choice(legal)))
        ended = engine.snapshot()
        setup = engine.next_setup()
        if setup is None:
            assert ended["match"]["winner"] is not None
            break
        assert setup["dealer_history"][-2:] == [start["dealer"], ended["result"]["next_dealer"]]
