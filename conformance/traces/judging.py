"""One game of a trace replayed through the reference engine from the engine's own deal, and
everything the engine reported held against what the reference reports.

Only what the trace holds is compared: the snapshot fields each observation gives (a field given
in part, such as one seat's hand or the last trick's winner, in part), the legal actions where
given, and whether each action was accepted (an observation without ``rejected`` says it was).
The comparisons are the scenarios' (conformance/suite/comparisons.py), so a difference found
here is an expectation that fails in the scenario written from it. At the first observation that
differs the game fails, with every difference of that observation and the clauses behind the
first; what follows it is played from another position and is not compared.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from conformance.fuzz.compare import (
    REFUSAL,
    REPORT,
    Divergence,
    Expectation,
    expectations,
    rank,
)
from conformance.fuzz.deals import Case, reference_reports
from conformance.fuzz.naming import name
from conformance.fuzz.shrink import Finding
from conformance.run import kit_faults
from conformance.suite.comparisons import (
    COMPARISONS,
    Mismatch,
    action_text,
    distinct,
    flag_fields,
    flags_agreed,
    flags_in,
    kinds_agree,
)
from conformance.suite.field_phases import field_keys
from conformance.suite.observing import LEGAL, clauses_of
from conformance.suite.reported import BY_PART, Reports, covers, judged
from conformance.suite.scenarios import as_written
from conformance.text import untrusted
from conformance.traces.reading import Game
from conformance.vocabulary import Outcome, refusal_code
from reference import Engine, SetupError
from specreader.jsontypes import Json, part_of
from specreader.spec import kit_spec

Key = tuple[str, str, tuple[str, ...]]  # variant, field, clauses: one divergence, as fuzz files it


HANDS = "hands"  # compared as sets of cards, seat by seat, as the scenarios' comparisons do


@dataclass(frozen=True)
class GameResult:
    """A game's verdict, as plain data (sent back from a worker process)."""

    index: int
    name: str
    file: str
    number: int
    variant: str
    outcome: Outcome
    seconds: float
    field: str | None = None
    clauses: tuple[str, ...] = ()
    mismatches: tuple[Json, ...] = ()
    detail: str = ""
    key: Key | None = None
    unfinished: bool = False  # it passed, and stops before its deal is over (a trace cut short, an engine that quit)
    deal: int = 0  # its place in the match its line holds, from 1; 0 for a line of one game
    unjudged: str = ""  # what of it was not judged and why: the match, where a deal before it stopped short (_Unknown)
    where: str = ""  # where judging it raised, the traceback (run/kit_faults.py): its outcome is then an error of the kit's
    doing: str = ""  # and what the kit was doing there: judging the game, or reading or judging its line


class _Flags:
    """True and false told from numbers (Python's True == 1) where a whole report equals the reference's.

    Looking at every value of every report costs about as much as the rest of the judging, so at first only the
    reference's flags are looked at (``flag_fields`` says where they may stand): where the engine reported one,
    it must have reported a flag too, and each is counted. The engine's flags are then at least as many; its line
    holds no more than the words true and false in it (``Game.flags_at_most``). So when the game passes and the
    two counts are equal, the engine has no flag of its own where the reference has a number; else the game is
    judged again looking at every value (``every``)."""

    def __init__(self, every: bool) -> None:
        self.every = every
        self.found = 0  # the flags the engine reported: the reference's, where reports equal it; all, elsewhere

    def agree(self, reference: Json, snapshot: Json) -> bool:
        """Of a report equal to the reference's in Python."""
        if self.every:
            return kinds_agree(reference, snapshot)
        for key in flag_fields():
            if key in snapshot and (mine := reference.get(key)) is not None and flags_in(mine):
                reported = flags_agreed(mine, snapshot[key])
                if reported is None:
                    return False
                self.found += reported
        return True


