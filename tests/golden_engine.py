"""Engines for the recorded runs of tests/test_golden_run.py: every outcome a run can report.

``mixed`` is the reference engine with the queen ranked above the jack in Albastini (failures),
refusing to set up the clockwise variant (a setup error), crashing on an Altbaumer player going
alone (an error after some observations), and not declaring Briscola at four (unsupported).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from conformance.engines.adapter import InProcessAdapter
from reference.engine import Engine, compile_rules
from reference.rules import Rules
from specreader.spec import variant, variant_ids


class _CrashesOnAlone:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def legal_actions(self) -> Any:
        return self.engine.legal_actions()

    def apply(self, action: dict[str, Any]) -> Any:
        if action.get("type") == "alone":
            raise RuntimeError("going alone is not implemented")
        return self.engine.apply(action)

    def snapshot(self) -> Any:
        return self.engine.snapshot()


@cache
def _rules(variant_id: str) -> Rules:
    """Compiled once per variant, as ``Engine.new`` does: a recorded run starts hundreds of scenarios."""
    data = variant(variant_id)
    if data["game"] == "albastini":
        ranks = data["ranking"]["plain_order"].split()
        i, j = ranks.index("J"), ranks.index("Q")
        ranks[i], ranks[j] = ranks[j], ranks[i]
        data["ranking"]["plain_order"] = " ".join(ranks)
    return compile_rules(data)


def _new(variant_id: str, setup: dict[str, Any]) -> Any:
    if variant_id == "albastini-clockwise":
        raise ValueError("clockwise play is not implemented")
    return _CrashesOnAlone(Engine(_rules(variant_id), setup))


def mixed() -> InProcessAdapter:
    info = {"name": "golden-mixed", "version": "1", "language": "python"}
    return InProcessAdapter(_new, info, [v for v in variant_ids() if v != "briscola-4p"])
