"""Rejection codes (the closed list of spec/errors.yaml) and the engine's exceptions."""

from __future__ import annotations

from dataclasses import dataclass

from conformance.problems import JsonPath, format_path

# The closed list: a test checks that it equals the codes of spec/errors.yaml.
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
NO_TREE_TO_TAKE = "no_tree_to_take"

CODES: tuple[str, ...] = (
    INVALID_ACTION,
    WRONG_PHASE,
    NOT_YOUR_TURN,
    CARD_NOT_IN_HAND,
    NOT_ALLOWED_TO_BID,
    SUIT_ALREADY_BID,
    ALREADY_ACTED,
    MUST_FOLLOW_SUIT,
    MUST_TRUMP,
    MUST_PLAY_TREE,
    NOT_A_MAKER,
    NO_TREE_TO_TAKE,
)


@dataclass(slots=True)
class Rejected:
    """An action the engine refused; the state is exactly as it was before."""

    code: str
    message: str


class SetupError(ValueError):
    """A setup that cannot start a deal; ``path`` is the JSON path inside the setup."""

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
