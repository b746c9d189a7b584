"""Rejection codes (the closed list of spec/errors.yaml) and the engine's exceptions."""

from __future__ import annotations

from dataclasses import dataclass

from specreader.jsontypes import JsonPath
from specreader.problems import format_path
from specreader.spec import load_spec_errors

# The closed list is spec/errors.yaml's; the engine names each code it answers with, and an
# import of a name the spec does not list fails at once instead of drifting from it.
CODES: tuple[str, ...] = tuple(entry["code"] for entry in load_spec_errors())


def _code(name: str) -> str:
    if name not in CODES:
        raise ImportError(f"{name!r} is not a code of spec/errors.yaml")
    return name


INVALID_ACTION = _code("invalid_action")
WRONG_PHASE = _code("wrong_phase")
NOT_YOUR_TURN = _code("not_your_turn")
CARD_NOT_IN_HAND = _code("card_not_in_hand")
NOT_ALLOWED_TO_BID = _code("not_allowed_to_bid")
SUIT_ALREADY_BID = _code("suit_already_bid")
ALREADY_ACTED = _code("already_acted")
MUST_FOLLOW_SUIT = _code("must_follow_suit")
MUST_TRUMP = _code("must_trump")
MUST_PLAY_TREE = _code("must_play_tree")
NOT_A_MAKER = _code("not_a_maker")
NOT_A_WINNER = _code("not_a_winner")
NO_TREE_TO_TAKE = _code("no_tree_to_take")
INVALID_SETUP = _code("invalid_setup")


@dataclass(slots=True)
class Rejected:
    """An action the engine refused; the state is exactly as it was before."""

    code: str
    message: str


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
