"""Where an engine's report shows a clause at work: the clauses' ``observes`` entries, read.

A clause of ``spec/<game>/clauses.yaml`` may list what in an engine's report it decides:

- ``last_trick.winner``: a snapshot field, by dotted path, whenever it changes;
- ``hands@bidding``: the field as an action taken in that phase leaves it (``@setup``: as the
  deal is set up and dealt, before any action);
- ``legal.play``: the legal actions in that phase.

Fields and phases are those of ``schemas/snapshot.schema.json``. ``trickspec fuzz`` compares
the fields some clause of the variant observes, and names a difference after the clauses that
observe where it lies; a refusal is named after the clauses whose ``refuses_with`` list its code.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from conformance.suite import choices, schemas
from conformance.suite.situations import Situation
from reference.errors import AS_DEALT, SetupError
from reference.state import Phase
from specreader.jsontypes import Json, overlap
from specreader.spec import kit_spec

LEGAL = "legal"  # not a snapshot field: the legal actions, reported beside the snapshot
SETUP = AS_DEALT  # before any action: the deal as set up and dealt


@dataclass(frozen=True)
class Observed:
    """One ``observes`` entry: a path (``last_trick.winner``, ``legal.play``) and, for a field,
    the phase of the action that leaves it so (``None``: whatever the action)."""

    path: str
    phase: str | None = None

    @property
    def field(self) -> str:
        return self.path.split(".", 1)[0]


def parse(entry: str) -> Observed:
    path, _, phase = entry.partition("@")
    return Observed(path, phase or None)


@cache
def snapshot_fields() -> tuple[str, ...]:
    """The fields of a snapshot, in the schema's order."""
    schema = schemas.registry().resolver().lookup(schemas.BASE + "snapshot.schema.json").contents
    return tuple(schema["properties"])


@cache
def phases() -> tuple[str, ...]:
    schema = schemas.registry().resolver().lookup(schemas.BASE + "snapshot.schema.json").contents
    return tuple(schema["properties"]["phase"]["enum"])


def problem(entry: str) -> str | None:
    """What is wrong with an ``observes`` entry, or None (its shape is the schema's to check)."""
    observed = parse(entry)
    if observed.field == LEGAL:
        phase = observed.path.removeprefix(LEGAL).removeprefix(".")
        if observed.phase is not None:
            return f"expected legal.<phase> without @, found {entry!r}"
        if phase and phase not in phases():
            return f"expected legal.<phase> with a phase among {', '.join(phases())}, found {entry!r}"
        return None
    if observed.field not in snapshot_fields():
        return f"expected a snapshot field (schemas/snapshot.schema.json) or legal.<phase>, found {entry!r}"
    if observed.phase is not None and observed.phase not in (SETUP, *phases()):
        return f"expected @setup or @<phase> with a phase among {', '.join(phases())}, found {entry!r}"
    return None



@dataclass(frozen=True)
class Blamed:
    """The clauses a refused setup is put on, and, where no clause states what it breaks, the words saying so."""

    clauses: tuple[str, ...]
    unstated: str = ""


