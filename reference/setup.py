"""Reading a setup (schemas/setup.schema.json) into a fresh deal state, with SetupError paths.

A setup gives the dealer (or the drawn nines), then either the whole ``deck`` (top first,
dealt by dealing.py, after the cut where the variant has one), a ``shuffle`` seed (the deck
shuffled by it, then dealt alike), or the ``hands`` and the ``stock`` (top first). ``start``
begins mid-deal in the play phase, everything as given.
Every card of the deck must be in exactly one place.
"""

from __future__ import annotations

import random
from enum import Enum
from typing import Any

from reference.errors import AS_DEALT, SetupError
from reference.rules import Rules
from reference.seating import PLAYERS, seat_key
from reference.state import Deal, Phase
from specreader.jsontypes import JsonPath

SETUP_KEYS = (
    "dealer", "deck", "shuffle", "hands", "stock", "trees_taken", "dealer_history", "nines", "match", "start"
)
# The parts of a variant a setup may break (SetupError.parameter), by their paths in the variant.
DECK = "deck"  # the variant's pack: what a card twice, a card missing or no card of the pack breaks
HAND_SIZE = "deal.hand_size"  # what a hand of another size breaks
DEALER = "components.dealer"  # who deals: what a dealer history not ending with the dealer breaks
CUT = "components.cut"  # the cut: what a Tree the cutter could not have taken breaks
INDICATOR = "components.draw.indicator"  # where the indicator lies: what one elsewhere breaks
FIRST_DEALER = "components.first_dealer"  # the draw for the first dealer: what nines where none are drawn break
SIDES = "sides"  # the sides: what a side the table does not have breaks
DRAW = "components.draw"  # drawing from the stock: what a stock that cannot be drawn out evenly breaks
TRUMP = "components.trump"  # making trumps: what makers where the rule names none break
LONE = "components.lone"  # going alone: what a lone player where nobody may go alone breaks

START_KEYS = (
    "phase", "trump", "to_act", "trick", "piles", "tricks", "indicator", "turned", "makers", "lone", "dead"
)


def _at_play(field: str) -> str:
    """A snapshot field as play leaves it (SetupError.observed): what a position begun mid-play gives wrongly."""
    return f"{field}@{Phase.PLAY}"


class Begin(Enum):
    """Where a deal begins."""

    FROM_PACK = "pack"  # the cut (if any), then the deal
    FROM_HANDS = "hands"  # the hands are given, dealt
    FROM_PLAY = "play"  # mid-play, everything as given


def _keys(value: dict[str, Any], allowed: tuple[str, ...], path: JsonPath) -> None:
    for key in value:
        if key not in allowed:
            raise SetupError(f"unknown key {key!r}; expected one of {', '.join(allowed)}", (*path, key))


class _Cards:
    """Reads card lists; every card must be placed exactly once (checked by ``complete``)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.groups: list[tuple[JsonPath, list[int]]] = []

    def one(self, code: object, path: JsonPath) -> int:
        c = self.rules.cards.index.get(code) if isinstance(code, str) else None
        if c is None:
            raise SetupError(f"expected a card of this deck; found {code!r}", path, parameter=DECK)
        return c

    def many(self, value: object, path: JsonPath) -> list[int]:
        """A list of cards placed at ``path``."""
        if not isinstance(value, list):
            raise SetupError("expected a list of card codes", path)
        try:
            cards = list(map(self.rules.cards.index.__getitem__, value))
        except (KeyError, TypeError):
            cards = [self.one(code, (*path, i)) for i, code in enumerate(value)]
        self.groups.append((path, cards))
        return cards

    def place(self, card: int) -> JsonPath:
        """Where the setup puts ``card``, placed once (``complete``): its entry's path."""
        return next((*path, cards.index(card)) for path, cards in self.groups if card in cards)

    def complete(self) -> None:
        """Each card of the deck placed exactly once; else name the second place, or the missing."""
        size = self.rules.cards.size
        groups = self.groups
        placed = groups[0][1] if len(groups) == 1 else [c for _, cards in groups for c in cards]
        if len(placed) == size and len(set(placed)) == size:
            return
        codes = self.rules.cards.codes
        seen: dict[int, JsonPath] = {}
        for path, cards in self.groups:
            for i, c in enumerate(cards):
                if c in seen:
                    raise SetupError(f"{codes[c]} is also at", (*path, i), also=seen[c], parameter=DECK)
                seen[c] = (*path, i)
        missing = [code for c, code in enumerate(codes) if c not in seen]
        raise SetupError(f"{len(missing)} card(s) of the deck not placed: {' '.join(missing)}", parameter=DECK)


