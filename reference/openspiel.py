"""Every playable variant of spec/ as an OpenSpiel game (the optional ``openspiel`` extra).

Importing this module registers, as OpenSpiel's own Python games do (``kuhn_poker.py`` in
``open_spiel/python/games``), one pyspiel game per playable variant of the spec, named
``trickspec_`` and the variant id with ``_`` for ``-`` (``trickspec_albastini_2p``), and one
game ``trickspec`` whose ``variant`` parameter names the variant. Their one other parameter is
``dealer``, the seat that deals (default 0).

One game is one deal. Chance shuffles: the pack is drawn card by card, top first, each card not
drawn yet equally likely (a chance outcome is a card's index in the deck's order, cards.py); the
engine then cuts and deals as the variant says. A player's action is the seat-free part of its id
in the variant's integer action index (action_ids.py, docs/action-ids.md). A player's return is
the deal's score of its side under the variant's score rule: the winners' victory points, or the
deal score. Observations and information states are built from ``Engine.view(seat)`` alone, so
they show no card the seat cannot see; an information state is the seat's views since the deal,
one per action, so it remembers everything the seat saw.

Only this module imports pyspiel (tests/test_layers.py).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from reference.cards import Cards
from reference.engine import Engine
from reference.refusals import Refusal
from reference.rules import Rules
from reference.state import Phase
from specreader.jsontypes import Json
from specreader.spec import variant, variant_ids

GAME_PREFIX = "trickspec"
PARAMETERS: dict[str, Any] = {"dealer": 0}

# A view's keys that only the seat itself sees; the others are public.
PRIVATE = ("hand", "partner_hand")
Frame = npt.NDArray[np.float32]  # a view as one step of a tensor (_Variant.frame)
PHASE_ROWS = {phase.value: row for row, phase in enumerate(Phase)}  # a view's phase, as its row of the phase piece


def game_name(variant_id: str) -> str:
    """The registered short name of a variant's game."""
    return f"{GAME_PREFIX}_{variant_id.replace('-', '_')}"


class _Variant:
    """What a game reads of one variant, laid out once and shared by all its states (never copied
    with a state, and pickled as its id)."""

    def __init__(self, variant_id: str) -> None:
        probe = Engine.new(variant_id, {"dealer": 0, "deck": list(Cards(variant(variant_id)).codes)})
        rules = probe.rules
        self.id = variant_id
        self.rules = rules
        self.index = rules.index
        self.codes = rules.cards.codes
        self.card_index = rules.cards.index
        self.suits = rules.cards.suits
        self.size = rules.cards.size
        self.players = rules.seats.n
        self.side_of = rules.seats.side_of
        lo, hi = rules.score.points_range
        self.points_range = (float(lo), float(hi))
        # An upper bound on the actions of a deal: every card played once, every stock card taken
        # and discarded, every top trump offered at the cut and a decline, and each seat's turn in
        # the bidding and in going alone, and forehand's answer on the turned card.
        self.max_game_length = (
            self.size + rules.stock_size + len(rules.ranking.top_trumps) + 1 + 2 * self.players + 1
        )
        n, deck = self.players, self.size
        sides = len(rules.seats.sides)
        # The pieces of a view's frame, in the tensor's order (an observer keeps those it shows).
        self.shapes: dict[str, tuple[int, ...]] = {
            "seat": (n,),
            "hand": (deck,),
            "partner_hand": (deck,),
            "phase": (len(Phase),),
            "to_act": (n,),
            "dealer": (n,),
            "trump": (len(self.suits),),
            "hand_counts": (n,),
            "stock_count": (1,),
            "bids": (n, deck),
            "turned": (deck,),
            "indicator": (deck,),
            "trees_taken": (deck,),
            "trick": (n, deck),
            "last_trick": (n, deck),
            "last_trick_winner": (n,),
            "tricks": (sides,),
            "makers": (sides,),
            "lone": (n,),
        }
        self.where: dict[str, slice] = {}  # each piece's cells in a frame
        self.at: dict[str, int] = {}  # and its first cell
        at = 0
        for name, shape in self.shapes.items():
            self.where[name] = slice(at, at + int(np.prod(shape)))
            self.at[name] = at
            at += int(np.prod(shape))
        self.frame_size = at

    def __deepcopy__(self, memo: dict[int, object]) -> _Variant:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (_variant, (self.id,))

    def frame(self, view: Json) -> Frame:
        """A view as one step of the tensor: every piece, one after the other."""
        at, card, deck = self.at, self.card_index, self.size
        ones = [at["seat"] + view["seat"], at["phase"] + PHASE_ROWS[view["phase"]]]
        for name in ("to_act", "dealer", "lone", "makers"):
            if view[name] is not None:
                ones.append(at[name] + view[name])
        if view["trump"] is not None:
            ones.append(at["trump"] + self.suits.index(view["trump"]))
        if view["indicator"] is not None:
            ones.append(at["indicator"] + card[view["indicator"]])
        partner = [code for hand in (view["partner_hand"] or {}).values() for code in hand]
        for name, codes in (("hand", view["hand"]), ("partner_hand", partner), ("turned", view["turned"]),
                            ("trees_taken", view["trees_taken"])):
            ones += [at[name] + card[code] for code in codes]
        last = view["last_trick"]
        if last is not None:
            ones.append(at["last_trick_winner"] + last["winner"])
        for name, plays in (("bids", view["bids"]), ("trick", view["trick"]), ("last_trick", last["cards"] if last else [])):
            ones += [at[name] + p["seat"] * deck + card[p["card"]] for p in plays]
        frame = np.zeros(self.frame_size, np.float32)
        frame[ones] = 1
        frame[self.where["hand_counts"]] = view["hand_counts"]
        frame[self.where["stock_count"]] = view["stock_count"]
        frame[self.where["tricks"]] = view["tricks"]
        return frame