def judge(game: Game, known: frozenset[str] = frozenset(), *, every_value: bool = False) -> tuple[GameResult, Finding | None]:
    """The game's verdict, and the divergence named where it fails (None where it passes or where the
    deal itself is one the rules do not allow). ``known``: fields an expectation file says the engine gets
    wrong in this game's variant: a difference there is counted apart (xfail) and hides nothing else.
    ``every_value``: look at every value for a true or false that stands for a number (``_Flags``)."""
    verdict = judge_deal(game, known, every_value=every_value)
    return verdict.result, verdict.finding


@dataclass(frozen=True)
class DealVerdict:
    """A deal's verdict and divergence; the game a scenario of it is written from; what the next deal's setup
    reported of its end, where one follows (``then``); and the reference at its end, where it got there."""

    result: GameResult
    finding: Finding | None
    game: Game
    then: Json | None = None
    ended: Engine | None = None
    carried_wrong: bool = False  # the divergence is in what the next deal's setup reported
    flags: int = 0  # the flags the engine reported where its reports equal the reference's (_Flags.found)


def judge_match(games: tuple[Game, ...], known: frozenset[str], *, every_value: bool = False) -> list[DealVerdict]:
    """The deals of a match (a game line's game is a match of one deal), in order. A deal after the first is
    judged from the match as the reference leaves it at the end of the deal before: the history of the dealers the
    trace shows, and the match's counts its setup leaves out. What the setup gives (its dealer, the match's counts,
    that the match goes on) is the engine's report of where the deal before left the match, judged with that deal
    once it is over. After a deal whose end the reference does not know (it failed, or its trace stops before the
    deal is over) the reference cannot say where it left the match: the next deal goes on from the dealers the trace
    shows (after a deal whose setup the reference refused, those its setup shows where the reference reads them, else
    the history its own setup gives), the match's counts its setup gives, and the match's target as an earlier setup
    gave it, where this one leaves it out. While a count is given by no setup since, the match is not judged, and while
    the dealers are not known, who deals next (where they decide it); the deal's ``unjudged`` says so (``_Unknown``,
    ``_DealersUnknown``). A deal whose judging raised is an error of the kit's (``_not_judged``),
    and so is each deal after it, whose match is then not known: judged from its setup alone, it could fail for the
    kit's fault."""
    out: list[DealVerdict] = []
    carried: Json | None = None  # the reference's next setup at the end of the deal before
    stopped: DealVerdict | None = None  # the deal before, where the reference does not know its end
    unknown: _Unknown | None = None  # what the kit does not know of the match the deal goes on from
    lost: _DealersUnknown | None = None  # where the kit does not know the dealers of the match
    target: object = None  # the match's target as the reference last read it (None: none)
    faulted = 0  # the deal whose judging raised
    for number, game in enumerate(games):
        if faulted:
            result = GameResult(game.index, game.name, game.file, game.number, game.variant, Outcome.ERROR, 0.0,
                                detail=_following_a_fault(faulted), deal=game.deal)  # fmt: skip
            out.append(DealVerdict(result, None, game))
            continue
        started = time.perf_counter()
        try:
            given = game.setup
            own_history = lost is not None and HISTORY in given  # the engine's word, where the kit knows no dealers
            lost = None if own_history else lost
            if carried is not None:
                target = carried["match"].get(TARGET)
                game = replace(game, setup=_carried_into(carried, given, own_history=own_history))
                unknown = unknown.given(given) if unknown is not None else None
            elif stopped is not None:
                read = _match_read(stopped.game)  # None: its setup refused, it says nothing of the match
                refused = read is None
                target = read.get(TARGET) if read is not None else target
                dealers = _dealers_shown(stopped.game, refused=refused)
                setup = _after_a_stop(dealers, _agreed(given, target), game.variant, refused=refused, own_history=own_history)
                game = replace(game, setup=setup)
                unknown = _Unknown.after(stopped, frozenset(read or ()), unknown, game)
                # lost where the refused setup shows none: where this setup writes none the reference reads, it is
                # refused itself, and the deals after it say so of it
                if refused and dealers is None and HISTORY not in setup and _dealers_decide(game.variant):
                    lost = lost or _DealersUnknown(stopped.game.deal, written="dealer" in stopped.game.setup)
            following = games[number + 1] if number + 1 < len(games) else None
            then_of = None
            if following is not None:
                then_of = partial(_carried_on, following, own_history=lost is not None and HISTORY in following.setup)
            unjudged = frozenset({MATCH} if unknown is not None else ()) | frozenset({NEXT_DEALER} if lost else ())
            verdict = judge_deal(game, known, every_value=every_value, then_of=then_of, unjudged=unjudged)
            if verdict.carried_wrong and verdict.then is not None:  # the scenario's engine side: its word from the next deal
                verdict = replace(verdict, game=_reporting(verdict.game, verdict.then))
            if unknown is not None or lost is not None:
                said = "; ".join(why.said() for why in (unknown, lost) if why is not None)
                verdict = replace(verdict, result=replace(verdict.result, unjudged=said))
            carried = verdict.ended.next_setup() if verdict.ended is not None and following is not None else None
            # An end the reference does not know: the deal's, or the match's it counts won from counts it does not know
            # (a match won by counts it knows, that the trace goes on from, is the deal's divergence).
            unknown_end = verdict.ended is None or unknown is not None
            stopped = verdict if carried is None and following is not None and unknown_end else None
        except Exception as err:  # whatever the engine's data set off in the kit, never the run's end
            verdict, faulted = DealVerdict(_not_judged(game, err, time.perf_counter() - started), None, game), number + 1
        out.append(verdict)
    # The words true and false of a match's line bound its deals' flags together (_Flags): judged again where they
    # may hold a flag of the engine's standing for a number.
    if games[0].deal and not every_value and sum(v.flags for v in out) != games[0].flags_at_most:
        return judge_match(games, known, every_value=True)
    return out


