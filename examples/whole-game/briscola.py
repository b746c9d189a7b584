"""A two-player Briscola engine of the usual kind: it plays whole games, asking each player for a
card; it has no step API and no refusals, deals its own shuffled pack and keeps no match.

It knows nothing of trickspec: the one thing added for the kit is the trace (trace_writer.py), written
from inside the game loop. ``--bug led-suit-wins`` plants a rule bug (a trump does not beat the
led suit), for trying ``trickspec check-trace`` on it; ``--bug dealer-stays`` another (the same
player deals every game), which shows only where the games of a match are written on one line
(``--match N``), judged one after another.

    python briscola.py --games 1000 --seed 1 --trace games.jsonl [--match N] [--bug led-suit-wins]
"""

from __future__ import annotations

import argparse
import os
import random
from collections.abc import Callable

from trace_writer import Trace

RANKS = "A3KQJ76542"  # strongest first
POINTS = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2}
PACK = [rank + suit for suit in "CDHS" for rank in RANKS]
ENGINE = {"name": "whole-game briscola", "version": "1", "language": "python"}
# The snapshot fields this engine keeps (and its legal moves): the kit judges these and no others.
REPORTS = ["phase", "trump", "to_act", "hands", "stock_count", "trick", "last_trick.winner", "last_trick.points",
           "totals", "result.winner", "result.tie", "legal"]

# A player: given its hand, the cards on the table and the trump suit, the card it plays.
Player = Callable[[list[str], list[str], str], str]


def random_player(rng: random.Random) -> Player:
    return lambda hand, table, trump: rng.choice(hand)


class Game:
    def __init__(self, players: list[Player], dealer: int, pack: list[str], bug: str | None = None) -> None:
        self.players, self.dealer, self.bug = players, dealer, bug
        self.pack = pack[:]  # top first: dealt one card at a time, then the trump card turned

    def winner(self, table: list[str], trump: str) -> int:
        """The index in ``table`` of the card that takes the trick."""
        led = table[0][1]
        trumps = [i for i, card in enumerate(table) if card[1] == trump]
        if trumps and self.bug != "led-suit-wins":
            return min(trumps, key=lambda i: RANKS.index(table[i][0]))
        followers = [i for i, card in enumerate(table) if card[1] == led]
        return min(followers, key=lambda i: RANKS.index(table[i][0]))

    def play(self, trace: Trace | None = None) -> list[int]:
        hands: list[list[str]] = [[], []]
        first = (self.dealer + 1) % 2  # the player after the dealer is dealt to first and leads
        for n in range(6):
            hands[(first + n) % 2].append(self.pack.pop(0))
        turned = self.pack.pop(0)  # the trump card, turned face up under the stock: drawn last
        trump = turned[1]
        stock = [*self.pack, turned]
        totals = [0, 0]
        table: list[str] = []
        last: dict[str, int] | None = None
        leader = to_act = first

        def report() -> None:  # what this engine can say of the game now: its trace records it
            if trace:
                over = not hands[0] and not hands[1]
                seen: dict[str, object] = {
                    "phase": "over" if over else "play", "trump": trump, "to_act": None if over else to_act,
                    "hands": _seats(hands), "stock_count": len(stock), "totals": totals[:], "last_trick": last,
                    "trick": [{"seat": (leader + i) % 2, "card": card} for i, card in enumerate(table)],
                }  # fmt: skip
                if over:
                    tie = totals[0] == totals[1]
                    seen["result"] = {"winner": None if tie else int(totals[1] > totals[0]), "tie": tie}
                trace.observe(seen, [] if over else [{"type": "play", "seat": to_act, "card": c} for c in hands[to_act]])

        if trace:  # the deal as dealt, the turned card named apart
            trace.deal("briscola-2p", {"dealer": self.dealer, "hands": _seats(hands), "stock": self.pack, "turned": turned})
        report()
        while hands[leader]:
            for seat in (leader, 1 - leader):
                card = self.players[seat](hands[seat], table, trump)
                hands[seat].remove(card)
                table.append(card)
                if trace:
                    trace.action({"type": "play", "seat": seat, "card": card})
                if len(table) == 1:
                    to_act = 1 - seat
                    report()
            taker = (leader + self.winner(table, trump)) % 2
            points = sum(POINTS.get(card[0], 0) for card in table)
            totals[taker] += points
            for seat in (taker, 1 - taker):  # the taker draws first
                if stock:
                    hands[seat].append(stock.pop(0))
            leader = to_act = taker
            table = []
            last = {"winner": taker, "points": points}
            report()
        if trace:
            trace.end_game()
        return totals


def _seats(hands: list[list[str]]) -> dict[str, list[str]]:
    return {str(seat): sorted(hand, key=PACK.index) for seat, hand in enumerate(hands)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--trace", help="write every game here, one JSON line each")
    parser.add_argument("--match", type=int, default=1, metavar="N", help="write N games a line, as the deals of a match")
    parser.add_argument("--bug", choices=["led-suit-wins", "dealer-stays"])
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with open(args.trace or os.devnull, "w", encoding="utf-8") as out:
        trace = Trace(out, {**ENGINE}, REPORTS, deals=args.match) if args.trace else None
        for number in range(args.games):
            pack = rng.sample(PACK, len(PACK))
            dealer = 0 if args.bug == "dealer-stays" else number % 2  # the deal passes to the next player
            Game([random_player(rng), random_player(rng)], dealer=dealer, pack=pack, bug=args.bug).play(trace)
        if trace:
            trace.close()


if __name__ == "__main__":
    main()
