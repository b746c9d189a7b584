"""The refusal codes the engine answers with, and a refused action.

Each code is a name of spec/refusals.yaml's closed list, written here as a clause id is written in a
scenario: tests/test_reference_refusals.py holds every one of them to the list. Nothing is read at
import, so a spec that does not load is reported as located problems where it is used."""

from __future__ import annotations

from dataclasses import dataclass

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
class Refusal:
    """An action the engine refused; the state is exactly as it was before."""

    code: str
    message: str