MATCH = "match"  # the snapshot's field of the match's state: the one field the match's counts decide
NEXT_DEALER = "result.next_dealer"  # who deals next: the one field the dealers before decide
HISTORY = "dealer_history"  # a setup's dealers of the match so far, oldest first
TARGET = "target"  # a setup's target of the match: agreed before play, it never changes within the match


@dataclass(frozen=True)
class _Unknown:
    """The match's counts the kit does not know in a deal, and why: deal ``deal`` stopped short of an end the
    reference knows (it ``failed``, else its trace ends before the deal does), so where it left them is not known,
    and no deal's setup since gives them (``counts``, the keys of a setup's ``match``). The match's state is what
    they decide, and is not judged."""

    deal: int
    failed: bool
    counts: tuple[str, ...]

    @classmethod
    def after(cls, stopped: DealVerdict, counted: frozenset[str], before: _Unknown | None, game: Game) -> _Unknown | None:
        """What is not known in ``game``, the deal after ``stopped`` (``counted``: the counts the reference read in
        that deal's setup; ``before``: what was not known there already): the counts the match carries, as that deal
        went on from them and as the reference reads this deal's setup, that this setup leaves out. Only the
        reference's readings name them, so a count is one the variant's match has, never a key a setup made up."""
        carries = counted | frozenset(_match_read(game) or ())  # a setup refused fails its own deal for it
        left = tuple(sorted(carries - set(game.setup.get("match") or ())))
        if not left:
            return None
        if before is not None:  # the deal that first left them unknown says why
            return replace(before, counts=left)
        return cls(stopped.game.deal, stopped.result.outcome is Outcome.FAIL, left)

    def given(self, setup: Json) -> _Unknown | None:
        """What is still not known once a deal's setup (as given) gives what it gives of the match."""
        left = tuple(count for count in self.counts if count not in (setup.get("match") or {}))
        return replace(self, counts=left) if left else None

    def said(self) -> str:
        stopped = "failed" if self.failed else "stops before its end"
        return (f"{MATCH} not judged: deal {self.deal} of the match {stopped}, so where it left the match is not known, "
                f"and no setup since gives the match's {' and '.join(self.counts)}")