@dataclass(frozen=True)
class _Clause:
    id: str
    observes: tuple[Observed, ...]
    refuses_with: frozenset[str]
    parameter: str = ""  # the part of the variant the clause states (deck.ranks, players...)
    choices: frozenset[str] = frozenset()  # what it leaves to a player (action.play, setup.match.target...)
    led: frozenset[str] = frozenset()  # the cards led it rules on plays to (none: any, or none led)
    bound: bool | None = None  # whether it rules on plays of a player held to some cards, or of one free (None: both)
    trick: frozenset[str] = frozenset()  # the highest kinds of card in a trick it rules on the winner of (none: any)
    result: frozenset[str] = frozenset()  # how the deals ended that it rules on the victory points of (none: any)
    given_to: frozenset[str] = frozenset()  # the kinds of card given a trick that it rules on who wins (none: any)
    alone: bool | None = None  # whether it rules on deals a player played alone, or on others (None: both)
    decider: bool | None = None  # whether it rules on a single deal deciding the match, or on others (None: both)

    def rules_in(self, situation: Situation) -> bool:
        """Whether the clause rules in the situation, as its ``when`` says: what the situation does not tell (whether
        a player is held, for a trick won; the trick's cards, for a play; any card led, for a deal's end; the card a
        trick is given to, where no engine's answer names one; a lone player or a deciding deal, where the game's
        report tells none) rules nothing out."""
        led_ok = not self.led or situation.result is not None or situation.led in self.led
        bound_ok = self.bound is None or situation.bound is None or self.bound == situation.bound
        trick_ok = not self.trick or situation.trick is None or situation.trick in self.trick
        result_ok = not self.result or situation.result is None or situation.result in self.result
        given_ok = not self.given_to or situation.given_to is None or situation.given_to in self.given_to
        alone_ok = self.alone is None or situation.alone is None or self.alone == situation.alone
        decider_ok = self.decider is None or situation.decider is None or self.decider == situation.decider
        return led_ok and bound_ok and trick_ok and result_ok and given_ok and alone_ok and decider_ok

    def speaks_of(self, phase: str) -> bool:
        """Whether an entry ties the clause to a phase (``x@phase`` or ``legal.phase``)."""
        return any(o.phase == phase or o.path == f"{LEGAL}.{phase}" for o in self.observes)

    def rules_on_actions_of(self, phase: str) -> bool:
        """Whether the clause says what the actions of a phase may be: it observes their legal list, or it refuses
        actions and is tied to the phase."""
        return any(o.path == f"{LEGAL}.{phase}" for o in self.observes) or (bool(self.refuses_with) and self.speaks_of(phase))


