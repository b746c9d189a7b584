"""The whole-game Briscola engine over the trickspec protocol (docs/protocol.md): an adapter of a
few dozen lines, for running the kit's scenarios on it, beside its trace.

The engine plays whole games and asks its players for cards, so the adapter deals the request's
deck and lets scripted players answer with the request's actions; what the engine reports is what
its trace records. It cannot be asked for an illegal move (it never refuses one), nor start from
the middle of a deal: such a request is answered ``unsupported``, and the kit leaves it out.

    trickspec verify --engine-cmd "python examples/whole-game/serve.py" [--variant briscola-2p]
"""

from __future__ import annotations

import json
import sys
from typing import Any

from briscola import ENGINE, PACK, REPORTS, Game
from trace_writer import Trace

BUG = sys.argv[1] if len(sys.argv) > 1 else None  # serve.py led-suit-wins: the planted bug, as briscola.py has it


class Unsupported(Exception):
    """A request this engine's API cannot express."""


class Refused(Exception):
    """A deal the rules do not allow."""


class Stop(Exception):
    """The request's actions are all played."""


def _pack(setup: dict[str, Any]) -> list[str]:
    """The request's deal as a pack, top first, as this engine deals it."""
    if "start" in setup:
        raise Unsupported("it plays whole games: it cannot start in the middle of a deal")
    if "deck" in setup:
        return list(setup["deck"])
    dealer, hands = setup["dealer"], setup["hands"]
    if sorted(map(len, hands.values())) != [3, 3]:
        raise Refused("each player is dealt three cards")
    first = (dealer + 1) % 2
    return [hands[str((first + n) % 2)][n // 2] for n in range(6)] + list(setup["stock"])


# A reason names the kind of request, not the move: fuzz counts the deals an engine cannot play by reason.
NEVER_REFUSES = "it never refuses a move, so it cannot be asked for one"


def run(request: dict[str, Any]) -> dict[str, Any]:
    rid = request.get("id")
    if request.get("variant") != "briscola-2p":
        return {"id": rid, "error": {"kind": "unsupported", "message": "it plays briscola-2p only"}}
    actions = list(request.get("actions", []))

    def scripted(seat: int) -> Any:
        def play(hand: list[str], table: list[str], trump: str) -> str:
            if not actions:
                raise Stop
            action = actions.pop(0)
            if action.get("type") != "play" or action.get("seat") != seat or action.get("card") not in hand:
                raise Unsupported(f"{NEVER_REFUSES} out of turn, off its hand or not a play")
            return str(action["card"])

        return play

    trace = Trace(None)
    try:
        setup = request["setup"]
        if sorted(_pack(setup)) != sorted(PACK) or setup.get("dealer") not in (0, 1):
            raise Refused("a deal places each card of the pack once, and a seat deals")
        Game([scripted(0), scripted(1)], setup["dealer"], _pack(setup), BUG).play(trace)
        if actions:  # asked for a move after the last trick: nobody is asked any more, so nothing refuses it
            raise Unsupported(f"{NEVER_REFUSES} after the game")
    except Stop:
        pass
    except Unsupported as err:
        return {"id": rid, "error": {"kind": "unsupported", "message": str(err)}}
    except Refused as err:
        return {"id": rid, "error": {"kind": "setup", "code": "invalid_setup", "message": str(err)}}
    observations = [{"rejected": None, **o} for o in trace.game["observations"]]
    return {"id": rid, "observations": observations}


def main() -> int:
    for line in sys.stdin:
        message = json.loads(line) if line.strip() else {}
        if message.get("cmd") == "stop":
            return 0
        if message.get("cmd") == "start":
            hello = {**ENGINE, "variants": ["briscola-2p"], "reports": REPORTS}  # the fields it keeps: judged alone
            answer: dict[str, Any] = {"started": True, "protocol": 1, "implementation": hello}
        elif message.get("cmd") == "run":
            answer = run(message)
        else:
            answer = {"error": {"kind": "unknown_command", "message": f"unknown command {message.get('cmd')!r}"}}
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