@cache
def _variant(variant_id: str) -> _Variant:
    return _Variant(variant_id)


def side_points(rules: Rules, result: Json) -> list[int]:
    """Each side's score for a finished deal, read from the result as the score rule produces it."""
    sides = len(rules.seats.sides)
    if rules.score.produces == "vp":
        points = [0] * sides
        if result["winner"] is not None:
            points[result["winner"]] = result["vp"]
        return points
    return list(result["deal_score"])


def _game_type(short_name: str, long_name: str, players: tuple[int, int], parameters: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,  # the losers score nothing, the winners 1 or more
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class TrickspecGame(pyspiel.Game):  # type: ignore[misc]
    """One deal of one variant: ``VARIANT``'s, or (None) the ``variant`` parameter's. register()
    makes one subclass per registered game, as pyspiel registers a game by its class."""

    VARIANT: str | None = None
    GAME_TYPE: Any = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        variant_id = self.VARIANT or params.get("variant")
        if not isinstance(variant_id, str) or variant_id not in variant_ids():
            raise ValueError(f"no playable variant {variant_id!r}; known: {', '.join(variant_ids())}")
        self.variant = _variant(variant_id)
        dealer = params.get("dealer", PARAMETERS["dealer"])
        if type(dealer) is not int or not 0 <= dealer < self.variant.players:
            raise ValueError(f"expected a dealer seat from 0 to {self.variant.players - 1}, found {dealer!r}")
        self.dealer = dealer
        v = self.variant
        info = pyspiel.GameInfo(
            num_distinct_actions=v.index.per_seat,
            max_chance_outcomes=v.size,
            num_players=v.players,
            min_utility=v.points_range[0],
            max_utility=v.points_range[1],
            max_game_length=v.max_game_length,
        )
        super().__init__(self.GAME_TYPE, info, params)

    def new_initial_state(self) -> TrickspecState:
        return TrickspecState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> TrickspecObserver:
        return TrickspecObserver(
            self.variant, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class TrickspecState(pyspiel.State):  # type: ignore[misc]
    """A deal: the shuffle so far (chance), then the reference engine playing it. Its one
    attribute is the deal (what pyspiel copies and serializes)."""

    def __init__(self, game: TrickspecGame) -> None:
        super().__init__(game)
        self._deal = _Deal(game.variant, game.dealer)

    @property
    def _engine(self) -> Engine | None:
        """The engine playing the deal (None while chance shuffles)."""
        return self._deal.engine

    def current_player(self) -> int:
        engine = self._deal.engine
        if engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = engine.to_act
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        engine = self._deal.engine
        assert engine is not None and player == engine.to_act
        base = player * self._deal.variant.index.per_seat
        return sorted(i - base for i in engine.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self._deal.engine is None
        drawn = set(self._deal.pack)
        left = [c for c in range(self._deal.variant.size) if c not in drawn]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        self._deal.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        v = self._deal.variant
        if player == pyspiel.PlayerId.CHANCE:
            return f"pack {v.codes[action]}"
        kind, card = v.index.local[action]
        return f"{kind} {v.codes[card]}" if card >= 0 else kind

    def is_terminal(self) -> bool:
        engine = self._deal.engine
        return engine is not None and engine.to_act is None

    def returns(self) -> list[float]:
        v = self._deal.variant
        if not self.is_terminal():
            return [0.0] * v.players
        assert self._deal.engine is not None
        points = side_points(v.rules, self._deal.engine.snapshot()["result"])
        return [float(points[v.side_of[p]]) for p in range(v.players)]

    def views(self, seat: int) -> list[Json]:
        """What ``seat`` has seen since the deal: its view as dealt, then after each action."""
        seen = self._deal.seen_by(seat)
        return [] if seen is None else seen.views

    def view(self, seat: int) -> Json | None:
        """What ``seat`` sees now (None while chance shuffles)."""
        engine = self._deal.engine
        return None if engine is None else engine.view(seat)

    def shuffled(self) -> int:
        """Cards drawn into the pack so far (public: nobody sees which)."""
        return len(self._deal.pack)

    def __str__(self) -> str:
        return self._deal.text()


class _Seen:
    """One seat's views since the deal, oldest first, and what observers made of them: each view's
    frame, and its text for each set of keys an observer shows. An information state grows by one
    view per action and is asked for every seat at every step, so each view is encoded and rendered
    once, when first asked, not again at each step. A view never changes once recorded, so a copied
    state shares them all."""

    __slots__ = ("frames", "texts", "views")

    def __init__(self, views: list[Json], frames: list[Frame], texts: dict[tuple[bool, bool], list[str]]) -> None:
        self.views = views
        self.frames = frames
        self.texts = texts

    def copy(self) -> _Seen:
        return _Seen(list(self.views), list(self.frames), {shown: list(lines) for shown, lines in self.texts.items()})

    def framed(self, variant: _Variant) -> list[Frame]:
        while len(self.frames) < len(self.views):
            self.frames.append(variant.frame(self.views[len(self.frames)]))
        return self.frames

    def rendered(self, observer: TrickspecObserver) -> list[str]:
        lines = self.texts.setdefault(observer.shown, [])
        while len(lines) < len(self.views):
            lines.append(observer.render(self.views[len(lines)]))
        return lines


class _Deal:
    """One deal as a state holds it: the pack as chance draws it, then the engine playing it and
    the players' actions as the engine's ids; each seat's views since the deal, once any is asked
    for (a playout never asks); the state's text, made once per state (OpenSpiel's tests compare a
    state's text with its clone's at every step).

    A copy copies the engine and shares what cannot change. A pickle (pyspiel's serialization) is
    the shuffle and the actions, replayed when loaded: the variant is pickled as its id, so its
    compiled rules are neither pickled nor copied, and a replay costs less than a pickled engine."""

    def __init__(self, variant: _Variant, dealer: int) -> None:
        self.variant = variant
        self.dealer = dealer
        self.pack: list[int] = []  # cards drawn by chance, top of the pack first
        self.ids: list[int] = []  # the players' actions as the engine's ids
        self.engine: Engine | None = None
        self.seen: list[_Seen] | None = None
        self._text: str | None = None

    @classmethod
    def replayed(cls, variant: _Variant, dealer: int, pack: list[int], ids: list[int]) -> _Deal:
        """The deal after these chance outcomes and these actions (engine ids)."""
        deal = cls(variant, dealer)
        for card in pack:
            deal.apply(card)
        for action_id in ids:
            deal.play(action_id)
        return deal

    def __reduce__(self) -> tuple[Any, tuple[_Variant, int, list[int], list[int]]]:
        return (_Deal.replayed, (self.variant, self.dealer, list(self.pack), list(self.ids)))

    def __deepcopy__(self, memo: dict[int, object]) -> _Deal:
        twin = _Deal(self.variant, self.dealer)
        twin.pack = list(self.pack)
        twin.ids = list(self.ids)
        twin.engine = None if self.engine is None else self.engine.copy()
        twin.seen = None if self.seen is None else [seen.copy() for seen in self.seen]
        twin._text = self._text
        return twin

    def _setup(self) -> Json:
        return {"dealer": self.dealer, "deck": [self.variant.codes[c] for c in self.pack]}

    def apply(self, action: int) -> None:
        """Draw a card into the pack (chance), or take the player's action (its seat-free id)."""
        v = self.variant
        if self.engine is None:
            if not 0 <= action < v.size or action in self.pack:
                raise ValueError(f"chance outcome {action} is not a card left in the pack")
            self._text = None
            self.pack.append(action)
            if len(self.pack) == v.size:
                self.engine = Engine.new(v.id, self._setup())
            return
        seat = self.engine.to_act
        assert seat is not None
        self.play(seat * v.index.per_seat + action)

    def play(self, action_id: int) -> None:
        """Take a player's action, by its engine id."""
        assert self.engine is not None
        outcome = self.engine.apply_id(action_id)
        if isinstance(outcome, Refusal):
            per_seat = self.variant.index.per_seat
            raise ValueError(
                f"action {action_id % per_seat} of seat {action_id // per_seat} refused: {outcome.code}: {outcome.message}"
            )
        self._text = None
        self.ids.append(action_id)
        if self.seen is not None:
            for s, seen in enumerate(self.seen):
                seen.views.append(self.engine.view(s))

    def seen_by(self, seat: int) -> _Seen | None:
        """What ``seat`` has seen since the deal (None while chance shuffles), recorded from the
        deal on when first asked for."""
        if self.engine is None:
            return None
        if self.seen is None:
            replay = Engine.new(self.variant.id, self._setup())
            seats = range(self.variant.players)
            by_seat = [[replay.view(s)] for s in seats]
            for action_id in self.ids:
                replay.apply_id(action_id)
                for s in seats:
                    by_seat[s].append(replay.view(s))
            self.seen = [_Seen(views, [], {}) for views in by_seat]
        return self.seen[seat]

    def text(self) -> str:
        if self._text is None:
            if self.engine is None:
                self._text = "pack: " + " ".join(self.variant.codes[c] for c in self.pack)
            else:
                self._text = json.dumps(self.engine.snapshot(), sort_keys=True)
        return self._text


class TrickspecObserver:
    """Observation and information-state tensors and strings, from the seat's views alone
    (the PyObserver interface of OpenSpiel's python/observation.py): each view's frame and text
    are kept with the state's views (_Seen), and an observer copies out the pieces it shows."""

    def __init__(self, variant: _Variant, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("no observer shows every player's private cards")
        self.variant = variant
        self.perfect_recall: bool = iig_obs_type.perfect_recall
        self.private: bool = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public: bool = iig_obs_type.public_info
        self.shown = (self.private, self.public)  # observers showing the same keys share their texts (_Seen)
        self.pieces = {name: shape for name, shape in variant.shapes.items() if self._shows(name)}
        steps = variant.max_game_length + 1 if self.perfect_recall else 1
        sizes = {name: steps * int(np.prod(shape)) for name, shape in self.pieces.items()}
        self.tensor = np.zeros(sum(sizes.values()), np.float32)
        self.dict: dict[str, Any] = {}
        # Each piece as the part of the tensor that holds it, a row per step, and its cells in a frame.
        self._copies: list[tuple[Frame, slice]] = []
        start = 0
        for name, shape in self.pieces.items():
            piece = self.tensor[start : start + sizes[name]]
            self.dict[name] = piece.reshape((steps, *shape)) if self.perfect_recall else piece.reshape(shape)
            self._copies.append((piece.reshape(steps, -1), variant.where[name]))
            start += sizes[name]

    def _shows(self, key: str) -> bool:
        """Whether this observer shows a view's key (a piece of the tensor, or of the string)."""
        if key == "seat":
            return True
        return self.private if key in PRIVATE else self.public

    def set_from(self, state: TrickspecState, player: int) -> None:
        self.tensor.fill(0)
        seen = state._deal.seen_by(player)
        if seen is None:  # chance still shuffles: the seat knows only who it is
            (self.dict["seat"][0] if self.perfect_recall else self.dict["seat"])[player] = 1
            return
        frames = seen.framed(self.variant)
        steps = np.array(frames) if self.perfect_recall else frames[-1][np.newaxis]
        for rows, where in self._copies:
            rows[: len(steps)] = steps[:, where]

    def string_from(self, state: TrickspecState, player: int) -> str:
        seen = state._deal.seen_by(player)
        if seen is None:
            return f"seat {player}; shuffled {state.shuffled()} of {self.variant.size}"
        lines = seen.rendered(self)
        return "\n".join(lines) if self.perfect_recall else lines[-1]

    def render(self, view: Json) -> str:
        """A view as text, keeping what this observer shows."""
        shown = {key: value for key, value in view.items() if self._shows(key)}
        return json.dumps(shown, sort_keys=True, separators=(",", ":"))


def register() -> dict[str, type[TrickspecGame]]:
    """Register every playable variant of the spec, and the ``trickspec`` game; each game's class by name."""
    ids = variant_ids()
    games: dict[str, tuple[str | None, Any]] = {}
    for variant_id in ids:
        v = _variant(variant_id)
        name = game_name(variant_id)
        games[name] = (variant_id, _game_type(name, f"trickspec {variant_id}", (v.players, v.players), dict(PARAMETERS)))
    players = [_variant(v).players for v in ids]
    games[GAME_PREFIX] = (
        None,
        _game_type(GAME_PREFIX, "trickspec (any variant)", (min(players), max(players)), {"variant": ids[0], **PARAMETERS}),
    )
    registered = set(pyspiel.registered_names())
    classes: dict[str, type[TrickspecGame]] = {}
    for name, (game_variant, game_type) in games.items():
        class_name = f"Game_{name}"
        cls = type(class_name, (TrickspecGame,), {"VARIANT": game_variant, "GAME_TYPE": game_type})
        globals()[class_name] = cls  # where pickle looks a class up
        classes[name] = cls
        if name not in registered:
            pyspiel.register_game(game_type, cls)
    return classes


GAMES = register()
