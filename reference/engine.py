"""The reference engine: a variant compiled into its rule components (components.py), and one
deal driven by JSON actions.

The deal runs as a pipeline of stages: cut, deal, trump, look, lone, play, end; a stage the
variant does not name is skipped.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from reference import components, refusals, setup
from reference.action_ids import ActionIndex
from reference.actions import LegalAction
from reference.dealing import Dealing
from reference.errors import VariantError
from reference.play import Play
from reference.precedence import Precedence
from reference.refusals import Refusal
from reference.rules import Events, Rules, Stage, built
from reference.snapshot import snapshot, view
from reference.state import Deal, Phase
from specreader import roots
from specreader.jsontypes import Json
from specreader.spec import load_spec_precedence, variant_ids
from specreader.spec import variant as load_variant


class Applied:
    """An accepted action and the events it caused, in order.

    ``records`` are the stages' event records (see rules.Events), set by Engine.apply; ``events``
    builds their JSON objects, which most callers (random playouts, the scenario runner) never read.
    """

    __slots__ = ("records",)
    records: Events

    @property
    def events(self) -> list[Json]:
        return built(self.records)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Applied):
            return NotImplemented
        return self.events == other.events

    def __repr__(self) -> str:
        return f"Applied(events={self.events!r})"


class EndOfDeal:
    """Scores the deal, names the next dealer and records the match; then, where the dealer rule
    lets it, waits for the winning side to name another dealer (take_deal), which it need not."""

    def __init__(self, rules: Rules) -> None:
        self.kinds: dict[Phase, frozenset[str]] = {Phase.OVER: frozenset({"take_deal"})} if rules.dealer.choice else {}
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
        st.phase = Phase.OVER
        st.to_act = None  # nobody is to act; the winning side may still name its dealer
        st.winners = rules.dealer.choosers(winner)
        ev.append((_deal_over, result))  # this result object is not changed after this
        return True

    def legal_ids(self, st: Deal) -> list[int]:
        if st.dealer_chosen:
            return []
        take = self.rules.actions.plain_ids["take_deal"]
        return [take[seat] for seat in st.winners]

    def apply(self, st: Deal, kind: str, seat: int, card: int, ev: Events) -> Refusal | bool:
        return self.rules.dealer.take_deal(st, seat, ev) or False


def _wrong_phase(kind: str, st: Deal) -> Refusal:
    return Refusal(refusals.WRONG_PHASE, f"no {kind} in the {st.phase} phase")


def _deal_over(result: Json) -> Json:  # an event record (see rules.Events)
    return {"type": "deal_over", "result": {k: (list(v) if isinstance(v, list) else v) for k, v in result.items()}}


def compile_rules(variant: Json, precedence: Sequence[str] | None = None) -> Rules:
    """Read a resolved variant once into lookup tables and components; ``precedence`` is the order
    refusal codes apply in (by default spec/refusals.yaml's for the variant's game)."""
    rules = Rules(variant)
    rules.precedence = Precedence(load_spec_precedence(rules.game) if precedence is None else precedence)
    components.check_names(variant.get("components"))
    rules.first_dealer = components.build(rules, "first_dealer")
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
    rules.trump_rule = trump
    look = components.build(rules, "look")
    lone = components.build(rules, "lone")
    rules.has_lone = lone is not None
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
    rules.index = ActionIndex(rules.actions, (kind for s in rules.stages for kinds in s.kinds.values() for kind in kinds))
    rules.accepts = _accepts(rules.stages, rules.index)
    return rules


def _accepts(stages: list[Stage], index: ActionIndex) -> dict[Phase, frozenset[int]]:
    """For every phase, the ids of the actions the stage waiting in it accepts (none for a phase no
    stage waits in); each phase is one stage's, so the phase alone says which stage is waiting."""
    accepts = dict.fromkeys(Phase, frozenset[int]())
    for stage in stages:
        for phase, kinds in stage.kinds.items():
            if accepts[phase]:
                raise AssertionError(f"two stages wait in the {phase} phase")
            accepts[phase] = frozenset(i for i, (kind, _, _) in enumerate(index.keys) if kind in kinds)
    return accepts


def _compiled(variant_id: str) -> Rules:
    return _compiled_with(roots.current().spec, variant_id)


@cache  # by the house spec folders too: another club's folder may give the same id another variant
def _compiled_with(house: tuple[Path, ...], variant_id: str) -> Rules:
    try:
        resolved = load_variant(variant_id)
    except KeyError:
        raise VariantError(f"no variant {variant_id!r} in spec/; known: {', '.join(variant_ids())}") from None
    return compile_rules(resolved)