def build(rules: Rules, setup: object) -> tuple[Deal, Begin]:
    """A new deal state and where it begins."""
    if not isinstance(setup, dict):
        raise SetupError("expected a JSON object")
    _keys(setup, SETUP_KEYS, ())
    seats = rules.seats
    history = _history(rules, setup)
    dealer = _dealer(rules, setup, history)
    st = Deal(seats.n, len(seats.sides), dealer, rules.ranking.tables(None))
    if history is not None:
        st.history = history
    st.match = rules.match.parse(setup.get("match"), ("match",))
    if "shuffle" in setup:  # dealt its own way: the reference's way is a shuffle of the deck by this seed
        for key in ("deck", "hands", "stock", "start", "trees_taken"):
            if key in setup:
                raise SetupError("give a shuffle, or the cards, not both", (key,))
        seed = setup["shuffle"]
        if type(seed) is not int or not 0 <= seed < 2**32:
            raise SetupError("expected a seed from 0 to 4294967295", ("shuffle",))
        st.pack = list(range(rules.cards.size))
        random.Random(seed).shuffle(st.pack)
        return st, Begin.FROM_PACK
    if "deck" in setup:
        for key in ("hands", "stock", "start", "trees_taken"):
            if key in setup:
                raise SetupError("give either deck, or hands and stock, not both", (key,))
        st.pack = _deck(rules, setup["deck"])
        return st, Begin.FROM_PACK
    cards = _Cards(rules)
    for key in ("hands", "stock"):
        if key not in setup:
            raise SetupError("expected deck, or hands and stock", (key,))
    hands = setup["hands"]
    if not isinstance(hands, dict):
        raise SetupError("expected a mapping seat -> cards", ("hands",))
    given = set()
    for key, hand in hands.items():
        seat = seat_key(key, seats, ("hands", key))
        st.hands[seat] = sorted(cards.many(hand, ("hands", key)))
        given.add(seat)
    st.stock = cards.many(setup["stock"], ("stock",))
    if "start" in setup:
        if "trees_taken" in setup:
            raise SetupError("trees_taken belongs to a deal that starts before trumps", ("trees_taken",))
        _start(rules, st, setup["start"], cards)
        cards.complete()
        _turned_lie(rules, st, cards)
        _indicator_given(rules, st)
        return st, Begin.FROM_PLAY
    for seat in range(seats.n):
        if seat not in given:  # a hand left out is a player the table lacks, not a hand of another size
            raise SetupError(
                f"the variant seats {seats.n} players: expected a hand for seat {seat}", ("hands",), parameter=PLAYERS
            )
        if len(st.hands[seat]) != rules.hand_size:
            raise SetupError(
                f"expected {rules.hand_size} cards, found {len(st.hands[seat])}", ("hands", str(seat)), parameter=HAND_SIZE
            )
    cards.complete()
    if "trees_taken" in setup:
        _trees_taken(rules, st, setup["trees_taken"], cards)
    return st, Begin.FROM_HANDS


def _deck(rules: Rules, value: object) -> list[int]:
    """The whole pack, top first: each card of the deck exactly once."""
    size = rules.cards.size
    if isinstance(value, list) and len(value) == size:  # the usual case: the deck's cards, each once
        try:
            pack = list(map(rules.cards.index.__getitem__, value))
        except (KeyError, TypeError):
            pass
        else:
            if len(set(pack)) == size:
                return pack
    cards = _Cards(rules)  # the same checks, naming what is wrong and where
    pack = cards.many(value, ("deck",))
    cards.complete()
    return pack


def _history(rules: Rules, setup: dict[str, Any]) -> list[int] | None:
    """The dealers of the match so far, oldest first (setup ``dealer_history``), or None where not given."""
    if "dealer_history" not in setup:
        return None
    history = setup["dealer_history"]
    if not isinstance(history, list) or not history:
        raise SetupError("expected a list of seats, oldest first", ("dealer_history",))
    return [rules.seats.seat(s, ("dealer_history", i)) for i, s in enumerate(history)]


