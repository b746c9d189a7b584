"""A scenario's setup held, at validate time, to every invariant an engine refuses a setup for:
the reference engine starts a deal from it, and its refusal is the problem. So hand and pile
sizes against the tricks, the indicator's place, the trick's order, whose turn it is and the
rest are checked where they are stated, in reference/setup.py, and nowhere else."""

from __future__ import annotations

from reference.engine import Engine, compile_rules
from reference.errors import SetupError, VariantError
from reference.rules import Rules
from specreader.jsontypes import Json
from specreader.spec import Spec


class SetupCheck:
    """The reference's refusal of setups of a spec's variants, each variant compiled once."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self._rules: dict[str, Rules | None] = {}

    def refusal(self, variant_id: str, setup: Json) -> SetupError | None:
        """Why a deal of the variant cannot start from ``setup`` (its cards expanded), if it cannot;
        None too for a variant the engine cannot play (its own checks say why)."""
        rules = self._compiled(variant_id)
        if rules is None:
            return None
        try:
            Engine(rules, setup)
        except SetupError as err:
            return err
        return None

    def _compiled(self, variant_id: str) -> Rules | None:
        if variant_id not in self._rules:
            try:
                variant = self.spec.resolved(variant_id)
                self._rules[variant_id] = compile_rules(variant, self.spec.precedence(str(variant.get("game"))))
            except (VariantError, KeyError, ValueError, TypeError):
                self._rules[variant_id] = None
        return self._rules[variant_id]
