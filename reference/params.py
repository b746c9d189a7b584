"""Reading a component's parameters from the variant, with the JSON path of every complaint."""

from __future__ import annotations

from typing import Any

from reference.errors import VariantError
from specreader.jsontypes import Json, JsonPath


class Params:
    """The parameters of ``components.<name>``; unknown keys are errors (typos are caught)."""

    def __init__(self, name: str, data: object) -> None:
        self.path: JsonPath = ("components", name)
        if not isinstance(data, dict):
            raise VariantError("expected a mapping with a 'rule' key", self.path)
        self.data: Json = data
        self._used: set[str] = set()
        self.rule = self.text("rule")

    def raw(self, key: str, default: Any = None) -> Any:
        self._used.add(key)
        return self.data.get(key, default)

    def text(self, key: str, default: str | None = None, choices: tuple[str, ...] = ()) -> str:
        value = self.raw(key, default)
        if not isinstance(value, str):
            raise VariantError(f"expected a string for {key!r}", (*self.path, key))
        if choices and value not in choices:
            raise VariantError(
                f"expected one of {', '.join(choices)}; found {value!r}", (*self.path, key)
            )
        return value

    def integer(self, key: str, default: int | None = None) -> int:
        value = self.raw(key, default)
        if type(value) is not int:
            raise VariantError(f"expected an integer for {key!r}", (*self.path, key))
        return value

    def opt_integer(self, key: str) -> int | None:
        if key not in self.data:
            self._used.add(key)
            return None
        return self.integer(key)

    def flag(self, key: str, default: bool = False) -> bool:
        value = self.raw(key, default)
        if not isinstance(value, bool):
            raise VariantError(f"expected true or false for {key!r}", (*self.path, key))
        return value

    def done(self) -> None:
        """Fail on any parameter the component does not know."""
        unknown = sorted(set(self.data) - self._used)
        if unknown:
            raise VariantError(
                f"unknown parameter {unknown[0]!r} for rule {self.rule!r}", (*self.path, unknown[0])
            )
