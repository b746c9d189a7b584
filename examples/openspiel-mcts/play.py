"""OpenSpiel's MCTS bot against a uniform random bot, over deals of two-player Albastini.

    python examples/openspiel-mcts/play.py [--deals N] [--simulations S] [--seed S]

Needs the ``openspiel`` extra (``pip install -e '.[openspiel]'``). The game is the reference
engine registered by ``reference.openspiel``; the bots are OpenSpiel's own. The two swap seats
every deal. OpenSpiel's MCTS searches the state it is handed, hidden cards included: it plays
as if it could see every hand and the stock, so the result measures the search, not fair play.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from reference import openspiel  # registers the games

VARIANT = "albastini-2p"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals to play (default 200)")
    parser.add_argument("--simulations", type=int, default=40, help="MCTS simulations per move (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game = pyspiel.load_game(openspiel.game_name(VARIANT))
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations, evaluator=evaluator, random_state=rng)
    points = {"mcts": 0.0, "random": 0.0}
    won = {"mcts": 0, "random": 0, "nobody": 0}
    start = time.perf_counter()
    for deal in range(args.deals):
        mcts_seat = deal % 2
        bots = {mcts_seat: searcher, 1 - mcts_seat: pyspiel.make_uniform_random_bot(1 - mcts_seat, args.seed + deal)}
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            else:
                state.apply_action(bots[state.current_player()].step(state))
        returns = state.returns()
        points["mcts"] += returns[mcts_seat]
        points["random"] += returns[1 - mcts_seat]
        winner = "mcts" if returns[mcts_seat] > 0 else "random" if returns[1 - mcts_seat] > 0 else "nobody"
        won[winner] += 1
    elapsed = time.perf_counter() - start
    print(f"{args.deals} deals of {VARIANT}, MCTS ({args.simulations} simulations a move) against random, seats swapped")
    print(f"deals won: MCTS {won['mcts']}, random {won['random']}, nobody (a tie) {won['nobody']}")
    print(f"victory points: MCTS {points['mcts']:.0f}, random {points['random']:.0f}")
    print(f"{elapsed:.0f} s ({elapsed / args.deals:.2f} s a deal)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
