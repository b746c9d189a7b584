"""Per-engine expectation files: scenarios an engine is known to skip or fail, with reasons."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from conformance import schemas, yamlio
from conformance.problems import DataError


@dataclass(frozen=True)
class Entry:
    id: str
    outcome: str  # skip | xfail
    reason: str
    link: str | None = None


@dataclass
class Expectations:
    entries: dict[str, Entry] = field(default_factory=dict)

    def get(self, scenario_id: str) -> Entry | None:
        return self.entries.get(scenario_id)


def load(path: Path) -> Expectations:
    """Read an expectation file strictly; bad data is a located DataError."""
    doc = yamlio.load(path)
    problems = schemas.check(doc, "expectations")
    if problems:
        raise DataError(problems)
    entries = {e["id"]: Entry(e["id"], e["outcome"], e["reason"], e.get("link")) for e in doc.data["expectations"]}
    return Expectations(entries)
