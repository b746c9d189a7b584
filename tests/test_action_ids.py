"""The integer action API agrees with the dictionary one, step by step (reference/action_ids.py).

Two engines play the same deal, one driven by JSON actions, the other by their ids: at every step
they list the same legal actions, answer the same attempts (legal, illegal, out of the index) with
the same events or the same refusal, and show the same snapshot: 25 deals per variant in the suite,
10,000 under ``TRICKSPEC_DEEP=1`` (tests/depth.py), the property's stated run.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance import strategies
from reference import Applied, Engine, Refusal, refusals
from reference.action_ids import KIND_ORDER
from reference.actions import ACTION_SHAPES
from reference.engine import compile_rules
from specreader.jsontypes import Json
from specreader.spec import variant, variant_ids

from depth import cases

DEALS = cases(quick=25, deep=10_000)
ATTEMPTS = 3  # ids drawn from the whole index at each step besides the legal one played


def _same(by_id: Applied | Refusal, by_json: Applied | Refusal, what: str) -> None:
    if isinstance(by_json, Refusal):
        assert isinstance(by_id, Refusal), f"{what}: applied by id, refused as JSON ({by_json.code})"
        assert (by_id.code, by_id.message) == (by_json.code, by_json.message), what
    else:
        assert isinstance(by_id, Applied), f"{what}: refused by id ({by_id}), applied as JSON"
        assert by_id.events == by_json.events, what


@pytest.mark.parametrize("variant_id", variant_ids())
def test_every_id_is_one_action_of_the_variant_and_back(variant_id: str) -> None:
    rules = compile_rules(variant(variant_id))
    index = rules.index
    accepted = {kind for stage in rules.stages for kinds in stage.kinds.values() for kind in kinds}
    assert set(index.kinds) == accepted and list(index.kinds) == [k for k in KIND_ORDER if k in accepted]
    assert index.size == rules.seats.n * index.per_seat == len(set(map(str, index.actions)))
    for i, action in enumerate(index.actions):
        assert action.id == i
        assert rules.actions.read(dict(action)) == index.keys[i] == action.key
        kind, seat, card = index.keys[i]
        assert index.id_of(kind, seat, card) == i
        assert index.local[index.local_id(i)] == (kind, card)
        assert i // index.per_seat == seat
    if "play" in index.kinds:
        assert [index.keys[c] for c in range(rules.cards.size)] == [("play", 0, c) for c in range(rules.cards.size)]
    # Every action of a kind the variant uses has an id; the others have none.
    for kind, has_card in ACTION_SHAPES.items():
        for seat in range(rules.seats.n):
            shared = rules.actions.with_card[kind][seat] if has_card else [rules.actions.plain[kind][seat]]
            assert all((a.id >= 0) == (kind in accepted) for a in shared)


def test_an_id_outside_the_index_is_refused_and_changes_nothing() -> None:
    variant_id = variant_ids()[0]
    engine = Engine.new(variant_id, {"dealer": 0, "deck": [*compile_rules(variant(variant_id)).cards.codes]})
    snap = engine.snapshot()
    for bad in (-1, engine.index.size, True, 1.0, "0", None):
        outcome = engine.apply_id(bad)  # type: ignore[arg-type]
        assert isinstance(outcome, Refusal) and outcome.code == refusals.INVALID_ACTION, bad
        assert engine.snapshot() == snap


@pytest.mark.parametrize("variant_id", variant_ids())
@settings(max_examples=DEALS, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_the_integer_and_json_apis_agree_step_by_step(variant_id: str, data: st.DataObject, seed: int) -> None:
    setup = data.draw(strategies.setups(variant_id), "setup")
    by_id = Engine.new(variant_id, setup)
    by_json = Engine.new(variant_id, setup)
    index = by_id.index
    rng = random.Random(seed)  # the choices of the playout: cheap per step, so many deals run
    while True:
        legal: list[Json] = by_json.legal_actions()
        ids = by_id.legal_ids()
        assert [dict(index.actions[i]) for i in ids] == legal
        assert ids == [index.id_of(*index.keys[i]) for i in ids] and len(set(ids)) == len(ids)
        for attempt in [rng.randrange(index.size) for _ in range(ATTEMPTS)]:
            outcome = by_id.apply_id(attempt)
            _same(outcome, by_json.apply(dict(index.actions[attempt])), f"id {attempt}")
            if isinstance(outcome, Applied):  # a legal id drawn by chance: the deal moved on in both
                assert attempt in ids
                break
        else:
            if not ids:
                break
            chosen = rng.randrange(len(ids))
            _same(by_id.apply_id(ids[chosen]), by_json.apply(dict(legal[chosen])), f"legal id {ids[chosen]}")
        assert by_id.snapshot() == by_json.snapshot()
    assert by_json.snapshot()["phase"] == "over"
