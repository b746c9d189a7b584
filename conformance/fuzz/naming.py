"""What a divergence is filed under, and the clauses it is named after.

A field that differs is named after the clauses observing it (their ``observes``). Legal actions
that differ are named after the clauses refusing, with the reference's codes, the actions the
engine offers beyond the reference's; failing those, after the clauses holding the player to the
cards the reference allows and those leaving the choice the engine takes away. A refusal that
differs is named after the clauses refusing with the reference's code, or making the action legal.
Where a play, a trick's winner, a deal's score, its next dealer or the round it wins are at stake, the
clauses are those ruling in the situation it came in (their ``when``: the card led, whether the
player is held to some cards, what the trick holds and the card the engine gives it to, how the
deal ended). Before any action, where no clause observes the deal as dealt, the clauses are those
of the phase it is dealt into.
"""

from __future__ import annotations

from conformance.fuzz.compare import REFUSAL, REPORT, Divergence
from conformance.fuzz.deals import Case, Report
from conformance.suite import field_phases
from conformance.suite.observing import LEGAL, SETUP, VariantClauses, clauses_of
from conformance.suite.situations import DEAL_ENDED, TRICK_WINNER, deal_scored_at, duties_at, situation_at, trick_won_at
from conformance.vocabulary import EngineError, ErrorKind
from reference import Engine
from specreader.jsontypes import Json


def name(case: Case, divergence: Divergence, reports: list[Report]) -> tuple[str, tuple[str, ...], str]:
    """What a divergence is filed under, the clauses it belongs to, and the phase it happened in."""
    clauses = clauses_of(case.variant)
    position = divergence.position
    phase = SETUP if position == 0 else str(reports[position - 1][0].get("phase"))
    if divergence.kind == REPORT:
        path = divergence.missed[0].path
        # as dealt, failing clauses of the deal: those of the phase it is dealt into
        then = (_first_phase(reports),) if phase == SETUP else ()
        named = clauses.for_field(path, phase, *then) or _of_phase(clauses, phase, reports)
        if path.startswith(f"{LEGAL}."):  # many clauses say what is legal: those the difference is about
            named = _legal_differing(case, divergence, path.removeprefix(f"{LEGAL}.")) or named
        elif path == TRICK_WINNER:  # many clauses say who wins a trick: those ruling on one holding its cards,
            # given to the card the engine gives it to (an off-suit card winning is a rule of its own)
            given_to = next((m.observed for m in divergence.mismatches if m.what == TRICK_WINNER), None)
            named = clauses.in_situation(named, trick_won_at(_position(case, len(case.actions)), given_to))
        elif path in DEAL_ENDED:  # several clauses say what a deal scores, who deals next, which round it wins:
            # those ruling on one ending as it did
            named = clauses.in_situation(named, deal_scored_at(_position(case, len(case.actions))))
        return field_phases.field_of(path), named, phase
    if divergence.kind == REFUSAL:
        attempt = case.actions[-1] if case.actions else {}
        before = _position(case, len(case.actions) - 1)
        if divergence.allowed:  # the reference refuses it: the clauses that forbid it
            kind = attempt.get("type") if isinstance(attempt.get("type"), str) else None
            named = _narrowed(clauses, clauses.for_refusal(divergence.allowed[0], phase, kind), before, attempt)
        else:  # the reference accepts it: the clauses that make it legal
            named = _making_legal(clauses, before, [attempt], phase) or clauses.for_field(f"{LEGAL}.{phase}", phase)
        # one divergence per code the reference answers: each is a rule of its own
        return f"rejected.{divergence.allowed[0] if divergence.allowed else 'accepted'}", named or clauses.of_phase(phase), phase
    error = divergence.error
    cause = unsupported_reason(error) if error is not None and error.kind is ErrorKind.UNSUPPORTED else (
        f"error.{error.kind}" if error is not None else "error")
    acting = _first_phase(reports) if phase == SETUP else phase  # no action is legal in the setup: the first phase's
    return cause, _of_phase(clauses, phase, reports) or clauses.for_field(f"{LEGAL}.{acting}", acting), phase


def _first_phase(reports: list[Report]) -> str:
    """The phase a deal is dealt into: its first report's."""
    return str(reports[0][0].get("phase"))


