"""conformance.strategies: setups from the spec, games played by the reference, illegal attempts; and the
property test an engine's author writes with them, which passes on the reference and, on a broken engine,
fails with a short game."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st

from conformance import strategies
from conformance.engines.adapter import reference_adapter
from conformance.engines.messages import Observation
from conformance.suite import schemas
from conformance.suite.scenarios import deck_of
from reference import Applied, Engine
from specreader.jsontypes import Json
from specreader.spec import variant, variant_ids

from depth import cases
from mutants import mutant_engine

QUICK = settings(
    max_examples=cases(quick=10, deep=200), deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)


@pytest.mark.parametrize("variant_id", ["albastini-5p", "altbaumer-standard"])
def test_a_setup_shrinks_to_the_deck_in_canonical_order(variant_id: str) -> None:
    # No example database, so the minimum comes from this run, not a stored one; no explain phase,
    # which only annotates a failure report (find prints none) and costs about a hundred more calls.
    shrink = settings(database=None, phases=[Phase.generate, Phase.shrink])
    assert find(strategies.setups(variant_id, form="deck"), lambda _: True, settings=shrink) == {
        "dealer": 0, "deck": deck_of(variant(variant_id))
    }


@pytest.mark.parametrize("variant_id", variant_ids())
@QUICK
@given(data=st.data())
def test_every_setup_is_a_deal_of_the_variant(variant_id: str, data: st.DataObject) -> None:
    setup = data.draw(strategies.setups(variant_id))
    assert not list(schemas.validator("setup").iter_errors(setup))
    Engine.new(variant_id, setup)  # raises SetupError on a setup the variant cannot deal


@pytest.mark.parametrize("variant_id", ["albastini-5p", "altbaumer-standard"])
@QUICK
@given(data=st.data())
def test_action_sequences_are_legal_where_played(variant_id: str, data: st.DataObject) -> None:
    setup = data.draw(strategies.setups(variant_id))
    actions = data.draw(strategies.action_sequences(variant_id, setup, complete=True))
    engine = Engine.new(variant_id, setup)
    for action in actions:
        assert action in engine.legal_actions()
        assert isinstance(engine.apply(action), Applied)
    assert engine.legal_actions() == []  # complete: the deal is over


@pytest.mark.parametrize(
    ("variant_id", "codes"),
    [
        ("albastini-6p-pairs", {"not_your_turn", "card_not_in_hand", "wrong_phase", "not_allowed_to_bid",
                                "suit_already_bid", "already_acted"}),
        ("altbaumer-standard", {"not_your_turn", "card_not_in_hand", "wrong_phase", "must_follow_suit", "must_trump",
                                "not_a_maker"}),
    ],
)
def test_illegal_attempts_reach_each_way_engines_go_wrong(variant_id: str, codes: set[str]) -> None:
    seen: set[str] = set()

    @settings(max_examples=150, deadline=None, database=None, derandomize=True)
    @given(strategies.games(variant_id, illegal=True))
    def collect(game: strategies.Game) -> None:
        seen.update(o["rejected"]["code"] for o in game.observations if o["rejected"])

    collect()
    assert codes <= seen


# ---------------------------------------------------------------- an engine author's property tests

def _as_set(actions: object) -> list[str]:
    return sorted(json.dumps(a, sort_keys=True) for a in actions) if isinstance(actions, list) else [repr(actions)]


def _disagreement(observed: Mapping[str, Any], expected: Observation) -> str | None:
    """What an engine observed that the reference did not: a refusal code, a snapshot, the legal actions."""
    code = (observed.get("rejected") or {}).get("code")
    if code != (expected["rejected"] or {}).get("code"):
        return f"refusal {code!r}, the reference's {expected['rejected']}"
    snapshot, reference = observed.get("snapshot") or {}, expected["snapshot"] or {}
    if snapshot != reference:
        return f"snapshot differs in {', '.join(sorted(k for k in reference if snapshot.get(k) != reference[k]))}"
    if _as_set(observed.get("legal")) != _as_set(expected["legal"]):
        return "legal actions differ"
    return None


Factory = Callable[[str, Json], Any]  # MyEngine.new: (variant id, setup) -> an engine with the reference's API


def plays_like_the_reference(new_engine: Factory, variant_id: str, played: list[list[Json]] | None = None) -> None:
    """The property an engine's author writes: drawn step by step, every observation is the reference's.

    ``played`` receives each game's actions as it goes: the last is the game Hypothesis shrank to.
    """

    @settings(max_examples=40, deadline=None, database=None, derandomize=True, phases=[Phase.generate, Phase.shrink],
              suppress_health_check=[HealthCheck.too_slow])
    @given(data=st.data())
    def the_engine_plays_like_the_reference(data: st.DataObject) -> None:
        setup = data.draw(strategies.setups(variant_id), "setup")
        engine = new_engine(variant_id, setup)
        actions: list[Json] = []
        if played is not None:
            played.append(actions)
        for action, expected in strategies.play(data.draw, variant_id, setup, illegal=True):
            refused = engine.apply(dict(action)) if action is not None else None
            code = getattr(refused, "code", None)
            observed = {"rejected": {"code": code} if code else None, "snapshot": engine.snapshot(),
                        "legal": engine.legal_actions()}
            if action is not None:
                actions.append(action)
            disagreement = _disagreement(observed, expected)
            assert disagreement is None, f"after {action or 'setup'}: {disagreement}"

    the_engine_plays_like_the_reference()


@pytest.mark.parametrize("variant_id", ["albastini-2p", "albastini-5p", "altbaumer-standard", "briscola-4p"])
def test_the_reference_passes_an_engine_authors_property_test(variant_id: str) -> None:
    plays_like_the_reference(Engine.new, variant_id)


@pytest.mark.parametrize("mutant", ["off-suit-wins", "queen-above-jack"])
def test_a_broken_engine_fails_it_with_a_short_game(mutant: str) -> None:
    played: list[list[Json]] = []
    with pytest.raises(AssertionError, match=re.escape("after {'type': 'play'")):
        plays_like_the_reference(mutant_engine(mutant), "albastini-2p", played)
    assert len(played[-1]) <= 10, played[-1]


@pytest.mark.parametrize("variant_id", ["albastini-2p", "altbaumer-standard"])
@QUICK
@given(data=st.data())
def test_a_whole_game_runs_through_any_adapter_as_one_request(variant_id: str, data: st.DataObject) -> None:
    game = data.draw(strategies.games(variant_id, illegal=True))
    answer = reference_adapter().run(game.request())
    assert isinstance(answer, Mapping)
    observations = answer["observations"]
    assert len(observations) == len(game.observations) == len(game.actions) + 1
    for observed, expected in zip(observations, game.observations, strict=True):
        assert _disagreement(observed, expected) is None
