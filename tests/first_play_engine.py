"""An engine that offers only the first of the legal plays: the reference with its legal actions narrowed in
the play phase, as an engine reading a duty into a free choice does (its refusals unchanged)."""

from __future__ import annotations

from typing import Any

from wrapped_engine import Wrapped


class FirstPlayOnly(Wrapped):
    def legal_actions(self) -> list[Any]:
        legal = self.engine.legal_actions()
        if self.engine.snapshot()["phase"] != "play":
            return legal
        return legal[:1]
