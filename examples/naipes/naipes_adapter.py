"""naipes 0.1.0 (Spanish Brisca for two, a command-line game) through the kit, as its users would drive it.

naipes keeps its game in ``naipes.games.brisca.state.GameState``, a state machine with no I/O that its
command line drives: ``GameState.new(seed)`` shuffles, deals and turns the trump card, and
``play_card(player, hand_index)`` plays a card, judges a finished trick and draws. The adapter only
translates: the kit's pack into the one naipes deals, each action into a player and a place in the
hand, the state back into a snapshot. It never decides a rule: naipes deals, turns the trump card,
judges tricks, draws, counts and names the result (``naipes.cli.loop``) by its own code. Where its
API cannot take what a scenario needs, it raises the kit's ``Unsupported`` with the reason, which the
scenario's answer carries (README.md). ``Deal`` has the API of an in-process engine, so the kit's own
adapter drives it, and serves it over the protocol.

In process: ``PYTHONPATH=examples/naipes trickspec verify --engine naipes_adapter:adapter``.
Over the protocol: ``trickspec verify --engine-cmd ".venv/bin/python examples/naipes/naipes_adapter.py"``.
"""

from __future__ import annotations

import sys
import threading
from typing import Any
from unittest import mock

import naipes
from naipes.cli import loop as naipes_loop
from naipes.core.cards import Card, build_ordered_deck
from naipes.core.rng import Rng
from naipes.games.brisca import state as naipes_state
from naipes.games.brisca.state import GameState, Player

from conformance.engines.adapter import InProcessAdapter, Unsupported, beyond_the_table

HOMEPAGE = "https://github.com/naipes-com/naipes"
VARIANT = "briscola-2p"
HAND_SIZE = 3

# The Spanish pack's ranks as the kit's Briscola writes them: the Rey (12, 4 points) is the K, the
# Caballo (11, 3 points) the Q, the Sota (10, 2 points) the J (naipes.games.brisca.rules, POINTS).
RANK_CODE = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 10: "J", 11: "Q", 12: "K"}
# Its suits as the usual correspondence gives them: oros diamonds, copas hearts, espadas spades, bastos clubs.
SUIT_CODE = {"O": "D", "C": "H", "E": "S", "B": "C"}
RANK_OF_CODE = {code: rank for rank, code in RANK_CODE.items()}
SUIT_OF_CODE = {code: suit for suit, code in SUIT_CODE.items()}


# GameState.new is dealt the kit's pack through two of its module's names, patched while it runs: one deal at a
# time, should a request the kit gave up on still be running beside the next.
_DEALING = threading.Lock()


class _GivenOrder(Rng):
    """naipes' own generator with its shuffle left out: ``GameState.new`` then deals the pack in the kit's order."""

    def shuffle(self, items: list[Any]) -> None:
        pass


def _code(card: Card) -> str:
    return RANK_CODE[card.rank] + SUIT_CODE[card.suit]


def _card(code: object) -> Card:
    if not isinstance(code, str) or len(code) != 2 or code[0] not in RANK_OF_CODE or code[1] not in SUIT_OF_CODE:
        raise Unsupported(f"naipes has no card {code!r}: its pack is the Spanish 40 (naipes.core.cards)")
    return Card(rank=RANK_OF_CODE[code[0]], suit=SUIT_OF_CODE[code[1]])


class Refusal:
    """A refusal naipes made itself, as the kit reads one: its code and message."""

    def __init__(self, code: str, message: str) -> None:
        self.code, self.message = code, message


