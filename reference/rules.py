"""A variant compiled for play: the shared facts and the interfaces every rule component meets.

engine.py fills a ``Rules`` from the variant through the registry (components.py); each
component module implements one of the protocols below.
"""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple, Protocol

from reference.action_ids import ActionIndex
from reference.actions import ACTION_SHAPES as ACTION_SHAPES  # re-exported for callers of reference.rules
from reference.actions import ActionTable
from reference.cards import Cards
from reference.errors import VariantError
from reference.params import Param, Params
from reference.precedence import Precedence
from reference.ranking import Ranking, Tables
from reference.refusals import Refusal
from reference.seating import Seating
from reference.state import Deal, Phase
from specreader.jsontypes import Json, JsonPath

# An event is recorded as a JSON object or, where events are many (every card played, won or
# drawn), as a record ``(build, *args)`` whose JSON object is built only when the caller reads
# the events: most callers (random playouts, the scenario runner) never do. A record's
# arguments must not change afterwards.
Event = Json | tuple[Any, ...]
Events = list[Event]


def built(events: Events) -> list[Json]:
    """The events as JSON objects, in order (new objects for records, the others as they are)."""
    return [e if isinstance(e, dict) else e[0](*e[1:]) for e in events]


class Rule:
    """The implementation of one rule of a component, as the registry (components.py) builds it."""

    PARAMETERS: ClassVar[tuple[Param, ...]] = ()  # what a variant may state for this rule

    def __init__(self, rules: Rules, params: Params) -> None:
        pass


class Stage(Protocol):
    """A part of the deal that may wait for actions (cut, trump making, going alone, play)."""

    kinds: dict[Phase, frozenset[str]]  # the action types it accepts in each of its phases

    def start(self, st: Deal, ev: Events) -> bool:
        """Enter the stage; True if it now waits for actions, False if it is already done."""

    def legal_ids(self, st: Deal) -> list[int]:
        """The legal actions now, as ids (action_ids.py), in the order the engine lists them."""

    def apply(self, st: Deal, kind: str, seat: int, card: int, ev: Events) -> Refusal | bool:
        """Apply a well-formed action of an accepted type; True when the stage is done.

        A refusal must leave ``st`` untouched: check everything before changing anything.
        """


class FirstDealerRule(Protocol):
    parameter: str  # where the variant states the rule, dotted: what a draw it does not allow breaks
    def dealer(self, nines: object, path: JsonPath) -> int:
        """The first dealer, from the setup's ``nines`` (at ``path``)."""


class Misplaced(NamedTuple):
    """A card a position begun mid-play records as turned, lying where no deal leaves it (``TrumpRule.misplaced``)."""

    card: int
    why: str
    observed: str  # the field showing where making trumps put it, as an action of its phase leaves it
    choices_left: frozenset[str] | None = None  # what the rule that put it there leaves to choose (SetupError's)


class TrumpRule(Protocol):
    names_makers: bool  # trumps are made by a side (the makers), not by the card alone
    out_of_play: int  # the cards making trumps puts out of play before the first lead

    def unturnable(self, turned: list[int], trump: int, indicator: int | None) -> tuple[int, str] | None:
        """Where no deal turns the cards ``turned`` (in the order turned) while making ``trump`` trumps and leaving
        ``indicator`` (where the deal has one) to show them: the index of the first card none turns so, and why; None
        where one may."""

    def misplaced(self, st: Deal) -> Misplaced | None:
        """Of the cards a position begun mid-play records as turned (``st.turned``, as ``unturnable`` allows them),
        the first lying where no deal leaves it (or where a deal reports it as the indicator, and the position gives
        none), why, and the field that shows where making trumps put it, as an action of its phase leaves it
        (``SetupError.observed``), with the player's choice that put it there where the position records one; None
        where each lies where a deal may leave it."""

    def wrong_makers(self, st: Deal, makers: int) -> str | None:
        """Why no deal makes side ``makers`` the makers once trumps are made in ``st`` (where ``names_makers``);
        None where one may."""


class Legality(Protocol):
    free: bool  # every card in hand is always legal

    def check(self, hand: list[int], card: int, led: int, t: Tables) -> str | None:
        """The refusal code for playing ``card`` to a trick led by ``led``, or None."""

    def legal(self, hand: list[int], led: int, t: Tables) -> list[int]: ...


class TrickRule(Protocol):
    def winner(self, cards: list[int], t: Tables) -> int:
        """The index in ``cards`` (play order) of the winning card."""


