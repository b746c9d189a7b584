"""The reference engine behind the in-process engine API, for the test engines that change one thing of it
(what they report, how they deal, which cards they offer) by overriding that one method."""

from __future__ import annotations

from typing import Any, Self

from reference import Engine


class Wrapped:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @classmethod
    def new(cls, variant_id: str, setup: Any) -> Self:
        return cls(Engine.new(variant_id, setup))

    def legal_actions(self) -> list[Any]:
        return self.engine.legal_actions()

    def apply(self, action: Any) -> Any:
        return self.engine.apply(action)

    def snapshot(self) -> dict[str, Any]:
        return self.engine.snapshot()
