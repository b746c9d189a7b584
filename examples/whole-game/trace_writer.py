"""Writing a trace for trickspec check-trace: one JSON line per game (schemas/trace.schema.json).

A trace needs no protocol server and no step API: the game loop says what was dealt, each action
as it is played, and what it can report after it (any snapshot fields it keeps, the legal actions).
"""

from __future__ import annotations

import json
from typing import Any, TextIO


class Trace:
    def __init__(self, out: TextIO | None, engine: dict[str, str] | None = None, reports: list[str] | None = None) -> None:
        self.out = out  # None: the game is kept in ``game`` and written nowhere
        if out is not None:  # the header: who played, and the fields it reports (the kit judges those alone)
            out.write(json.dumps({"trace": 1, "engine": engine or {}, **({"reports": reports} if reports else {})}) + "\n")
        self.game: dict[str, Any] = {}
        self.number = 0

    def deal(self, variant: str, setup: dict[str, Any]) -> None:
        self.game = {"game": self.number, "variant": variant, "setup": setup, "actions": [], "observations": []}

    def action(self, action: dict[str, Any]) -> None:
        self.game["actions"].append(action)

    def observe(self, snapshot: dict[str, Any], legal: list[dict[str, Any]]) -> None:
        self.game["observations"].append({"snapshot": snapshot, "legal": legal})

    def end_game(self) -> None:
        if self.out is not None:
            self.out.write(json.dumps(self.game) + "\n")
        self.number += 1
