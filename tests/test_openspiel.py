"""Every variant as an OpenSpiel game (reference/openspiel.py), checked by OpenSpiel's own tests.

``pyspiel.random_sim_test`` with serialization, the observation, clone and pickle checks OpenSpiel's
Python games run on themselves (open_spiel/python/games/*_test.py), and ours: every seat's
observation and information state at every step is exactly its view, and shows no hidden card.
The ``openspiel`` extra (in ``dev``) installs pyspiel.
"""

from __future__ import annotations

import pickle
import random
import re
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from specreader.jsontypes import Json
from specreader.spec import variant_ids

pyspiel = pytest.importorskip("pyspiel")
openspiel = pytest.importorskip("reference.openspiel")
observation = pytest.importorskip("open_spiel.python.observation")

CARD = re.compile(r'"([AKQJT98765432][CDHS])"')  # a card code in a JSON string
SIMS = 2  # random_sim_test's deals per variant: each is a whole deal, checked at every state


def _played(game: Any, seed: int) -> Iterator[Any]:
    """Every state of one random deal, the initial one to the terminal one."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, _ = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(outcomes))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


def _cards_in(view: Json) -> set[str]:
    """Every card code a view shows."""
    seen = set(view["hand"]) | set(view["turned"]) | set(view["trees_taken"])
    seen |= {b["card"] for b in view["bids"]} | {t["card"] for t in view["trick"]}
    seen |= {c for hand in (view["partner_hand"] or {}).values() for c in hand}
    if view["last_trick"] is not None:
        seen |= {t["card"] for t in view["last_trick"]["cards"]}
    if view["indicator"] is not None:
        seen.add(view["indicator"])
    return seen


def test_every_playable_variant_is_registered() -> None:
    names = set(pyspiel.registered_names())
    assert {openspiel.game_name(v) for v in variant_ids()} | {"trickspec"} <= names
    assert set(openspiel.GAMES) == {openspiel.game_name(v) for v in variant_ids()} | {"trickspec"}


@pytest.mark.parametrize("variant_id", variant_ids())
def test_openspiel_random_sim_test_with_serialization(variant_id: str) -> None:
    game = pyspiel.load_game(openspiel.game_name(variant_id))
    pyspiel.random_sim_test(game, num_sims=SIMS, serialize=True, verbose=False)


def test_the_any_variant_game_takes_the_variant_and_dealer_as_parameters() -> None:
    game = pyspiel.load_game("trickspec(variant=altbaumer-standard,dealer=3)")
    assert game.num_players() == 4
    assert game.get_parameters() == {"variant": "altbaumer-standard", "dealer": 3}
    state = game.new_initial_state()
    for _ in range(game.max_chance_outcomes()):
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.view(0)["dealer"] == 3
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    with pytest.raises(Exception, match="no playable variant"):
        pyspiel.load_game("trickspec(variant=nonesuch)")
    with pytest.raises(Exception, match="dealer seat"):
        pyspiel.load_game("trickspec_albastini_2p(dealer=2)")


@pytest.mark.parametrize("variant_id", variant_ids())
def test_every_seat_observes_its_view_and_no_hidden_card_at_every_step(variant_id: str) -> None:
    game = pyspiel.load_game(openspiel.game_name(variant_id))
    players = game.num_players()
    obs = observation.make_observation(game)
    info = observation.make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    public = observation.make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    index = openspiel.GAMES[openspiel.game_name(variant_id)](None).variant.rules.cards.index
    codes = list(index)
    planes = ("hand", "partner_hand", "bids", "turned", "indicator", "trees_taken", "trick", "last_trick")

    def marked(observer: Any) -> set[str]:
        """The cards any card plane of the observer's tensor marks."""
        cards = np.zeros(len(codes), bool)
        for p in planes:
            cards |= observer.dict[p].reshape(-1, len(codes)).any(axis=0)
        return {codes[c] for c in np.flatnonzero(cards)}

    rendered: list[list[str]] = [[] for _ in range(players)]
    ever_seen: list[set[str]] = [set() for _ in range(players)]
    ever_written: list[set[str]] = [set() for _ in range(players)]  # the cards of the lines of rendered[seat]
    for state in _played(game, seed=len(variant_id)):
        snapshot = None if state.view(0) is None else state._engine.snapshot()
        for seat in range(players):
            obs.set_from(state, seat)
            info.set_from(state, seat)
            public.set_from(state, seat)
            # The C++ entry points give what the observers give (OpenSpiel's observation tests), as
            # lists of floats: compared as lists, not converted back into arrays.
            assert state.observation_tensor(seat) == obs.tensor.tolist()
            if state.is_terminal() or state.move_number() % 16 == 0:  # a long list to pass: now and then
                assert state.information_state_tensor(seat) == info.tensor.tolist()
            obs_string, info_string = obs.string_from(state, seat), info.string_from(state, seat)
            assert state.observation_string(seat) == obs_string
            assert state.information_state_string(seat) == info_string
            view = state.view(seat)
            if view is None:  # chance shuffles: nobody sees a card
                assert not obs.tensor[players:].any() and "shuffled" in obs_string
                continue
            rendered[seat].append(info.render(view))
            ever_seen[seat] |= _cards_in(view)
            ever_written[seat] |= set(CARD.findall(rendered[seat][-1]))
            assert obs_string == obs.render(view)
            assert info_string == "\n".join(rendered[seat])
            assert "hand" not in public.string_from(state, seat).replace("hand_counts", "")
            assert not public.dict.keys() & set(openspiel.PRIVATE)
            # The tensor's card planes are exactly the view's cards.
            assert {codes[c] for c in np.flatnonzero(obs.dict["hand"])} == set(view["hand"])
            assert marked(obs) == _cards_in(view)
            # No card the seat cannot see, in the tensors or the strings; the information state
            # remembers what the seat saw before, and nothing more.
            assert snapshot is not None
            hidden = set(snapshot["stock"]) | set(snapshot["dead"])
            hidden |= {c for s, hand in snapshot["hands"].items() if s != str(seat) for c in hand}
            assert not (hidden - _cards_in(view)) & (marked(obs) | set(CARD.findall(obs_string)))
            # (info_string is the lines of rendered[seat]: its cards are ever_written[seat].)
            assert not (hidden - ever_seen[seat]) & (marked(info) | ever_written[seat])


