"""The hand-written mutants of the reference engine, each with the clause it breaks.

Kept apart from the tests that use them, so a mutant served over the protocol
(tests/serve_mutant.py) starts without loading pytest and the kit's runner.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, NamedTuple

from conformance.engines.adapter import InProcessAdapter
from reference import refusals
from reference.engine import Engine, compile_rules
from reference.play import Play
from reference.refusals import Refusal
from reference.rules import Rules
from reference.state import Deal
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


class _FollowAtStockOut:
    """In free play, once the stock is drawn out, a player holding the suit led must follow it (the duty of games
    such as Sueca, where Briscola and Bisca have none)."""

    def __init__(self, play: Any) -> None:
        # Put on the play stage itself: a deal begun mid-play finds its stage by its class.
        self.play_ids = play.play_ids
        self.original_legal_ids, self.original_apply = play.legal_ids, play.apply
        play.legal_ids, play.apply = self.legal_ids, self.apply

    def _bound(self, st: Deal) -> list[int] | None:
        """The cards the seat to act must choose from, where the duty binds it (None: any card)."""
        if st.stock or not st.trick_cards or st.to_act is None:
            return None
        suit = st.tables.eff_suit
        follow = [c for c in st.hands[st.to_act] if suit[c] == suit[st.trick_cards[0]]]
        return follow or None

    def legal_ids(self, st: Deal) -> list[int]:
        bound = self._bound(st)
        if bound is None:
            return list(self.original_legal_ids(st))
        ids = self.play_ids[st.to_act]
        return [ids[c] for c in bound]

    def apply(self, st: Deal, kind: str, seat: int, card: int, ev: Any) -> Any:
        bound = self._bound(st)
        if bound is not None and seat == st.to_act and card in st.hands[seat] and card not in bound:
            return Refusal(refusals.MUST_FOLLOW_SUIT, "the stock is out: the suit led must be followed")
        return self.original_apply(st, kind, seat, card, ev)


class _TreeLead:
    """A Tree led calls for nothing (``binds``: False), or for trumps the other Tree does not meet."""

    def __init__(self, original: Any, binds: bool) -> None:
        self.original, self.binds = original, binds
        self.free = original.free

    def allowed(self, hand: list[int], led: int, t: Any) -> tuple[list[int], str | None]:
        if not self.original.is_top[led]:
            return self.original.allowed(hand, led, t)
        ordinary = [c for c in hand if t.is_trump[c] and not self.original.is_top[c]]
        if not self.binds or not ordinary:
            return hand, None
        return ordinary, refusals.MUST_FOLLOW_SUIT

    def check(self, hand: list[int], card: int, led: int, t: Any) -> str | None:
        allowed, code = self.allowed(hand, led, t)
        return None if card in allowed else code

    def legal(self, hand: list[int], led: int, t: Any) -> list[int]:
        return self.allowed(hand, led, t)[0]


def _on_play_stage(change: Callable[[Any], Any], game: str) -> Callable[[dict[str, Any]], Rules]:
    """The play stage changed in the variants of ``game`` (the others played as the reference plays them)."""

    def build(variant: dict[str, Any]) -> Rules:
        rules = compile_rules(variant)
        if rules.game == game:
            change(next(s for s in rules.stages if isinstance(s, Play)))
        return rules

    return build


def _patched(attribute: str, wrapper: Callable[[Any], Any]) -> Callable[[dict[str, Any]], Rules]:
    def build(variant: dict[str, Any]) -> Rules:
        rules = compile_rules(variant)
        setattr(rules, attribute, wrapper(getattr(rules, attribute)))
        for stage in rules.stages:  # stages hold their own reference to the component
            if hasattr(stage, attribute):
                setattr(stage, attribute, getattr(rules, attribute))
        return rules

    return build


class Mutant(NamedTuple):
    build: Callable[[dict[str, Any]], Rules]
    clause: str  # the clause it breaks, which a scenario of the suite must catch it on
    variant: str = "albastini-2p"  # a variant it plays differently, for the fuzz campaign that finds it


MUTANTS: dict[str, Mutant] = {
    "queen-above-jack": Mutant(lambda v: compile_rules(_swap_jq(v)), "albastini.cards.rank-order"),
    "off-suit-wins": Mutant(_patched("trick", _OffSuitWins), "albastini.play.off-suit-never-wins"),
    "indicator-to-winner": Mutant(_patched("draw", _IndicatorToWinner), "albastini.draw.indicator-last-drawer"),
    "briscola-follow-at-stock-out": Mutant(
        _on_play_stage(_FollowAtStockOut, "briscola"), "briscola.play.free", "briscola-4p"
    ),
    "bisca-follow-at-stock-out": Mutant(_on_play_stage(_FollowAtStockOut, "bisca"), "bisca.play.free", "bisca-2p"),
    "tree-lead-binds-nobody": Mutant(
        _patched("legality", lambda original: _TreeLead(original, binds=False)), "altbaumer.trees.tree-lead", "altbaumer-standard"
    ),
    "other-tree-not-a-trump": Mutant(
        _patched("legality", lambda original: _TreeLead(original, binds=True)), "altbaumer.trees.tree-lead", "altbaumer-standard"
    ),
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
