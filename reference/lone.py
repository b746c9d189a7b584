"""``lone: maker-alone``: a maker may play alone; the partners' hands are put aside (R12).

Once trumps are made (and forehand has discarded), before the first lead, the makers decide
in play order from forehand: each may go alone or pass. The first to go alone ends the
phase; the partners' hands go to ``dead`` and they sit the deal out. Defenders take no
part (``not_a_maker``).
"""

from __future__ import annotations

from reference import refusals
from reference.params import Params
from reference.refusals import Refusal
from reference.rules import Events, Rule, Rules
from reference.state import Deal, Phase


class MakerAlone(Rule):
    def __init__(self, rules: Rules, params: Params) -> None:
        self.kinds = {Phase.LONE: frozenset({"alone", "pass"})}
        self.rules = rules

    def start(self, st: Deal, ev: Events) -> bool:
        if st.makers is None:
            return False
        side_of = self.rules.seats.side_of
        st.pending = [s for s in self.rules.seats.order_from(st.forehand) if side_of[s] == st.makers]
        st.phase = Phase.LONE
        st.to_act = st.pending[0]
        return True

    def legal_ids(self, st: Deal) -> list[int]:
        seat = st.to_act
        assert seat is not None
        ids = self.rules.actions.plain_ids
        return [ids["alone"][seat], ids["pass"][seat]]

    def apply(self, st: Deal, kind: str, seat: int, card: int, ev: Events) -> Refusal | bool:
        seats = self.rules.seats
        maker = seats.side_of[seat] == st.makers
        refused = self.rules.precedence.first(
            None if maker else Refusal(refusals.NOT_A_MAKER, f"seat {seat} is a defender; only makers may go alone"),
            # A defender never had a decision to have taken.
            Refusal(refusals.ALREADY_ACTED, f"seat {seat} has already decided") if maker and seat not in st.pending else None,
            Refusal(refusals.NOT_YOUR_TURN, f"seat {st.to_act} decides now, not seat {seat}") if seat != st.to_act else None,
        )
        if refused is not None:
            return refused
        if kind == "pass":
            ev.append({"type": "pass", "seat": seat})
            st.pending.pop(0)
            if st.pending:
                st.to_act = st.pending[0]
                return False
            return True
        st.lone = seat
        st.pending = []
        active = list(st.active)
        for p in seats.partners(seat):
            st.dead.extend(st.hands[p])
            st.hands[p] = []
            active[p] = False
        st.set_active(active)
        ev.append({"type": "alone", "seat": seat})
        return True
