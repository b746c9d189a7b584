"""Steering a share of the deals to the branches random play seldom reaches.

Each steer reads the variant (its deck, components and parameters) to decide whether it
applies, and may reorder the deck, add to the setup, prefer some actions, and name the event
after which the deal's sampled observation is read in full, so the rare event is compared
whole rather than only through its consequences.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from conformance.suite.scenarios import deck_of
from specreader.jsontypes import Json


@dataclass(frozen=True)
class Steer:
    name: str
    applies: Callable[[Json], bool]
    arrange: Callable[[random.Random, Json, list[str]], list[str]] | None = None  # the deck, top first
    setup: Callable[[random.Random, Json, int], Json] | None = None  # more setup keys, given the dealer
    prefer: tuple[str, ...] = ()  # action types taken whenever one is legal
    # an action from the legal ones, given the reference's snapshot when asked for (it costs)
    choose: Callable[[random.Random, list[Json], Callable[[], Json]], Json | None] | None = None
    after_event: str | None = None  # the event type after which the sampled observation is read
    last: bool = False  # read after the last such event, not the first
    endgame: bool = False  # finish with the completion of the last tricks that ends on a line, if one does


def _component(variant: Json, name: str) -> Json:
    component = variant.get("components", {}).get(name)
    return component if isinstance(component, dict) else {}


def stock_size(variant: Json) -> int:
    return len(deck_of(variant)) - int(variant["players"]) * int(variant["deal"]["hand_size"])


def _suit(card: str) -> str:
    return card[-1]  # a card code is its rank letter, then its suit letter (schemas/common.schema.json)


# -- bids in the suit that will be turned (the Otea's compulsory exchange)
def _bids(variant: Json) -> bool:
    return bool(_component(variant, "trump").get("bidders", "none") != "none")


def _bid_in_turned_suit(rng: random.Random, legal: list[Json], snapshot: Callable[[], Json]) -> Json | None:
    bids = [a for a in legal if a["type"] == "bid"]
    stock = snapshot().get("stock") if bids else None
    matching = [a for a in bids if stock and _suit(a["card"]) == _suit(stock[0])]
    return rng.choice(matching) if matching else None


# -- a stock of one suit (a refusal that finds no other suit)
def _one_suit_fits(variant: Json) -> bool:
    return 0 < stock_size(variant) <= len(str(variant["deck"]["ranks"]).split())


def _one_suit_stock(rng: random.Random, variant: Json, deck: list[str]) -> list[str]:
    suit = rng.choice(str(variant["deck"]["suits"]).split())
    stock = rng.sample([c for c in deck if _suit(c) == suit], stock_size(variant))
    return [c for c in deck if c not in stock] + stock  # the stock is the end of the pack


# -- top trumps shown at the cut
def _has_cut_with_top_trumps(variant: Json) -> bool:
    return bool(_component(variant, "cut")) and bool(variant.get("ranking", {}).get("top_trumps"))


def _top_trumps_at_the_bottom(rng: random.Random, variant: Json, deck: list[str]) -> list[str]:
    tops = list(variant["ranking"]["top_trumps"])
    shown = rng.sample(tops, rng.randint(1, len(tops)))
    return [c for c in deck if c not in shown] + shown  # the cut shows the last card first


# -- the last draw round, the exact lines of the score, the match one step from its end
def _has_draw(variant: Json) -> bool:
    return bool(_component(variant, "draw"))


def _cards_count(variant: Json) -> bool:
    return any(points for points in variant.get("values", {}).values())


def lines(variant: Json) -> frozenset[int]:
    """Totals worth landing on: every whole number the score rule states, and its multiples by
    the size of each side (a line per member)."""
    numbers = {v for v in _component(variant, "score").values() if isinstance(v, int) and not isinstance(v, bool)}
    sizes = {len(side) for side in variant.get("sides", [])} | {1}
    return frozenset(n * size for n in numbers for size in sizes)


def _victory_points_so_far(rng: random.Random, variant: Json) -> Json:
    sides = len(variant["sides"])
    target = _component(variant, "match").get("target")
    if target is None:  # no target: the sheet as it stands, and sometimes a house target one deal away
        vp = [rng.randrange(6) for _ in range(sides)]
        return {"vp": vp, "target": max(vp) + rng.randint(1, 2)} if rng.random() < 0.5 else {"vp": vp}
    return {"vp": [rng.randrange(max(0, target - 2), target) for _ in range(sides)]}


def _rounds_so_far(rng: random.Random, variant: Json) -> Json:
    match = _component(variant, "match")
    target, wins, sides = match["round_target"], match["rounds_to_win"], len(variant["sides"])
    return {
        "scores": [rng.randint(target - 3, target - 1) for _ in range(sides)],
        "rounds": [rng.randrange(wins) for _ in range(sides)],
    }


# How a match in progress is written in a setup, by match rule (schemas/setup.schema.json): one
# deal from a round, a target or the match being won.
MATCH_SO_FAR: dict[str, Callable[[random.Random, Json], Json]] = {
    "open": _victory_points_so_far,
    "vp-target": _victory_points_so_far,
    "rounds": _rounds_so_far,
}


def _match_known(variant: Json) -> bool:
    return _component(variant, "match").get("rule") in MATCH_SO_FAR


def _match_so_far(rng: random.Random, variant: Json, dealer: int) -> Json:
    return {"match": MATCH_SO_FAR[_component(variant, "match")["rule"]](rng, variant)}


def _has_teams(variant: Json) -> bool:
    return any(len(side) > 1 for side in variant.get("sides", []))


def _dealer_history(rng: random.Random, variant: Json, dealer: int) -> Json:
    players = int(variant["players"])
    return {"dealer_history": [rng.randrange(players) for _ in range(rng.randrange(4))] + [dealer]}


STEERS: tuple[Steer, ...] = (
    Steer("bid-in-turned-suit", _bids, choose=_bid_in_turned_suit, after_event="exchanged"),
    Steer("one-suit-stock", _one_suit_fits, arrange=_one_suit_stock, prefer=("refuse",), after_event="trump_made"),
    Steer(
        "top-trumps-at-cut",
        _has_cut_with_top_trumps,
        arrange=_top_trumps_at_the_bottom,
        prefer=("take_tree",),
        after_event="cut_tree",
    ),
    Steer("lone", lambda v: bool(_component(v, "lone")), prefer=("alone",), after_event="alone"),
    Steer("last-draw-round", _has_draw, after_event="drew", last=True),
    Steer("exact-lines", _cards_count, endgame=True),
    Steer("match-point", _match_known, setup=_match_so_far),
    Steer("dealer-history", _has_teams, setup=_dealer_history),
)


def steers_for(variant: Json) -> tuple[Steer, ...]:
    return tuple(s for s in STEERS if s.applies(variant))


def on_a_line(snapshot: Json, variant_lines: frozenset[int]) -> bool:
    """A deal that ended level at the top, or with a total on one of the score's lines."""
    totals: list[Any] = snapshot.get("totals") or []
    return bool(totals) and (totals.count(max(totals)) > 1 or any(t in variant_lines for t in totals))
