"""Hypothesis strategies for property tests of an engine: deals, games and illegal attempts of any variant.

Setups are drawn from the spec (the variant's deck, players and hand size); games are played by
the reference engine, one legal action drawn at each step. Drawn step by step while the test
runs (``play`` with ``st.data()``), a failing game ends where it fails, and Hypothesis shrinks it
to a short one: the first legal actions, a deck near its canonical order.

    from hypothesis import given, strategies as st
    from conformance import strategies

    @given(st.data())
    def test_my_engine_plays_like_the_reference(data: st.DataObject) -> None:
        setup = data.draw(strategies.setups("albastini-2p"))
        engine = MyEngine.new("albastini-2p", setup)
        for action, expected in strategies.play(data.draw, "albastini-2p", setup, illegal=True):
            refused = engine.apply(action) if action is not None else None
            ...  # compare the refusal, engine.snapshot() and engine.legal_actions() with ``expected``

``games`` draws a whole game first, to send to any engine adapter as one request.

Hypothesis is in the kit's ``dev`` extra, not among its dependencies: this module imports it,
and no other module of the kit imports this one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal, NamedTuple, TypeVar

from hypothesis import strategies as st

from conformance.engines.messages import Observation, RefusalReport, Request
from conformance.suite import schemas
from conformance.suite.scenarios import deck_of
from reference import Applied, Engine
from specreader import spec
from specreader.jsontypes import Json

SetupForm = Literal["deck", "hands"]
T = TypeVar("T")


@dataclass(frozen=True)
class Game:
    """A deal as the strategies drew it, and what the reference engine observed.

    ``observations`` has the protocol's shape (docs/protocol.md): the one after setup, then one
    after each action, with the refusal, the snapshot and the legal actions.
    """

    variant: str
    setup: Json
    actions: list[Json]  # legal ones, and refused attempts where drawn with ``illegal=True``
    observations: list[Observation] = field(repr=False)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """How Hypothesis prints a falsifying game: without the observations, which replaying gives."""
        printer.text(repr(self))

    def request(self, request_id: str = "hypothesis") -> Request:
        """The game as a protocol request, every observation asked for: for any engine adapter."""
        return {
            "id": request_id,
            "variant": self.variant,
            "setup": self.setup,
            "actions": [dict(action) for action in self.actions],
            "observe": list(range(len(self.actions) + 1)),
        }


@dataclass(frozen=True)
class _Table:
    """What the strategies read of a variant: its cards in deck order, seats and hand size."""

    cards: tuple[str, ...]
    seats: tuple[int, ...]
    hand_size: int


@cache
def _table(variant_id: str) -> _Table:
    variant = spec.kit_spec().resolved(variant_id)
    return _Table(tuple(deck_of(variant)), tuple(range(variant["players"])), variant["deal"]["hand_size"])


@cache
def _action_shapes() -> dict[str, bool]:
    """Each action type and whether it names a card, as schemas/action.schema.json states them."""
    schema = schemas.registry().contents(schemas.BASE + "action.schema.json")
    return {
        kind: "card" in branch["required"]
        for branch in schema["oneOf"]
        for kind in branch["properties"]["type"]["enum"]
    }


@cache
def _below(n: int) -> st.SearchStrategy[int]:
    """0 to n - 1, shrinking towards 0. Built once per n: a game draws hundreds of choices, and
    Hypothesis checks each new strategy object before its first draw."""
    return st.integers(0, n - 1)


def _pick(draw: st.DrawFn, options: Sequence[T]) -> T:
    """One of ``options``, shrinking towards the first. A single option is taken without a draw, as
    ``sampled_from`` does: a forced move leaves the shrinker no choice to try."""
    return options[draw(_below(len(options)))] if len(options) > 1 else options[0]


@cache  # one strategy per variant and form: Hypothesis checks each new one before its first draw
def setups(variant_id: str, *, form: SetupForm | None = None) -> st.SearchStrategy[Json]:
    """A fresh deal of the variant: a dealer and every card of its deck in a drawn order.

    ``form="deck"`` gives the whole deck, top first, for the engine to cut and deal;
    ``form="hands"`` gives each seat's hand and the stock, as if dealt; None draws either.
    Shrinks towards dealer 0 and the deck in canonical order.
    """
    table = _table(variant_id)
    forms: list[SetupForm] = [form] if form else ["deck", "hands"]

    def laid_out(dealer: int, cards: list[str], chosen: SetupForm) -> Json:
        if chosen == "deck":
            return {"dealer": dealer, "deck": cards}
        size = table.hand_size
        hands = {str(seat): cards[seat * size : (seat + 1) * size] for seat in table.seats}
        return {"dealer": dealer, "hands": hands, "stock": cards[len(table.seats) * size :]}

    return st.builds(laid_out, st.sampled_from(table.seats), st.permutations(table.cards), st.sampled_from(forms))


@st.composite
def illegal_attempts(
    draw: st.DrawFn, variant_id: str, legal: Sequence[Json], hands: Mapping[str, Sequence[str]] | None = None
) -> Json:
    """A well-formed action that is not among ``legal``, the legal actions of some position.

    Drawn the way engines go wrong: a legal action by another seat (out of turn), with another
    card (one not in hand, a bid in a suit already bid; given the position's ``hands``, by seat
    as in a snapshot, a card of the seat's own hand: a revoke), or any action at all (most often
    one of another phase). The reference engine refuses every one of them.
    """
    return _illegal(draw, _table(variant_id), legal, lambda: hands or {})


_Hands = Mapping[str, Sequence[str]]


def _illegal(draw: st.DrawFn, table: _Table, legal: Sequence[Json], hands: Callable[[], _Hands]) -> Json:
    # ``hands`` is called only where a revoke is drawn: a snapshot costs more than the rest of a step.
    with_card = [action for action in legal if "card" in action]
    kinds = tuple(_action_shapes())
    while True:  # rarely more than once: few actions are legal
        way = draw(_below(4))
        if way == 0 and legal:
            action = {**_pick(draw, legal), "seat": _pick(draw, table.seats)}
        elif way in (1, 2) and with_card:
            action = dict(_pick(draw, with_card))
            own = hands().get(str(action["seat"]), ()) if way == 2 else ()
            action["card"] = _pick(draw, own or table.cards)
        else:
            kind = _pick(draw, kinds)
            action = {"type": kind, "seat": _pick(draw, table.seats)}
            if _action_shapes()[kind]:
                action["card"] = _pick(draw, table.cards)
        if action not in legal:
            return action


class Step(NamedTuple):
    """One step of a game: the action (None for the setup) and what the reference engine observed after it."""

    action: Json | None
    observation: Observation


def play(draw: st.DrawFn, variant_id: str, setup: Json, *, illegal: bool = False) -> Iterator[Step]:
    """The game the reference engine plays from ``setup``, each action drawn as the test asks for it.

    ``draw`` is ``data.draw`` of ``st.data()`` (or a composite strategy's ``draw``). The first step
    is the setup's; then one step per action, legal when played, until the deal is over. With
    ``illegal=True``, attempts the reference refuses (``illegal_attempts``) come before about one
    action in four. A test that fails at a step draws nothing after it.
    """
    return _steps(draw, variant_id, setup, illegal, observe=True)


class _Move(NamedTuple):
    """One draw of a game: the next action (None once the deal is over) and, when it is legal, the
    engine's own listed copy, applied as listed. Hypothesis prints the action, an attempt marked."""

    action: Json | None
    shared: Json | None

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.pretty(self.action)
        if self.shared is None:
            printer.text("  # the deal is over" if self.action is None else "  # illegal")


class _Position:
    """A game being drawn, as its next move reads it."""

    def __init__(self, engine: Engine, table: _Table, illegal: bool) -> None:
        self.engine = engine
        self.table = table
        self.illegal = illegal
        self.legal = engine.legal_actions()
        self.attempted = False  # the last move was an attempt: the next is legal

    def hands(self) -> _Hands:
        hands: _Hands = self.engine.snapshot()["hands"]
        return hands


_AT: ContextVar[_Position] = ContextVar("_AT")  # the position the next move is drawn at


@st.composite
def _next_move(draw: st.DrawFn) -> _Move:
    # A legal action, or before one, about one time in four, an attempt: the flag shrinks to no attempt.
    at = _AT.get()
    legal = at.legal
    if at.illegal and not at.attempted and draw(_below(4)) == 3:
        return _Move(_illegal(draw, at.table, legal, at.hands), None)
    if not legal:
        return _Move(None, None)
    shared = _pick(draw, legal)
    return _Move(dict(shared), shared)  # a plain dict: Hypothesis prints it


# One strategy for every move of every game: Hypothesis checks each new strategy before its first draw.
_MOVES = _next_move()


def _draw_move(draw: st.DrawFn, at: _Position) -> _Move:
    token = _AT.set(at)
    try:
        return draw(_MOVES, "action")
    finally:
        _AT.reset(token)


def _steps(draw: st.DrawFn, variant_id: str, setup: Json, illegal: bool, observe: bool) -> Iterator[Step]:
    engine = Engine.new(variant_id, setup)
    at = _Position(engine, _table(variant_id), illegal)

    def observation(rejected: RefusalReport | None) -> Observation:
        if not observe:
            return {"rejected": rejected, "snapshot": None, "legal": None}
        return {"rejected": rejected, "snapshot": engine.snapshot(), "legal": [dict(a) for a in at.legal]}

    yield Step(None, observation(None))
    while at.legal or (illegal and not at.attempted):
        move = _draw_move(draw, at)
        if move.action is None:
            return
        at.attempted = move.shared is None
        if move.shared is None:
            refused = engine.apply(move.action)
            if isinstance(refused, Applied):
                raise AssertionError(f"the reference engine accepted {move.action}, which it does not list as legal")
            yield Step(move.action, observation({"code": refused.code, "message": refused.message}))
            continue
        engine.apply(move.shared)
        at.legal = engine.legal_actions()
        yield Step(move.action, observation(None))


@st.composite
def _played(draw: st.DrawFn, variant_id: str, setup: Json, illegal: bool, complete: bool, observe: bool) -> Game:
    # A game stops after a drawn number of legal actions, up to twice the cards in the deck: about half
    # play to the end, and a failing game can shrink to one that stops soon after where it fails.
    stop_after = None if complete else draw(_below(2 * len(_table(variant_id).cards) + 1))
    actions: list[Json] = []
    observations: list[Observation] = []
    played = 0
    for action, observed in _steps(draw, variant_id, setup, illegal, observe):
        if action is not None:
            actions.append(action)
            if observed["rejected"] is None:
                played += 1
        observations.append(observed)
        if played == stop_after:
            break
    return Game(variant_id, setup, actions, observations)


def action_sequences(
    variant_id: str, setup: Json, *, illegal: bool = False, complete: bool = False
) -> st.SearchStrategy[list[Json]]:
    """Actions from ``setup``, each legal when played: the start of a deal, or all of it.

    ``illegal=True`` mixes in attempts the reference refuses, as ``play`` does; ``complete=True``
    plays on until the deal is over.
    """
    return _played(variant_id, setup, illegal, complete, observe=False).map(lambda game: game.actions)


@st.composite
def games(
    draw: st.DrawFn, variant_id: str, *, illegal: bool = False, complete: bool = False, form: SetupForm | None = None
) -> Game:
    """A setup from ``setups``, a game from it as ``action_sequences`` draws one, and what the reference
    engine observed after setup and after each action. Drawn whole before the test runs, a failing
    game shrinks less far than one drawn step by step with ``play``."""
    return draw(_played(variant_id, draw(setups(variant_id, form=form)), illegal, complete, observe=True))
