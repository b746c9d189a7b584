"""The integer action index of one variant: every action any seat could take, numbered once.

The index is derived from the variant alone (docs/action-ids.md states it for readers):

- the variant's action *kinds* are those its stages accept, in ``KIND_ORDER`` (play first,
  so a seat's play of card ``c`` is its local action ``c`` in every variant);
- each seat's actions are numbered from 0 (the *local* index): a kind that names a card takes
  one number per card of the deck, in the deck's order (cards.py); a kind without a card, one;
- the id of seat ``s``'s local action ``a`` is ``s * per_seat + a``.

So every JSON action of the variant's kinds has exactly one id and every id one JSON action:
``Engine.apply_id(i)`` is ``Engine.apply`` of action ``i``, refusals included. A kind the variant
does not use (``accept`` in Albastini) has no id; sent as JSON it is refused as ``invalid_action``.
"""

from __future__ import annotations

from collections.abc import Iterable

from reference.actions import ACTION_SHAPES, ActionKey, ActionTable, LegalAction

# The order of the kinds in a seat's local index: play first, then the others as actions.py lists them.
KIND_ORDER: tuple[str, ...] = ("play", *(kind for kind in ACTION_SHAPES if kind != "play"))


class ActionIndex:
    """The ids of one variant: ``actions[i]`` is the shared action with id ``i``, ``keys[i]`` its
    (type, seat, card index) and ``by_key`` the way back, ``local[a]`` the (type, card index) of
    local action ``a``. Numbering fills the table's ``card_ids`` and ``plain_ids`` (actions.py)."""

    def __init__(self, table: ActionTable, kinds: Iterable[str]) -> None:
        used = set(kinds)
        unknown = used - set(KIND_ORDER)
        if unknown:
            raise ValueError(f"action kinds without a place in the index: {', '.join(sorted(unknown))}")
        self.kinds: tuple[str, ...] = tuple(kind for kind in KIND_ORDER if kind in used)
        local: list[tuple[str, int]] = []
        self.offset: dict[str, int] = {}  # where each kind's numbers start in a seat's local index
        for kind in self.kinds:
            self.offset[kind] = len(local)
            if ACTION_SHAPES[kind]:
                local += [(kind, c) for c in range(table.cards.size)]
            else:
                local.append((kind, -1))
        self.local: tuple[tuple[str, int], ...] = tuple(local)
        self.per_seat = len(local)
        self.players = table.players
        actions: list[LegalAction] = []
        for seat in range(table.players):
            for kind, card in local:
                action = table.with_card[kind][seat][card] if card >= 0 else table.plain[kind][seat]
                action.id = len(actions)
                if card >= 0:
                    table.card_ids[kind][seat][card] = action.id
                else:
                    table.plain_ids[kind][seat] = action.id
                actions.append(action)
        self.actions: tuple[LegalAction, ...] = tuple(actions)
        self.keys: tuple[ActionKey, ...] = tuple(a.key for a in actions)
        self.by_key: dict[ActionKey, int] = {key: i for i, key in enumerate(self.keys)}
        self.size = len(actions)

    def id_of(self, kind: str, seat: int, card: int = -1) -> int:
        """The id of an action by its parts (card index -1: the kind names no card)."""
        return seat * self.per_seat + self.offset[kind] + (card if card >= 0 else 0)

    def local_id(self, action_id: int) -> int:
        """The seat-free part of an id: what OpenSpiel calls the action."""
        return action_id % self.per_seat

    def describe(self) -> list[tuple[int, str, bool]]:
        """Each kind's first local number, the kind, and whether it names a card (one number per card)."""
        return [(self.offset[kind], kind, ACTION_SHAPES[kind]) for kind in self.kinds]

