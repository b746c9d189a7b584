"""Clause coverage: every clause has a scenario, a negative one where it forbids something, and
one making each choice it leaves to a player (its ``choices``, conformance/suite/choices.py)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from conformance.suite import choices
from conformance.suite.scenarios import Scenario
from specreader.spec import Spec


@dataclass(frozen=True)
class ClauseCoverage:
    clause: str
    scenarios: int
    negative: int
    needs_negative: bool
    informative: bool
    unmade: tuple[str, ...] = ()  # the clause's choices no scenario of it makes

    @property
    def complete(self) -> bool:
        if self.unmade:  # even an informative clause: a choice it names must be made somewhere
            return False
        if self.informative:
            return True
        return self.scenarios > 0 and (self.negative > 0 or not self.needs_negative)


def measure(spec: Spec, scenarios: Iterable[Scenario]) -> list[ClauseCoverage]:
    """Scenario counts per clause, in the spec's order."""
    scenarios = list(scenarios)
    rows = []
    for _, _, clause in spec.clauses():
        cid = clause["id"]
        refuses_with = set(clause.get("refuses_with", []))
        mine = [s for s in scenarios if cid in s.clauses]
        negative = [s for s in mine if s.refusals() & refuses_with]  # an action refused, or the setup
        unmade = tuple(c for c in clause.get("choices", []) if not any(choices.made_in(c, s) for s in mine))
        rows.append(ClauseCoverage(cid, len(mine), len(negative), bool(refuses_with), bool(clause.get("informative")), unmade))
    return rows


def table(rows: list[ClauseCoverage]) -> str:
    """A plain-text table, one clause a line, gaps marked."""
    width = max((len(r.clause) for r in rows), default=10)
    lines = [f"{'clause':<{width}}  scenarios  negative  status"]
    for r in rows:
        if r.unmade and (r.scenarios or r.informative):
            status = f"MISSING scenario making the choice {', '.join(r.unmade)}"
        elif r.informative and not r.scenarios:
            status = "informative"
        elif r.complete:
            status = "ok"
        elif not r.scenarios:
            status = "MISSING scenario"
        else:
            status = "MISSING negative scenario"
        negative = str(r.negative) if r.needs_negative else "-"
        lines.append(f"{r.clause:<{width}}  {r.scenarios:>9}  {negative:>8}  {status}")
    done = sum(r.complete for r in rows)
    percent = 100.0 * done / len(rows) if rows else 100.0
    lines.append(f"clause coverage: {done}/{len(rows)} clauses ({percent:.1f}%)")
    return "\n".join(lines)
