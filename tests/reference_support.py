"""Helpers for the reference engine's tests: building setups, playing out deals, counting cards."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

from hypothesis import strategies as st

from reference import Applied, Engine
from reference.cards import Cards
from specreader.jsontypes import Json
from specreader.spec import variant


@cache
def _cards(variant_id: str) -> Cards:
    """The variant's deck, compiled once per variant (a property test asks for it at every step)."""
    return Cards(variant(variant_id))


def deck(variant_id: str) -> list[str]:
    """Every card of the variant's deck, in canonical order."""
    return list(_cards(variant_id).codes)


def values(variant_id: str) -> dict[str, int]:
    cards = _cards(variant_id)
    return dict(zip(cards.codes, cards.value, strict=True))


def filled(variant_id: str, dealer: int, hands: dict[int, list[str]], stock: list[str] | None = None,
           bottom: list[str] | None = None, **extra: Any) -> Json:
    """A hands+stock setup: hands completed with unused cards, the stock ``stock + rest + bottom``."""
    v = variant(variant_id)
    used = {c for h in hands.values() for c in h} | set(stock or []) | set(bottom or [])
    spare = [c for c in deck(variant_id) if c not in used]
    out: dict[str, list[str]] = {}
    for seat in range(v["players"]):
        hand = list(hands.get(seat, []))
        while len(hand) < v["deal"]["hand_size"]:
            hand.append(spare.pop(0))
        out[str(seat)] = hand
    return {"dealer": dealer, "hands": out, "stock": [*(stock or []), *spare, *(bottom or [])], **extra}


def split(cards: list[str], worth: dict[str, int], size: int, target: int) -> tuple[list[str], list[str]]:
    """``size`` of the cards worth exactly ``target`` together, and the others."""
    best: dict[tuple[int, int], list[str]] = {(0, 0): []}
    for c in cards:
        for (n, total), chosen in list(best.items()):
            key = (n + 1, total + worth[c])
            if n < size and key not in best:
                best[key] = [*chosen, c]
    chosen = best[(size, target)]
    return chosen, [c for c in cards if c not in chosen]


def play_out(engine: Engine, rng: random.Random) -> list[Json]:
    """Random legal actions until the deal is over; every event, in order."""
    return _played(engine, rng.choice)


def play_drawn(engine: Engine, data: st.DataObject) -> list[Json]:
    """Legal actions drawn by Hypothesis until the deal is over; every event, in order."""
    return _played(engine, lambda legal: data.draw(st.sampled_from(legal).map(dict), "action"))


def _played(engine: Engine, choose: Callable[[list[Json]], Json]) -> list[Json]:
    events = list(engine.setup_events)
    while True:
        legal = engine.legal_actions()
        if not legal:
            return events
        outcome = engine.apply(choose(legal))
        assert isinstance(outcome, Applied), outcome
        events.extend(outcome.events)


def placed(snap: Json) -> list[str]:
    """Every card in a place (hands, stock, bids on the table, trick, piles, dead)."""
    cards = [c for hand in snap["hands"].values() for c in hand]
    cards += snap["stock"] + [t["card"] for t in snap["trick"]] + snap["dead"]
    cards += [c for pile in snap["piles"] for c in pile]
    if snap["phase"] == "bidding":
        cards += [b["card"] for b in snap["bids"]]
    return cards


def apply_ok(engine: Engine, action: Json) -> list[Json]:
    outcome = engine.apply(action)
    assert isinstance(outcome, Applied), f"{action} refused: {outcome}"
    return outcome.events


def code_of(engine: Engine, action: Json) -> str:
    """The refusal code for an action that must be refused; checks the state is unchanged."""
    before = engine.snapshot()
    outcome = engine.apply(action)
    assert not isinstance(outcome, Applied), f"{action} was accepted"
    assert engine.snapshot() == before
    return outcome.code
