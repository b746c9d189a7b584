"""``look: partners-look``: partners see each other's hands once trumps are fixed (R5).

An information event only: it changes no legal move. In a team game the event is reported
once trumps are fixed, and until the first card of the deal is played each seat's view
shows its partners' hands (see snapshot.view).
"""

from __future__ import annotations

from reference.params import Params
from reference.refusals import Refusal
from reference.rules import Events, Rule, Rules
from reference.state import Deal, Phase


class PartnersLook(Rule):
    def __init__(self, rules: Rules, params: Params) -> None:
        self.kinds: dict[Phase, frozenset[str]] = {}
        self.rules = rules
        rules.look = True
        self.sides = [side for side in rules.seats.sides if len(side) > 1]

    def start(self, st: Deal, ev: Events) -> bool:
        if self.sides:
            ev.append({"type": "partners_look", "sides": [list(side) for side in self.sides]})
        return False

    def legal_ids(self, st: Deal) -> list[int]:
        return []

    def apply(self, st: Deal, kind: str, seat: int, card: int, ev: Events) -> Refusal | bool:
        raise AssertionError("the partners' look takes no actions")


def in_look_window(rules: Rules, st: Deal) -> bool:
    """Trumps are fixed and no card of the deal has been played yet."""
    return (
        rules.look
        and rules.seats.teams
        and st.trump is not None
        and st.result is None
        and not st.trick_cards
        and not any(st.tricks)
    )