def _dealer(rules: Rules, setup: dict[str, Any], history: list[int] | None) -> int:
    """This deal's dealer: ``dealer``, or with ``nines`` and no dealer the last of the history, else the seat the draw
    makes first dealer. The draw decides the first dealer of the match: the first of the history where it is given,
    else (the match's first deal) this deal's dealer."""
    seats = rules.seats
    given = seats.seat(setup["dealer"], ("dealer",)) if "dealer" in setup else None
    if "nines" in setup:
        if rules.first_dealer is None:
            raise SetupError("this variant draws no cards for partners and dealer", ("nines",), parameter=FIRST_DEALER)
        drawn = rules.first_dealer.dealer(setup["nines"], ("nines",))
        first, at = (history[0], ("dealer_history", 0)) if history is not None else (given, ("dealer",))
        if first is not None and first != drawn:
            raise SetupError(f"the draw makes seat {drawn} the first dealer", at, parameter=rules.first_dealer.parameter)
        if given is None:
            given = drawn if history is None else history[-1]
    if given is None:
        raise SetupError("expected the dealer (a seat)", ("dealer",))
    if history is not None and history[-1] != given:
        raise SetupError(f"must end with the dealer, seat {given}", ("dealer_history", len(history) - 1), parameter=DEALER)
    return given


def _trees_taken(rules: Rules, st: Deal, value: object, cards: _Cards) -> None:
    if not rules.has_cut:
        raise SetupError("this variant has no cut", ("trees_taken",), parameter=CUT)
    if not isinstance(value, list):
        raise SetupError("expected a list of card codes", ("trees_taken",))
    cutter = rules.seats.previous(st.dealer)
    for i, code in enumerate(value):
        c = cards.one(code, ("trees_taken", i))
        if not rules.ranking.is_top[c] or c in st.trees_taken:
            raise SetupError(
                f"{code} is not a top trump, or is given twice", ("trees_taken", i), parameter=CUT,
                observed=f"trees_taken@{Phase.CUT}",  # what the cutter may take, not who cuts
            )  # fmt: skip
        if c not in st.hands[cutter]:
            raise SetupError(
                f"{code} must be in the cutter's hand (seat {cutter})", ("trees_taken", i), parameter=CUT,
                observed=f"hands@{Phase.CUT}",  # a Tree taken is the cutter's: where it lies, not who cuts
            )  # fmt: skip
        st.trees_taken.append(c)


def _before_play(rules: Rules) -> str:
    """The phase whose last action leaves the first lead to a seat: the last a stage before play waits in, else the
    deal as dealt."""
    before = AS_DEALT
    for stage in rules.stages:
        if Phase.PLAY in stage.kinds:
            break
        before = next(reversed(stage.kinds), before)
    return before


def _left_out(rules: Rules, st: Deal) -> int:
    """How many cards the deal itself puts out of play before the first lead: those making trumps leaves there
    (Altbaumer's stock not taken, and the discards), and the full hands of the seats sitting out."""
    return rules.trump_rule.out_of_play + st.active.count(False) * rules.hand_size


def _leader(rules: Rules, st: Deal, leader: int, path: JsonPath) -> None:
    """The trick on the table is led as play leads it: the first by ``Deal.first_leader``, any other by the last
    trick's winner, so by a side that has won a trick. With no trick counted, cards out of play beyond those the deal
    puts there may stand for tricks the setup leaves uncounted (a position fuzz shrank), so only a setup with none
    beyond them is at the first trick."""
    at = (*path, "trick", 0, "seat") if st.trick_seats else (*path, "to_act")
    if not any(st.tricks):
        if len(st.dead) > _left_out(rules, st):
            return
        first = st.first_leader()
        if leader != first:
            raise SetupError(
                f"the first trick is led by seat {first} (forehand, or the next to play if forehand sits out), not seat {leader}",
                at,
                observed=f"to_act@{_before_play(rules)}",  # the first lead is play's to begin with, not a winner's
            )
    elif not st.tricks[rules.seats.side_of[leader]]:
        raise SetupError(
            f"a trick after the first is led by the last trick's winner, and seat {leader}'s side has won none",
            at,
            observed=_at_play("to_act"),
        )


def _turned_lie(rules: Rules, st: Deal, cards: _Cards) -> None:
    """The cards the start records as turned lie where making trumps left them, once every card is placed once."""
    misplaced = rules.trump_rule.misplaced(st)
    if misplaced is not None:
        raise SetupError(
            misplaced.why, cards.place(misplaced.card), parameter=TRUMP, observed=misplaced.observed,
            choices_left=misplaced.choices_left,
        )  # fmt: skip


def _indicator_given(rules: Rules, st: Deal) -> None:
    """While the stock lasts the trump indicator lies face up under it, its last card, where the start gives it (with a
    card turned recorded, _turned_lie has said where that card lies first)."""
    if rules.draw is not None and st.stock and st.indicator is None:
        raise SetupError(
            "while the stock lasts the trump indicator lies face up under it, its last card: expected start.indicator",
            ("start", "indicator"),
            parameter=TRUMP,
            observed=f"stock@{_before_play(rules)}",  # put under the stock as trumps are made
        )


