"""The hand-written mutants of the reference engine, each with the clause it breaks.

Kept apart from the tests that use them, so a mutant served over the protocol
(tests/serve_mutant.py) starts without loading pytest and the kit's runner.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from conformance.engines.adapter import InProcessAdapter
from reference.engine import Engine, compile_rules
from reference.rules import Rules
from specreader import spec


def _swap_jq(variant: dict[str, Any]) -> dict[str, Any]:
    ranking = dict(variant["ranking"])
    for key in ("plain_order", "trump_order"):
        if key in ranking:
            ranks = ranking[key].split()
            if "J" in ranks and "Q" in ranks:
                i, j = ranks.index("J"), ranks.index("Q")
                ranks[i], ranks[j] = ranks[j], ranks[i]
            ranking[key] = " ".join(ranks)
    return {**variant, "ranking": ranking}


class _OffSuitWins:
    """Without a trump in the trick, the highest-ranked card wins whatever its suit."""

    def __init__(self, original: Any) -> None:
        self.original = original

    def winner(self, cards: list[int], t: Any) -> int:
        if any(t.is_trump[c] for c in cards):
            return int(self.original.winner(cards, t))
        powers = [t.led_key[t.eff_suit[c]][c] for c in cards]
        return powers.index(max(powers))


class _IndicatorToWinner:
    """The last draw round hands the indicator (the last stock card) to the trick winner."""

    def __init__(self, original: Any) -> None:
        self.original = original
        self.indicator_dead = original.indicator_dead

    def __getattr__(self, name: str) -> Any:
        return getattr(self.original, name)

    def after_trick(self, st: Any, winner: int, ev: Any) -> None:
        if len(st.stock) == st.n_active and st.n_active > 1:
            st.stock.insert(0, st.stock.pop())
        self.original.after_trick(st, winner, ev)


def _patched(attribute: str, wrapper: Callable[[Any], Any]) -> Callable[[dict[str, Any]], Rules]:
    def build(variant: dict[str, Any]) -> Rules:
        rules = compile_rules(variant)
        setattr(rules, attribute, wrapper(getattr(rules, attribute)))
        for stage in rules.stages:  # stages hold their own reference to the component
            if hasattr(stage, attribute):
                setattr(stage, attribute, getattr(rules, attribute))
        return rules

    return build


MUTANTS: dict[str, tuple[Callable[[dict[str, Any]], Rules], str]] = {
    "queen-above-jack": (lambda v: compile_rules(_swap_jq(v)), "albastini.cards.rank-order"),
    "off-suit-wins": (_patched("trick", _OffSuitWins), "albastini.play.off-suit-never-wins"),
    "indicator-to-winner": (_patched("draw", _IndicatorToWinner), "albastini.draw.indicator-last-drawer"),
}


def mutant_engine(name: str) -> Callable[[str, dict[str, Any]], Engine]:
    """The mutant as an engine factory, ``(variant_id, setup) -> engine``, like ``Engine.new``."""
    build = MUTANTS[name][0]

    @cache
    def rules_for(variant_id: str) -> Rules:
        return build(spec.variant(variant_id))

    def factory(variant_id: str, setup: dict[str, Any]) -> Engine:
        return Engine(rules_for(variant_id), setup)

    return factory


def mutant_adapter(name: str) -> InProcessAdapter:
    return InProcessAdapter(mutant_engine(name), {"name": f"mutant:{name}"}, spec.variant_ids())
