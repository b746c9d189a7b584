"""briscola-gym 0.1.0 (Italian Briscola for two, a Gym environment) through the kit, as its users drive it.

The environment is a game between the agent, who plays through ``env.step(index)``, and an
opponent object whose ``choose_card()`` the environment calls when it wants the opponent's card
(briscola_gym/game.py, ``BriscolaCustomEnemyPlayer``). The adapter seats the agent at seat 0 and,
at seat 1, an opponent that plays the scenario's cards. It only translates: the kit's deck into
the environment's, each action into a hand index, the environment's attributes into a snapshot.
The environment deals, turns the trump card, judges tricks, draws and ends the game by its own
code. Where its API cannot take what a scenario needs, the answer is ``unsupported`` with the
reason (README.md, Findings).

In process: ``PYTHONPATH=examples/briscola-gym trickspec verify --engine briscola_gym_adapter:adapter``.
Over the protocol: ``trickspec verify --engine-cmd ".venv/bin/python examples/briscola-gym/briscola_gym_adapter.py"``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from importlib.metadata import version
from typing import Any
from unittest import mock

from briscola_gym import card as gym_card
from briscola_gym import game as gym_game
from briscola_gym.card import Card
from briscola_gym.game_rules import values_points
from briscola_gym.player.base_player import BasePlayer
from briscola_gym.seed import Seed

from conformance.engines.adapter import beyond_the_table

HOMEPAGE = "https://pypi.org/project/briscola-gym/"
VARIANT = "briscola-2p"
AGENT, OPPONENT = 0, 1  # the seat the agent plays, and the seat of the opponent object
HAND_SIZE = 3

# briscola-gym's cards: value 1 is the ace, 2-7 the pip cards, 8 the fante (the kit's J, 2 points),
# 9 the cavallo (the kit's Q, 3 points), 10 the re (K) (game_rules.values_points); seeds are suits.
RANK_OF_VALUE = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "J", 9: "Q", 10: "K"}
VALUE_OF_RANK = {rank: value for value, rank in RANK_OF_VALUE.items()}
SUIT_OF_SEED = {Seed.Hearts: "H", Seed.Clubs: "C", Seed.Spades: "S", Seed.Diamonds: "D"}
SEED_OF_SUIT = {suit: seed for seed, suit in SUIT_OF_SEED.items()}


class Unsupported(Exception):
    """briscola-gym's API cannot express what the scenario needs."""


class _Stop(Exception):
    """Raised from the opponent when the scenario has no more of its cards: the environment stops there."""


def _code(card: Card) -> str:
    return RANK_OF_VALUE[card.value] + SUIT_OF_SEED[card.seed]


def _card(code: str) -> Card:
    if len(code) != 2 or code[0] not in VALUE_OF_RANK or code[1] not in SEED_OF_SUIT:
        raise Unsupported(f"briscola-gym has no card {code!r}")
    return Card(VALUE_OF_RANK[code[0]], SEED_OF_SUIT[code[1]])


def _index(hand: list[Card], code: str) -> int:
    """The action briscola-gym takes: the card's place in the hand."""
    card = _card(code)
    for i, held in enumerate(hand):
        if (held.value, held.seed) == (card.value, card.seed):
            return i
    raise Unsupported("an action is a place in the hand (spaces.Discrete(3)): a card not held cannot be sent, nor refused")


class ScriptedOpponent(BasePlayer):
    """Seat 1: plays the scenario's next card when the environment asks, and lets the adapter look first."""

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.name = "scenario"
        self.game = game

    def choose_card(self) -> int:
        return self.game.opponent_turn()


