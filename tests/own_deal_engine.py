"""Engines that shuffle and deal their own way when asked to deal (a setup with ``shuffle``), as published
engines do: the reference, dealt from another shuffle of the same seed; and the same with a planted bug,
the last trick's winner reported as the next seat.

    trickspec fuzz --engine own_deal_engine:OwnDeal --deal engine      # from tests/, or with tests/ on the path
"""

from __future__ import annotations

import random
from typing import Any, Self

from wrapped_engine import Wrapped

from conformance.engines.adapter import Unsupported
from conformance.suite.scenarios import deck_of
from reference import Engine
from specreader.spec import variant


class OwnDeal(Wrapped):
    @classmethod
    def new(cls, variant_id: str, setup: Any) -> Self:
        if isinstance(setup, dict) and "shuffle" in setup:  # its own shuffle, never the reference's
            deck = deck_of(variant(variant_id))
            random.Random(f"own/{setup['shuffle']}").shuffle(deck)
            setup = {"dealer": setup["dealer"], "deck": deck}
        return cls(Engine.new(variant_id, setup))


class WrongWinner(OwnDeal):
    """The last trick's winner reported as the next seat."""

    def snapshot(self) -> dict[str, Any]:
        seen = super().snapshot()
        last = seen.get("last_trick")
        if last:
            seen["last_trick"] = {**last, "winner": (last["winner"] + 1) % len(seen["hands"])}
        return seen


class OnlyItsOwnDeal(WrongWinner):
    """The same bug in an engine that can only deal its own way: asked for a deal given card by card, it cannot."""

    @classmethod
    def new(cls, variant_id: str, setup: Any) -> Self:
        if not (isinstance(setup, dict) and "shuffle" in setup):
            raise Unsupported("it deals its own way only")
        return super().new(variant_id, setup)


class NeverItsOwnDeal(OwnDeal):
    """An engine that cannot deal from a seed: asked to, it answers unsupported, so ``--deal engine`` compares nothing."""

    @classmethod
    def new(cls, variant_id: str, setup: Any) -> Self:
        if isinstance(setup, dict) and "shuffle" in setup:
            raise Unsupported("it takes the kit's deals only")
        return super().new(variant_id, setup)
