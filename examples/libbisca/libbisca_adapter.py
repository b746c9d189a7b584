"""libbisca 0.1.2 (Portuguese Bisca for two) through the kit, as its users would drive it.

The adapter only translates: the kit's setup into libbisca's ``State``, each action into
``State.play``, the state back into a snapshot. It never decides a rule: libbisca deals, turns
the trump card, judges tricks, draws and scores by its own code. Where libbisca's API cannot take
what a scenario needs, the answer is ``unsupported`` with the reason (README.md, Findings).

In process: ``PYTHONPATH=examples/libbisca trickspec verify --engine libbisca_adapter:adapter``.
Over the protocol: ``trickspec verify --engine-cmd ".venv/bin/python examples/libbisca/libbisca_adapter.py"``.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from typing import Any

import libbisca
from libbisca.card import Card, get_card
from libbisca.state import Player, State, load_state

from conformance.engines.adapter import beyond_the_table

HOMEPAGE = "https://github.com/NunoMCSilva/libbisca"
VARIANT = "bisca-2p"
HAND_SIZE = 3  # Bisca de Três; libbisca's default (get_state(hand_size=3))
SEATS = (Player.NORTH, Player.SOUTH)  # seat 0 is NORTH, seat 1 SOUTH: libbisca has no seat numbers


class Unsupported(Exception):
    """libbisca's API cannot express what the scenario needs."""


def _seat(player: Player) -> int:
    return SEATS.index(player)


def _code(card: Card) -> str:
    return repr(card)  # libbisca writes cards as the kit does: rank then suit, "7H"


def _card(code: str) -> Card:
    try:
        return get_card(code)
    except (KeyError, ValueError) as err:
        raise Unsupported(f"libbisca has no card {code!r}") from err


