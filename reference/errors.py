"""The refusal codes the engine answers with, and the engine's exceptions.

Each code is a name of spec/errors.yaml's closed list, written here as a clause id is written in a
scenario: tests/test_reference_errors.py holds every one of them to the list. Nothing is read at
import, so a spec that does not load is reported as located problems where it is used."""

from __future__ import annotations

from dataclasses import dataclass

from specreader.jsontypes import JsonPath
from specreader.problems import format_path

INVALID_ACTION = "invalid_action"
WRONG_PHASE = "wrong_phase"
NOT_YOUR_TURN = "not_your_turn"
CARD_NOT_IN_HAND = "card_not_in_hand"
NOT_ALLOWED_TO_BID = "not_allowed_to_bid"
SUIT_ALREADY_BID = "suit_already_bid"
ALREADY_ACTED = "already_acted"
MUST_FOLLOW_SUIT = "must_follow_suit"
MUST_TRUMP = "must_trump"
MUST_PLAY_TREE = "must_play_tree"
NOT_A_MAKER = "not_a_maker"
NOT_A_WINNER = "not_a_winner"
NO_TREE_TO_TAKE = "no_tree_to_take"
INVALID_SETUP = "invalid_setup"


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