@pytest.mark.parametrize("variant_id", ["albastini-4p", "altbaumer-standard"])
def test_clones_and_pickles_are_the_same_deal_and_independent(variant_id: str) -> None:
    game = pyspiel.load_game(openspiel.game_name(variant_id))
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    state = game.new_initial_state()
    for _ in range(game.max_chance_outcomes() + 3):
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[-1])
    clone = state.clone()
    assert clone.history() == state.history() and str(clone) == str(state)
    assert clone.move_number() == state.move_number() and clone.current_player() == state.current_player()
    loaded = pickle.loads(pickle.dumps(state))
    assert str(loaded) == str(state) and loaded.history() == state.history()
    before = str(state)
    clone.apply_action(clone.legal_actions()[0])
    assert str(state) == before and clone.history() == [*state.history(), clone.history()[-1]]
    assert state.clone().information_state_string(0) == state.information_state_string(0)
    assert clone.information_state_string(0) != state.information_state_string(0)
    # A loaded state plays on as the original does (it is the same deal, replayed).
    loaded.apply_action(clone.history()[-1])
    assert str(loaded) == str(clone) and loaded.information_state_tensor(0) == clone.information_state_tensor(0)
    assert str(state) == before


@pytest.mark.parametrize("variant_id", variant_ids())
def test_returns_are_each_sides_score_for_the_deal(variant_id: str) -> None:
    game = pyspiel.load_game(openspiel.game_name(variant_id))
    *_, final = _played(game, seed=3)
    result = final._engine.snapshot()["result"]
    rules = final._engine.rules
    returns = final.returns()
    for seat in range(game.num_players()):
        side = rules.seats.side_of[seat]
        if rules.score.produces == "vp":
            assert returns[seat] == (result["vp"] if result["winner"] == side else 0)
        else:
            assert returns[seat] == result["deal_score"][side]
        assert game.min_utility() <= returns[seat] <= game.max_utility()


def test_an_illegal_action_is_refused_with_the_engines_reason() -> None:
    game = pyspiel.load_game("trickspec_albastini_2p")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(Exception, match="refused"):
        state.apply_action(illegal)