@dataclass(frozen=True)
class _DealersUnknown:
    """The dealers of the match the kit does not know in a deal, and why: deal ``deal``'s setup was refused and shows
    no dealers the reference reads (``_dealers_shown``): it writes its dealer (``written``) where the reference does
    not read it, else none. No deal's setup since gives a dealer history. Where who deals next rests on the dealers
    before (``_dealers_decide``), it is not judged."""

    deal: int
    written: bool

    def said(self) -> str:
        shown = "shows no dealers the rules allow" if self.written else "writes no dealer"
        return (f"{NEXT_DEALER} not judged: deal {self.deal} of the match was refused at its setup, which {shown}, so the "
                "match's dealers are not known, and no setup since gives the dealer history")


def _carried_into(carried: Json, given: Json, *, own_history: bool = False) -> Json:
    """A later deal's setup: as given, the match's counts it leaves out as the reference carried them on, and the
    dealers of the match as the trace shows them, ending with this deal's (the engine's own history is not taken:
    one it kept wrongly would have the reference choose a next dealer by it too; ``own_history``: it is, as the kit
    knows no dealers of the match, ``_DealersUnknown``)."""
    setup = {**given, "match": {**carried["match"], **(given.get("match") or {})}}
    if not own_history:
        history = list(carried[HISTORY])
        setup[HISTORY] = [*history[:-1], given["dealer"]] if "dealer" in given else history
    return setup


def _match_read(game: Game) -> Json | None:
    """The match the reference reads in the game's setup (``Engine.match_so_far``): its counts are the variant's
    match's own; None where the reference refuses that setup."""
    try:
        return Engine.new(game.variant, game.setup).match_so_far()
    except SetupError:
        return None


def _agreed(given: Json, target: object) -> Json:
    """A setup after a deal whose end the reference does not know, with the match's ``target`` as an earlier setup
    gave it (the reference reading it) where it leaves the target out: however the deals before it ended, the target
    they were played to holds."""
    match = given.get("match") or {}
    return given if target is None or TARGET in match else {**given, "match": {**match, TARGET: target}}


def _after_a_stop(dealers: list[object] | None, given: Json, variant: str, *, refused: bool, own_history: bool) -> Json:
    """The setup of a deal after one whose end the reference does not know: as given, with the dealers of the match
    as the trace shows them (``dealers``, those that deal's setup shows, ``_dealers_shown``), ending with this deal's
    (as ``_carried_into`` has them). Of a setup the reference ``refused``, only where the reference reads them before
    this deal's; else the history this setup gives stands, if it gives one, as it does where the kit knows no dealers
    of the match (``own_history``). The match's counts it leaves out are not known (``_Unknown``)."""
    if own_history or dealers is None or "dealer" not in given:
        return given  # a dealer not written (the nines' draw naming it), or none shown: as given
    shown = {**given, HISTORY: [*dealers, given["dealer"]]}
    return shown if not refused or _dealers_read(variant, shown) else given


def _dealers_shown(stopped: Game, *, refused: bool) -> list[object] | None:
    """The dealers of the match a deal's setup shows (``stopped``, as judged): its dealer history, else its dealer.
    None where it writes neither (the nines' draw naming its dealer), and where the reference ``refused`` it, where it
    writes no dealer or dealers the reference does not read (a seat the table does not have; a history not ending
    with its dealer, which would leave that dealer out)."""
    before = stopped.setup
    if refused and ("dealer" not in before or not _dealers_read(stopped.variant, before)):
        return None
    history: list[object] | None = before.get(HISTORY)
    return history or ([before["dealer"]] if "dealer" in before else None)


def _dealers_decide(variant: str) -> bool:
    """Whether the dealers before decide who deals next: a winning side of several, which may name its dealer, has by
    default the member who dealt least recently deal (``DealerRule.choice``); the player after the dealer, or a
    winner alone, deals next whoever dealt before."""
    return Engine.new(variant, {"dealer": 0, "shuffle": 0}).rules.dealer.choice


