"""The reference engine: a variant compiled into its rule components (components.py), and one
deal driven by JSON actions.

The deal runs as a pipeline of stages: cut, deal, trump, look, lone, play, end; a stage the
variant does not name is skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from reference import components, errors, setup
from reference.dealing import Dealing
from reference.errors import Rejected, VariantError
from reference.play import Play
from reference.rules import ACTION_SHAPES, Events, Rules, SharedAction, Stage, built
from reference.snapshot import snapshot, view
from reference.state import OVER, Deal
from specreader.jsontypes import Json
from specreader.spec import variant as load_variant
from specreader.spec import variant_ids


@dataclass
class Applied:
    """An accepted action and the events it caused, in order.

    A dataclass with the one field ``events``. The engine hands over its event records
    (see rules.Events) without building them: ``events`` builds the JSON objects on first read.
    """

    __slots__ = ("_events", "_log")
    events: list[Json]  # a property, set below: the dataclass methods read and write it


# ``applied`` is Any below: its two slots are not dataclass fields, so mypy does not know them.
def _read_events(applied: Any) -> list[Json]:
    events: list[Json] | None = applied._events
    if events is None:
        events = applied._events = built(applied._log)
    return events


def _write_events(applied: Any, events: list[Json]) -> None:
    applied._events = events
    applied._log = []


# setattr, so that mypy goes on seeing ``events`` as the dataclass field it is to callers.
setattr(Applied, "events", property(_read_events, _write_events))  # noqa: B010
_new_object = object.__new__  # makes an Applied without running its __init__ (see Engine.apply)


class EndOfDeal:
    """Scores the deal, names the next dealer and records the match."""

    def __init__(self, rules: Rules) -> None:
        self.kinds: dict[str, frozenset[str]] = {}
        self.rules = rules

    def start(self, st: Deal, ev: Events) -> bool:
        rules = self.rules
        # Cards still in the stock (a five-player indicator) are out of play.
        st.dead += st.stock
        st.stock = []
        result, winner = rules.score.result(st)
        result["next_dealer"] = rules.dealer.next_dealer(st, winner)
        st.result = result
        rules.match.record(st, result, winner)
        st.phase = OVER
        st.to_act = None
        ev.append((_deal_over, result))  # the result is not changed after this
        return True

    def actions(self, st: Deal) -> list[Json]:
        return []

    def apply(self, st: Deal, kind: str, seat: int, card: int, ev: Events) -> Rejected | bool:
        raise AssertionError("a finished deal takes no actions")


def _deal_over(result: Json) -> Json:  # an event record (see rules.Events)
    return {"type": "deal_over", "result": {k: (list(v) if isinstance(v, list) else v) for k, v in result.items()}}


def compile_rules(variant: Json) -> Rules:
    """Read a resolved variant once into lookup tables and components."""
    rules = Rules(variant)
    components.check_names(variant.get("components"))
    rules.setup = components.build(rules, "setup")
    rules.draw = components.build(rules, "draw")
    rules.legality = components.build(rules, "legality")
    rules.trick = components.build(rules, "trick")
    rules.score = components.build(rules, "score")
    rules.dealer = components.build(rules, "dealer")
    rules.match = components.build(rules, "match")
    if rules.match.needs != rules.score.produces:
        raise VariantError(
            f"the {rules.score.produces} scores of this score rule do not fit a {rules.match.needs} match",
            ("components", "match", "rule"),
        )
    cut = components.build(rules, "cut")
    rules.has_cut = cut is not None
    if cut is not None and len(rules.ranking.top_trumps) > rules.packets[0]:
        raise VariantError("the cutter's first packet cannot be short by every top trump", ("deal", "packets"))
    trump = components.build(rules, "trump")
    look = components.build(rules, "look")
    lone = components.build(rules, "lone")
    if rules.stock_size < 1:
        raise VariantError("making trumps needs a stock", ("deal",))
    if rules.draw is not None:
        drawable = rules.draw.drawable(rules.stock_size)
        if drawable % rules.seats.n:
            raise VariantError(
                f"{drawable} stock cards do not draw out evenly to {rules.seats.n} players",
                ("components", "draw"),
            )
    stages: list[Stage] = [cut, Dealing(rules), trump, look, lone, Play(rules), EndOfDeal(rules)]
    rules.stages = [s for s in stages if s is not None]
    return rules


@cache
def _compiled(variant_id: str) -> Rules:
    try:
        resolved = load_variant(variant_id)
    except KeyError:
        raise VariantError(f"no variant {variant_id!r} in spec/; known: {', '.join(variant_ids())}") from None
    return compile_rules(resolved)


class Engine:
    """One deal of one variant, driven by JSON actions."""

    __slots__ = ("_rules", "_setup_events", "_setup_log", "_st", "_stage", "_token")

    def __init__(self, rules: Rules, setup_data: Json) -> None:
        self._rules = rules
        self._token = rules.actions.token
        st, begin = setup.build(rules, setup_data)
        self._st = st
        self._setup_log: Events = []
        self._setup_events: list[Json] | None = None
        stages = rules.stages
        if begin == setup.FROM_PLAY:
            st.stage = next(i for i, s in enumerate(stages) if isinstance(s, Play))
            self._stage = stages[st.stage]
            return
        first = 0
        if begin == setup.FROM_HANDS:
            first = next(i for i, s in enumerate(stages) if isinstance(s, Dealing)) + 1
        st.stage = first - 1
        self._advance(self._setup_log)

    @classmethod
    def new(cls, variant_id: str, setup_data: Json) -> Engine:
        return cls(_compiled(variant_id), setup_data)

    @classmethod
    def from_variant(cls, variant: Json, setup_data: Json) -> Engine:
        return cls(compile_rules(variant), setup_data)

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def setup_events(self) -> list[Json]:
        """Events of the automatic steps at the start (dealing, turning the trump card...)."""
        events = self._setup_events
        if events is None:
            events = self._setup_events = built(self._setup_log)
        return events

    @setup_events.setter
    def setup_events(self, events: list[Json]) -> None:
        self._setup_events = events

    def _advance(self, ev: Events) -> None:
        st = self._st
        stages = self._rules.stages
        while True:
            st.stage += 1
            stage = stages[st.stage]
            if stage.start(st, ev):
                self._stage = stage
                return

    def legal_actions(self) -> list[Json]:
        """Every legal action now (shared read-only dicts); [] once the deal is over."""
        return self._stage.actions(self._st)

    def apply(self, action: Json) -> Applied | Rejected:
        """Apply one action; a rejection leaves the state exactly as it was."""
        if type(action) is SharedAction and action.parsed[0] is self._token:
            # One of this variant's legal-action objects: its shape is known to be right.
            _, kind, seat, card = action.parsed
        else:
            parsed = self._parse(action)
            if isinstance(parsed, Rejected):
                return parsed
            kind, seat, card = parsed
        st = self._st
        stage = self._stage
        kinds = stage.kinds.get(st.phase)
        if kinds is None or kind not in kinds:
            return Rejected(errors.WRONG_PHASE, f"no {kind} in the {st.phase} phase")
        ev: Events = []
        done = stage.apply(st, kind, seat, card, ev)
        if done is True:
            self._advance(ev)
        elif done is not False:
            return done
        applied: Any = _new_object(Applied)  # Applied(ev) without its __init__: this runs on every action
        applied._log = ev
        applied._events = None
        return applied  # type: ignore[no-any-return]

    def _parse(self, action: Json) -> tuple[str, int, int] | Rejected:
        """Type, seat and card index of a well-formed action; else why it is malformed."""
        try:
            kind = action["type"]
            seat = action["seat"]
            has_card = ACTION_SHAPES[kind]
        except (KeyError, TypeError):
            return _malformed(action)
        players = self._rules.seats.n
        if type(seat) is not int or seat < 0 or seat >= players:
            return Rejected(errors.INVALID_ACTION, f"expected a seat from 0 to {players - 1}, found {seat!r}")
        card = -1
        if has_card:
            try:
                card = self._rules.cards.index[action["card"]]
            except (KeyError, TypeError):
                return Rejected(errors.INVALID_ACTION, f"{action.get('card')!r} is not a card of this deck")
            if len(action) != 3:
                return Rejected(errors.INVALID_ACTION, f"a {kind} action has exactly the keys type, seat and card")
        elif len(action) != 2:
            return Rejected(errors.INVALID_ACTION, f"a {kind} action has exactly the keys type and seat")
        return kind, seat, card

    def snapshot(self) -> Json:
        return snapshot(self._rules, self._st)

    def view(self, seat: int) -> Json:
        if type(seat) is not int or not 0 <= seat < self._rules.seats.n:
            raise ValueError(f"no seat {seat!r} in this variant")
        return view(self._rules, self._st, seat)


def _malformed(action: object) -> Rejected:
    if not isinstance(action, dict):
        return Rejected(errors.INVALID_ACTION, "an action is a JSON object")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_SHAPES:
        return Rejected(errors.INVALID_ACTION, f"unknown action type {kind!r}; expected one of {', '.join(ACTION_SHAPES)}")
    return Rejected(errors.INVALID_ACTION, f"a {kind} action names the seat")
