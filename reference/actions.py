"""Actions: the JSON objects a seat sends, laid out once per variant, and read into
(type, seat, card index) or refused as malformed.

Every action any seat could take in a variant is built once, as a read-only JSON object, and
shared by all the variant's engines, beside its id in the variant's action index
(action_ids.py): the stages list their legal actions as ids from this table, and the engine
hands out the JSON objects of those ids.
"""

from __future__ import annotations

from typing import Any

from reference import refusals
from reference.cards import Cards
from reference.refusals import Refusal
from reference.seating import Seating
from specreader.jsontypes import Json
from specreader.notation import ACTION_KINDS

# Action types and whether they name a card (specreader/notation.py); any other key makes an action invalid.
ACTION_SHAPES: dict[str, bool] = ACTION_KINDS

ActionKey = tuple[str, int, int]  # type, seat, card index (-1: the action names no card)


class LegalAction(dict[str, Any]):
    """An action as the engine lists it: a JSON object shared by every engine of the variant,
    so read-only (``dict(action)`` or a copy gives a mutable one). ``table`` is the variant's
    table it belongs to, ``key`` the action as ``table.read`` reads it, and ``id`` its number in
    the variant's action index (action_ids.py; -1 for a kind the variant does not use)."""

    __slots__ = ("id", "key", "table")

    def __init__(self, table: ActionTable, key: ActionKey, action: Json) -> None:
        super().__init__(action)
        self.table = table
        self.key = key
        self.id = -1

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("legal actions are shared and read-only; copy one with dict(action)")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse

    def __reduce__(self) -> tuple[type[dict[str, Any]], tuple[dict[str, Any]]]:
        return (dict, (dict(self),))  # copies and pickles are plain dicts


class ActionTable:
    """Every action any seat could take in one variant: ``with_card[type][seat][card]`` and
    ``plain[type][seat]``; their ids, ``card_ids[type][seat][card]`` and ``plain_ids[type][seat]``.
    """

    def __init__(self, cards: Cards, seats: Seating) -> None:
        self.cards = cards
        self.players = seats.n
        self.with_card: dict[str, list[list[LegalAction]]] = {
            kind: [
                [LegalAction(self, (kind, seat, c), {"type": kind, "seat": seat, "card": code})
                 for c, code in enumerate(cards.codes)]
                for seat in range(seats.n)
            ]
            for kind, has_card in ACTION_SHAPES.items()
            if has_card
        }
        self.plain: dict[str, list[LegalAction]] = {
            kind: [LegalAction(self, (kind, seat, -1), {"type": kind, "seat": seat}) for seat in range(seats.n)]
            for kind, has_card in ACTION_SHAPES.items()
            if not has_card
        }
        # -1 until the variant's index numbers them (action_ids.py), in place: the stages, built
        # before the index, keep these lists.
        self.card_ids: dict[str, list[list[int]]] = {
            kind: [[-1] * cards.size for _ in range(seats.n)] for kind in self.with_card
        }
        self.plain_ids: dict[str, list[int]] = {kind: [-1] * seats.n for kind in self.plain}

    def read(self, action: Json) -> ActionKey | Refusal:
        """The type, seat and card index of a well-formed action; else why it is malformed."""
        try:
            kind = action["type"]
            seat = action["seat"]
            has_card = ACTION_SHAPES[kind]
        except (KeyError, TypeError):
            return _malformed(action)
        if type(seat) is not int or not 0 <= seat < self.players:
            return Refusal(refusals.INVALID_ACTION, f"expected a seat from 0 to {self.players - 1}, found {seat!r}")
        if not has_card:
            if len(action) != 2:
                return Refusal(refusals.INVALID_ACTION, f"a {kind} action has exactly the keys type and seat")
            return kind, seat, -1
        try:
            card = self.cards.index[action["card"]]
        except (KeyError, TypeError):
            return Refusal(refusals.INVALID_ACTION, f"{action.get('card')!r} is not a card of this deck")
        if len(action) != 3:
            return Refusal(refusals.INVALID_ACTION, f"a {kind} action has exactly the keys type, seat and card")
        return kind, seat, card


def _malformed(action: object) -> Refusal:
    if not isinstance(action, dict):
        return Refusal(refusals.INVALID_ACTION, "an action is a JSON object")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in ACTION_SHAPES:
        return Refusal(refusals.INVALID_ACTION, f"unknown action type {kind!r}; expected one of {', '.join(ACTION_SHAPES)}")
    return Refusal(refusals.INVALID_ACTION, f"a {kind} action names the seat")
