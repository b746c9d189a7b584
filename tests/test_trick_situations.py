"""The scenarios of every table show a trump at work in each way a trick can go, so that an engine giving trumps the
wrong power in one of them fails somewhere: a lead of another suit taken by a trump, a trump lead beaten by a higher
trump, and a trump lead holding against a card of another suit. Variants whose tricks are played alike (the
same game, table size, direction, pack, ranking, trick and play rules: an over-60 table beside its plain one) share
their scenarios here."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import replace

from conformance.suite.scenarios import Scenario, kit_scenarios
from reference import Engine, SetupError
from specreader.jsontypes import Json
from specreader.spec import kit_spec

TRUMPED, BEATEN, HOLDS = "a lead of another suit trumped", "a trump lead beaten by a higher trump", "a trump lead holding"


def _tricks_alike(variant: Json) -> str:
    components = variant["components"]
    same = [variant[k] for k in ("game", "players", "direction", "deck", "ranking")]
    return json.dumps([*same, components["trick"], components["legality"]], sort_keys=True)


# What a step must expect for the tricks it completes to be checked: who won them, or what follows from it.
WINNER_SHOWN = frozenset({"last_trick", "to_act", "totals", "tricks", "piles"})


def situations(scenario: Scenario) -> set[str]:
    """How the trump worked in each trick the scenario's accepted actions complete, played by the reference, where
    the step completing it expects who won it (or what follows from that)."""
    try:
        engine = Engine.new(scenario.variant, scenario.setup)
    except SetupError:
        return set()
    found: set[str] = set()
    for step in scenario.steps:
        checked = bool(WINNER_SHOWN & set(step.expect or {}))
        for action in step.actions:
            before = engine.snapshot()["last_trick"]
            if getattr(engine.apply(action), "code", None) is not None or not checked:
                continue
            found |= _situation(before, engine.snapshot())
    return found


def _situation(before: Json, after: Json) -> set[str]:
    trick = after["last_trick"]
    if trick is None or trick == before or after["trump"] is None:
        return set()
    suits = [played["card"][-1] for played in trick["cards"]]
    led_trump, leader = suits[0] == after["trump"], trick["cards"][0]["seat"]
    if led_trump and trick["winner"] != leader:
        return {BEATEN}
    if led_trump and len(set(suits)) > 1:
        return {HOLDS}
    return {TRUMPED} if not led_trump and after["trump"] in suits else set()


def test_every_table_shows_each_way_a_trump_works() -> None:
    spec = kit_spec()
    shown: dict[str, set[str]] = defaultdict(set)
    tables: dict[str, list[str]] = defaultdict(list)
    for vid, (_, raw) in spec.variants_raw().items():
        if not raw.get("abstract"):
            tables[_tricks_alike(spec.resolved(vid))].append(vid)
    for scenario in kit_scenarios():
        shown[_tricks_alike(spec.resolved(scenario.variant))] |= situations(scenario)
    missing = {", ".join(sorted(v)): sorted({TRUMPED, BEATEN, HOLDS} - shown[key]) for key, v in tables.items()}
    assert not {k: m for k, m in missing.items() if m}, missing


def test_a_scenario_is_told_by_the_trick_it_plays() -> None:
    """The situations as the test reads them, on scenarios whose tricks are known."""
    by_id = {s.id: s for s in kit_scenarios()}
    assert situations(by_id["briscola/play/trump-takes-a-lead-of-another-suit"]) == {TRUMPED}
    assert situations(by_id["briscola/play/higher-trump-beats-a-trump-lead"]) == {BEATEN}
    assert situations(by_id["briscola/play/trump-lead-holds-against-another-suit"]) == {HOLDS}
    assert situations(by_id["briscola/cards/two-players-ace-beats-three"]) == set()  # hearts led, no trump
    unchecked = by_id["briscola/play/higher-trump-beats-a-trump-lead"]
    steps = tuple(replace(step, expect={"phase": "play"}) for step in unchecked.steps)
    assert situations(replace(unchecked, steps=steps)) == set()  # played, but who won it is not expected