class Deal:
    """One game of naipes, and the seats the kit gives its two players: an in-process engine for the kit,
    made as ``Deal(variant, setup)`` (what ``InProcessAdapter`` calls), then ``apply``, ``snapshot`` and
    ``legal_actions``."""

    def __init__(self, variant_id: str, setup: dict[str, Any]) -> None:
        if variant_id != VARIANT:
            raise Unsupported(f"naipes plays {VARIANT} alone, not {variant_id}")
        if setup.get("match"):
            raise Unsupported("naipes plays one game and keeps no running score between games")
        if (lacking := beyond_the_table(setup, 2)) is not None:
            raise Unsupported(f"naipes has two players, the human and the AI: no {lacking}")
        # naipes has no dealer: its human player is dealt first (GameState.new) and leads the first trick (the
        # field ``leader`` starts as Player.HUMAN), the place of the player after the kit's dealer.
        forehand = (int(setup["dealer"]) + 1) % 2
        self.players = {forehand: Player.HUMAN, 1 - forehand: Player.AI}
        self.seats = {player: seat for seat, player in self.players.items()}
        self.indicator_known = True
        self.dealt_here = "start" not in setup  # naipes turned the trump card itself
        # a position given part-way through names the cards turned before it, if any: naipes keeps no such record
        self.turned_before = list(setup["start"].get("turned", [])) if "start" in setup else []
        if "start" in setup:
            self.state = self._mid_deal(setup)
        else:
            self.state = self._new(self._pack(setup))

    def _pack(self, setup: dict[str, Any]) -> list[Card]:
        """The pack naipes deals, top first (its deck.pop(0))."""
        if "deck" in setup:
            pack = [_card(c) for c in setup["deck"]]
        else:
            # Hands as dealt and the stock with the card to be turned on top: the pack from which naipes' own
            # deal (three to the human, three to the AI, then the turned card) reaches them.
            hands = {int(seat): [_card(c) for c in cards] for seat, cards in setup["hands"].items()}
            stock = [_card(c) for c in setup["stock"]]
            if sorted(hands) != [0, 1] or any(len(cards) != HAND_SIZE for cards in hands.values()) or not stock:
                raise Unsupported("naipes starts a game only by dealing a whole pack into three-card hands")
            pack = hands[self.seats[Player.HUMAN]] + hands[self.seats[Player.AI]] + stock
        if sorted(map(_code, pack)) != sorted(map(_code, build_ordered_deck())):
            raise Unsupported("naipes deals its own 40 cards (build_ordered_deck) and takes no pack: "
                              "a pack with a card missing or twice cannot be given to it")
        return pack

    @staticmethod
    def _new(pack: list[Card]) -> GameState:
        """GameState.new dealing the kit's pack: its ordered deck is the pack, and its shuffle keeps the order."""
        with (
            _DEALING,
            mock.patch.object(naipes_state, "build_ordered_deck", lambda: list(pack)),
            mock.patch.object(naipes_state, "Rng", _GivenOrder),
        ):
            return GameState.new(seed=1)

    def _mid_deal(self, setup: dict[str, Any]) -> GameState:
        """A position part-way through the game, in GameState's own fields (naipes has no loader)."""
        start = setup["start"]
        if start.get("phase") != "play" or start.get("dead"):
            raise Unsupported(f"naipes has no phase {start.get('phase')!r} and no cards out of play")
        trump = SUIT_OF_CODE.get(str(start.get("trump")))
        if trump is None:
            raise Unsupported(f"naipes has no suit {start.get('trump')!r}")
        indicator = start.get("indicator")
        if indicator is None:
            # naipes keeps the turned card for its display and reads only trump_suit in its rules
            # (rules.trick_winner_is_follower); the setup names the suit alone, so the ace stands in for it
            # and the snapshot leaves the indicator out.
            indicator = "A" + str(start["trump"])
            self.indicator_known = False
        hands = setup["hands"]
        piles = start.get("piles", {})
        trick = start.get("trick", [])
        to_act = self.players[int(start["to_act"])]
        leader = self.players[int(trick[0]["seat"])] if trick else to_act
        return GameState(
            rng=Rng(1),
            trump_suit=trump,
            trump_card=_card(indicator),
            deck=[_card(c) for c in setup["stock"]],
            human_hand=[_card(c) for c in hands.get(str(self.seats[Player.HUMAN]), [])],
            ai_hand=[_card(c) for c in hands.get(str(self.seats[Player.AI]), [])],
            human_captured=[_card(c) for c in piles.get(str(self.seats[Player.HUMAN]), [])],
            ai_captured=[_card(c) for c in piles.get(str(self.seats[Player.AI]), [])],
            leader=leader,
            pending_leader_card=_card(trick[0]["card"]) if trick else None,
            pending_leader=leader if trick else None,
        )

    def _to_act(self) -> Player:
        state = self.state
        return state.leader if state.pending_leader is None else state.pending_leader.other()

    def apply(self, action: dict[str, Any]) -> Refusal | None:
        """The action played; a refusal naipes itself makes, with the kit's code, or None."""
        if action.get("type") != "play":
            raise Unsupported(f"naipes has no action {action.get('type')!r}: its only move is play_card")
        if self.state.is_finished():
            raise Unsupported("naipes has no refusal for a card after the last trick: play_card then raises "
                              "IndexError or an out-of-turn error, with no reason the kit's codes could be read from")
        seat = action.get("seat")
        if seat not in self.players:
            raise Unsupported(f"naipes has two players, not a seat {seat!r}")
        player = self.players[seat]
        card = _card(action.get("card"))
        hand = self.state.hand_of(player)
        # A card not held is no place in the hand: one past the end, which naipes refuses only after the turn.
        place = hand.index(card) if card in hand else len(hand)
        try:
            self.state.play_card(player, place)
        except RuntimeError as err:  # naipes' own refusal, before it changes anything (state.py, play_card)
            if not str(err).startswith("out-of-turn"):
                raise
            return Refusal("not_your_turn", str(err))
        except IndexError as err:
            raise Unsupported("play_card takes a place in the hand: a card not held cannot be sent, and naipes"
                              f" refuses a place past the hand with IndexError ({err}), with no reason") from err
        return None

    def snapshot(self) -> dict[str, Any]:
        state = self.state
        over = state.is_finished()
        seats = (0, 1)
        captured = [state.captured_of(self.players[s]) for s in seats]
        totals = [state.score_of(self.players[s]) for s in seats]
        last = state.trick_log[-1] if state.trick_log else None
        snap: dict[str, Any] = {
            "variant": VARIANT,
            "phase": "over" if over else "play",
            "to_act": None if over else self.seats[self._to_act()],
            "trump": SUIT_CODE[state.trump_suit],
            "stock": [_code(c) for c in state.deck],
            "stock_count": len(state.deck),
            "hands": {str(s): [_code(c) for c in state.hand_of(self.players[s])] for s in seats},
            "trick": (
                [{"seat": self.seats[state.pending_leader], "card": _code(state.pending_leader_card)}]
                if state.pending_leader is not None and state.pending_leader_card is not None else []
            ),
            "last_trick": None if last is None else {
                "winner": self.seats[last.winner],
                "points": last.points,
                "cards": [
                    {"seat": self.seats[p], "card": _code(last.human_card if p is Player.HUMAN else last.ai_card)}
                    for p in (last.leader, last.leader.other())
                ],
            },
            "piles": [[_code(c) for c in pile] for pile in captured],
            "tricks": [len(pile) // 2 for pile in captured],  # two cards a trick
            "totals": totals,
            "result": None,
        }
        if self.indicator_known:
            snap["indicator"] = _code(state.trump_card)
        snap["turned"] = [_code(state.trump_card)] if self.dealt_here else self.turned_before
        if over:
            # naipes names the human's outcome (win, loss or draw) at the end of its game (cli/loop.py)
            outcome = naipes_loop._outcome_for(state.score_of(Player.HUMAN))
            winner = {"win": Player.HUMAN, "loss": Player.AI}.get(outcome)
            result = {"winner": None if winner is None else self.seats[winner], "tie": outcome == "draw", "totals": totals}
            snap["result"] = result
        return snap

    def legal_actions(self) -> list[dict[str, Any]]:
        if self.state.is_finished():
            return []
        player = self._to_act()
        return [{"type": "play", "seat": self.seats[player], "card": _code(c)} for c in self.state.hand_of(player)]


def adapter() -> InProcessAdapter:
    """The factory ``--engine naipes_adapter:adapter`` names: the kit's in-process adapter over ``Deal``."""
    info = {"name": "naipes", "version": naipes.__version__, "language": "python", "homepage": HOMEPAGE}
    return InProcessAdapter(Deal, info, [VARIANT])


if __name__ == "__main__":
    from conformance.engines.serve import serve

    sys.exit(serve(sys.stdin, sys.stdout, adapter))
