"""The rule components a variant may name, and building one from the variant.

``components.<name>.rule`` in the variant picks the implementation from ``REGISTRY``; each
implementation declares its parameters in ``PARAMETERS`` (see params.py). An unknown
component, rule or parameter is a VariantError naming its path.
"""

from __future__ import annotations

from typing import Any

from reference.dealer_rotation import DealWinner, NextInPlayOrder
from reference.dealing import TreeCut
from reference.draw_nines import DrawNines
from reference.drawing import WinnerFirst
from reference.errors import VariantError
from reference.legality_follow import FollowThenTrump
from reference.legality_free import FreePlay
from reference.lone import MakerAlone
from reference.look import PartnersLook
from reference.match import Rounds, TargetVictoryPoints, VictoryPoints
from reference.otea import Otea
from reference.params import Params
from reference.rules import Rule, Rules
from reference.score_mrithi import Mrithi
from reference.score_threshold import OverThreshold
from reference.score_tricks import TrickScore
from reference.trick import HighestTrumpElseLedSuit
from reference.turn_up import TurnUp

# component name -> rule name -> implementation, in the order of the deal.
REGISTRY: dict[str, dict[str, type[Rule]]] = {
    "first_dealer": {"draw-nines": DrawNines},
    "cut": {"tree-cut": TreeCut},
    "trump": {"otea": Otea, "turn-up": TurnUp},
    "look": {"partners-look": PartnersLook},
    "lone": {"maker-alone": MakerAlone},
    "legality": {"free": FreePlay, "follow-then-trump": FollowThenTrump},
    "trick": {"highest-trump-else-led-suit": HighestTrumpElseLedSuit},
    "draw": {"winner-first": WinnerFirst},
    "score": {"mrithi": Mrithi, "over-threshold": OverThreshold, "tricks": TrickScore},
    "dealer": {"deal-winner": DealWinner, "next-in-play-order": NextInPlayOrder},
    "match": {"open": VictoryPoints, "vp-target": TargetVictoryPoints, "rounds": Rounds},
}
REQUIRED = ("trump", "legality", "trick", "score", "dealer", "match")  # the others may be left out


def check_names(components: object) -> None:
    """The variant's ``components`` is a mapping of known component names."""
    if not isinstance(components, dict):
        raise VariantError("expected a mapping of components", ("components",))
    for name in components:
        if name not in REGISTRY:
            raise VariantError(f"unknown component {name!r}; expected one of {', '.join(REGISTRY)}", ("components", name))


def build(rules: Rules, name: str) -> Any:
    """The variant's ``name`` component, its parameters read; None if the variant names none."""
    path = ("components", name)
    data = rules.variant["components"].get(name)
    if data is None:
        if name in REQUIRED:
            raise VariantError(f"the {name} component is required", path)
        return None
    if not isinstance(data, dict):
        raise VariantError("expected a mapping with a 'rule' key", path)
    rule = data.get("rule")
    if not isinstance(rule, str):
        raise VariantError("expected a string for 'rule'", (*path, "rule"))
    implementation = REGISTRY[name].get(rule)
    if implementation is None:
        known = ", ".join(sorted(REGISTRY[name]))
        raise VariantError(f"unknown {name} rule {rule!r}; the engine knows: {known}", (*path, "rule"))
    params = Params(path, rule, data, implementation.PARAMETERS)
    component = implementation(rules, params)
    if params.unread():  # a declaration the rule ignores would put a parameter in the schema that does nothing
        raise TypeError(f"{implementation.__name__} declares {', '.join(params.unread())} but does not read it")
    return component