def _dealers_read(variant: str, setup: Json) -> bool:
    """Whether the reference reads a setup's dealers (its dealer, dealer history and nines drawn), whatever its cards."""
    dealers = {key: setup[key] for key in ("dealer", HISTORY, "nines") if key in setup}
    try:
        Engine.new(variant, {**dealers, "shuffle": 0})  # cards of its own, which the reference always reads
    except SetupError:
        return False
    return True


def _carried_on(following: Game, ended: Engine, variant: str, *, own_history: bool = False) -> Json | None:
    """What the next deal's setup says of the end of this one, ``ended`` there: the next dealer, the match's counts
    it reads (the reference reading the setup, as a house target or a part of a sheet may be written several ways),
    and that the match is not won. None where that setup is one the rules do not allow (its deal fails for it)."""
    carried = ended.next_setup()
    if carried is None:  # the match is won: that a deal follows at all is the difference
        return {"snapshot": {"match": {"winner": None}}}
    try:
        started = Engine.new(variant, _carried_into(carried, following.setup, own_history=own_history)).snapshot()
    except SetupError:
        return None
    given = following.dealt.get("match") if isinstance(following.dealt, dict) else None
    compared = set(carried["match"]) | set(given if isinstance(given, dict) else ())
    match = {key: started["match"][key] for key in compared if key in started["match"]}
    return {"snapshot": {"result": {"next_dealer": started["dealer"]}, "match": {**match, "winner": None}}}


def _reporting(game: Game, then: Json) -> Game:
    """The game with its last observation's report of the result and the match given by ``then``."""
    observations = list(game.observations) + [None] * (len(game.actions) + 1 - len(game.observations))
    last = observations[-1] or {}
    snapshot = dict(last.get("snapshot") or {})
    for key, value in then["snapshot"].items():
        snapshot[key] = {**(snapshot.get(key) or {}), **value}
    observations[-1] = {**last, "snapshot": snapshot}
    return replace(game, observations=tuple(observations))