def _of_phase(clauses: VariantClauses, phase: str, reports: list[Report]) -> tuple[str, ...]:
    """The clauses tied to a phase; at the setup, failing any (a game none of whose clauses observes the deal as
    dealt), those of the phase it is dealt into, which its first report shows."""
    tied = clauses.of_phase(phase)
    return (tied or clauses.of_phase(_first_phase(reports))) if phase == SETUP else tied


def unsupported_reason(error: EngineError) -> str:
    """What an unsupported answer is filed under: the reason the engine gives."""
    return f"unsupported: {error.message[:120]}"


def _position(case: Case, actions: int) -> Engine:
    """The reference at the case's position after its first ``actions`` actions (refused ones change nothing)."""
    engine = Engine.new(case.variant, case.setup)
    for played in case.actions[:actions]:
        engine.apply(dict(played))
    return engine


def _narrowed(
    clauses: VariantClauses, ids: tuple[str, ...], engine: Engine, action: object, lead_first: bool = True
) -> tuple[str, ...]:
    """The clauses of ``ids`` ruling in the situation ``action`` is taken in, where it is a play (``lead_first``: as
    ``VariantClauses.in_situation`` takes it)."""
    is_play = isinstance(action, dict) and action.get("type") == "play"
    return clauses.in_situation(ids, situation_at(engine) if is_play else None, lead_first)


def _legal_differing(case: Case, divergence: Divergence, phase: str) -> tuple[str, ...]:
    """For legal actions that differ in a phase (that of the actions, not of the one before them): the clauses
    refusing what the engine offers beyond the reference (a play the duty to follow suit forbids names that duty
    alone); failing any, the clauses making legal what the engine takes away; none when neither names one."""
    offered, lacked = set(), set()
    for m in divergence.mismatches:  # the engine's answer is untrusted: only what reads as an action is tried
        if isinstance(m.observed, list) and isinstance(m.expected, list):
            offered |= {text for text in m.observed if isinstance(text, str) and text not in m.expected}
            lacked |= {text for text in m.expected if isinstance(text, str) and text not in m.observed}
    engine = _position(case, len(case.actions))
    clauses = clauses_of(case.variant)
    refused = [(action, code) for action in _actions(offered) if (code := _refusal(engine, action)) is not None]
    if refused:
        return tuple(dict.fromkeys(
            c for action, code in refused for c in _narrowed(clauses, clauses.for_refusal(code, phase), engine, action)
        ))  # fmt: skip
    return _making_legal(clauses, engine, _actions(lacked), phase)


def _making_legal(clauses: VariantClauses, engine: Engine, actions: list[Json], phase: str) -> tuple[str, ...]:
    """The clauses making legal these actions, which the reference allows at the engine's position: where they are
    plays and the player is held to some cards, those holding it to them (a Tree lead's duty, which the other Tree
    meets); and those leaving the player the choice of each action's kind (a play taken away by an overtaking duty
    of the engine's own names the clause that leaves it free)."""
    named: list[str] = []
    for action in actions:
        codes = duties_at(engine) if action["type"] == "play" else frozenset()
        for code in sorted(codes):
            named += _narrowed(clauses, clauses.for_refusal(code, phase), engine, action)
        # every choice left where the card is played, not only that of its card led: the freedom among the cards
        # of a club lead is also that of any lead, not to head the trick
        granting = clauses.granting(str(action["type"]), phase, codes)
        named += _narrowed(clauses, granting, engine, action, lead_first=False) if granting else ()
    return tuple(dict.fromkeys(named))


def _actions(texts: set[str]) -> list[Json]:
    """The actions written as legal-action texts ("1 play 7C"); what reads as none is left out."""
    out: list[Json] = []
    for text in sorted(texts):
        words = text.split()
        seat, kind_and_card = (words[0], words[1:]) if words else ("", [])
        if seat.isascii() and seat.isdigit() and 1 <= len(kind_and_card) <= 2:  # "²" is a digit int() refuses
            kind, *card = kind_and_card
            out.append({"type": kind, "seat": int(seat), **({"card": card[0]} if card else {})})
    return out


def _refusal(engine: Engine, action: Json) -> str | None:
    """The code the reference refuses the action with at its position; None where it accepts it."""
    return getattr(engine.copy().apply(action), "code", None)
