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
import pyspiel

from reference.cards import Cards
from reference.engine import Engine
from reference.errors import Rejected
from reference.rules import Rules
from reference.state import Phase
from specreader.jsontypes import Json
from specreader.spec import variant, variant_ids

GAME_PREFIX = "trickspec"
PARAMETERS: dict[str, Any] = {"dealer": 0}

# A view's keys that only the seat itself sees; the others are public.
PRIVATE = ("hand", "partner_hand")
PHASE_ROWS = {phase.value: row for row, phase in enumerate(Phase)}  # a view's phase, as its row of the phase piece


def game_name(variant_id: str) -> str:
    """The registered short name of a variant's game."""
    return f"{GAME_PREFIX}_{variant_id.replace('-', '_')}"


class _Variant:
    """What a game reads of one variant, shared by all its states (never copied with a state)."""

    def __init__(self, variant_id: str) -> None:
        probe = Engine.new(variant_id, {"dealer": 0, "deck": list(Cards(variant(variant_id)).codes)})
        rules = probe.rules
        self.id = variant_id
        self.rules = rules
        self.index = rules.index
        self.codes = rules.cards.codes
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

    def __deepcopy__(self, memo: dict[int, object]) -> _Variant:
        return self


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
    """A deal: the shuffle so far (chance), then the reference engine playing it."""

    def __init__(self, game: TrickspecGame) -> None:
        super().__init__(game)
        self._variant = game.variant
        self._dealer = game.dealer
        self._pack: list[int] = []  # cards drawn by chance, top of the pack first
        self._ids: list[int] = []  # the players' actions as the engine's ids
        self._engine: Engine | None = None
        # Each seat's views since the deal, recorded once asked for (a playout never asks).
        self._seen: _Seen | None = None

    def _setup(self) -> Json:
        return {"dealer": self._dealer, "deck": [self._variant.codes[c] for c in self._pack]}

    def current_player(self) -> int:
        if self._engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = self._engine.to_act
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self._engine is not None and player == self._engine.to_act
        base = player * self._variant.index.per_seat
        return sorted(i - base for i in self._engine.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self._engine is None
        drawn = set(self._pack)
        left = [c for c in range(self._variant.size) if c not in drawn]
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        action = int(action)
        v = self._variant
        if self._engine is None:
            if not 0 <= action < v.size or action in self._pack:
                raise ValueError(f"chance outcome {action} is not a card left in the pack")
            self._pack.append(action)
            if len(self._pack) == v.size:
                self._engine = Engine.new(v.id, self._setup())
            return
        seat = self._engine.to_act
        assert seat is not None
        action_id = seat * v.index.per_seat + action
        outcome = self._engine.apply_id(action_id)
        if isinstance(outcome, Rejected):
            raise ValueError(f"action {action} of seat {seat} refused: {outcome.code}: {outcome.message}")
        self._ids.append(action_id)
        if self._seen is not None:
            for s, seen in enumerate(self._seen.by_seat):
                seen.append(self._engine.view(s))

    def _action_to_string(self, player: int, action: int) -> str:
        v = self._variant
        if player == pyspiel.PlayerId.CHANCE:
            return f"pack {v.codes[action]}"
        kind, card = v.index.local[action]
        return f"{kind} {v.codes[card]}" if card >= 0 else kind

    def is_terminal(self) -> bool:
        return self._engine is not None and self._engine.to_act is None

    def returns(self) -> list[float]:
        v = self._variant
        if not self.is_terminal():
            return [0.0] * v.players
        assert self._engine is not None
        points = side_points(v.rules, self._engine.snapshot()["result"])
        return [float(points[v.side_of[p]]) for p in range(v.players)]

    def views(self, seat: int) -> list[Json]:
        """What ``seat`` has seen since the deal: its view as dealt, then after each action."""
        if self._engine is None:
            return []
        if self._seen is None:
            replay = Engine.new(self._variant.id, self._setup())
            seats = range(self._variant.players)
            by_seat = [[replay.view(s)] for s in seats]
            for action_id in self._ids:
                replay.apply_id(action_id)
                for s in seats:
                    by_seat[s].append(replay.view(s))
            self._seen = _Seen(by_seat)
        return self._seen.by_seat[seat]

    def view(self, seat: int) -> Json | None:
        """What ``seat`` sees now (None while chance shuffles)."""
        return None if self._engine is None else self._engine.view(seat)

    def shuffled(self) -> int:
        """Cards drawn into the pack so far (public: nobody sees which)."""
        return len(self._pack)

    def __str__(self) -> str:
        if self._engine is None:
            return "pack: " + " ".join(self._variant.codes[c] for c in self._pack)
        return json.dumps(self._engine.snapshot(), sort_keys=True)


class _Seen:
    """Each seat's views, oldest first. A view once recorded never changes, so a copied state
    shares them (and an observer's rows encoded from them, see TrickspecObserver)."""

    def __init__(self, by_seat: list[list[Json]]) -> None:
        self.by_seat = by_seat

    def __deepcopy__(self, memo: dict[int, object]) -> _Seen:
        return _Seen([list(seen) for seen in self.by_seat])


class TrickspecObserver:
    """Observation and information-state tensors and strings, from the seat's views alone
    (the PyObserver interface of OpenSpiel's python/observation.py)."""

    def __init__(self, variant: _Variant, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("no observer shows every player's private cards")
        self.variant = variant
        self.perfect_recall: bool = iig_obs_type.perfect_recall
        self.private: bool = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public: bool = iig_obs_type.public_info
        n, deck = variant.players, variant.size
        sides = len(variant.rules.seats.sides)
        shapes: dict[str, tuple[int, ...]] = {
            "seat": (n,),
            "hand": (deck,),
            "partner_hand": (deck,),
            "phase": (len(Phase),),
            "to_act": (n,),
            "dealer": (n,),
            "trump": (len(variant.rules.cards.suits),),
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
        # For each seat, the views last encoded or rendered (kept, so never another's): an
        # information state grows by one view per action, and the earlier ones are not done again.
        self._encoded: tuple[int, list[Json]] = (-1, [])  # the tensor holds these views of this seat
        self._rendered: dict[int, tuple[list[Json], str]] = {}
        self.pieces = {name: shape for name, shape in shapes.items() if self._shows(name)}
        steps = variant.max_game_length + 1 if self.perfect_recall else 1
        sizes = {name: steps * int(np.prod(shape)) for name, shape in self.pieces.items()}
        self.tensor = np.zeros(sum(sizes.values()), np.float32)
        self.dict: dict[str, Any] = {}
        self._step_rows: list[dict[str, Any]] = []  # see _rows
        start = 0
        for name, shape in self.pieces.items():
            piece = self.tensor[start : start + sizes[name]]
            self.dict[name] = piece.reshape((steps, *shape)) if self.perfect_recall else piece.reshape(shape)
            start += sizes[name]

    def _shows(self, key: str) -> bool:
        """Whether this observer shows a view's key (a piece of the tensor, or of the string)."""
        if key == "seat":
            return True
        return self.private if key in PRIVATE else self.public

    def _seen(self, state: TrickspecState, player: int) -> list[Json]:
        if self.perfect_recall:
            return state.views(player)
        view = state.view(player)
        return [] if view is None else [view]

    def set_from(self, state: TrickspecState, player: int) -> None:
        seen = self._seen(state, player)
        encoded_for, done = self._encoded
        if not (self.perfect_recall and encoded_for == player and done and _extends(seen, done)):
            done = []
            self.tensor.fill(0)
        for step in range(len(done), len(seen)):
            self._encode(seen[step], step)
        if not seen:  # chance still shuffles: the seat knows only who it is
            (self.dict["seat"][0] if self.perfect_recall else self.dict["seat"])[player] = 1
        self._encoded = (player, list(seen))

    def _rows(self, step: int) -> dict[str, Any]:
        """Each piece this observer shows, as the part of the tensor that holds the view of ``step``
        (the whole piece without perfect recall); laid out once per step."""
        while len(self._step_rows) <= step:
            at = len(self._step_rows)
            self._step_rows.append({name: (piece[at] if self.perfect_recall else piece) for name, piece in self.dict.items()})
        return self._step_rows[step]

    def _encode(self, view: Json, step: int) -> None:
        index = self.variant.rules.cards.index
        rows = self._rows(step)

        def mark(name: str, *where: int | None) -> None:
            """Set one cell of a piece; nothing if this observer does not show it or a coordinate is None."""
            row = rows.get(name)
            if row is not None and None not in where:
                row[where] = 1

        def cards(name: str, codes: list[str]) -> None:
            """Mark each card of ``codes`` in a piece with one cell per card."""
            row = rows.get(name)
            if row is not None and codes:
                row[[index[code] for code in codes]] = 1

        def seats_cards(name: str, plays: list[Json]) -> None:
            """Mark each (seat, card) of ``plays`` in a piece with a row per seat."""
            row = rows.get(name)
            if row is not None and plays:
                row[[p["seat"] for p in plays], [index[p["card"]] for p in plays]] = 1

        mark("seat", view["seat"])
        cards("hand", view["hand"])
        cards("partner_hand", [code for hand in (view["partner_hand"] or {}).values() for code in hand])
        mark("phase", PHASE_ROWS[view["phase"]])
        mark("to_act", view["to_act"])
        mark("dealer", view["dealer"])
        mark("trump", self.variant.rules.cards.suits.index(view["trump"]) if view["trump"] is not None else None)
        if "hand_counts" in rows:
            rows["hand_counts"][:] = view["hand_counts"]
            rows["stock_count"][0] = view["stock_count"]
            rows["tricks"][:] = view["tricks"]
        seats_cards("bids", view["bids"])
        cards("turned", view["turned"])
        mark("indicator", index[view["indicator"]] if view["indicator"] is not None else None)
        cards("trees_taken", view["trees_taken"])
        seats_cards("trick", view["trick"])
        last = view["last_trick"]
        if last is not None:
            seats_cards("last_trick", last["cards"])
            mark("last_trick_winner", last["winner"])
        mark("makers", view["makers"])
        mark("lone", view["lone"])

    def string_from(self, state: TrickspecState, player: int) -> str:
        seen = self._seen(state, player)
        if not seen:
            return f"seat {player}; shuffled {state.shuffled()} of {self.variant.size}"
        done, text = self._rendered.get(player, ([], ""))
        if not _extends(seen, done):
            done, text = [], ""
        lines = [text] if done else []
        lines += [self.render(view) for view in seen[len(done) :]]
        text = "\n".join(lines)
        if self.perfect_recall:
            self._rendered[player] = (list(seen), text)
        return text

    def render(self, view: Json) -> str:
        """A view as text, keeping what this observer shows."""
        shown = {key: value for key, value in view.items() if self._shows(key)}
        return json.dumps(shown, sort_keys=True, separators=(",", ":"))


def _extends(seen: list[Json], done: list[Json]) -> bool:
    """``seen`` begins with the very views of ``done`` (the same objects, not equal ones)."""
    return len(seen) >= len(done) and all(a is b for a, b in zip(reversed(done), reversed(seen[: len(done)]), strict=True))


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
