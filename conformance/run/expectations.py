"""Per-engine expectation files: scenarios an engine is known to skip or to fail, with reasons.

A file is pinned to the spec version it was written against. ``reported`` turns a scenario's
outcome on the engine into the one the run reports: a known failure of the same kind, with the
differences pinned (format 2) or any (format 1), is ``xfail``; a pass where a failure was expected
is ``xpass`` (it fails the run, so the file gets updated); a failure of another kind, or with other
differences than those pinned (a new failure inside a known one), stays a failure, with a note saying
what changed. ``known`` lists, per variant, the fields fuzz and check-trace leave out of every
comparison and count apart.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from conformance.run import kit_faults, runlog
from conformance.run.runlog import ScenarioLine
from conformance.suite import schemas
from conformance.suite.reported import compared_as, too_fine
from conformance.vocabulary import Outcome
from specreader import yamlio
from specreader.jsontypes import Json
from specreader.problems import DataError, Problem
from specreader.spec import variant_ids

FORMAT = 2  # the expectation file format written now; schemas/expectations.schema.json lists the formats read

Difference = tuple[str, str]  # what was checked, and what the engine reported as JSON text (comparable, hashable)


def difference(what: object, observed: object) -> Difference:
    return str(what), json.dumps(observed, sort_keys=True, default=str)


@dataclass(frozen=True)
class Entry:
    id: str
    outcome: Outcome  # one of EXPECTABLE: skipped, or the way it is known to fail
    reason: str
    link: str | None = None
    differences: frozenset[Difference] | None = None  # the failure pinned; None: any failure of the outcome
    category: str | None = None  # rule-bug, rule-played-differently or beyond-api: for a findings report

    def to_json(self) -> Json:
        out: Json = {"id": self.id, "outcome": str(self.outcome), "reason": self.reason}
        if self.link:
            out["link"] = self.link
        if self.category:
            out["category"] = self.category
        if self.differences is not None:
            out["differences"] = [{"what": what, "observed": json.loads(seen)} for what, seen in sorted(self.differences)]
        return out

    @classmethod
    def from_json(cls, data: Json) -> Entry:
        pinned = data.get("differences")
        differences = None if pinned is None else frozenset(difference(d["what"], d["observed"]) for d in pinned)
        return cls(data["id"], Outcome(data["outcome"]), data["reason"], data.get("link"), differences, data.get("category"))


@dataclass(frozen=True)
class Known:
    """A field an engine is known to report wrongly or not at all in a variant (for fuzz and check-trace)."""

    variant: str
    field: str
    reason: str

    def to_json(self) -> Json:
        return {"variant": self.variant, "field": self.field, "reason": self.reason}


@dataclass
class Expectations:
    entries: dict[str, Entry] = field(default_factory=dict)
    engine: str = ""
    spec_version: str = ""
    known: list[Known] = field(default_factory=list)

    def get(self, scenario_id: str) -> Entry | None:
        return self.entries.get(scenario_id)

    def known_fields(self, variant: str) -> frozenset[str]:
        return frozenset(k.field for k in self.known if k.variant == variant)

    def reported(
        self, scenario_id: str, outcome: Outcome, mismatches: Iterable[Json] = ()
    ) -> tuple[Outcome, str | None]:
        """The outcome to report for a scenario that ended so, with these differences (the run log's mismatches),
        and a note when it differs from what was expected."""
        entry = self.entries.get(scenario_id)
        if entry is None or entry.outcome is Outcome.SKIPPED:
            return outcome, None
        if outcome == entry.outcome:
            if entry.differences is None:
                return Outcome.XFAIL, None
            now = frozenset(difference(m.get("what"), m.get("observed")) for m in mismatches)
            if now == entry.differences:
                return Outcome.XFAIL, None
            return outcome, _changed(entry.differences, now)
        if outcome is Outcome.PASS:
            return Outcome.XPASS, f"expected {entry.outcome} ({entry.reason}) but it passed"
        if outcome is Outcome.UNSUPPORTED:
            return outcome, f"expected {entry.outcome}, but the engine does not declare the variant"
        return outcome, f"expected {entry.outcome}, the failure is now {outcome}"


def _changed(pinned: frozenset[Difference], now: frozenset[Difference]) -> str:
    """What a known failure became: the differences it has now and had not, and those it no longer has."""
    def said(found: frozenset[Difference]) -> str:
        return "; ".join(f"{what} = {seen}" for what, seen in sorted(found)[:5]) + (" ..." if len(found) > 5 else "")

    parts = [f"now also {said(now - pinned)}" if now - pinned else "", f"no longer {said(pinned - now)}" if pinned - now else ""]
    return "a new failure inside a known one: " + ", ".join(p for p in parts if p)


def load(path: Path) -> Expectations:
    """Read an expectation file strictly; bad data is a located DataError. A file of format 1 (no ``format``)
    is read as it means today: each entry pins its outcome alone."""
    doc = _read(path)
    entries = {data["id"]: Entry.from_json(data) for data in doc.data["expectations"]}
    known = [Known(k["variant"], k["field"], k["reason"]) for k in doc.data.get("known", [])]
    return Expectations(entries, doc.data["engine"], doc.data["spec_version"], known)


def _read(path: Path) -> yamlio.Document:
    """The file, checked against its schema, with each scenario's entry once; else a located DataError."""
    doc = yamlio.load(path)
    problems = schemas.check(doc, "expectations")
    if problems:
        raise DataError(problems)
    first_at: dict[str, int] = {}
    for i, data in enumerate(doc.data["expectations"]):
        sid = data["id"]
        if sid in first_at:  # two entries for one scenario: which of them holds would be a guess
            line = doc.where(("expectations", first_at[sid]))[0]
            message = f"duplicate id {sid!r}: expected one entry per scenario (first at line {line})"
            problems.append(doc.problem(("expectations", i, "id"), message))
        first_at.setdefault(sid, i)
    variants = set(variant_ids())
    for i, entry in enumerate(doc.data.get("known", [])):  # a name misspelt would leave the field compared
        if entry["variant"] not in variants:
            problems.append(doc.problem(("known", i, "variant"), f"expected a variant id, found {entry['variant']!r}"))
        if compared_as(entry["field"]) is None:
            problems.append(doc.problem(("known", i, "field"), f"expected a snapshot field (or legal), found {entry['field']!r}"))
        elif finer := too_fine([entry["field"]]):
            problems.append(doc.problem(("known", i, "field"), f"expected a field as the kit compares it, {finer}"))
    if problems:
        raise DataError(problems)
    return doc


def check(path: Path, scenario_ids: set[str] | None, spec_version: str) -> list[Problem]:
    """What ``validate`` finds in an expectation file: what ``load`` refuses, then each entry naming none of
    ``scenario_ids``, those of the scenarios a run takes (None when they do not load: then that is said once).
    ``verify --expect`` only notes such entries, as a file written for another spec version may hold them."""
    try:
        doc = _read(path)
    except DataError as err:
        return list(err.problems)
    if scenario_ids is None:
        return [doc.problem(("expectations",), "cannot be checked: the scenarios a run takes do not load")]
    written = doc.data["spec_version"]
    since = "" if written == spec_version else f" (the file was written for spec {written!r}, this is {spec_version!r})"
    return [
        doc.problem(("expectations", i, "id"), f"expected the id of a scenario a run takes; found {data['id']!r}, which"
                    f" no scenario has{since}")
        for i, data in enumerate(doc.data["expectations"])
        if data["id"] not in scenario_ids
    ]


class _Dumper(yaml.SafeDumper):
    """PyYAML writes YAML 1.1: it leaves ``1e3`` unquoted, which the strict (1.2) loader reads as a number."""

    def represent_str(self, data: str) -> yaml.ScalarNode:
        style = None if yamlio.reads_as_string(data) else "'"
        return self.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(str, _Dumper.represent_str)


def dump(expectations: Expectations) -> str:
    """An expectation file as YAML text the strict loader reads back unchanged."""
    data: Json = {
        "format": FORMAT,
        "engine": expectations.engine,
        "spec_version": expectations.spec_version,
        "expectations": [e.to_json() for e in sorted(expectations.entries.values(), key=lambda e: e.id)],
    }
    if expectations.known:
        data["known"] = [k.to_json() for k in expectations.known]
    return str(yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100))


def from_run(
    lines: Iterable[ScenarioLine], engine: str, reason: str = "failing when the file was saved", known: list[Known] | None = None
) -> Expectations:
    """Expectations that make a run's failures expected (``--save-expectations``), each failure pinned to its
    differences; entries the run was given and that still hold (skips, known failures) are kept with their
    reasons and links, and the file's known fields with them. A scenario the kit failed to judge says nothing of the
    engine: what was expected of it stands."""
    entries = {}
    for line in lines:
        outcome = Outcome(line["outcome"])
        if kit_faults.is_fault(line["error"]):
            if line["expected"]:
                entries[line["id"]] = Entry.from_json(line["expected"])
        elif outcome in (Outcome.FAIL, Outcome.ERROR, Outcome.TIMEOUT):
            pinned = frozenset(difference(m.get("what"), m.get("observed")) for m in line.get("mismatches") or [])
            entries[line["id"]] = Entry(line["id"], outcome, reason, differences=pinned)
        elif outcome in (Outcome.XFAIL, Outcome.SKIPPED) and line["expected"]:
            entries[line["id"]] = Entry.from_json(line["expected"])
    return Expectations(entries, engine, runlog.spec_version(), list(known or []))
