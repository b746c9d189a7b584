"""An engine's answer to a fuzz deal held against the reference engine's, with the comparisons
the scenarios use (conformance/suite/comparisons.py): refusal codes at every step; the snapshot
fields some clause of the variant observes and the legal actions, as a set, wherever the
reference's report was kept.

What the reference reports is turned into expectations written as a scenario's ``expect``
would write them, one per field or part of a field, so a difference found here is the
expectation that fails in the scenario written from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from conformance.fuzz.deals import Report
from conformance.run.runner import observations_problem, report_problem
from conformance.suite import difference_text
from conformance.suite.comparisons import COMPARISONS, Mismatch, action_text, distinct, kinds_agree
from conformance.suite.observing import LEGAL
from conformance.suite.reported import BY_PART, Reports, as_judged, covers, judged
from conformance.vocabulary import EngineError, ErrorKind, engine_error, refusal_code
from specreader.jsontypes import Json

# Which field a difference is filed under when several differ at once: causes before their
# consequences (the trick's winner before whose turn it is, the hands before the legal actions).
PRECEDENCE = (
    "phase", "trump", "turned", "bids", "indicator", "trees_taken", "makers", "lone", "dealer", "forehand", "sides",
    "last_trick", "trick", "hands", "stock", "stock_count", "piles", "totals", "tricks", "dead", "to_act", LEGAL,
    "result", "match",
)  # fmt: skip

SNAPSHOT = "snapshot"  # the expect key comparing any field by dotted path, exactly


@dataclass(frozen=True)
class Expectation:
    """``{key: value}`` in a step's ``expect``, checking the snapshot field (or part) at ``path``
    (``legal.<phase>`` for the legal actions)."""

    path: str
    key: str
    value: Any

    @property
    def field(self) -> str:
        return self.path.split(".", 1)[0]

    @property
    def no_value(self) -> bool:
        """Whether it expects a whole field to have no value yet (null): judged on an engine keeping part of it."""
        return self.key == SNAPSHOT and isinstance(self.value, dict) and self.path in self.value and self.value[self.path] is None


def expectations(report: Report, fields: frozenset[str]) -> list[Expectation]:
    """What a scenario would expect to see the reported position exactly, field by field."""
    snapshot, legal = report
    out: list[Expectation] = []
    for name in sorted(fields):
        if name == LEGAL:
            out.append(Expectation(f"{LEGAL}.{snapshot.get('phase')}", LEGAL, {"exactly": sorted(action_text(a) for a in legal)}))
            continue
        value = snapshot.get(name)
        if name in BY_PART and isinstance(value, (dict, list)):
            parts = value.items() if isinstance(value, dict) else enumerate(value)
            for part, part_value in parts:
                written = [p["card"] for p in part_value] if name == "last_trick" and part == "cards" else part_value
                out.append(Expectation(f"{name}.{part}", name, {str(part): written}))
        elif name == "trick" and isinstance(value, list):
            out.append(Expectation(name, name, [p["card"] for p in value]))
        elif name in COMPARISONS and name not in BY_PART:
            out.append(Expectation(name, name, value))
        else:
            out.append(Expectation(name, SNAPSHOT, {name: value}))
    return out


def merged(chosen: list[Expectation]) -> Json:
    """The ``expect`` block holding these expectations."""
    expect: Json = {}
    for e in chosen:
        if isinstance(e.value, dict) and e.key in (SNAPSHOT, *BY_PART, LEGAL):
            expect.setdefault(e.key, {}).update(e.value)
        else:
            expect[e.key] = e.value
    return expect


def rank(e: Expectation) -> tuple[int, str]:
    return (PRECEDENCE.index(e.field) if e.field in PRECEDENCE else len(PRECEDENCE), e.path)


REFUSAL, REPORT, ERROR = "refusal", "report", "error"


@dataclass(frozen=True)
class Divergence:
    """Where an engine first parts from the reference: a refusal code (``refusal``), fields or
    legal actions (``report``), or an answer that is not one (``error``), at observation
    ``position`` (0: after the setup)."""

    kind: str
    position: int
    mismatches: tuple[Mismatch, ...] = ()
    missed: tuple[Expectation, ...] = ()  # report: the expectations the engine did not meet, first filed first
    allowed: tuple[str, ...] | None = None  # refusal: the codes allowed (None: the action is accepted)
    error: EngineError | None = None

    @property
    def field(self) -> str:
        """What the divergence is filed under: ``rejected``, ``error`` or a field's path."""
        if self.kind == REPORT:
            return self.missed[0].path
        return "rejected" if self.kind == REFUSAL else "error"

    def detail(self) -> str:
        if self.error is not None:
            return str(self.error)
        m = self.mismatches[0]
        return difference_text.said(m.what, m.expected, m.observed)