def _start(rules: Rules, st: Deal, start: object, cards: _Cards) -> None:
    seats = rules.seats
    path: JsonPath = ("start",)
    if not isinstance(start, dict):
        raise SetupError("expected a JSON object", path)
    _keys(start, START_KEYS, path)
    if start.get("phase") != Phase.PLAY:
        raise SetupError("only the play phase can be started mid-deal", (*path, "phase"))
    trump = start.get("trump")
    suit = rules.cards.suit_index(trump) if isinstance(trump, str) else None
    if suit is None:
        raise SetupError(f"expected a suit letter of {' '.join(rules.cards.suits)}", (*path, "trump"), parameter=DECK)
    st.trump = suit
    st.tables = rules.ranking.tables(suit)
    nsides = len(seats.sides)
    st.dead = cards.many(start.get("dead", []), (*path, "dead"))
    # Makers and a lone player, where the rules have them.
    makers = start.get("makers")
    if makers is not None and not rules.trump_rule.names_makers:
        # put on the clause saying what makes trumps (the card turned, whoever bid), by the trump it makes
        raise SetupError(
            "this variant has no makers", (*path, "makers"), parameter=TRUMP, observed=f"trump@{_before_play(rules)}"
        )
    if makers is None and rules.trump_rule.names_makers:  # trumps are made before play: a side made them
        raise SetupError("a side makes trumps here: expected the side that made them, found none", (*path, "makers"),
                         observed=_at_play("makers"))  # fmt: skip
    if makers is not None and (type(makers) is not int or not 0 <= makers < nsides):
        raise SetupError(f"expected a side index 0..{nsides - 1} or null", (*path, "makers"), parameter=SIDES)
    if makers is not None and (wrong := rules.trump_rule.wrong_makers(st, makers)):
        raise SetupError(wrong, (*path, "makers"), observed=_at_play("makers"))
    st.makers = makers
    lone = start.get("lone")
    if lone is not None and not rules.has_lone:
        raise SetupError("this variant has no lone player", (*path, "lone"), parameter=LONE)
    if lone is not None:
        lone = seats.seat(lone, (*path, "lone"))
        if makers != seats.side_of[lone]:
            raise SetupError("a lone player must be one of the makers", (*path, "lone"), observed=_at_play("lone"))
        active = [True] * seats.n
        for p in seats.partners(lone):
            if st.hands[p]:
                raise SetupError(
                    f"seat {p} sits out while seat {lone} plays alone", ("hands", str(p)), observed=_at_play("lone")
                )
            active[p] = False
        st.set_active(active)
    st.lone = lone
    # The trick on the table.
    trick = start.get("trick", [])
    if not isinstance(trick, list) or len(trick) >= st.n_active:
        raise SetupError(f"expected a list of fewer than {st.n_active} plays", (*path, "trick"), observed=_at_play("trick"))
    for i, entry in enumerate(trick):
        where = (*path, "trick", i)
        if not isinstance(entry, dict) or set(entry) != {"seat", "card"}:
            raise SetupError("expected {seat, card}", where)
        seat = seats.seat(entry["seat"], (*where, "seat"))
        if not st.active[seat] or (i > 0 and seat != st.next_active[st.trick_seats[-1]]):
            raise SetupError(
                "trick cards must come from active seats in play order", (*where, "seat"), observed=_at_play("to_act")
            )
        st.trick_seats.append(seat)
        st.trick_cards.append(cards.one(entry["card"], (*where, "card")))
    cards.groups.append(((*path, "trick"), st.trick_cards))
    to_act = seats.seat(start.get("to_act"), (*path, "to_act"))
    if not st.active[to_act] or (st.trick_seats and to_act != st.next_active[st.trick_seats[-1]]):
        raise SetupError(
            "expected the active seat after the last card of the trick", (*path, "to_act"), observed=_at_play("to_act")
        )
    # Hands: seats that played to this trick hold one card fewer.
    size = len(st.hands[to_act])
    if size < 1:
        raise SetupError("the seat to act holds no card", ("hands", str(to_act)), observed=_at_play("hands"))
    for seat in range(seats.n):
        want = (size - 1 if seat in st.trick_seats else size) if st.active[seat] else 0
        if len(st.hands[seat]) != want:
            raise SetupError(
                f"expected {want} cards, found {len(st.hands[seat])}", ("hands", str(seat)), observed=_at_play("hands")
            )
    # Piles and trick counts.
    piles = start.get("piles", {})
    if not isinstance(piles, dict):
        raise SetupError("expected a mapping side index -> cards", (*path, "piles"))
    for key, pile in piles.items():
        if not isinstance(key, str) or not key.isdigit() or not 0 <= int(key) < nsides:
            raise SetupError(f"expected a side key \"0\"..\"{nsides - 1}\"", (*path, "piles", key), parameter=SIDES)
        st.piles[int(key)] = cards.many(pile, (*path, "piles", key))
    default_tricks = [len(p) // st.n_active for p in st.piles]
    tricks = start.get("tricks", default_tricks)
    if not isinstance(tricks, list) or len(tricks) != nsides or any(
        type(t) is not int or t < 0 for t in tricks
    ):
        raise SetupError(f"expected {nsides} trick counts, one per side", (*path, "tricks"), parameter=SIDES)
    for side, pile in enumerate(st.piles):
        if len(pile) != tricks[side] * st.n_active:
            raise SetupError(
                f"side {side} has {tricks[side]} tricks of {st.n_active} cards but {len(pile)} cards",
                (*path, "piles", str(side)),
                observed=_at_play("piles"),
            )
    st.tricks = list(tricks)
    _leader(rules, st, st.trick_seats[0] if st.trick_seats else to_act, path)
    value = rules.cards.value
    st.totals = [sum(value[c] for c in pile) for pile in st.piles]
    # The indicator lies under the stock (its last card) while the stock lasts; once the stock is drawn out, it was
    # drawn, and may be out of play.
    indicator = start.get("indicator")
    if indicator is not None and rules.draw is None:  # the indicator lies under a stock drawn from: none here
        # put on the clauses of how its trumps are made, by the cards they turn
        raise SetupError(
            "this variant has no trump indicator", (*path, "indicator"), parameter=TRUMP, observed=_at_play("turned")
        )
    if indicator is not None:
        ind = cards.one(indicator, (*path, "indicator"))
        if st.stock and st.stock[-1] != ind:
            raise SetupError(
                "the indicator lies under the stock, its last card, while the stock lasts, not out of play or elsewhere",
                (*path, "indicator"),
                parameter=INDICATOR,
                observed=f"stock@{_before_play(rules)}",  # put under the stock as trumps are made, and left there
            )
        if rules.cards.suit_of[ind] != suit:  # turned for trumps, or a card of the suit turned put in its place
            code, trumps = rules.cards.codes[ind], rules.cards.suits[suit]
            raise SetupError(
                f"the indicator shows trumps: {code} is no card of {trumps}", (*path, "indicator"), parameter=TRUMP,
                observed=_at_play("indicator"),
            )
        st.indicator = ind
    # The cards turned while making trumps: a record of the deal before the start, not a place of its cards (the
    # trump card lies under the stock, or was drawn since); where the trump rule leaves them is held once every card
    # is placed (_turned_lie).
    turned = start.get("turned", [])
    if not isinstance(turned, list):
        raise SetupError("expected a list of card codes", (*path, "turned"))
    st.turned = [cards.one(code, (*path, "turned", i)) for i, code in enumerate(turned)]
    if len(set(st.turned)) < len(st.turned):
        raise SetupError("expected each card turned once", (*path, "turned"), parameter=TRUMP, observed=_at_play("turned"))
    unturnable = rules.trump_rule.unturnable(st.turned, suit, st.indicator)
    if unturnable is not None:
        at, why = unturnable
        raise SetupError(why, (*path, "turned", at), parameter=TRUMP, observed=_at_play("turned"))
    draw = rules.draw
    # A stock without its indicator is refused for that once every card is placed (_indicator_given); how it draws
    # out depends on where the indicator lies.
    if st.stock and (draw is None or (st.indicator is not None and draw.left_to_draw(st) % st.n_active)):
        raise SetupError(
            f"expected a stock that draws out evenly to {st.n_active} players (or none)",
            ("stock",),
            parameter=DRAW,
            observed=_at_play("stock"),
        )
    if draw is not None and draw.indicator_dead and not st.stock:
        raise SetupError(
            "the indicator is never drawn: it lies under the stock, its last card, for the whole deal, so a stock "
            "in play holds it",
            ("stock",),
            parameter=INDICATOR,
            observed=_at_play("stock"),
        )
    st.phase = Phase.PLAY
    st.to_act = to_act