def judge_deal(
    game: Game,
    known: frozenset[str] = frozenset(),
    *,
    every_value: bool = False,
    then_of: Callable[[Engine, str], Json | None] | None = None,
    unjudged: frozenset[str] = frozenset(),
) -> DealVerdict:
    """``judge``'s verdict and divergence, and the reference engine at the deal's end where the game got there.
    ``then_of``: what the engine reported of the deal's end beyond its last observation (the next deal's setup),
    from the reference at the end; judged after the last action where the deal is over. ``unjudged``: fields the
    kit cannot judge in this deal, left out wherever the engine reports them."""
    started = time.perf_counter()
    # judged without them, while the verdict's game keeps the fields its header declares, which the terminal holds
    # the fields the games give to (FieldsGiven)
    judged_game = replace(game, reports=_leaving_out(game.reports, unjudged)) if unjudged else game
    seen: set[str] = set()
    flags = _Flags(every_value)
    try:
        engine = Engine.new(game.variant, game.setup)
    except SetupError as err:
        return DealVerdict(_dealt_wrong(game, err, time.perf_counter() - started), None, game)
    observations = game.observations
    given = len(observations)
    legal_judged = covers(game.reports, LEGAL)  # judged on the fields its header declares, and no others
    refusals: list[tuple[str, ...] | None] = []
    divergence = _report(engine, 0, observations[0] if observations else None, judged_game, known, seen, legal_judged, flags)
    apply = engine.apply
    for position, action in enumerate(game.actions, start=1):
        if divergence is not None:
            break
        code = getattr(apply(action), "code", None)
        refusals.append((code,) if code is not None else None)
        observation = observations[position] if position < given else None
        said = _refusal_code(observation)
        if said != code:
            what = "refusal code" if code is not None else "action accepted"
            wanted: Any = [code] if code is not None else "accepted"
            mismatch = Mismatch(position, game.number, what, wanted, said if said is not None else "accepted")
            divergence = Divergence(REFUSAL, position, (mismatch,), allowed=(code,) if code is not None else None)
            break
        divergence = _report(engine, position, observation, judged_game, known, seen, legal_judged, flags)
    over = divergence is None and engine.to_act is None  # the deal is over (a side may still name its dealer)
    then = then_of(engine, game.variant) if over and then_of is not None else None
    if then is not None:  # judged whatever fields the header declares: a setup always says who deals, and what of the
        # match it gives it gives
        every = replace(game, reports=_leaving_out(None, unjudged))
        divergence = _report(engine, len(game.actions), then, every, known, seen, False, flags)
    if divergence is None and not flags.every and not game.deal and flags.found != game.flags_at_most:
        again = judge_deal(game, known, every_value=True, then_of=then_of, unjudged=unjudged)
        return replace(again, result=replace(again.result, seconds=time.perf_counter() - started))  # both passes
    seconds = time.perf_counter() - started
    if divergence is None:
        outcome = Outcome.XFAIL if seen else Outcome.PASS
        said = f"differs only in fields the expectation file names: {', '.join(sorted(seen))}" if seen else ""
        result = GameResult(game.index, game.name, game.file, game.number, game.variant, outcome, seconds, detail=said,
                            unfinished=not over, deal=game.deal)  # fmt: skip
        return DealVerdict(result, None, game, then, engine if over else None, flags=flags.found)
    carried_wrong = then is not None  # no divergence came before it was judged
    case = Case(game.variant, game.setup, game.actions[: divergence.position], tuple(refusals[: divergence.position]))
    reports = reference_reports(case)
    field, clauses, phase = name(case, divergence, reports)
    finding = Finding(case, divergence, field, clauses, phase, tuple(reports))
    where = f" (as the next deal's setup carries the match on{_one_action_short(engine, then)})" if carried_wrong else ""
    result = GameResult(
        game.index,
        game.name,
        game.file,
        game.number,
        game.variant,
        Outcome.FAIL,
        seconds,
        field,
        clauses,
        tuple(m.to_json() for m in divergence.mismatches),
        _place_in_game(game, divergence, carried_wrong) + divergence.detail() + where + _stock_turned_over(game, divergence),
        finding.key,
        deal=game.deal,
    )
    return DealVerdict(result, finding, game, then, engine if carried_wrong else None, carried_wrong)


def _place_in_game(game: Game, divergence: Divergence, carried_wrong: bool) -> str:
    """Where in the game the difference is, so that the terminal's line can be found in the trace without the
    run log: the action refused or accepted wrongly, or the one after which a report differs."""
    position, count = divergence.position, len(game.actions)
    if carried_wrong:
        return "at the deal's end: "
    if position == 0:
        return "as dealt, before any action: "
    action = untrusted.text(action_text(game.actions[position - 1]), 100)
    if divergence.kind == REFUSAL:
        return f"action {position} of {count} ({action}): "
    return f"after action {position} of {count} ({action}): "


def _leaving_out(reports: Reports, fields: frozenset[str]) -> Reports:
    """The fields judged (``reports``, None for every one) but ``fields``, whole or in part: a field holding one of
    them (``result``, of ``result.next_dealer``) is judged by its other keys."""
    if not fields:
        return reports
    every = reports if reports is not None else frozenset([*field_keys(), LEGAL])
    kept: set[str] = set()
    for field in every:
        if any(part_of(field, left) for left in fields):
            continue
        inside = {left for left in fields if part_of(left, field)}
        kept |= {f"{field}.{key}" for key in field_keys()[field] or ()} - inside if inside else {field}
    return frozenset(kept)


def _one_action_short(ended: Engine, then: Json | None) -> str:
    """Where the next deal's dealer is one an action still open at the deal's end would have named (a winning
    side naming its dealer), that the trace does not hold that action."""
    dealer = ((then or {}).get("snapshot", {}).get("result") or {}).get("next_dealer")
    for action in ended.legal_actions():
        twin = ended.copy()
        twin.apply(action)
        if dealer is not None and (twin.snapshot().get("result") or {}).get("next_dealer") == dealer:
            return f"; the trace does not hold the {action['type']} by seat {action['seat']} that would name that dealer"
    return ""