class Engine:
    """One deal of one variant, driven by JSON actions."""

    __slots__ = ("_accepts", "_actions", "_by_id", "_by_key", "_keys", "_rules", "_setup_records", "_st", "_stage")

    def __init__(self, rules: Rules, setup_data: Json) -> None:
        self._rules = rules
        self._actions = rules.actions
        index = rules.index
        self._by_id = index.actions  # id -> the shared action
        self._keys = index.keys  # id -> (type, seat, card index)
        self._by_key = index.by_key  # (type, seat, card index) -> id
        self._accepts = rules.accepts  # phase -> the ids accepted in it
        st, begin = setup.build(rules, setup_data)
        self._st = st
        self._setup_records: Events = []  # the automatic steps at the start
        stages = rules.stages
        if begin is setup.Begin.FROM_PLAY:
            st.stage = next(i for i, s in enumerate(stages) if isinstance(s, Play))
            self._stage = stages[st.stage]
            return
        first = 0
        if begin is setup.Begin.FROM_HANDS:
            first = next(i for i, s in enumerate(stages) if isinstance(s, Dealing)) + 1
        st.stage = first - 1
        self._advance(self._setup_records)

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
        return built(self._setup_records)

    def _advance(self, events: Events) -> None:
        """Start the following stages until one waits for an action."""
        st = self._st
        stages = self._rules.stages
        while True:
            st.stage += 1
            stage = stages[st.stage]
            if stage.start(st, events):
                self._stage = stage
                return

    @property
    def index(self) -> ActionIndex:
        """The variant's integer action index (action_ids.py)."""
        return self._rules.index

    @property
    def to_act(self) -> int | None:
        """The seat to act now; None once the deal is over (when the winning side may still name its
        next dealer, any of its members may: see legal_actions)."""
        return self._st.to_act

    def legal_ids(self) -> list[int]:
        """The ids (action_ids.py) of the legal actions now; [] once the deal is over, but for the
        winning side's take_deal until it names its next dealer (R2)."""
        return self._stage.legal_ids(self._st)

    # The engine's speed measures beyond its tables, all here but for one line of Play.legal_ids,
    # each kept because benchmarks/bench_engine.py showed it raise the rate on albastini-2p:
    # - legal_actions, like Play.legal_ids, builds its list in a loop, not a comprehension (on
    #   Python 3.11 a comprehension is a function call of its own).
    # - apply_id and apply each write out the step (check the phase, apply, advance): a step
    #   shared by both would cost every action a call.
    # - apply takes one of this variant's own listed actions, which random playouts hand back,
    #   at its id without reading it again.
    # - the Applied is made without a constructor call.

    def legal_actions(self) -> list[Json]:
        """The actions of ``legal_ids()``, in the same order (shared read-only JSON objects)."""
        by_id = self._by_id
        actions: list[Json] = []
        for i in self._stage.legal_ids(self._st):
            actions.append(by_id[i])
        return actions

    def apply_id(self, action_id: int) -> Applied | Refusal:
        """Apply the action with this id (action_ids.py); a refusal leaves the state exactly as it
        was. An id outside the index is refused as an invalid action."""
        keys = self._keys
        if type(action_id) is not int or not 0 <= action_id < len(keys):
            return Refusal(refusals.INVALID_ACTION, f"expected an action id from 0 to {len(keys) - 1}, found {action_id!r}")
        kind, seat, card = keys[action_id]
        st = self._st
        if action_id not in self._accepts[st.phase]:
            return _wrong_phase(kind, st)
        events: Events = []
        done = self._stage.apply(st, kind, seat, card, events)
        if done is True:
            self._advance(events)
        elif done is not False:
            return done
        applied = Applied()
        applied.records = events
        return applied

    def apply(self, action: Json) -> Applied | Refusal:
        """Apply one JSON action: exactly ``apply_id`` of its id; an action of a kind the variant
        does not use (it has no id) is refused as an invalid action."""
        if type(action) is LegalAction and action.table is self._actions:
            action_id = action.id
            kind, seat, card = action.key
        else:
            key = self._actions.read(action)
            if isinstance(key, Refusal):
                return key
            action_id = self._by_key.get(key, -1)
            kind, seat, card = key
        st = self._st
        if action_id < 0:  # a kind of action this variant never uses (spec/refusals.yaml, invalid_action)
            return Refusal(refusals.INVALID_ACTION, f"{self._rules.id} has no {kind} action")
        if action_id not in self._accepts[st.phase]:
            return _wrong_phase(kind, st)
        events: Events = []
        done = self._stage.apply(st, kind, seat, card, events)
        if done is True:
            self._advance(events)
        elif done is not False:
            return done
        applied = Applied()
        applied.records = events
        return applied

    def copy(self) -> Engine:
        """An independent copy of this deal (the variant's compiled rules are shared, never copied)."""
        twin = copy.copy(self)
        twin._st = self._st.copy()
        return twin

    def __deepcopy__(self, memo: dict[int, object]) -> Engine:
        return self.copy()

    def snapshot(self) -> Json:
        return snapshot(self._rules, self._st)

    def next_setup(self) -> Json | None:
        """What the next deal of the match starts from, as a setup gives it: its ``dealer``, the
        ``dealer_history`` and the ``match`` so far (the cards are the next deal's own). None while the
        deal goes on, and once the match is won."""
        st = self._st
        if st.phase is not Phase.OVER or st.result is None or st.match.get("winner") is not None:
            return None
        dealer: int = st.result["next_dealer"]
        return {"dealer": dealer, "dealer_history": [*st.history, dealer], "match": self.match_so_far()}

    def match_so_far(self) -> Json:
        """The match as a setup gives it (``match``): as the deal found it, and once it is over with it counted."""
        return self._rules.match.carried(self._st)

    def view(self, seat: int) -> Json:
        if type(seat) is not int or not 0 <= seat < self._rules.seats.n:
            raise ValueError(f"no seat {seat!r} in this variant")
        return view(self._rules, self._st, seat)