class DrawRule(Protocol):
    indicator_dead: bool  # the indicator is never drawn: it lies under the stock for the whole deal

    def after_trick(self, st: Deal, winner: int, ev: Events) -> None: ...

    def drawable(self, stock: int) -> int:
        """Of a stock just made (the indicator under it), the cards that will be drawn."""

    def left_to_draw(self, st: Deal) -> int:
        """Stock cards still to be drawn."""


class ScoreRule(Protocol):
    produces: str  # "vp" or "deal_score": what the match rule reads
    points_range: tuple[int, int]  # the least and the most one side can score in a deal

    def result(self, st: Deal) -> tuple[Json, int | None]:
        """The deal's result (without next_dealer) and the winning side (None: nobody)."""


class DealerRule(Protocol):
    choice: bool  # the winning side may name its next dealer (take_deal, R2)

    def next_dealer(self, st: Deal, winner: int | None) -> int:
        """The next dealer when nobody chooses (the default)."""

    def choosers(self, winner: int | None) -> tuple[int, ...]:
        """The seats that may take the next deal once the deal is over."""

    def take_deal(self, st: Deal, seat: int, ev: Events) -> Refusal | None:
        """``seat`` takes the next deal for its side, or why not (``st`` untouched)."""


class MatchRule(Protocol):
    needs: str  # what the score rule must produce

    def parse(self, value: object, path: tuple[str | int, ...]) -> Json:
        """The match state so far from the setup's ``match`` (None: a fresh match)."""

    def record(self, st: Deal, result: Json, winner: int | None) -> None: ...

    def snapshot(self, st: Deal) -> Json: ...

    def carried(self, st: Deal) -> Json:
        """The match so far as the next deal's setup gives it (``parse`` reads it back)."""


class Rules:
    """One variant compiled: facts read once, components chosen by the registry."""

    def __init__(self, variant: Json) -> None:
        if not isinstance(variant, dict):
            raise VariantError("expected a resolved variant (a mapping)")
        if variant.get("abstract"):
            raise VariantError("an abstract variant cannot be played", ("abstract",))
        self.variant = variant
        self.id: str = str(variant.get("id", ""))
        self.game: str = str(variant.get("game", ""))
        self.cards = Cards(variant)
        self.ranking = Ranking(self.cards, variant)
        self.seats = Seating(variant)
        deal = variant.get("deal")
        if not isinstance(deal, dict):
            raise VariantError("expected a mapping with hand_size and packets", ("deal",))
        hand = deal.get("hand_size")
        if type(hand) is not int or hand < 1:
            raise VariantError("expected a positive integer", ("deal", "hand_size"))
        self.hand_size: int = hand
        self.packets = _packet_rounds(deal.get("packets", [1]), hand)
        dealt = self.seats.n * hand
        if dealt > self.cards.size:
            raise VariantError(f"{dealt} cards dealt from a deck of {self.cards.size}", ("deal",))
        stock = deal.get("stock", self.cards.size - dealt)
        if type(stock) is not int or stock != self.cards.size - dealt:
            raise VariantError(
                f"expected the stock to be the {self.cards.size - dealt} cards left", ("deal", "stock")
            )
        self.stock_size: int = stock
        self.actions = ActionTable(self.cards, self.seats)
        self.precedence: Precedence  # which refusal answers an action breaking several rules
        # Filled by engine.compile_rules through the registry.
        self.first_dealer: FirstDealerRule | None = None
        self.has_cut = False
        self.trump_rule: TrumpRule
        self.has_lone = False  # a player may go alone
        self.stages: list[Stage] = []
        self.index: ActionIndex  # the integer ids of the actions the stages accept
        self.accepts: dict[Phase, frozenset[int]]  # the ids accepted in each phase
        self.legality: Legality
        self.trick: TrickRule
        self.draw: DrawRule | None = None
        self.score: ScoreRule
        self.dealer: DealerRule
        self.match: MatchRule
        self.look = False  # partners may see each other's hands after trumps are fixed


def _packet_rounds(packets: object, hand: int) -> tuple[int, ...]:
    """Packet sizes round by round: the list repeated until each hand is full."""
    if (
        not isinstance(packets, list)
        or not packets
        or any(type(p) is not int or p < 1 for p in packets)
    ):
        raise VariantError("expected a list of positive packet sizes", ("deal", "packets"))
    rounds: list[int] = []
    while sum(rounds) < hand:
        rounds.append(packets[len(rounds) % len(packets)])
    if sum(rounds) != hand:
        raise VariantError(
            f"packets {packets} do not add up to a hand of {hand}", ("deal", "packets")
        )
    return tuple(rounds)