def _stock_turned_over(game: Game, divergence: Divergence) -> str:
    """A word on the likeliest cause of a trump, a turned card or an indicator unlike the reference's from the deal on:
    a stock written as the engine holds it once the card is turned (that card last), where a trace gives it as dealt
    (docs/guide/traces.md). The first of them to differ is the one the stock's last card must explain."""
    dealt = game.dealt if isinstance(game.dealt, dict) else {}
    stock = dealt.get("stock")
    if divergence.position != 0 or "turned" in dealt or "start" in dealt or not isinstance(stock, list) or not stock:
        return ""
    last = stock[-1]
    if not isinstance(last, str):
        return ""
    shown = untrusted.text(last, 10)
    # What the engine reports of the card it turned, where that card is the stock's last, and how that is said.
    explained = {
        "trump": (last[-1:], f"the engine's trump is the suit of the stock's last card, {shown}"),
        "turned": ([last], f"the engine's turned card is the stock's last card, {shown}"),
        "indicator": (last, f"the engine's indicator is the stock's last card, {shown}"),
    }
    first = next((m for m in divergence.mismatches if m.what in explained), None)
    if first is None or first.observed != explained[first.what][0]:
        return ""
    return (f" ({explained[first.what][1]}: a trace gives the stock as dealt, top first, with the card turned for "
            "trumps as turned, not where the engine put it)")


def _dealt_wrong(game: Game, err: SetupError, seconds: float) -> GameResult:
    """A deal the reference refuses: the engine dealt what the rules do not allow."""
    blamed = clauses_of(game.variant).for_setup(err, game.variant)
    clauses = blamed.clauses
    if isinstance(game.dealt, dict):  # its places said in the setup as the trace gives it (turned, not stock[0])
        err = err.moved(partial(as_written, written=game.dealt, variant=kit_spec().resolved(game.variant)))
    mismatch = Mismatch(0, game.number, "the deal", "a deal the rules allow", str(err))
    detail = f"the deal: {err}" + (f" ({blamed.unstated})" if blamed.unstated else "")
    key: Key = (game.variant, "setup", clauses)
    return GameResult(
        game.index, game.name, game.file, game.number, game.variant, Outcome.FAIL, seconds, "setup", clauses,
        (mismatch.to_json(),), detail, key, deal=game.deal,
    )  # fmt: skip


# What a report of a game the kit failed to judge needs: its line of the trace, which is all it takes to judge it again.
_REPORT_WITH = "this line of the trace"
_JUDGING = "judging this game"  # what the kit was doing when a game's verdict failed


def not_judged_detail(err: BaseException, doing: str) -> str:
    """The error of a game (or a line) the kit failed to judge: what the kit raised while ``doing``."""
    return kit_faults.detail(err, doing, _REPORT_WITH)


def _following_a_fault(deal: int) -> str:
    """The error of a deal after one of its match the kit failed to judge: the match it starts from is not known."""
    said = f"not judged, as it goes on from deal {deal} of the match, which the kit failed to judge"
    return kit_faults.said(said, _REPORT_WITH)


def _not_judged(game: Game, err: Exception, seconds: float) -> GameResult:
    """The verdict on a game whose judging raised: an error of the kit's, said so, with where it raised."""
    return GameResult(
        game.index, game.name, game.file, game.number, game.variant, Outcome.ERROR, seconds,
        detail=not_judged_detail(err, _JUDGING), deal=game.deal, where=kit_faults.traceback_of(err), doing=_JUDGING,
    )  # fmt: skip


def _refusal_code(observation: Json | None) -> str | None:
    """The code an engine refused an action with, as its observation says (its shape checked as the trace was
    read); None: it was accepted."""
    return refusal_code(observation.get("rejected")) if observation is not None else None


