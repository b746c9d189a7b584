"""The fields the games of a trace give, held to the fields their headers declare: what the terminal names as
reported, as declared and given by no game, and as given and judged nowhere.

A field is named as finely as the declarations name it: a header declaring ``last_trick.winner`` has the last
trick judged by its winner alone, so a game giving ``last_trick: {"winner": 0, "points": 4}`` gives
``last_trick.points`` judged nowhere, and declares a field no game gives if none gives the winner.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from conformance.suite.observing import LEGAL
from conformance.suite.reported import declared_given, given_paths, in_part, unjudged
from conformance.traces.judging import DealVerdict
from specreader.jsontypes import Json


@dataclass
class FieldsGiven:
    """What some games gave: each field (top level, and ``legal``) with how many games gave it; the declared fields
    some game gave, whole or in part; and the paths given that no declaration of their game's header judges."""

    reported: Counter[str] = field(default_factory=Counter)
    declared: set[str] = field(default_factory=set)
    unjudged: set[str] = field(default_factory=set)

    def add(self, verdict: DealVerdict) -> None:
        """A game's: in its observations, and in the next deal's setup where one follows, which is judged whatever
        the header declares (a setup always says who deals)."""
        then: Json = (verdict.then or {}).get("snapshot") or {}
        carried = set(then)
        given: set[str] = set()
        for observation in verdict.game.observations:
            if observation:
                given.update(observation.get("snapshot") or ())
                if observation.get("legal") is not None:
                    given.add(LEGAL)
        self.reported.update(given | carried)
        reports = verdict.game.reports
        if reports is None:
            return
        # A field no declaration names a part of is judged whole or not at all: told by sets, as nearly every field
        # is such a one. Of the others, the paths given are gathered.
        parted = in_part(reports).keys()
        whole = given - parted
        self.unjudged |= whole - reports
        self.declared |= reports & (whole | carried)
        if not parted & (given | carried):
            return
        snapshots = [snapshot for o in verdict.game.observations if o and (snapshot := o.get("snapshot"))]
        paths = given_paths(snapshots, parted & given)
        self.unjudged |= unjudged(reports, paths)
        self.declared |= declared_given(reports, [*paths, *given_paths([then], parted)])

    def update(self, other: FieldsGiven) -> None:
        self.reported.update(other.reported)
        self.declared |= other.declared
        self.unjudged |= other.unjudged