class Deal:
    """One deal in libbisca, and what the adapter saw it return."""

    def __init__(self, setup: dict[str, Any]) -> None:
        if setup.get("match"):
            raise Unsupported("libbisca plays one deal and keeps no running score between deals")
        if (lacking := beyond_the_table(setup, 2)) is not None:
            raise Unsupported(f"libbisca has two players, NORTH and SOUTH: no {lacking}")
        self.dealer = int(setup["dealer"])
        self.last_trick: dict[str, Any] | None = None
        self.indicator_known = True
        eldest = SEATS[(self.dealer + 1) % 2]
        if "deck" in setup:
            # The pack as the kit gives it, top first; libbisca draws with stock.pop(), from the end.
            self.state = State(hand_size=HAND_SIZE, turn=eldest, stock=[_card(c) for c in reversed(setup["deck"])])
        elif "start" in setup:
            self.state = self._mid_deal(setup)
        else:
            self.state = self._dealt(setup, eldest)

    def _dealt(self, setup: dict[str, Any], eldest: Player) -> State:
        """Hands as dealt and the stock with the card to be turned on top: the pack from which libbisca's own
        deal (one card at a time, eldest first) reaches them, with that card at the bottom, where libbisca
        takes its trump card from (state.py, ``self.trump = self.stock[0]``)."""
        hands = {int(seat): [_card(c) for c in cards] for seat, cards in setup["hands"].items()}
        stock = [_card(c) for c in setup["stock"]]
        if any(len(cards) != HAND_SIZE for cards in hands.values()) or not stock:
            raise Unsupported("libbisca starts a deal only from a whole pack of three-card hands")
        order = (_seat(eldest), _seat(eldest.opponent))
        pack = [hands[seat][i] for i in range(HAND_SIZE) for seat in order] + stock[1:] + stock[:1]
        return State(hand_size=HAND_SIZE, turn=eldest, stock=list(reversed(pack)))

    def _mid_deal(self, setup: dict[str, Any]) -> State:
        """A position part-way through the deal, through libbisca's own loader (``load_state``)."""
        start = setup["start"]
        if start.get("phase") != "play" or start.get("dead"):
            raise Unsupported(f"libbisca has no phase {start.get('phase')!r} and no cards out of play")
        indicator = start.get("indicator")
        if indicator is None:
            # libbisca keeps the trump as a card, and reads only its suit once the stock is gone
            # (state.py, _get_round_winner); the setup names the suit alone, so the ace stands in for it
            # and the snapshot leaves the indicator out.
            indicator = "A" + start["trump"]
            self.indicator_known = False
        trick = start.get("trick", [])
        piles = start.get("piles", {})
        doc = {
            "hand_size": HAND_SIZE,
            "turn": "North" if SEATS[int(start["to_act"])] is Player.NORTH else "South",
            "stock": " ".join(reversed(setup["stock"])),
            "trump": indicator,
            "hands": [" ".join(setup["hands"].get(str(seat), [])) for seat in (0, 1)],
            "piles": [self._tricks(piles.get(str(seat), [])) for seat in (0, 1)],
            "scores": [sum(_card(c).score for c in piles.get(str(seat), [])) for seat in (0, 1)],
            "table": " ".join(played["card"] for played in trick),
        }
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
            json.dump(doc, file)
        try:
            return load_state(file.name)
        finally:
            os.unlink(file.name)

    @staticmethod
    def _tricks(cards: list[str]) -> list[str]:
        """A pile as libbisca keeps it, trick by trick: the kit gives the cards, two to a trick."""
        return [" ".join(cards[i : i + 2]) for i in range(0, len(cards), 2)]

    def play(self, action: dict[str, Any]) -> None:
        if action.get("type") != "play":
            raise Unsupported(f"libbisca has no action {action.get('type')!r}: its only move is State.play(card)")
        if self.state.is_endgame():
            raise Unsupported("libbisca has no refusal: State.play after the last trick raises ValueError, with no reason")
        if action.get("seat") != _seat(self.state.turn):
            raise Unsupported("State.play(card) takes no player: it plays for state.turn, so another seat's card cannot be sent")
        card = _card(str(action.get("card")))
        if card not in self.state.players[self.state.turn].hand:
            raise Unsupported("libbisca has no refusal: State.play of a card not held raises ValueError, with no reason")
        leader = self.state.turn if not self.state.table else self.state.turn.opponent
        result = self.state.play(card)
        if result is not None:
            winner, points, table, _dealt = result
            seats = (_seat(leader), _seat(leader.opponent))
            self.last_trick = {
                "winner": _seat(winner),
                "points": points,
                "cards": [{"seat": s, "card": _code(c)} for s, c in zip(seats, table, strict=True)],
            }

    def snapshot(self) -> dict[str, Any]:
        state = self.state
        over = state.is_endgame()
        players = [state.players[p] for p in SEATS]
        totals = [p.score for p in players]
        leader = state.turn if not state.table else state.turn.opponent
        snap: dict[str, Any] = {
            "variant": VARIANT,
            "phase": "over" if over else "play",
            "to_act": None if over else _seat(state.turn),
            "trump": state.trump.suit.value,
            "stock": [_code(c) for c in reversed(state.stock)],
            "stock_count": len(state.stock),
            "hands": {str(seat): [_code(c) for c in p.hand] for seat, p in enumerate(players)},
            "trick": [{"seat": _seat(leader), "card": _code(state.table[0])}] if state.table else [],
            "last_trick": self.last_trick,
            "piles": [[_code(c) for trick in p.pile for c in trick] for p in players],
            "tricks": [len(p.pile) for p in players],
            "totals": totals,
            "result": None,
        }
        if self.indicator_known:
            snap["indicator"] = _code(state.trump)
            snap["turned"] = [_code(state.trump)]
        if over:
            winner = state.get_winner()
            snap["result"] = {"winner": None if winner is None else _seat(winner), "tie": winner is None, "totals": totals}
        return snap

    def legal(self) -> list[dict[str, Any]]:
        seat = _seat(self.state.turn)
        return [{"type": "play", "seat": seat, "card": _code(c)} for c in self.state.legal_moves]


class LibbiscaAdapter:
    """The kit's adapter interface (conformance/engines/adapter.py) over libbisca, in process."""

    def hello(self) -> dict[str, Any]:
        return {
            "name": "libbisca",
            "version": libbisca.__version__,
            "language": "python",
            "homepage": HOMEPAGE,
            "variants": [VARIANT],
        }

    def run(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.answer(request)

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        rid = request.get("id")
        observations: list[dict[str, Any]] = []
        try:
            deal = Deal(request["setup"])
            observations.append(self._observe(deal))
            for action in request["actions"]:
                deal.play(action)
                observations.append(self._observe(deal))
        except Unsupported as why:  # with what it observed before: the kit judges that much
            return {"id": rid, "observations": observations, "error": {"kind": "unsupported", "message": str(why)}}
        except Exception as err:  # libbisca's own failure is reported, never raised
            crash = {"kind": "crash", "message": f"{type(err).__name__}: {err}"}
            return {"id": rid, "observations": observations, "error": crash}
        return {"id": rid, "observations": observations}

    @staticmethod
    def _observe(deal: Deal) -> dict[str, Any]:
        return {"rejected": None, "snapshot": deal.snapshot(), "legal": deal.legal()}

    def close(self) -> None:
        pass


def adapter() -> LibbiscaAdapter:
    """The factory ``--engine libbisca_adapter:adapter`` names."""
    return LibbiscaAdapter()


if __name__ == "__main__":
    from conformance.engines.serve import serve

    sys.exit(serve(sys.stdin, sys.stdout, adapter()))  # type: ignore[arg-type]