def _report(
    engine: Engine,
    position: int,
    observation: Json | None,
    game: Game,
    known: frozenset[str],
    seen: set[str],
    legal_judged: bool,
    flags: _Flags,
) -> Divergence | None:
    """What the engine reported at this observation, against the reference; None where it agrees.
    ``legal_judged``: whether the game's header leaves the legal actions among the fields judged."""
    if observation is None:
        return None
    snapshot = observation.get("snapshot")
    legal = observation.get("legal") if legal_judged else None
    if snapshot is None and legal is None:
        return None
    reference = engine.snapshot()
    reference_legal = engine.legal_actions() if legal is not None else []
    counted = flags.found  # what agree counts here is counted again, whole, where the scenarios' comparisons judge
    # The same report exactly (one comparison in C, then true and false told from numbers), else field by field;
    # the legal actions in any order (their seats are integers: the trace's schema holds them to it).
    same = snapshot is None or ((snapshot == reference or _agrees(reference, snapshot)) and flags.agree(reference, snapshot))
    if same and (legal is None or legal == reference_legal or _same_actions(reference_legal, legal)):
        return None
    line = game.number
    chosen = _reported(expectations((reference, reference_legal), _fields(reference, snapshot, legal)), snapshot)
    chosen = [e for e in chosen if judged(game.reports, e.path, no_value=e.no_value) or e.field == LEGAL]
    missed: list[tuple[Expectation, list[Mismatch]]] = []
    for e in chosen:
        found = COMPARISONS[e.key](e.value, snapshot or {}, legal or [])
        if found and known and covers(known, e.path):
            seen.add(e.path)
        elif found:
            missed.append((e, [Mismatch(position, line, what, want, got) for what, want, got in found]))
    if not missed:  # equal as the scenarios compare (a hand in another order), which tell true from 1
        flags.found = counted + flags_in(snapshot)
        return None
    missed.sort(key=lambda pair: rank(pair[0]))
    return Divergence(REPORT, position, distinct(m for _, ms in missed for m in ms), tuple(e for e, _ in missed))


def _agrees(reference: Json, snapshot: Json) -> bool:
    """Whether every field the engine gave is the reference's exactly (a field given in part, in part)."""
    for key, value in snapshot.items():
        have = reference.get(key)
        if have == value:
            continue
        if not (key in BY_PART and isinstance(value, dict) and isinstance(have, dict)):
            return False
        if key == HANDS:  # a hand is a set of cards: the engine may hold it in its own order
            if any(not _same_hand(have.get(seat), cards) for seat, cards in value.items()):
                return False
        elif any(have.get(part) != part_value for part, part_value in value.items()):
            return False
    return True


def _same_hand(have: object, cards: object) -> bool:
    if have == cards:
        return True
    if not isinstance(have, list) or not isinstance(cards, list) or len(have) != len(cards):
        return False
    try:
        return sorted(have) == sorted(cards)
    except TypeError:  # cards of the engine's that are no strings: the comparisons say how
        return False


def _same_actions(reference: list[Json], legal: list[Any]) -> bool:
    if len(reference) != len(legal):
        return False
    mine = {(a["type"], a["seat"], a.get("card")) for a in reference}
    theirs = {(a.get("type"), a.get("seat"), a.get("card")) for a in legal if isinstance(a, dict)}
    return mine == theirs


def _fields(reference: Json, snapshot: Json | None, legal: object) -> frozenset[str]:
    """The fields the engine reported that the reference's snapshot has, and the legal actions if given."""
    named = {key for key in (snapshot or {}) if key in reference}
    return frozenset(named | ({LEGAL} if legal is not None else set()))


def _reported(chosen: list[Expectation], snapshot: Json | None) -> list[Expectation]:
    """The expectations of what the engine reported: of a field given in part, those of its parts given."""
    out = []
    for e in chosen:
        value = (snapshot or {}).get(e.field)
        if e.field in BY_PART and isinstance(value, dict) and e.path != e.field:
            part = e.path.split(".", 1)[1]
            if part not in value:
                continue
        out.append(e)
    return out
