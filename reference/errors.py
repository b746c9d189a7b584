"""The engine's exceptions: a setup it refuses, a variant it cannot play."""

from __future__ import annotations

from reference.refusals import INVALID_SETUP
from specreader.jsontypes import JsonPath
from specreader.problems import format_path


class SetupError(ValueError):
    """A setup that cannot start a deal; ``path`` is the JSON path inside the setup.

    ``code`` is the refusal code an engine answers it with (the protocol's setup error carries it).
    """

    code = INVALID_SETUP

    def __init__(self, message: str, path: JsonPath = ()) -> None:
        super().__init__(f"{format_path(path)}: {message}")
        self.message = message
        self.path = path


class VariantError(ValueError):
    """A variant the engine cannot play; ``path`` is the JSON path inside the variant."""

    def __init__(self, message: str, path: JsonPath = ()) -> None:
        super().__init__(f"{format_path(path)}: {message}")
        self.message = message
        self.path = path