class VariantClauses:
    """The clauses that apply to one variant, as fuzz names differences after them."""

    def __init__(self, clauses: Iterable[_Clause]) -> None:
        self.clauses = tuple(clauses)
        # The fields some clause observes: those a difference can be named after.
        self.fields = frozenset(o.field for c in self.clauses for o in c.observes)

    def for_field(self, path: str, phase: str, *then: str) -> tuple[str, ...]:
        """Clauses observing ``path`` (a field, or ``legal.<phase>``), as an action of phase
        ``phase`` left it (``setup`` before any action); failing those, as one of each phase of
        ``then`` in turn; failing those, in any phase; failing those, any part of its field."""
        for at in (phase, *then):
            exact = tuple(
                c.id for c in self.clauses if any(overlap(path, o.path) and o.phase in (None, at) for o in c.observes)
            )
            if exact:
                return exact
        anytime = tuple(c.id for c in self.clauses if any(overlap(path, o.path) for o in c.observes))
        if anytime:
            return anytime
        field = path.split(".", 1)[0]
        return tuple(c.id for c in self.clauses if any(o.field == field for o in c.observes))

    def for_refusal(self, code: str, phase: str, kind: str | None = None) -> tuple[str, ...]:
        """Clauses that forbid with ``code``, those of the phase first; failing any, the clauses of the phase (a game
        may state a duty without naming the refusal, as Briscola does). An action of ``kind`` taken outside the
        phases of the clauses leaving the choice of it is another matter: the clauses forbidding with ``code`` in
        those phases, and failing any, those leaving the choice, which say when it may be taken. One code refuses
        going alone too late and a decline with no Tree showing; only the first is the timing of going alone's."""
        rejecting = [c for c in self.clauses if code in c.refuses_with]
        leaving = [c for c in self.clauses if f"{choices.ACTION}.{kind}" in c.choices] if kind is not None else []
        homes = {p for c in leaving for p in (SETUP, *phases()) if c.speaks_of(p)}
        if not homes or phase in homes:
            of_phase = [c.id for c in rejecting if c.speaks_of(phase)]
            return tuple(of_phase or [c.id for c in rejecting]) or self.of_phase(phase)
        of_home = [c.id for c in rejecting if any(c.speaks_of(p) for p in homes)]
        return tuple(of_home or [c.id for c in leaving])

    def for_setup(self, refused: SetupError, variant_id: str) -> Blamed:
        """The clauses a setup the rules do not allow breaks: those stating the part of the variant it names
        (``parameter``, by ``stating``: those observing the field it gives wrongly, where some do, as an action of the
        phase it names leaves it first; of them, those leaving exactly the choices it names (``choices_left``), where
        some do; and of those, those refusing the setup's code first); failing those, the
        clauses leaving the choice the setup made (``chosen``, as their ``choices`` name it: ``setup.match.target``);
        failing those, the clauses observing the field a position begun mid-play gives wrongly (``observed``,
        ``_given_wrongly``). Failing all, the clauses of the deal, and the words say that no clause states what the
        setup breaks."""
        code = refused.code
        stating = self.stating(refused.parameter) if refused.parameter is not None else []
        if stating and refused.observed is not None:
            stating = _observing(stating, parse(refused.observed)) or stating
        if stating and refused.choices_left is not None:
            stating = _leaving(stating, refused.choices_left) or stating
        if stating:
            return Blamed(tuple(c.id for c in ([c for c in stating if code in c.refuses_with] or stating)))
        if refused.chosen is not None:
            choice = ".".join((choices.SETUP, *map(str, refused.chosen)))
            if leaving := tuple(c.id for c in self.clauses if choice in c.choices):
                return Blamed(leaving)
        observed = parse(refused.observed) if refused.observed is not None else None
        watching = self._given_wrongly(observed) if observed is not None else ()
        if watching:
            return Blamed(watching)
        if refused.parameter is not None:
            unstated = f"states `{refused.parameter}`, the part of the variant it breaks"
        elif refused.observed is not None:
            unstated = f"observes `{refused.observed}`, the field it gives wrongly"
        else:
            unstated = "states the setup's form"
        return Blamed(self.for_refusal(code, SETUP), f"no clause of {variant_id} {unstated}: the deal's clauses are named")

    def _given_wrongly(self, observed: Observed) -> tuple[str, ...]:
        """The clauses observing a field a position begun mid-play gives wrongly. Given as a phase before play left
        it (who leads the first trick), the position took none of that phase's actions: it breaks where the phase
        ends, so the clauses ruling on its actions (who bids, in what order) are left out where others remain, and of
        those left, the clauses saying how the phase ends (observing ``phase@<phase>``) are named where some are: the
        trump card turned as the deal ends, not the hands dealt, where both refuse setups."""
        phase = observed.phase or SETUP
        watching = self.for_field(observed.path, phase)
        if phase == Phase.PLAY:
            return watching
        ending = tuple(c.id for c in self.clauses if c.id in watching and not c.rules_on_actions_of(phase)) or watching
        closing = tuple(c.id for c in self.clauses if c.id in ending and Observed("phase", phase) in c.observes)
        return closing or ending

    def in_situation(self, ids: tuple[str, ...], situation: Situation | None, lead_first: bool = True) -> tuple[str, ...]:
        """Of the clauses ``ids``, those ruling in the situation a card was played, a trick won or a deal scored in
        (their ``when``); with ``lead_first``, those about its card led where some are: a Tree lead's duty, not the
        duty to follow suit it is a case of. All of them where none rules there, or there is no such situation."""
        if situation is None:
            return ids
        by_id = {c.id: c for c in self.clauses}
        ruling = [by_id[i] for i in ids if i in by_id and by_id[i].rules_in(situation)]
        about_lead = [c for c in ruling if c.led] if lead_first else []
        return tuple(c.id for c in about_lead or ruling) or ids

    def granting(self, kind: str, phase: str, held_by: frozenset[str] = frozenset()) -> tuple[str, ...]:
        """Clauses that leave a player the choice of an action of ``kind`` (``choices: [action.<kind>]``) in a
        phase: those an engine offering too few such actions there breaks. Where duties refusing with ``held_by``
        hold the player, not those that refuse with other codes only: their choice is left under another duty. On an
        ordinary club led, a player with no club, Tree nor trump may play any card; a player holding clubs never has
        that choice."""
        return tuple(
            c.id for c in self.clauses
            if f"action.{kind}" in c.choices and c.speaks_of(phase)
            and (not held_by or not c.refuses_with or bool(c.refuses_with & held_by))
        )  # fmt: skip

    def stating(self, parameter: str) -> list[_Clause]:
        """The clauses whose ``parameter`` states the part of the variant at dotted path ``parameter``: those
        stating it exactly; failing those, any part of it (``deck.ranks`` for ``deck``). Not the whole it is part
        of: a clause stating a whole rule (``components.match``) need not state the part (a target)."""
        exact = [c for c in self.clauses if c.parameter == parameter]
        return exact or [c for c in self.clauses if c.parameter.startswith(parameter + ".")]

    def of_phase(self, phase: str) -> tuple[str, ...]:
        """Clauses tied to a phase: those an action of that phase is governed by."""
        return tuple(c.id for c in self.clauses if c.speaks_of(phase))


