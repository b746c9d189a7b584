"""The fields a run's failures differ in, counted, each with the clauses that decide it.

A scenario names the clauses it is about, and a report counts its failure under them; but what made it fail may
be decided elsewhere: a wrong card value fails scenarios about the over-60 score through their ``totals``. So a
report also counts the failures by each field that differed, and names the clauses whose ``observes`` entries
say they decide that field in the failing scenarios' variants, as fuzz names a divergence
(``conformance.suite.observing``).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from conformance.run.runlog import ScenarioLine
from conformance.suite import observing
from conformance.suite.comparisons import AS_A_SET, HOLDS, LACKS, LEGAL_ACTIONS
from specreader.jsontypes import Json

# How the comparisons (conformance/suite/comparisons.py) say what they compared beyond its path
_HOW = re.compile("|".join(f"{re.escape(how)}$" for how in (AS_A_SET, HOLDS, LACKS)))
_INDEX = re.compile(r"\.\d+(?=\.|$)")  # hands.1, stock.33, piles.0: the field at any seat, side or place


def field_of(what: str) -> str | None:
    """The snapshot field (with its part: ``result.vp``) or ``legal`` a difference is in; None for a difference in
    no field (a refusal code, a setup refused)."""
    if what.startswith(LEGAL_ACTIONS):  # exactly, include, exclude
        return observing.LEGAL
    path = _INDEX.sub("", _HOW.sub("", what))
    root = path.split(".", 1)[0]
    return path if root in observing.snapshot_fields() else None


def _deciding(variant: str, field: str) -> tuple[str, ...]:
    try:
        clauses = observing.clauses_of(variant)
    except (KeyError, ValueError):  # a log of a variant this kit does not have (house rules not loaded)
        return ()
    return clauses.for_field(field, "")  # no phase: a run log does not keep one


class FieldsDiffering:
    """Failing scenarios counted by each field they differ in (once a scenario, however many differences)."""

    def __init__(self) -> None:
        self._failed: Counter[str] = Counter()
        self._variants: dict[str, set[str]] = {}
        self._named: dict[str, set[str]] = {}  # the clauses the failing scenarios name, by field

    def add(self, line: ScenarioLine) -> None:
        listed: list[Any] = list(line.get("mismatches") or []) or [line.get("mismatch")]  # an older log: the first only
        found = [m for m in listed if isinstance(m, dict)]
        fields = {f for m in found if (f := field_of(str(m.get("what", "")))) is not None}
        for field in fields:
            self._failed[field] += 1
            self._variants.setdefault(field, set()).add(str(line["variant"]))
            self._named.setdefault(field, set()).update(str(c) for c in line.get("clauses") or ())

    def groups(self) -> list[Json]:
        """Most failures first; each field with the clauses deciding it in any of its scenarios' variants."""
        out: list[Json] = []
        for field, failed in sorted(self._failed.items(), key=lambda item: (-item[1], item[0])):
            clauses = list(dict.fromkeys(c for v in sorted(self._variants[field]) for c in _deciding(v, field)))
            if field == observing.LEGAL:  # decided in every phase by a clause of its own, and a log keeps no phase:
                # those the failing scenarios are about, where they name any (Altbaumer's play alone has thirteen)
                clauses = [c for c in clauses if c in self._named[field]] or clauses
            out.append({"field": field, "failed": failed, "clauses": clauses})
        return out
