"""The situation a card is played, a trick won or a deal scored in, as a clause's ``when`` names it
(schemas/clauses.schema.json).

Two things set a play's duties apart: the card led to the trick (a top trump, another trump, a card of
the top trumps' printed suit that is no trump, or any other card) and whether a duty holds the player to
some cards (to follow suit, to trump...), even where every card in hand meets it. Who wins a trick hangs
on the card led and on the highest kind of card the trick holds (a top trump, another trump, or neither);
which rule an engine giving it otherwise breaks, on the card it gives it to (a trump, one of the suit led,
or neither: an off-suit card, which the reference lets win no trick).
What a deal scores, who deals next and which round it wins hang on how it ended: a side scoring without the
double or with it, the best total shared, or nobody scoring otherwise; whether a player played it alone; whether
it was a single deal deciding the match. The reference engine, at the position, answers them.
"""

from __future__ import annotations

from dataclasses import dataclass

from reference import Engine
from reference.state import Phase

TRICK_WINNER = "last_trick.winner"  # the field showing who won a trick, whose situation trick_won_at gives
# The fields showing what follows from how a deal ended (its victory points or score, who deals next, the round
# it wins), whose situation deal_scored_at gives: those a clause's when.result, alone or decider may rule on.
DEAL_ENDED = ("result.vp", "result.deal_score", "result.next_dealer", "match.round_winner", "match.rounds", "match.scores")

# The cards led, as a clause's when.led names them; what each means is the schema's to say.
TOP_TRUMP, TRUMP, TOP_TRUMP_SUIT, PLAIN = "top_trump", "trump", "top_trump_suit", "plain"
# The card a trick is given to, as a clause's when.given_to names it (a trump is TRUMP).
SUIT_LED, OFF_SUIT = "suit_led", "off_suit"
# How a deal ended, as a clause's when.result names it.
SINGLE, DOUBLE, TIE, NOBODY = "single", "double", "tie", "none"


@dataclass(frozen=True)
class Situation:
    led: str | None  # None: the player leads
    bound: bool | None = None  # a duty holds the player to some cards (None: no card is to be played)
    trick: str | None = None  # the highest kind of card in a trick won (None: none is)
    result: str | None = None  # how a deal scored ended (None: none is)
    given_to: str | None = None  # the kind of card an engine gives a trick won to (None: none is, or none it played)
    alone: bool | None = None  # a player played the deal scored alone (None: none is, or its result tells no lone seat)
    decider: bool | None = None  # the deal scored is a single deal deciding the match (None: none is, or no match says)


def led_kind(engine: Engine, code: str, trump: str | None) -> str:
    """What kind of card ``code`` is, led to a trick with ``trump`` the trump suit's letter (None: no trumps)."""
    cards, ranking = engine.rules.cards, engine.rules.ranking
    card = cards.parse(code, ())
    tables = ranking.tables(cards.suit_index(trump) if trump is not None else None)
    if ranking.is_top[card]:
        return TOP_TRUMP
    if tables.is_trump[card]:
        return TRUMP
    return TOP_TRUMP_SUIT if cards.suit_of[card] == ranking.top_suit else PLAIN


def situation_at(engine: Engine) -> Situation | None:
    """The situation of the player to play, at the engine's position; None where no card is to be played."""
    snapshot = engine.snapshot()
    if snapshot.get("phase") != Phase.PLAY or engine.to_act is None:
        return None
    trick = snapshot.get("trick") or []
    if not trick:
        return Situation(None, False)
    return Situation(led_kind(engine, trick[0]["card"], snapshot.get("trump")), bool(duties_at(engine)))


def duties_at(engine: Engine) -> frozenset[str]:
    """The duties holding the player to play to some cards, at the engine's position, by the codes that refuse the
    cards they rule out: those the variant's legality refuses a card with, held or not, since a hand all of the suit
    led is held to follow it with nothing left to refuse. None for a leader, or where any card may be played."""
    snapshot, seat = engine.snapshot(), engine.to_act
    trick = snapshot.get("trick") or []
    rules = engine.rules
    legality, cards = rules.legality, rules.cards
    if snapshot.get("phase") != Phase.PLAY or seat is None or not trick or legality.free:
        return frozenset()
    trump = snapshot.get("trump")
    tables = rules.ranking.tables(cards.suit_index(trump) if trump is not None else None)
    held = [cards.parse(code, ()) for code in snapshot["hands"][str(seat)]]
    led = cards.parse(trick[0]["card"], ())
    return frozenset(code for card in range(cards.size) if (code := legality.check(held, card, led, tables)) is not None)


def trick_won_at(engine: Engine, given_to: object = None) -> Situation | None:
    """The situation of the trick last won, at the engine's position; None before any is. ``given_to``: the seat
    another engine says won it (untrusted), whose card the situation tells the kind of."""
    snapshot = engine.snapshot()
    last = snapshot.get("last_trick")
    if not last:
        return None
    kinds = [led_kind(engine, played["card"], snapshot.get("trump")) for played in last["cards"]]
    highest = TOP_TRUMP if TOP_TRUMP in kinds else TRUMP if TRUMP in kinds else PLAIN
    return Situation(kinds[0], trick=highest, given_to=_given_kind(engine, last["cards"], snapshot.get("trump"), given_to))


def _given_kind(engine: Engine, played: list[dict[str, object]], trump: str | None, seat: object) -> str | None:
    """What the card ``seat`` played to a trick is to it: a trump, a card of the suit led (its effective suit: a
    Tree lead is a trump lead), or neither; None where ``seat`` is no seat that played one."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        return None
    codes = [str(p["card"]) for p in played if p.get("seat") == seat]
    if not codes:
        return None
    cards, ranking = engine.rules.cards, engine.rules.ranking
    tables = ranking.tables(cards.suit_index(trump) if trump is not None else None)
    card, led = cards.parse(codes[0], ()), cards.parse(str(played[0]["card"]), ())
    if tables.is_trump[card]:
        return TRUMP
    return SUIT_LED if tables.eff_suit[card] == tables.eff_suit[led] else OFF_SUIT


def deal_scored_at(engine: Engine) -> Situation | None:
    """How the deal ended, at the engine's position, as its result tells (and the match, whether the deal decided it
    alone); None before it has. Whether a player went alone, or a deal decides, is unsaid where the game's report
    has no such field."""
    snapshot = engine.snapshot()
    result, match = snapshot.get("result"), snapshot.get("match") or {}
    if not result:
        return None
    alone = result["lone"] is not None if "lone" in result else None
    decider = match.get("decider") if isinstance(match.get("decider"), bool) else None
    if result.get("tie"):
        ended = TIE
    elif result.get("winner") is None:
        ended = NOBODY
    else:
        ended = DOUBLE if result.get("double") else SINGLE
    return Situation(None, result=ended, alone=alone, decider=decider)
