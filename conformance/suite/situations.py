"""The situation a card is played or a trick won in, as a clause's ``when`` names it (schemas/clauses.schema.json).

Two things set a play's duties apart: the card led to the trick (a top trump, another trump, a card of
the top trumps' printed suit that is no trump, or any other card) and whether a duty holds the player to
some cards (to follow suit, to trump...), even where every card in hand meets it. Who wins a trick hangs
on the card led and on the highest kind of card the trick holds (a top trump, another trump, or neither).
The reference engine, at the position, answers them.
"""

from __future__ import annotations

from dataclasses import dataclass

from reference import Engine
from reference.state import Phase

# The cards led, as a clause's when.led names them; what each means is the schema's to say.
TOP_TRUMP, TRUMP, TOP_TRUMP_SUIT, PLAIN = "top_trump", "trump", "top_trump_suit", "plain"


@dataclass(frozen=True)
class Situation:
    led: str | None  # None: the player leads
    bound: bool | None = None  # a duty holds the player to some cards (None: no card is to be played)
    trick: str | None = None  # the highest kind of card in a trick won (None: none is)


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
    seat = engine.to_act
    if snapshot.get("phase") != Phase.PLAY or seat is None:
        return None
    trick = snapshot.get("trick") or []
    if not trick:
        return Situation(None, False)
    led, trump = trick[0]["card"], snapshot.get("trump")
    return Situation(led_kind(engine, led, trump), _held(engine, snapshot["hands"][str(seat)], led, trump))


def _held(engine: Engine, hand: list[str], led: str, trump: str | None) -> bool:
    """Whether a duty holds a player with ``hand`` to some cards on ``led``: whether the rules would refuse a card
    the player does not hold. Not whether they refuse one held: a hand all of the suit led is held to follow it,
    with nothing left to refuse."""
    rules = engine.rules
    legality, cards = rules.legality, rules.cards
    if legality.free:
        return False
    held = [cards.parse(code, ()) for code in hand]
    tables = rules.ranking.tables(cards.suit_index(trump) if trump is not None else None)
    card_led = cards.parse(led, ())
    return any(legality.check(held, card, card_led, tables) is not None for card in range(cards.size) if card not in held)


def trick_won_at(engine: Engine) -> Situation | None:
    """The situation of the trick last won, at the engine's position; None before any is."""
    snapshot = engine.snapshot()
    last = snapshot.get("last_trick")
    if not last:
        return None
    kinds = [led_kind(engine, played["card"], snapshot.get("trump")) for played in last["cards"]]
    highest = TOP_TRUMP if TOP_TRUMP in kinds else TRUMP if TRUMP in kinds else PLAIN
    return Situation(kinds[0], trick=highest)
