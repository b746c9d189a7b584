"""The reference's events follow the variant: an ndoa only where the variant names one (Albastini's ace taking its
seven), never in a game whose rules have none, though its ace takes the next rank of its suit just as often."""

from __future__ import annotations

import random

import pytest

from conformance.suite.scenarios import deck_of
from reference import Engine, Refusal
from specreader.jsontypes import Json
from specreader.spec import variant, variant_ids


def _tricks(variant_id: str, deals: int) -> list[tuple[Json, list[Json]]]:
    """Each trick won in ``deals`` random deals: the last trick as the snapshot shows it, and the ndoa events."""
    rng, out = random.Random(7), []
    deck = deck_of(variant(variant_id))
    for number in range(deals):
        rng.shuffle(deck)
        engine = Engine.new(variant_id, {"dealer": number % int(variant(variant_id)["players"]), "deck": list(deck)})
        while legal := engine.legal_actions():
            answer = engine.apply(rng.choice(legal))
            assert not isinstance(answer, Refusal)
            events = answer.events
            if any(e["type"] == "trick_won" for e in events):
                out.append((engine.snapshot()["last_trick"], [e for e in events if e["type"] == "ndoa"]))
    return out


@pytest.mark.parametrize("variant_id", variant_ids())
def test_an_ndoa_is_the_named_taker_winning_its_taken_card(variant_id: str) -> None:
    named = variant(variant_id)["ranking"].get("ndoa")
    taker, taken = named.split() if named else variant(variant_id)["ranking"]["plain_order"].split()[:2]
    seen = 0
    for last, ndoas in _tricks(variant_id, 40):
        won = next(c["card"] for c in last["cards"] if c["seat"] == last["winner"])
        cards = {c["card"] for c in last["cards"]}
        happened = won[:-1] == taker and f"{taken}{won[-1]}" in cards
        seen += happened
        wanted = [{"type": "ndoa", "seat": last["winner"], "card": f"{taken}{won[-1]}"}] if happened and named else []
        assert ndoas == wanted, (last, ndoas)
    assert seen, f"no trick of {variant_id} had its top card take the next of its suit: the check saw nothing"