@dataclass
class Expected:
    """The reference's side of a deal: the codes a refusal of each action may carry, and what it
    reports where the kit reads in full."""

    refusals: tuple[tuple[str, ...] | None, ...]
    reports: Mapping[int, Report]
    fields: frozenset[str] = field(default_factory=frozenset)
    declared: Reports = None  # the fields the engine says it reports: judged alone (None: every field)
    known: frozenset[str] = frozenset()  # fields an expectation file says the engine gets wrong: compared apart
    known_seen: set[str] = field(default_factory=set)  # those of them that differed, to count the deal apart


def _failed(position: int, error: EngineError) -> Divergence:
    return Divergence(ERROR, position, (Mismatch(position, 0, "answer", "observations", str(error)),), error=error)


def _error(position: int, kind: ErrorKind, message: str) -> Divergence:
    return _failed(position, EngineError(kind, message))


def report_divergence(
    position: int,
    report: Report,
    fields: frozenset[str],
    snapshot: Json,
    legal: list[Json],
    declared: Reports = None,
    known: frozenset[str] = frozenset(),
    known_seen: set[str] | None = None,
) -> Divergence | None:
    """The expectations of a reported position the engine's report does not meet, if any; of the fields it
    declares it reports (``declared``), where it declares them. A difference in a ``known`` field is no
    divergence: it is noted in ``known_seen``, and hides nothing else."""
    missed: list[tuple[Expectation, list[Mismatch]]] = []
    snapshot = as_judged(snapshot, declared)
    for e in expectations(report, fields):
        if not judged(declared, e.path, no_value=e.no_value):
            continue
        found = COMPARISONS[e.key](e.value, snapshot, legal)
        if found and known and covers(known, e.path):
            if known_seen is not None:
                known_seen.add(e.path)
        elif found:
            missed.append((e, [Mismatch(position, 0, what, want, got) for what, want, got in found]))
    if not missed:
        return None
    missed.sort(key=lambda pair: rank(pair[0]))
    return Divergence(REPORT, position, distinct(m for _, ms in missed for m in ms), tuple(e for e, _ in missed))


def first_divergence(expected: Expected, answer: object) -> Divergence | None:
    """The first place the engine's answer (untrusted: any shape) parts from the reference; None if nowhere."""
    if isinstance(answer, EngineError):  # no observation says where in the deal it failed: at its end, then
        return _failed(len(expected.refusals), answer)
    if not isinstance(answer, dict):
        return _error(0, ErrorKind.MALFORMED, f"expected an answer object, found {type(answer).__name__}")
    observations = answer.get("observations")
    reported_error = engine_error(answer["error"]) if answer.get("error") is not None else None
    if not isinstance(observations, list):
        return (
            _failed(0, reported_error)
            if reported_error
            else _error(0, ErrorKind.MALFORMED, observations_problem(observations))
        )
    wanted = len(expected.refusals) + 1
    if len(observations) > wanted:
        found = f"{len(observations)}"
        return _error(0, ErrorKind.MALFORMED, f"expected {wanted} observations (one after setup, one per action), found {found}")
    for position, observation in enumerate(observations):
        if not isinstance(observation, dict):
            return _error(position, ErrorKind.MALFORMED, f"expected observation {position} to be an object")
        if position:
            try:
                code = refusal_code(observation.get("rejected"))
            except ValueError as err:  # a refusal that names no code is no answer, not an action accepted
                return _error(position, ErrorKind.MALFORMED, f"observation {position}: {err}")
            allowed = expected.refusals[position - 1]
            if (code is not None) if allowed is None else (code not in allowed):
                what = "refusal code" if allowed else "action accepted"
                want: Any = list(allowed) if allowed else "accepted"
                mismatch = Mismatch(position, 0, what, want, code if code is not None else "accepted")
                return Divergence(REFUSAL, position, (mismatch,), allowed=allowed)
        report = expected.reports.get(position)
        if report is None:
            continue
        snapshot, legal = observation.get("snapshot"), observation.get("legal")
        if snapshot == report[0] and legal == report[1] and kinds_agree(report[0], snapshot) and kinds_agree(report[1], legal):
            continue  # the same report exactly (true and false told from numbers): every comparison would pass
        if not isinstance(snapshot, dict) or not isinstance(legal, list):
            return _error(position, ErrorKind.MALFORMED, report_problem(position, snapshot, legal))
        differs = report_divergence(
            position, report, expected.fields, snapshot, legal, expected.declared, expected.known, expected.known_seen
        )
        if differs is not None:
            return differs
    if len(observations) < wanted:  # it stopped part-way: at the action it could not answer
        position = len(observations)
        if reported_error is not None:
            return _failed(position, reported_error)
        return _error(position, ErrorKind.MALFORMED, f"expected {wanted} observations, found {len(observations)}")
    return _failed(len(observations) - 1, reported_error) if reported_error is not None else None
