"""Random legal playouts of every playable variant, checking invariants at every step.

TRICKSPEC_FUZZ_EXAMPLES raises the number of deals per variant (default 12).
"""

from __future__ import annotations

import os
import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference import Applied, Engine
from reference.rules import ACTION_SHAPES
from specreader.jsontypes import Json
from specreader.spec import variant, variant_ids

from reference_support import deck, placed, values

EXAMPLES = int(os.environ.get("TRICKSPEC_FUZZ_EXAMPLES", "12"))

def _setup(variant_id: str, rng: random.Random, as_hands: bool) -> Json:
    v = variant(variant_id)
    cards = deck(variant_id)
    rng.shuffle(cards)
    dealer = rng.randrange(v["players"])
    if not as_hands:
        return {"dealer": dealer, "deck": cards}
    size = v["deal"]["hand_size"]
    hands = {str(s): cards[s * size : (s + 1) * size] for s in range(v["players"])}
    return {"dealer": dealer, "hands": hands, "stock": cards[v["players"] * size :]}


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


def _illegal_candidates(rng: random.Random, legal: list[Json], snap: Json, order: list[str], players: int) -> list[Json]:
    out: list[Json] = []
    kinds = list(ACTION_SHAPES)
    for _ in range(3):  # anything at all
        kind = rng.choice(kinds)
        action: Json = {"type": kind, "seat": rng.randrange(players)}
        if ACTION_SHAPES[kind]:
            action["card"] = rng.choice(order)
        out.append(action)
    if legal:
        base = rng.choice(legal)
        out.append({**base, "seat": (base["seat"] + rng.randrange(1, players)) % players})  # wrong seat
        if "card" in base:
            hand = snap["hands"][str(base["seat"])]
            out.append({**base, "card": rng.choice([c for c in order if c not in hand])})  # not in hand
            out.extend({**base, "card": c} for c in hand)  # e.g. a card of an illegal suit
    out.append({"type": "play", "seat": 0})  # malformed
    return out


@pytest.mark.parametrize("variant_id", variant_ids())
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), as_hands=st.booleans())
def test_random_playouts_keep_the_invariants(variant_id: str, seed: int, as_hands: bool) -> None:
    rng = random.Random(seed)
    players = variant(variant_id)["players"]
    order = deck(variant_id)
    setup = _setup(variant_id, rng, as_hands)
    engine = Engine.new(variant_id, setup)
    actions: list[Json] = []
    snapshots: list[Json] = []
    while True:
        snap = engine.snapshot()
        snapshots.append(snap)
        _check_snapshot(variant_id, snap)
        _check_views(engine, snap, players)
        legal = engine.legal_actions()
        for action in _illegal_candidates(rng, legal, snap, order, players):
            if action in legal:
                continue
            outcome = engine.apply(action)
            assert not isinstance(outcome, Applied), f"{action} accepted but not listed as legal"
            assert engine.snapshot() == snap, f"rejecting {action} changed the state"
        if not legal:
            break
        assert len({str(sorted(a.items())) for a in legal}) == len(legal), "legal actions listed once"
        action = rng.choice(legal)
        outcome = engine.apply(action)
        assert isinstance(outcome, Applied), f"legal {action} refused: {outcome}"
        actions.append(action)
    replay = Engine.new(variant_id, setup)
    assert replay.snapshot() == snapshots[0]
    for action, expected in zip(actions, snapshots[1:], strict=True):
        replay.apply(action)
        assert replay.snapshot() == expected
