"""The Implementations page: every engine of ``conformance.implementations`` by game, variant and clause group.

Rendered from the run logs committed under ``docs/implementations/``, never from a run at build time: the
page shows what each engine did when its log was last refreshed, and says so when a log is older than the
scenarios it ran.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from conformance import implementations
from conformance.run import reports, runlog
from conformance.run.runlog import Log, ScenarioLine
from conformance.text import untrusted
from conformance.vocabulary import Outcome
from rulesite.links import PageLinks
from rulesite.sitedata import SiteData
from rulesite.templating import render
from specreader.jsontypes import Json

IMPLEMENTATIONS_PAGE = "implementations.md"

# The matrix's three counts: what each outcome a run log holds counts as.
PASSED = frozenset({Outcome.PASS})
UNSUPPORTED = frozenset({Outcome.UNSUPPORTED, Outcome.SKIPPED})


@dataclass
class EngineRun:
    """One engine's committed run log, read for the page."""

    key: str
    log: Log
    stale: list[str]
    by_game: dict[str, Counter[str]] = field(default_factory=dict)
    by_variant: dict[str, Counter[str]] = field(default_factory=dict)
    by_group: dict[str, Counter[str]] = field(default_factory=dict)

    @property
    def engine(self) -> Json:
        return self.log.header["engine"]

    @property
    def homepage(self) -> str | None:
        """The engine's homepage as its handshake gives it, where it is a web address: a log is data anyone may
        have written, and a link of another scheme (``javascript:``) would run in a reader's browser."""
        given = self.engine.get("homepage")
        if not isinstance(given, str) or urlsplit(given).scheme.lower() not in ("http", "https") or not urlsplit(given).netloc:
            return None
        # a table cell's | or a space would end the link or the row: only an address written plainly is linked
        return given if given.isprintable() and not any(c in given for c in ' |<>"`\\') else None

    @property
    def badge(self) -> Json:
        return reports.badge(reports.summary(self.log))

    @property
    def failures(self) -> list[ScenarioLine]:
        return [line for line in self.log.scenarios if _count_as(line) in ("failed", BEYOND_API)]

    @property
    def findings(self) -> Counter[str]:
        """The failures by category (CATEGORIES), as the engine's expectation file classes them."""
        return Counter(category(line) for line in self.failures)


# What a failure is, as an expectation file classes it (schemas/expectations.schema.json, category), in the
# page's order; a failure the file does not class is a finding still to be looked at.
CATEGORIES = {
    "rule-bug": "a rule bug",
    "rule-played-differently": "a rule played differently",
    "beyond-api": "beyond its API",
    "unclassified": "not yet classed",
}
BEYOND_API = "beyond its API"


def category(line: ScenarioLine) -> str:
    expected = line.get("expected") or {}
    found = expected.get("category") if isinstance(expected, dict) else None
    return str(found) if found in CATEGORIES else "unclassified"


def _count_as(line: ScenarioLine) -> str:
    outcome = line["outcome"]
    if outcome in PASSED:
        return "passed"
    if outcome in UNSUPPORTED:
        return "unsupported"
    if category(line) == "beyond-api":
        return BEYOND_API  # a field its API keeps no record of: no rule played wrongly
    return "failed"  # fail, error, timeout, a known failure (xfail), an unexpected pass (xpass)


def _tally(run: EngineRun) -> None:
    for line in run.log.scenarios:
        counted = _count_as(line)
        run.by_game.setdefault(line["game"], Counter())[counted] += 1
        run.by_variant.setdefault(line["variant"], Counter())[counted] += 1
        for group in sorted({".".join(cid.split(".")[:2]) for cid in line["clauses"]}):
            run.by_group.setdefault(group, Counter())[counted] += 1


def read_runs(data: SiteData, logs_dir: Path) -> list[EngineRun]:
    """The committed logs, in the page's order; a missing one is an error, not a gap on the page."""
    runs = []
    for item in implementations.IMPLEMENTATIONS:
        path = logs_dir / f"{item.key}.jsonl"
        if not path.is_file():
            raise ValueError(f"{path} is missing: refresh it with python -m conformance.implementations {item.key}")
        log = runlog.read(path)
        run = EngineRun(item.key, log, implementations.stale(log, data.scenarios))
        _tally(run)
        runs.append(run)
    return runs


def shown(value: object) -> str:
    """A value from a mismatch as the reports write it: JSON, with the kit's ``<missing>`` left bare."""
    return "<missing>" if value == "<missing>" else json.dumps(value, ensure_ascii=False)


def shown_expected(value: object) -> str:
    """What a mismatch expected as the reports write it: JSON, with a shape in the kit's words (``<an object>``) left
    bare."""
    return value if untrusted.is_kind(value) else shown(value)


def difference(expected: object, observed: object) -> str:
    """What sets two lists of cards apart, for a reader who would otherwise compare 34 cards by eye; for two
    lists holding the same items, where they first differ; for anything else, nothing (the values say it)."""
    if not isinstance(expected, list) or not isinstance(observed, list):
        return ""
    keys = [json.dumps(v, sort_keys=True) for v in expected], [json.dumps(v, sort_keys=True) for v in observed]
    missing = [v for v in keys[0] if v not in keys[1]]
    extra = [v for v in keys[1] if v not in keys[0]]
    said = [f"missing {', '.join(missing)}" if missing else "", f"extra {', '.join(extra)}" if extra else ""]
    if not missing and not extra:
        first = next((i for i, (a, b) in enumerate(zip(*keys, strict=False)) if a != b), min(map(len, keys)))
        return f"the same items, in another order from position {first}" if keys[0] != keys[1] else ""
    return "; ".join(s for s in said if s)


def implementations_page(data: SiteData, logs_dir: Path) -> str:
    runs = read_runs(data, logs_dir)
    links = PageLinks(IMPLEMENTATIONS_PAGE, data)
    by_id = {s.id: s for s in data.scenarios}
    rows = {
        "game": sorted({g for r in runs for g in r.by_game}, key=data.game_place),
        "variant": sorted({v for r in runs for v in r.by_variant}),
        "clause group": sorted({g for r in runs for g in r.by_group}),
    }
    return render(
        "implementations.md.j2",
        runs=runs,
        rows=rows,
        links=links,
        scenarios=by_id,
        shown=shown,
        shown_expected=shown_expected,
        difference=difference,
        categories=CATEGORIES,
        category=category,
        beyond_api=BEYOND_API,
    )
