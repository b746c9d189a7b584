"""From a deal where an engine parts from the reference to the shortest case that still shows it.

The deal is replayed with every observation read, to find the first one that differs; the
difference is named (naming.py: the field, the clauses behind it) and the case shrunk while
the engine keeps diverging the same way: the tail after it dropped, the deal started mid-play
from the position just before it (or as late as the engine still diverges), refused attempts
that do not matter dropped, and won cards put out of play when they do not matter either.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from conformance.engines.messages import Request
from conformance.fuzz.compare import ERROR, Divergence, Expected, first_divergence
from conformance.fuzz.deals import Case, Report, reference_reports
from conformance.fuzz.naming import name
from conformance.suite.reported import Reports
from conformance.vocabulary import ErrorKind
from reference.state import Phase
from specreader.jsontypes import Json

MAX_STARTS = 16  # mid-deal starting positions tried, latest first
# Answers after which no other candidate is tried: each would wait as long again, and the stalls in a row would
# have the kit give up on an engine that plays the campaign's own deals well.
STALLS = frozenset({ErrorKind.TIMEOUT, ErrorKind.UNAVAILABLE})

Run = Callable[[Request], object]  # an engine's answer to one request (untrusted)


@dataclass(frozen=True)
class Finding:
    """A divergence named: the case that shows it, ending at the observation that differs."""

    case: Case
    divergence: Divergence
    field: str  # what it is filed under: a field without seats or sides ("hands"), "rejected.<code>", or the error
    clauses: tuple[str, ...]
    phase: str  # the phase of the action that diverged (setup: none yet)
    reports: tuple[Report, ...]  # what the reference reports at every observation of the case
    mid_deal: bool = False

    @property
    def key(self) -> tuple[str, str, tuple[str, ...]]:
        """Divergences with the same key are the same divergence: it is written once. An error is one whatever the
        clauses of the phase it came in (an engine crashing on a card does so at any point of a deal)."""
        return (self.case.variant, self.field, () if self.divergence.kind == ERROR else self.clauses)


class _Stalled(Exception):
    """The engine timed out on a candidate, or the kit has given up on it: shrinking stops there."""


def truncated(case: Case, position: int) -> Case:
    """The case up to the action after which observation ``position`` is made."""
    return replace(case, actions=case.actions[:position], refusals=case.refusals[:position])



def _request(case: Case, rid: str) -> Request:
    actions = [dict(a) for a in case.actions]
    return {"id": rid, "variant": case.variant, "setup": case.setup, "actions": actions, "observe": list(range(len(actions) + 1))}


class Shrinker:
    """Locates and shrinks divergences on one engine."""

    def __init__(
        self,
        run: Run,
        fields: Callable[[str], frozenset[str]],
        declared: Reports = None,
        known: Callable[[str], frozenset[str]] = lambda variant: frozenset(),
    ) -> None:
        self.run = run
        self.fields = fields
        self.declared = declared  # the fields the engine says it reports
        self.known = known  # by variant, the fields an expectation file says it gets wrong

    def examine(self, case: Case, rid: str, known: Mapping[int, Report] | None = None) -> Finding | None:
        """Run a case with every observation read, on both engines; the first divergence, named.
        ``known``: what the reference reports at observations of the case, where already read."""
        if known is not None and all(position in known for position in range(len(case.actions) + 1)):
            reports = [known[position] for position in range(len(case.actions) + 1)]
        else:
            try:
                reports = reference_reports(case)
            except ValueError:  # SetupError among them
                return None  # a candidate the reference cannot set up is no candidate
        variant = case.variant
        expected = Expected(case.refusals, dict(enumerate(reports)), self.fields(variant), self.declared, self.known(variant))
        divergence = first_divergence(expected, self.run(_request(case, rid)))
        if divergence is None:
            return None
        if divergence.error is not None and divergence.error.kind in STALLS:
            raise _Stalled
        case = truncated(case, divergence.position)
        field, clauses, phase = name(case, divergence, reports)
        return Finding(case, divergence, field, clauses, phase, tuple(reports[: divergence.position + 1]))

    def locate(self, case: Case, position: int, rid: str, known: Mapping[int, Report] | None = None) -> Finding | None:
        """The first divergence of a deal seen diverging at ``position`` (None if it does not again, or the
        engine stalls on it)."""
        try:
            return self.examine(truncated(case, position), rid, known)
        except _Stalled:
            return None

    def shrink(self, found: Finding, rid: str) -> Finding:
        """The shortest case found that diverges as ``found`` does (the same key); the shortest so far once
        the engine stalls on a candidate."""
        best = found
        try:
            if found.divergence.kind == ERROR and found.divergence.position == len(found.case.actions):
                best = self._shortest_failing(found, rid)  # failed with no observation: where in the deal, unknown
            best = self._start_later(best, rid)
            best = self._without_attempts(best, rid)
            return self._without_won_cards(best, rid)
        except _Stalled:
            return best

    def _shortest_failing(self, found: Finding, rid: str) -> Finding:
        """The case cut as short as it still fails as the whole one does, by halves (the engine run each time):
        an answer that failed with no observation (a crash) says nothing of where in the deal it failed."""
        best, low, high = found, 0, len(found.case.actions) - 1
        while low <= high:
            middle = (low + high) // 2
            shorter = self._same(truncated(found.case, middle), found, rid, mid_deal=found.mid_deal)
            if shorter is not None:
                best, high = shorter, middle - 1
            else:
                low = middle + 1
        return best

    def _same(self, candidate: Case, target: Finding, rid: str, mid_deal: bool) -> Finding | None:
        found = self.examine(candidate, rid)
        if found is None or found.key != target.key or len(found.case.actions) > len(target.case.actions):
            return None
        return replace(found, mid_deal=mid_deal)

    def _start_later(self, found: Finding, rid: str) -> Finding:
        """Begin mid-deal as late before the divergence as the engine still diverges."""
        case, end = found.case, len(found.case.actions)
        tried = 0
        for position in range(end - 1, 0, -1):
            setup = from_position(case.setup, found.reports[position][0])
            if setup is None:
                continue
            candidate = Case(case.variant, setup, case.actions[position:], case.refusals[position:])
            shorter = self._same(candidate, found, rid, mid_deal=True)
            if shorter is not None:
                return shorter
            tried += 1
            if tried >= MAX_STARTS:
                break
        return found

    def _without_attempts(self, found: Finding, rid: str) -> Finding:
        """Drop refused attempts before the last action: all at once, else one at a time."""
        case = found.case
        attempts = [i for i, refusal in enumerate(case.refusals[:-1]) if refusal is not None]
        if not attempts:
            return found
        for dropped in ([*attempts], *([i] for i in reversed(attempts))):
            keep = [i for i in range(len(case.actions)) if i not in dropped]
            candidate = replace(
                case, actions=tuple(case.actions[i] for i in keep), refusals=tuple(case.refusals[i] for i in keep)
            )
            shorter = self._same(candidate, found, rid, found.mid_deal)
            if shorter is not None:
                return self._without_attempts(shorter, rid) if len(dropped) == 1 else shorter
        return found

    def _without_won_cards(self, found: Finding, rid: str) -> Finding:
        """Mid-deal, put the cards already won out of play, if the divergence does not need them."""
        setup = without_won_cards(found.case.setup)
        if setup is None:
            return found
        candidate = replace(found.case, setup=setup)
        return self._same(candidate, found, rid, found.mid_deal) or found


def without_won_cards(setup: Json) -> Json | None:
    """A mid-deal setup with the cards already won out of play and no trick counted; None where none was won."""
    start = setup.get("start")
    if not isinstance(start, dict) or not start.get("piles"):
        return None
    won = [card for pile in start["piles"].values() for card in pile]
    plain = {k: v for k, v in start.items() if k not in ("piles", "tricks")}
    plain["dead"] = [*start.get("dead", []), *won]
    return {**setup, "start": plain}


def from_position(setup: Json, snapshot: Json) -> Json | None:
    """A setup starting mid-deal at the reported position (docs/scenarios.md, start), keeping the
    dealer history and the match of the deal's own setup; None where the format cannot start."""
    if snapshot.get("phase") != Phase.PLAY:  # the one phase a deal can start in mid-way (docs/scenarios.md, start)
        return None
    stock: list[str] = snapshot["stock"]
    start: dict[str, Any] = {"phase": Phase.PLAY.value, "trump": snapshot["trump"], "to_act": snapshot["to_act"]}
    indicator = snapshot.get("indicator")
    if indicator is not None and stock[-1:] == [indicator]:
        start["indicator"] = indicator  # while it lies under the stock (as it does while the stock lasts); once drawn, null
    if snapshot["trick"]:
        start["trick"] = [{"seat": p["seat"], "card": p["card"]} for p in snapshot["trick"]]
    piles = {str(side): cards for side, cards in enumerate(snapshot["piles"]) if cards}
    if piles:
        start["piles"] = piles
        start["tricks"] = snapshot["tricks"]
    for key in ("makers", "lone"):
        if snapshot.get(key) is not None:
            start[key] = snapshot[key]
    if snapshot.get("dead"):
        start["dead"] = snapshot["dead"]
    if snapshot.get("turned"):  # what was turned before it, which an engine may report as it reports the deal
        start["turned"] = snapshot["turned"]
    out: Json = {"dealer": snapshot["dealer"], "hands": snapshot["hands"], "stock": stock, "start": start}
    for key in ("dealer_history", "match"):
        if key in setup:
            out[key] = setup[key]
    return out
