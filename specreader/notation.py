"""The kit's notation, stated here once: card codes, action kinds and the scenario format.

A card code is a rank letter then a suit letter (``7H``, ``TD``, ``QC``); an action is an object with
a ``type`` of the kinds below. These are the kit's words, not a game's rules: which ranks and suits a
game's deck holds, and which kinds a variant uses, are its variant's. The schemas' patterns and enums
are generated from here (``python -m specreader.schema_notation``), and every reader imports them.
"""

from __future__ import annotations

import re

RANK_LETTERS = "AKQJT98765432"
SUIT_LETTERS = "CDHS"

# Each kind of action and whether it names a card; any other kind is no action.
ACTION_KINDS: dict[str, bool] = {
    "bid": True,
    "pass": False,
    "play": True,
    "take_tree": True,
    "decline": False,
    "accept": False,
    "refuse": False,
    "discard": True,
    "alone": False,
    "take_deal": False,
}

# The scenario format files are written in now; files of older formats are read as they mean today
# (scenario.schema.json's ``format``).
SCENARIO_FORMAT = 2

RANK = f"[{RANK_LETTERS}]"
SUIT = f"[{SUIT_LETTERS}]"
CARD = RANK + SUIT
CARD_CODE = re.compile(f"^{CARD}$")


def kinds(*, with_card: bool) -> list[str]:
    """The action kinds that name a card (or those that do not), in the order above."""
    return [kind for kind, carded in ACTION_KINDS.items() if carded == with_card]
