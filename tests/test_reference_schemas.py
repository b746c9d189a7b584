"""Snapshots, views, events, actions and setups of the reference engine validate against schemas/."""

from __future__ import annotations

import random
from typing import Any

import pytest

from conformance.suite import schemas
from reference import Applied, Engine
from specreader.spec import variant, variant_ids

from reference_support import deck, filled

# The schema lets an engine leave keys out; the reference sends every one.
SNAPSHOT_KEYS = set(schemas.validator("snapshot").schema["properties"])


def _valid(name: str, instance: Any) -> None:
    # The kit's own check of what an engine sends: jsonschema-rs first, the explaining validator on a failure.
    problems = schemas.explain(name, instance)
    assert not problems, f"{name}: {problems[0][1]} at {list(problems[0][0])}"


@pytest.mark.parametrize("variant_id", variant_ids())
def test_everything_an_engine_reports_validates(variant_id: str) -> None:
    players = variant(variant_id)["players"]
    for seed in range(2):
        rng = random.Random(seed)
        cards = deck(variant_id)
        rng.shuffle(cards)
        setup = {"dealer": rng.randrange(players), "deck": cards}
        _valid("setup", setup)
        engine = Engine.new(variant_id, setup)
        for event in engine.setup_events:
            _valid("event", event)
        while True:
            snapshot = engine.snapshot()
            _valid("snapshot", snapshot)
            assert set(snapshot) == SNAPSHOT_KEYS
            for seat in range(players):
                _valid("view", engine.view(seat))
            legal = engine.legal_actions()
            if not legal:
                break
            action = rng.choice(legal)
            _valid("action", action)
            outcome = engine.apply(action)
            assert isinstance(outcome, Applied)
            for event in outcome.events:
                _valid("event", event)


def test_setups_with_hands_match_and_start_validate() -> None:
    _valid("setup", filled("albastini-4p", 0, {}, stock=[], dealer_history=[2, 0], match={"vp": [3, 1]}))
    _valid("setup", {"nines": {"0": "9D", "1": "9S", "2": "9H", "3": "9C"}, "deck": deck("altbaumer-standard"),
                     "match": {"scores": [-1, 3], "rounds": [1, 0]}})
    _valid("setup", {"dealer": 3, "hands": {"0": ["AH"]}, "stock": [],
                     "start": {"phase": "play", "trump": "S", "to_act": 0, "piles": {"0": []}, "tricks": [0, 0],
                               "indicator": None, "makers": None, "lone": None, "dead": []}})


@pytest.mark.parametrize(
    ("schema", "instance"),
    [
        ("action", {"type": "play", "seat": 0, "card": "1H"}),
        ("action", {"type": "play", "seat": 0}),
        ("action", {"type": "pass", "seat": 0, "card": "AH"}),
        ("action", {"type": "play", "seat": 6, "card": "AH"}),
        ("action", {"type": "plya", "seat": 0, "card": "AH"}),
        ("setup", {"dealer": 0, "deck": [], "hands": {}}),
        ("setup", {"dealer": 0, "hands": {}, "stock": [], "colour": "red"}),
        ("setup", {"hands": {}, "stock": []}),
        ("event", {"type": "played", "seat": 0, "card": "AH", "extra": 1}),
    ],
)
def test_schemas_catch_typos(schema: str, instance: Any) -> None:
    assert list(schemas.validator(schema).iter_errors(instance)), f"{instance} should not validate"
