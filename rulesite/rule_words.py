"""A variant's parameters in words: what each part of the game is at this table, as a player would read it.

Each sentence is built from the resolved variant alone, so changing a parameter changes the words. A rule
component this module has no words for is named as it stands, so a new component shows up rather than
vanishing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulesite import cards, table_words
from rulesite.table_words import whole
from specreader.jsontypes import Json

# The setup choice of the match's target, as a clause's choices and usual name it.
TARGET_CHOICE = "setup.match.target"
# A choice of the table's set-up that no parameter holds, said in the words of the clause leaving it to the table.
DEALER_CHOICE = "setup.dealer"


@dataclass(frozen=True)
class Fact:
    topic: str  # "Players", "Trumps"...
    words: str  # plain text; card codes in it are drawn by the page
    # The variant parameters (dotted paths) the topic is about: the rulings deciding one of them are marked
    # under the words (ruling_marks). The words may read more (the trick's lead reads going alone).
    about: tuple[str, ...] = ()
    # The clause whose own text the words are (a set-up choice it leaves to the table): a page that lists the
    # clause says them there.
    clause: str = ""


def _mapping(value: object) -> Json:
    return value if isinstance(value, dict) else {}


def _component(variant: Json, name: str) -> Json | None:
    components = variant.get("components")
    found = components.get(name) if isinstance(components, dict) else None
    return found if isinstance(found, dict) else None


def _rank_names(order: str) -> str:
    return ", ".join(cards.RANKS[r][0] if r in cards.RANKS else r for r in order.split())


PACKETS = "deal.packets"


def players(variant: Json) -> str:
    n = whole(variant.get("players"))
    names = table_words.side_names(variant)
    if not table_words.has_partners(variant):
        return f"{table_words.number(n).capitalize()} players, each playing alone."
    sizes = {len(s) for s in table_words.sides_of(variant)}
    size = "pairs" if sizes == {2} else "teams of three" if sizes == {3} else "sides"
    how = "partners sitting opposite" if sizes == {2} else "partners alternating round the table"
    # A team of three's names already hold commas: its two teams are one against the other.
    together = " against ".join(names) if sizes == {3} else ", ".join(names)
    said = f"{table_words.number(n).capitalize()} players in {table_words.number(len(names))} {size}, {how} ({together})."
    seats = table_words.seat_names(variant)
    if any(seat not in table_words.COMPASS_ORDER for seat in seats):  # first names say no place at the table by themselves
        said += f" The names go round the table in the order of play: {table_words.and_list(seats)}."
    return said


def direction(variant: Json) -> str:
    d = str(variant.get("direction", ""))
    side = "right" if d == "anticlockwise" else "left"
    trump = _component(variant, "trump") or {}
    bidding = trump.get("rule") == "otea" and trump.get("bidders") != "none"
    steps = ["dealing", *(["bidding"] if bidding else []), "play", *(["drawing"] if _component(variant, "draw") else [])]
    said = ", ".join(steps[:-1]) + " and " + steps[-1]
    return f"{said.capitalize()} go {d}: the turn goes to the {side}-hand neighbour."


def pack(variant: Json) -> str:
    deck = _mapping(variant.get("deck"))
    ranks = str(deck.get("ranks", "")).split()
    suits = str(deck.get("suits", "")).split()
    return (
        f"{len(ranks) * len(suits)} cards: {_rank_names(' '.join(ranks))} in each of the {table_words.number(len(suits))} suits."
    )


def ranking(variant: Json) -> str:
    rk = _mapping(variant.get("ranking"))
    out = f"In every suit, from high to low: {_rank_names(str(rk.get('plain_order', '')))}."
    if rk.get("trump_order"):
        plain, trumps = _rank_names(str(rk["plain_order"])), _rank_names(str(rk["trump_order"]))
        out = f"In plain suits, from high to low: {plain}. In trumps: {trumps}."
    tops = rk.get("top_trumps")
    if isinstance(tops, list) and tops:
        trees = " (the Trees)" if (_component(variant, "cut") or {}).get("rule") == "tree-cut" else ""
        out += f" Above every trump, whatever suit is trumps: {' then '.join(str(t) for t in tops)}{trees}."
        out += _tops_in_their_own_suit(tops, str(rk.get("trump_order") or rk.get("plain_order", "")))
    return out


def _tops_in_their_own_suit(tops: list[Any], trump_order: str) -> str:
    """Top trumps all of one suit are counted once when that suit is trumps: how many trumps that makes, and any
    other suit."""
    faces = [cards.face(t) for t in tops]
    if not faces or any(f is None for f in faces) or len({f.suit.name for f in faces if f}) != 1:
        return ""
    order = trump_order.split()
    own = [f for f in faces if f and f.code[:-1] in order]
    if not own:
        return ""
    suit = own[0].suit.name
    names = table_words.and_list([cards.RANKS[f.code[:-1]][1] for f in own])
    alone, other = len(order) - len(own) + len(tops), len(order) + len(tops)
    return (
        f" With {suit} trumps, the {names} of {suit} count only as those top trumps:"
        f" {table_words.number(alone)} trumps, against {table_words.number(other)} with any other suit."
    )


def values(variant: Json) -> str | None:
    vals = variant.get("values")
    if not isinstance(vals, dict):
        return None
    counting = [f"{cards.RANKS[r][1] if r in cards.RANKS else r} {v}" for r, v in vals.items() if v]
    nothing = [cards.RANKS[r][0] if r in cards.RANKS else r for r, v in vals.items() if not v]
    deck = _mapping(variant.get("deck"))
    total = sum(whole(v) for v in vals.values()) * len(str(deck.get("suits", "")).split())
    tail = f"; {', '.join(nothing)} count nothing" if nothing else ""
    return f"Cards won count {', '.join(counting)}{tail}: {total} in the pack."


def deal(variant: Json, conventions: frozenset[str] = frozenset()) -> str:
    """``conventions``: where ``deal.packets`` is among them, the packets are only how a deal written out card by
    card is turned into hands (its clause gives no rule for the table), and the table deals in any fair way."""
    d = _mapping(variant.get("deal"))
    packets = d.get("packets", [1])
    how = "one at a time" if packets == [1] else "in packets of " + " then ".join(str(p) for p in packets)
    each = f"{table_words.number(whole(d.get('hand_size'))).capitalize()} cards each"
    order = "from the player after the dealer round to the dealer"  # the order of play, which every game deals in
    if PACKETS in conventions:
        out = f"{each}, dealt in any fair way (the deals shown on this site give them {how}, {order})"
    else:
        out = f"{each}, dealt {how} {order}"
    if d.get("stock"):
        out += f"; {table_words.number(whole(d['stock']))} cards are left as the stock"
    else:
        out += "; the rest is the stock"
    return out + "."


def first_dealer(variant: Json) -> str | None:
    c = _component(variant, "first_dealer")
    if c is None:
        return None
    if c.get("rule") == "draw-nines":
        first = c.get("card")
        return (
            f"Each player draws one of the nines: red against black make the partnerships, and whoever draws {first}"
            " deals first."
        )
    return f"Set-up: {c.get('rule')}."


def cut(variant: Json) -> str | None:
    c = _component(variant, "cut")
    if c is None:
        return None
    if c.get("rule") == "tree-cut":
        # the player before the dealer in play order sits on the side the turn does not go to
        side = "left" if str(variant.get("direction", "")) == "anticlockwise" else "right"
        return (
            f"The player on the dealer's {side} cuts, lifting the top part of the pack: if the card at the bottom of"
            " the part lifted is a Tree, the cutter may take it, and then the card above it too if it is the other"
            " Tree. The lifted part goes under the rest. The cutter keeps each Tree taken and is dealt that many"
            " fewer cards in the first packet, so still holds five."
        )
    return f"The cut: {c.get('rule')}."


# The turn-up's discard parameter, in words after "discards as many"
_DISCARDS = {"any": ", any cards of the hand, those just taken included"}


def trump(variant: Json) -> str:
    c = _component(variant, "trump") or {}
    rule = c.get("rule")
    if rule == "otea":
        if c.get("bidders") == "none":
            return (
                "Nobody bids: the dealer turns the top card of the stock, and its suit is trumps; it goes under the"
                " stock, face up, as the indicator, the last card drawn."
            )
        return (
            "Otea: the dealer's opponents each have one turn, starting from the player after the dealer, to lay a card"
            " face up as a bid, of a suit nobody has bid, or to pass. The dealer turns the top card of"
            " the stock: its suit is trumps. Whoever bid that suit takes the turned card, and the bid card goes face up"
            " under the stock as the indicator (else the turned card does); other bids go back to hand."
        )
    if rule == "turn-up":
        discard = _DISCARDS.get(str(c.get("discard", "any")), f" ({c.get('discard')})")
        # A stock of one suit binds forehand only once refused: on accepting, the rest is never turned.
        return (
            "The top card of the stock is turned; forehand (the player after the dealer) accepts its suit or"
            " refuses it. After a refusal the stock is turned on until another suit shows, a Tree counting as a club,"
            " and that suit is trumps; if all four cards prove of one suit, that suit is trumps all the same."
            " Forehand's side become the makers; forehand takes the card that made trumps (all four, when they"
            f" proved of one suit) and discards as many{discard}. The rest of the stock is out of play."
        )
    return f"Trumps: {rule}."


def look(variant: Json) -> str | None:
    c = _component(variant, "look")
    if c is None or not table_words.has_partners(variant):
        return None
    return "Once trumps are made, partners may look at each other's hands, once."


def lone(variant: Json) -> str | None:
    c = _component(variant, "lone")
    if c is None:
        return None
    return (
        "Either maker may go alone, forehand deciding first; the partner's hand is laid aside for the deal, and the lone"
        " player scores as the pair would."
    )


def legality(variant: Json) -> str:
    c = _component(variant, "legality") or {}
    if c.get("rule") == "free":
        return "Any card may be played at any time: no duty to follow suit or to trump."
    if c.get("rule") == "follow-then-trump":
        out = "A player must follow suit if able, else trump if able, else play any card."
        if c.get("top_trump_suit_exception"):
            out += (
                " The Trees belong to the trump suit, not to clubs, with one exception: when an ordinary club (any club"
                " but a Tree) is led and clubs are not trumps, a player holding an ordinary club may play it or a Tree,"
                " and one holding no ordinary club but a Tree must play a Tree."
            )
        return out
    return f"Legal cards: {c.get('rule')}."


def trick(variant: Json) -> str:
    lead = "The player after the dealer leads first"
    if _component(variant, "lone") is not None:
        lead += (
            "; when that player's hand is laid aside for a partner playing alone, the next player after them in play"
            " order leads"
        )
    rule = (_component(variant, "trick") or {}).get("rule")
    if rule == "highest-trump-else-led-suit":
        return f"{lead}. The highest trump wins the trick, else the highest card of the suit led, and its winner leads the next."
    return f"{lead}. " + (f"The trick: {rule}; its" if rule else "Each trick's") + " winner leads the next."


def draw(variant: Json) -> str | None:
    c = _component(variant, "draw")
    if c is None:
        return None
    two = whole(variant.get("players")) == 2
    others = "the other" if two else "the others in the order of play"
    last = "the trick's loser" if two else "the player just before the winner"
    out = f"After each trick, while the stock lasts, each player draws one card, the trick's winner first, then {others}."
    if c.get("indicator") == "dead":
        out += " The indicator is never drawn: it stays under the stock for the whole deal and counts for nobody."
        return out + " Once it is all the stock holds, the hands are played out without drawing."
    out += f" The indicator, last of the stock, goes to the last player to draw, {last}."
    return out + " Then the hands are played out without drawing."


def score(variant: Json) -> str:
    c = _component(variant, "score") or {}
    rule = c.get("rule")
    if rule == "mrithi":
        line = whole(c.get("line_per_member"))
        return (
            f"The side with the single highest total wins {table_words.plural(whole(c.get('single')), 'victory point')},"
            f" or {table_words.number(whole(c.get('double')))} if a losing side ends under its mrithi line"
            f" ({line} points for each of its players; a side exactly on its line is not under it). A tie for the top"
            " scores nothing."
        )
    if rule == "over-threshold":
        single = table_words.plural(whole(c.get("single")), "victory point")
        who = "side" if table_words.has_partners(variant) else "player"  # where each plays alone, nobody says "side"
        out = f"A {who} with more than {c.get('win_over')} points wins {single}"
        if c.get("double_over") is not None:
            out += f", with more than {c.get('double_over')} {table_words.number(whole(c.get('double')))}"
        return out + f". When no {who} has more than {c.get('win_over')}, nobody scores."
    if rule == "tricks":
        table = _mapping(c.get("table"))
        by_points: dict[int, list[int]] = {}  # tricks paying alike said together: "one point for three or four tricks"
        for k, v in table.items():
            by_points.setdefault(whole(v), []).append(int(k) if str(k).isdigit() else 0)
        pays = ", ".join(
            table_words.plural(points, "point") + " for "
            + " or ".join(table_words.number(n) for n in counts) + f" trick{'s' if counts != [1] else ''}"
            for points, counts in by_points.items()
        )
        out = f"The side taking most tricks scores {pays}."
        if c.get("makers_lose"):
            out += f" Makers who take fewer tricks than the defenders also score {whole(c['makers_lose']):+d}."
        return out
    return f"Scoring: {rule}."


def dealer(variant: Json) -> str:
    c = _component(variant, "dealer") or {}
    if c.get("rule") == "deal-winner":
        score = _component(variant, "score") or {}
        over = f"nobody over {whole(score.get('win_over'))}"
        nobody = f"a deal nobody wins ({over}, or a tie)" if score.get("rule") == "over-threshold" else "a tie"
        out = "The winner of a deal deals the next"
        if table_words.has_partners(variant):
            out += (
                " (a winning side names which member; if none, the one who dealt least recently deals: one who has"
                " not dealt yet comes first, and of several who have not, the first after this deal's dealer in the"
                " order of play)"
            )
        return out + f"; after {nobody} the same dealer deals again."
    if c.get("rule") == "next-in-play-order":
        return "The deal passes to the next player in the order of play."
    return f"The next dealer: {c.get('rule')}."


def match(variant: Json, usual: Mapping[str, list[Any]]) -> str:
    c = _component(variant, "match") or {}
    rule = c.get("rule")
    if rule == "open":
        if c.get("target"):
            return f"Victory points are added up; the first to {c['target']} wins."
        return (
            "Victory points are added up on a score sheet, deal after deal, for as long as the table likes; the game"
            " names no winner unless the table agrees a target before play."
        )
    if rule == "vp-target":
        agreed = usual.get(TARGET_CHOICE)
        if agreed:
            words = [table_words.number(whole(v)) for v in agreed]
            said = ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]
            return f"The first side to reach the target agreed before play, usually {said} victory points, wins the match."
        target = table_words.plural(whole(c.get("target")), "victory point")
        return f"The first side to reach the target agreed before play wins the match: {target} unless the table agrees another."
    if rule == "rounds":
        rounds = table_words.plural(whole(c.get("rounds_to_win")), "round")
        lose = (_component(variant, "score") or {}).get("makers_lose")
        out = "Each side's total may fall below 0. " if lose and whole(lose) < 0 else ""
        out += f"A round goes to the first side to {c.get('round_target')} points, and both sides' totals then go back"
        out += f" to 0; {rounds} win the match."
        if c.get("decider") == "single-deal":
            tricks = table_words.plural(whole(c.get("decider_tricks")), "trick")
            out += f" At one round all, a single deal decides: {tricks} win it."
        if c.get("lone_all_five_wins_round"):
            out += " A player alone who takes every trick wins the round at once."
        return out
    return f"The match: {rule}."


def facts(
    variant: Json,
    usual: Mapping[str, list[Any]] | None = None,
    conventions: frozenset[str] = frozenset(),
    told: Mapping[str, tuple[str, str]] | None = None,
) -> list[Fact]:
    """Every part of the game at this table, in the order of a deal. ``usual``: the values tables commonly agree
    for a setup choice, by its path (the ``usual`` of the clauses that apply to the variant). ``conventions``: the
    parameters that say only how the kit writes something down, not what the table must do (their clauses
    give an engine note and no text). ``told``: a set-up choice no parameter holds, by its path: the clause that
    leaves it to the table (who deals first) and its words."""
    usual = usual or {}
    told = told or {}
    told_words = {choice: words for choice, (_, words) in told.items()}
    found: list[tuple[str, str | None, tuple[str, ...]]] = [  # topic, words, about
        ("Players", players(variant), ("players", "sides")),
        ("Direction", direction(variant), ("direction",)),
        ("Pack", pack(variant), ("deck",)),
        ("Rank", ranking(variant), ("ranking",)),
        ("Values", values(variant), ("values",)),
        ("Partners and first dealer", first_dealer(variant), ("components.first_dealer",)),
        ("First dealer", None if first_dealer(variant) else told_words.get(DEALER_CHOICE), (DEALER_CHOICE,)),
        ("The cut", cut(variant), ("components.cut",)),
        ("The deal", deal(variant, conventions), ("deal",)),
        ("Trumps", trump(variant), ("components.trump",)),
        ("Partners' look", look(variant), ("components.look",)),
        ("Going alone", lone(variant), ("components.lone",)),
        ("Play", legality(variant), ("components.legality",)),
        ("The trick", trick(variant), ("components.trick",)),
        ("Drawing", draw(variant), ("components.draw",)),
        ("Scoring", score(variant), ("components.score",)),
        ("Next dealer", dealer(variant), ("components.dealer",)),
        ("The match", match(variant, usual), ("components.match",)),
    ]
    return [
        Fact(topic, words, about, next((told[a][0] for a in about if a in told), ""))
        for topic, words, about in found
        if words
    ]
