"""The JSON pictures of a deal: the god-view snapshot and what one seat may see.

Both are built fresh on each call (no state is shared with the caller). See
schemas/snapshot.schema.json and schemas/view.schema.json.
"""

from __future__ import annotations

from reference.look import in_look_window
from reference.rules import Rules
from reference.state import Deal
from specreader.jsontypes import Json, json_copy

# Built after every action wherever every observation is judged (fuzz, check-trace): the lists
# of codes are written out here rather than asked of Cards.code_list, a call each, and the
# empty bids and tricks of most positions are made without a helper's call.


def _bids(codes: tuple[str, ...], st: Deal) -> list[Json]:
    out: list[Json] = [{"seat": seat, "card": codes[c]} for seat, c in st.bids]
    if st.bid_outcomes is not None:
        for entry, outcome in zip(out, st.bid_outcomes, strict=True):
            entry["outcome"] = outcome
    return out


def _trick(codes: tuple[str, ...], seats: list[int] | tuple[int, ...], cards: list[int] | tuple[int, ...]) -> list[Json]:
    return [{"seat": s, "card": codes[c]} for s, c in zip(seats, cards, strict=True)]


def _common(rules: Rules, st: Deal) -> Json:
    codes = rules.cards.codes
    last = st.last_trick
    return {
        "phase": st.phase.value,
        "to_act": st.to_act,
        "dealer": st.dealer,
        "trump": rules.cards.suits[st.trump] if st.trump is not None else None,
        # Before the deal (the cut) the whole undealt pack is the stock.
        "stock_count": len(st.pack if st.pack is not None else st.stock),
        "bids": _bids(codes, st) if st.bids or st.bid_outcomes else [],
        "turned": [codes[c] for c in st.turned],
        "trick": _trick(codes, st.trick_seats, st.trick_cards) if st.trick_seats or st.trick_cards else [],
        "last_trick": None if last is None else {"cards": _trick(codes, last[0], last[1]), "winner": last[2], "points": last[3]},
        "tricks": list(st.tricks),
        "makers": st.makers,
        "lone": st.lone,
        "trees_taken": [codes[c] for c in st.trees_taken],
        "result": json_copy(st.result) if st.result is not None else None,
        "match": rules.match.snapshot(st),
    }


def snapshot(rules: Rules, st: Deal) -> Json:
    codes = rules.cards.codes
    hands: Json = {}
    for seat, hand in zip(rules.seats.names, st.hands, strict=True):
        hands[seat] = [codes[c] for c in hand]
    out = {
        "variant": rules.id,
        "forehand": st.forehand,
        "indicator": codes[st.indicator] if st.indicator is not None else None,
        "stock": [codes[c] for c in (st.pack if st.pack is not None else st.stock)],
        "hands": hands,
        "sides": [list(side) for side in rules.seats.sides],
        "piles": [[codes[c] for c in pile] for pile in st.piles],
        "totals": list(st.totals),
        "dead": [codes[c] for c in st.dead],
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
