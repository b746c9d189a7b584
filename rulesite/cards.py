"""What a card code such as ``TD`` means: rank, suit, colour and names. templates/cards.html.j2 draws them."""

from __future__ import annotations

import re
from dataclasses import dataclass

from specreader.notation import RANK, SUIT

_CARD = re.compile(f"^({RANK})({SUIT})$")
SUITS = {"C": ("♣", "clubs", "black"), "D": ("♦", "diamonds", "red"), "H": ("♥", "hearts", "red"), "S": ("♠", "spades", "black")}
RANKS = {
    "A": ("A", "ace"),
    "K": ("K", "king"),
    "Q": ("Q", "queen"),
    "J": ("J", "jack"),
    "T": ("10", "ten"),
    "9": ("9", "nine"),
    "8": ("8", "eight"),
    "7": ("7", "seven"),
    "6": ("6", "six"),
    "5": ("5", "five"),
    "4": ("4", "four"),
    "3": ("3", "three"),
    "2": ("2", "two"),
}
# U+FE0E asks for the text presentation of the suit symbol, never a colour emoji.
TEXT_PRESENTATION = "\ufe0e"

_CARD_IN_TEXT = re.compile(f"\\b({RANK})({SUIT})\\b")


def in_symbols(text: str) -> str:
    """Text with each card code said as players write a card, rank and suit symbol: "AC beats the led 7C" reads
    "A♣ beats the led 7♣", "TD" reads "10♦". For headings, where a card drawn as a picture would not do."""
    return _CARD_IN_TEXT.sub(lambda m: RANKS[m[1]][0] + SUITS[m[2]][0] + TEXT_PRESENTATION, text)


@dataclass(frozen=True)
class Suit:
    glyph: str  # with the text presentation selector
    name: str
    colour: str


@dataclass(frozen=True)
class Face:
    code: str
    rank: str  # as printed: 10 for T
    suit: Suit
    name: str  # "ten of diamonds"


def is_card(value: object) -> bool:
    return isinstance(value, str) and bool(_CARD.match(value))


def suit(letter: object) -> Suit | None:
    if not isinstance(letter, str) or letter not in SUITS:
        return None
    glyph, name, colour = SUITS[letter]
    return Suit(glyph + TEXT_PRESENTATION, name, colour)


def face(code: object) -> Face | None:
    """The card a code names, or None for anything that is not a card code."""
    m = _CARD.match(code) if isinstance(code, str) else None
    if m is None:
        return None
    rank, letter = m.groups()
    shown, rank_name = RANKS[rank]
    of = suit(letter)
    assert of is not None  # the pattern admits only known suits
    return Face(m.group(0), shown, of, f"{rank_name} of {of.name}")
