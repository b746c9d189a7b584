"""A scenario's setup held, at validate time, to every invariant an engine refuses a setup for:
the reference engine starts a deal from it, and its refusal is the problem. So hand and pile
sizes against the tricks, the indicator's place, the trick's order, whose turn it is and the
rest are checked where they are stated, in reference/setup.py, and nowhere else."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from reference.engine import Engine, compile_rules
from reference.errors import SetupError, VariantError
from reference.precedence import order_faults
from reference.rules import Rules
from specreader.jsontypes import Json
from specreader.spec import Spec


class Unplayable(NamedTuple):
    """Why the reference engine cannot play a variant, so none of its setups can be checked."""

    reason: str
    reported: bool  # the cause is a problem validate reports elsewhere, located where it is
    # False: not said at all, as nothing is said of what builds on a file that did not load (that
    # file's problem is the one reported) or that is missing (check_spec says so)
    noted: bool = True


class SetupCheck:
    """The reference's refusal of setups of a spec's variants, each variant compiled once."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self._rules: dict[str, Rules | Unplayable] = {}
        self._said: set[tuple[str, str]] = set()  # each variant found unplayable, with the file it was said in

    def refusal(self, variant_id: str, setup: Json) -> SetupError | None:
        """Why a deal of the variant cannot start from ``setup`` (its cards expanded), if it cannot;
        None too for a variant the engine cannot play (``unplayable`` says why)."""
        rules = self._compiled(variant_id)
        if isinstance(rules, Unplayable):
            return None
        try:
            Engine(rules, setup)
        except SetupError as err:
            return err
        return None

    def unplayable(self, variant_id: str, file: str) -> Unplayable | None:
        """Why the reference engine cannot play the variant, so its setups go unchecked, if it cannot
        and that is still to be said: once per file when nothing else reports why, else once."""
        rules = self._compiled(variant_id)
        if not isinstance(rules, Unplayable) or not rules.noted:
            return None
        said = (variant_id, "" if rules.reported else file)
        if said in self._said:
            return None
        self._said.add(said)
        return rules

    def _compiled(self, variant_id: str) -> Rules | Unplayable:
        if variant_id not in self._rules:
            self._rules[variant_id] = self._compile(variant_id)
        return self._rules[variant_id]

    def _compile(self, variant_id: str) -> Rules | Unplayable:
        try:
            variant = self.spec.resolved(variant_id)
        except (KeyError, ValueError) as err:  # scenarios are not checked against it (scenarios._unusable_because)
            return Unplayable(f"it cannot be resolved: {err}", reported=True)
        game = str(variant.get("game"))
        order = self.spec.precedence(game)
        if self.spec.refusals_file is None:
            return Unplayable("the list of refusal codes did not load or is missing", reported=True, noted=False)
        if not order or order_faults(order, self.spec.action_codes()):
            # validate reports each fault located at the order in refusals.yaml (precedence_check),
            # a missing or mistyped order too (the errors schema)
            where = self.spec.refusals_file.file
            return Unplayable(f"the refusal precedence for {game} has problems ({where})", reported=True)
        compiled = _compiled_rules(variant, order)
        if isinstance(compiled, str):  # none reported elsewhere: the scenario says it
            return Unplayable(f"the reference engine cannot play it: {compiled}", reported=False)
        return compiled


def _compiled_rules(variant: Json, order: Sequence[str]) -> Rules | str:
    """The reference's rules for a resolved variant, or why it cannot play it."""
    try:
        return compile_rules(variant, order)
    except (VariantError, KeyError, ValueError, TypeError) as err:
        return str(err)