class Game:
    """One deal in the environment, driven by a scenario's actions, observed whenever it waits for one."""

    def __init__(self, setup: dict[str, Any], actions: list[dict[str, Any]], observations: list[dict[str, Any]]) -> None:
        if setup.get("match"):
            raise Unsupported("briscola-gym plays one game and keeps no running score between games")
        if (lacking := beyond_the_table(setup, 2)) is not None:
            raise Unsupported(f"the environment has two players, the agent and its opponent: no {lacking}")
        self.actions: Iterator[dict[str, Any]] = iter(actions)
        self.pending: dict[str, Any] | None = None  # the action read but not yet played
        self.observations = observations  # one after setup and one after each action, as the environment waits
        self.opponent = ScriptedOpponent(self)
        self.env = gym_game.BriscolaCustomEnemyPlayer(self.opponent)
        self.last_trick: dict[str, Any] | None = None
        self.trick_leader = AGENT  # who led the trick on the table, noted while it is there
        self.tricks_seen = 0
        self.indicator_known = True
        self.to_act = AGENT
        leader = (int(setup["dealer"]) + 1) % 2
        if "start" in setup:
            self._mid_deal(setup)
        else:
            self._reset(self._pack(setup), leader)

    @classmethod
    def _pack(cls, setup: dict[str, Any]) -> list[Card]:
        """The pack the environment deals, top first (Deck.draw takes cards.pop(0))."""
        pack = [_card(c) for c in setup["deck"]] if "deck" in setup else cls._pack_of_hands(setup)
        # The environment builds its own 40 cards (card.py, Deck.all_cards) and takes no pack: the adapter
        # can only put those cards in the kit's order, so any other pack cannot be given to it.
        if sorted(map(_code, pack)) != sorted(map(_code, gym_card.Deck.all_cards())):
            raise Unsupported("the environment deals its own 40 cards (Deck.all_cards) and takes no pack: "
                              "a pack with a card missing or twice cannot be given to it")
        return pack

    @staticmethod
    def _pack_of_hands(setup: dict[str, Any]) -> list[Card]:
        # Hands as dealt and the stock with the card to be turned on top: the pack from which the
        # environment's own reset (turn the top card, three to the agent, three to the opponent, the
        # turned card under the rest) reaches them.
        hands = {int(seat): [_card(c) for c in cards] for seat, cards in setup["hands"].items()}
        stock = [_card(c) for c in setup["stock"]]
        if any(len(cards) != HAND_SIZE for cards in hands.values()) or not stock:
            raise Unsupported("briscola-gym starts a game only by dealing a whole pack of three-card hands")
        return stock[:1] + hands[AGENT] + hands[OPPONENT] + stock[1:]

    def _reset(self, pack: list[Card], leader: int) -> None:
        """env.reset() dealing the kit's pack (its shuffle keeps the order) with the kit's leader (its randint
        draws who leads: game.py, ``turn_my_player = randint(0, 1)``)."""
        self.to_act = leader
        with (
            mock.patch.object(gym_card, "shuffle", lambda cards: cards.__setitem__(slice(None), pack)),
            mock.patch.object(gym_game, "randint", lambda low, high: leader),
        ):
            self._until_agent(self.env.reset)

    def _mid_deal(self, setup: dict[str, Any]) -> None:
        """A position part-way through the game, written into the environment's attributes as its own step
        leaves them; the environment has no loader."""
        start = setup["start"]
        if start.get("phase") != "play" or start.get("dead"):
            raise Unsupported(f"briscola-gym has no phase {start.get('phase')!r} and no cards out of play")
        indicator = start.get("indicator")
        if indicator is None:
            # The environment keeps the trump as a card and its rules read only its seed (game_rules.py,
            # select_winner); the setup names the suit alone, so the ace stands in for it and the snapshot
            # leaves the indicator out.
            indicator = "A" + start["trump"]
            self.indicator_known = False
        trick = start.get("trick", [])
        to_act = int(start["to_act"])
        if trick and to_act == OPPONENT:
            raise Unsupported("the environment waits only for the agent: the opponent never answers a lead of the agent's")
        env = self.env
        with mock.patch.object(gym_game, "randint", lambda low, high: AGENT):
            env.reset()  # a shuffled game with the agent to lead, every attribute of which is set below
        env.briscola = _card(indicator)
        env.deck.cards = [_card(c) for c in setup["stock"]]
        env.my_player.hand = [_card(c) for c in setup["hands"].get(str(AGENT), [])]
        env.other_player.hand = [_card(c) for c in setup["hands"].get(str(OPPONENT), [])]
        env.table = [_card(played["card"]) for played in trick]
        piles = start.get("piles", {})
        env.my_points, env.other_points = (sum(_card(c).points for c in piles.get(str(s), [])) for s in (AGENT, OPPONENT))
        env.points = [env.my_points + env.other_points, 0]  # as _state_update_after_winner keeps it
        env.my_discarded, env.other_discarded = [], []
        env.turn_my_player = 1 if trick else to_act  # 1: the opponent has led this trick
        self.to_act = to_act
        if to_act == OPPONENT:
            self._until_agent(lambda: env.table.append(env.other_player.discard_card()))  # as reset does
        else:
            self.observe()

    # The environment asks for the opponent's card, or returns from step: the position after the last action.

    def opponent_turn(self) -> int:
        self.to_act = OPPONENT
        self.observe()
        action = self._next()
        if action is None:
            raise _Stop
        if action.get("seat") != OPPONENT:
            raise Unsupported("the environment has asked for the opponent's card: the agent cannot act out of turn")
        self.pending = None
        return _index(self.opponent.hand, str(action.get("card")))

    def _next(self) -> dict[str, Any] | None:
        if self.pending is None:
            self.pending = self._check(next(self.actions, None))
        return self.pending

    @staticmethod
    def _check(action: dict[str, Any] | None) -> dict[str, Any] | None:
        if action is not None and action.get("type") != "play":
            raise Unsupported(f"briscola-gym has no action {action.get('type')!r}: its only move is a card")
        return action

    def _until_agent(self, call: Any) -> None:
        """Run the environment until it waits for the agent (or the scenario runs out of opponent cards)."""
        try:
            call()
        except _Stop:
            return
        self.to_act = AGENT
        self.observe()

    def play(self) -> bool:
        """The agent's next card through env.step; False once the scenario has no more actions."""
        action = self._next()
        if action is None:
            return False
        if action.get("seat") != AGENT:
            raise Unsupported("env.step plays only the agent's card: the opponent cannot act out of turn")
        index = _index(self.env.my_player.hand, str(action.get("card")))
        self.pending = None
        self._until_agent(lambda: self.env.step(index))  # played on after done too: gym 0.21 lets a step follow it
        return True

    def observe(self) -> None:
        self._note_trick()
        self.observations.append({"rejected": None, "snapshot": self.snapshot(), "legal": self.legal()})

    def _note_trick(self) -> None:
        """The trick just completed, read from the environment: each side's last discard, and the points and
        the lead it gave to the winner (_state_update_after_winner)."""
        env = self.env
        if env.table:
            self.trick_leader = OPPONENT if env.turn_my_player == 1 else AGENT
        done = len(env.my_discarded)
        if done == self.tricks_seen:
            return
        self.tricks_seen = done
        winner = AGENT if env.turn_my_player == 0 else OPPONENT  # the winner leads next
        leader = self.trick_leader
        cards = {AGENT: env.my_discarded[-1], OPPONENT: env.other_discarded[-1]}
        self.last_trick = {
            "winner": winner,
            "points": sum(values_points[c.value] for c in cards.values()),
            "cards": [{"seat": s, "card": _code(cards[s])} for s in (leader, 1 - leader)],
        }

    def snapshot(self) -> dict[str, Any]:
        env = self.env
        over = env.is_finish()
        table = env.table
        lead_seat = OPPONENT if env.turn_my_player == 1 else AGENT
        snap = {
            "variant": VARIANT,
            "phase": "over" if over else "play",
            "to_act": None if over else self.to_act,
            "trump": SUIT_OF_SEED[env.briscola.seed],
            "stock": [_code(c) for c in env.deck.cards],
            "stock_count": len(env.deck.cards),
            "hands": {str(s): [_code(c) for c in p.hand] for s, p in ((AGENT, env.my_player), (OPPONENT, env.other_player))},
            "trick": [{"seat": lead_seat if i == 0 else 1 - lead_seat, "card": _code(c)} for i, c in enumerate(table)],
            "last_trick": self.last_trick,
            "totals": [env.my_points, env.other_points],
        }
        if self.indicator_known:
            snap["indicator"] = _code(env.briscola)
            snap["turned"] = [_code(env.briscola)]
        return snap

    def legal(self) -> list[dict[str, Any]]:
        if self.env.is_finish():
            return []
        hand = self.env.my_player.hand if self.to_act == AGENT else self.env.other_player.hand
        return [{"type": "play", "seat": self.to_act, "card": _code(c)} for c in hand]


class BriscolaGymAdapter:
    """The kit's adapter interface (conformance/engines/adapter.py) over briscola-gym, in process."""

    def hello(self) -> dict[str, Any]:
        return {
            "name": "briscola-gym",
            "version": version("briscola-gym"),
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
            game = Game(request["setup"], list(request["actions"]), observations)
            while game.play():
                pass
        except Unsupported as why:  # with what it observed before: the kit judges that much
            return {"id": rid, "observations": observations, "error": {"kind": "unsupported", "message": str(why)}}
        except Exception as err:  # the environment's own failure is reported, never raised
            crash = {"kind": "crash", "message": f"{type(err).__name__}: {err}"}
            return {"id": rid, "observations": observations, "error": crash}
        return {"id": rid, "observations": observations}

    def close(self) -> None:
        pass


def adapter() -> BriscolaGymAdapter:
    """The factory ``--engine briscola_gym_adapter:adapter`` names."""
    return BriscolaGymAdapter()


if __name__ == "__main__":
    from conformance.engines.serve import serve

    sys.exit(serve(sys.stdin, sys.stdout, adapter()))  # type: ignore[arg-type]
