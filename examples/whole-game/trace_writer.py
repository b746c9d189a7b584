"""Writing a trace for trickspec check-trace: one JSON line per game, or per match of several deals
(schemas/trace.schema.json).

A trace needs no protocol server and no step API: the game loop says what was dealt, each action
as it is played, and what it can report after it (any snapshot fields it keeps, the legal actions).
Written a match to a line, the deals of a match are judged one after another: who the engine has
deal next, and the match it carries on, are held to the rules too.
"""

from __future__ import annotations

import json
from typing import Any, TextIO


class Trace:
    def __init__(
        self, out: TextIO | None, engine: dict[str, str] | None = None, reports: list[str] | None = None, deals: int = 1
    ) -> None:
        self.out = out  # None: the game is kept in ``game`` and written nowhere
        if out is not None:  # the header: who played, and the fields it reports (the kit judges those alone)
            out.write(json.dumps({"trace": 1, "engine": engine or {}, **({"reports": reports} if reports else {})}) + "\n")
        self.deals = deals  # the deals of a match, written on one line
        self.game: dict[str, Any] = {}
        self.match: list[dict[str, Any]] = []
        self.number = 0

    def deal(self, variant: str, setup: dict[str, Any]) -> None:
        self.game = {"game": self.number, "variant": variant, "setup": setup, "actions": [], "observations": []}

    def action(self, action: dict[str, Any]) -> None:
        self.game["actions"].append(action)

    def observe(self, snapshot: dict[str, Any], legal: list[dict[str, Any]]) -> None:
        self.game["observations"].append({"snapshot": snapshot, "legal": legal})

    def end_game(self) -> None:
        self.match.append(self.game)
        self.number += 1
        if len(self.match) == self.deals:
            self.close()

    def close(self) -> None:
        """Write the match so far (a game line, for one deal)."""
        if self.out is not None and self.match:
            first = self.match[0]
            line = first if self.deals == 1 else {
                "game": f"match-{first['game'] // self.deals}", "variant": first["variant"],
                "deals": [{key: deal[key] for key in ("setup", "actions", "observations")} for deal in self.match],
            }  # fmt: skip
            self.out.write(json.dumps(line) + "\n")
        self.match = []
