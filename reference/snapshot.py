"""The JSON pictures of a deal: the god-view snapshot and what one seat may see.

Both are built fresh on each call (no state is shared with the caller). See
schemas/snapshot.schema.json and schemas/view.schema.json.
"""

from __future__ import annotations

from reference.look import in_look_window
from reference.rules import Rules
from reference.state import Deal
from specreader.jsontypes import Json, json_copy


def _bids(rules: Rules, st: Deal) -> list[Json]:
    codes = rules.cards.codes
    out: list[Json] = [{"seat": seat, "card": codes[c]} for seat, c in st.bids]
    if st.bid_outcomes is not None:
        for entry, outcome in zip(out, st.bid_outcomes, strict=True):
            entry["outcome"] = outcome
    return out


def _trick(rules: Rules, seats: list[int] | tuple[int, ...], cards: list[int] | tuple[int, ...]) -> list[Json]:
    codes = rules.cards.codes
    return [{"seat": s, "card": codes[c]} for s, c in zip(seats, cards, strict=True)]


def _last_trick(rules: Rules, st: Deal) -> Json | None:
    if st.last_trick is None:
        return None
    seats, cards, winner, points = st.last_trick
    return {"cards": _trick(rules, seats, cards), "winner": winner, "points": points}


def _stock(st: Deal) -> list[int]:
    # Before the deal (the cut) the whole undealt pack is the stock.
    return st.pack if st.pack is not None else st.stock


def _common(rules: Rules, st: Deal) -> Json:
    cards = rules.cards
    return {
        "phase": st.phase.value,
        "to_act": st.to_act,
        "dealer": st.dealer,
        "trump": cards.suits[st.trump] if st.trump is not None else None,
        "stock_count": len(_stock(st)),
        "bids": _bids(rules, st),
        "turned": cards.code_list(st.turned),
        "trick": _trick(rules, st.trick_seats, st.trick_cards),
        "last_trick": _last_trick(rules, st),
        "tricks": list(st.tricks),
        "makers": st.makers,
        "lone": st.lone,
        "trees_taken": cards.code_list(st.trees_taken),
        "result": json_copy(st.result),
        "match": rules.match.snapshot(st),
    }


def snapshot(rules: Rules, st: Deal) -> Json:
    cards = rules.cards
    codes = cards.codes
    out = {
        "variant": rules.id,
        "forehand": st.forehand,
        "indicator": codes[st.indicator] if st.indicator is not None else None,
        "stock": cards.code_list(_stock(st)),
        "hands": {str(s): cards.code_list(h) for s, h in enumerate(st.hands)},
        "sides": [list(side) for side in rules.seats.sides],
        "piles": [cards.code_list(p) for p in st.piles],
        "totals": list(st.totals),
        "dead": cards.code_list(st.dead),
    }
    out.update(_common(rules, st))
    return out


def view(rules: Rules, st: Deal, seat: int) -> Json:
    cards = rules.cards
    ind = st.indicator
    # The indicator is public while it lies face up (under the stock, or out of play).
    public = ind is not None and (ind in st.stock or ind in st.dead)
    partner_hand = None
    if in_look_window(rules, st):
        partners = rules.seats.partners(seat)
        if partners:
            partner_hand = {str(p): cards.code_list(st.hands[p]) for p in partners}
    out = {
        "seat": seat,
        "indicator": cards.codes[ind] if public and ind is not None else None,
        "hand": cards.code_list(st.hands[seat]),
        "hand_counts": [len(h) for h in st.hands],
        "partner_hand": partner_hand,
    }
    out.update(_common(rules, st))
    return out