def _observing(clauses: list[_Clause], observed: Observed) -> list[_Clause]:
    """Of the clauses stating a part of the variant, those observing the field ``observed`` gives: where a setup
    gives that field wrongly, the others state what else follows from the part (Albastini's five-player indicator:
    the tricks of the deal, its points), which the setup does not break. Of them, those observing it as an action of
    its phase leaves it, where some do: Altbaumer's cards out of play as trumps are made, not as forehand discards."""
    watching = [c for c in clauses if any(overlap(observed.path, o.path) for o in c.observes)]
    at_phase = [
        c for c in watching
        if any(overlap(observed.path, o.path) and o.phase in (None, observed.phase) for o in c.observes)
    ] if observed.phase is not None else watching
    return at_phase or watching


def _leaving(clauses: list[_Clause], kinds: frozenset[str]) -> list[_Clause]:
    """Of the clauses stating a part of the variant, those leaving a player the choice of exactly the actions of
    ``kinds`` (none: those leaving no action to a player's choice): Altbaumer's card taken on accepting the turned
    suit is put on accepting, not on refusing, nor on the stock all of one suit that binds forehand."""
    wanted = {f"{choices.ACTION}.{kind}" for kind in kinds}
    return [c for c in clauses if {e for e in c.choices if e.startswith(f"{choices.ACTION}.")} == wanted]


def _applies(clause: Json, variant_id: str, game: str) -> bool:
    listed = clause.get("variants")
    return (
        str(clause.get("id", "")).startswith(game + ".")
        and not clause.get("informative")
        and (not listed or variant_id in listed)
    )


@cache
def clauses_of(variant_id: str) -> VariantClauses:
    """The kit's clauses for a variant, read once per process."""
    spec = kit_spec()
    game = str(spec.resolved(variant_id).get("game", ""))
    return VariantClauses(
        _Clause(
            str(clause["id"]),
            tuple(parse(e) for e in clause.get("observes", [])),
            frozenset(clause.get("refuses_with", [])),
            str(clause.get("parameter", "")),
            frozenset(clause.get("choices", [])),
            frozenset(when.get("led", [])),
            when.get("bound"),
            frozenset(when.get("trick", [])),
            frozenset(when.get("result", [])),
            frozenset(when.get("given_to", [])),
            when.get("alone"),
            when.get("decider"),
        )
        for _, _, clause in spec.clauses()
        if _applies(clause, variant_id, game)
        for when in [clause.get("when") or {}]  # the situations it rules in: none said, any
    )
