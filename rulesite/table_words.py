"""Table language: the names players give seats and sides, and a deal's result told as a sentence.

The engine numbers seats 0.. in the order of play and sides 0.. in the variant's order; players speak of
North-South and East-West, or of Anna and Boris as the accounts do. Four players sit at the compass points
(seat 0 South, then round the table in the variant's direction); other tables get the accounts' first names.
"""

from __future__ import annotations

from specreader.jsontypes import Json

# Seats 0, 1, 2, 3 in the order of play. Seen from above with North at the top, anticlockwise play goes
# South, East, North, West (the turn goes to the right-hand neighbour); clockwise play the other way.
COMPASS = {"anticlockwise": ("South", "East", "North", "West"), "clockwise": ("South", "West", "North", "East")}
# Side names read north before south and east before west, as players say them.
COMPASS_ORDER = ("North", "South", "East", "West")
FIRST_NAMES = ("Anna", "Boris", "Carla", "Dawit", "Esther", "Faraji")
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def whole(value: object) -> int:
    """A count from the data; anything that is not a whole number counts as 0 (the site shows data, it does
    not check it: ``trickspec validate`` does)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def seat_names(variant: Json) -> list[str]:
    players = whole(variant.get("players"))
    if players == 4:
        return list(COMPASS.get(str(variant.get("direction")), COMPASS["anticlockwise"]))
    return list(FIRST_NAMES[:players]) if players <= len(FIRST_NAMES) else [f"Player {i + 1}" for i in range(players)]


def sides_of(variant: Json) -> list[list[int]]:
    sides = variant.get("sides")
    if not isinstance(sides, list):
        return [[seat] for seat in range(whole(variant.get("players")))]
    return [[whole(s) for s in side] if isinstance(side, list) else [whole(side)] for side in sides]


def side_names(variant: Json) -> list[str]:
    names = seat_names(variant)
    out = []
    for side in sides_of(variant):
        members = [names[s] for s in side if 0 <= s < len(names)]
        if all(m in COMPASS_ORDER for m in members):
            out.append("-".join(sorted(members, key=COMPASS_ORDER.index)))
        else:
            out.append(and_list(members))
    return out


def has_partners(variant: Json) -> bool:
    return any(len(side) > 1 for side in sides_of(variant))


def and_list(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def number(n: int) -> str:
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def plural(n: int, word: str) -> str:
    return f"{number(n)} {word}{'' if n == 1 else 's'}"


def _verb(side_name: str, variant: Json) -> str:
    """ "win" for a pair or a team, "wins" for one player."""
    return "win" if has_partners(variant) else "wins"


def result_sentence(result: Json, variant: Json, choice_open: bool = False) -> str:
    """A deal's result as players say it: "North-South win 72 to 48: one victory point. West deals next."
    Only what the result states is said: no victory points where it leaves them out. ``choice_open``: the deal
    has just ended, and a winning side that chooses its dealer has not chosen yet."""
    sentence = _outcome(result, variant)
    next_dealer = result.get("next_dealer")
    names = seat_names(variant)
    if isinstance(next_dealer, int) and 0 <= next_dealer < len(names):
        unless = _unless_a_partner(next_dealer, result, variant) if choice_open else ""
        sentence += f" {names[next_dealer]} deals next{unless}."
    return sentence


def _unless_a_partner(next_dealer: int, result: Json, variant: Json) -> str:
    """Where the winning side chooses its dealer (``components.dealer.team_choice``), the dealer named is the one
    no choice makes: ", unless Boris takes the deal" names the partners who may choose otherwise."""
    dealer = (variant.get("components") or {}).get("dealer") or {}
    winner = result.get("winner")
    sides = sides_of(variant)
    if not dealer.get("team_choice") or not isinstance(winner, int) or not 0 <= winner < len(sides):
        return ""
    names = seat_names(variant)
    partners = [names[s] for s in sides[winner] if s != next_dealer and 0 <= s < len(names)]
    return f", unless {' or '.join(partners)} takes the deal" if partners and next_dealer in sides[winner] else ""


def _outcome(result: Json, variant: Json) -> str:
    sides = side_names(variant)

    def side(i: object) -> str:
        return sides[i] if isinstance(i, int) and 0 <= i < len(sides) else f"side {i}"

    winner = result.get("winner")
    if "totals" in result:
        totals = [whole(t) for t in result.get("totals", [])]
        score = " to ".join(str(t) for t in sorted(totals, reverse=True))
        if winner is None:
            return f"Nobody wins the deal ({score}): no victory point is scored."
        won = f"{side(winner)} {_verb(side(winner), variant)} {score}"
        if "vp" not in result:
            return won + "."
        why = ", doubled" if result.get("double") else ""
        return f"{won}: {plural(whole(result['vp']), 'victory point')}{why}."
    if "tricks" in result:
        tricks = [whole(t) for t in result.get("tricks", [])]
        score = " to ".join(str(t) for t in sorted(tricks, reverse=True))
        scores = [whole(s) for s in result.get("deal_score", [])]
        parts = []
        for i, s in enumerate(scores):
            if s:
                parts.append(f"{side(i)} {'score' if has_partners(variant) else 'scores'} {s:+d}")
        head = f"{side(winner)} take {score} tricks" if winner is not None else f"The tricks are shared {score}"
        makers = result.get("makers")
        if isinstance(makers, int) and makers != winner:
            head += f"; {side(makers)} made trumps and lost"
        if "deal_score" not in result:
            return head + "."
        return head + (": " + and_list(parts) + "." if parts else ": nobody scores.")
    return "The deal is over."
