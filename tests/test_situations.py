"""The situation a play is made in (conformance/suite/situations.py), which a clause's ``when`` names: the card
led and whether the player is held to some cards; validate holds ``when`` to clauses ruling on plays."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.suite import schemas, situations
from conformance.suite.scenarios import deck_of
from conformance.suite.situations import Situation, situation_at
from reference import Engine
from specreader.spec import variant

Write = Callable[[str, str], Path]

# Diamonds trumps, seat 0 to lead; seat 1 holds a card of every kind a lead may call for.
SETUP = {
    "dealer": 3,
    "hands": {
        "0": ["QC", "AC", "AD", "AH", "AS"],
        "1": ["JC", "KD", "KH", "KS", "9C"],
        "2": ["TC", "TD", "TH", "TS", "KC"],
        "3": ["QD", "QH", "QS", "JH", "JS"],
    },
    "stock": [],
    "start": {"phase": "play", "trump": "D", "to_act": 0, "makers": 0, "lone": None, "dead": ["9D", "JD", "9H", "9S"]},
}


def test_the_words_of_a_card_led_are_the_schema_s() -> None:
    schema = schemas.registry().resolver().lookup(schemas.BASE + "clauses.schema.json").contents
    enum = schema["$defs"]["clause"]["properties"]["when"]["properties"]["led"]["items"]["enum"]
    assert set(enum) == {situations.TOP_TRUMP, situations.TRUMP, situations.TOP_TRUMP_SUIT, situations.PLAIN}


@pytest.mark.parametrize(
    ("led", "situation"),
    [
        (None, Situation(None, False)),  # seat 0 leads: any card
        ("QC", Situation("top_trump", True)),  # a Tree
        ("AD", Situation("trump", True)),
        ("AC", Situation("top_trump_suit", True)),  # an ordinary club, diamonds trumps
        ("AH", Situation("plain", True)),
    ],
)
def test_the_situation_of_a_play_names_the_card_led_and_whether_the_player_is_held(
    led: str | None, situation: Situation
) -> None:
    engine = Engine.new("altbaumer-standard", SETUP)
    if led is not None:
        engine.apply({"type": "play", "seat": 0, "card": led})
    assert situation_at(engine) == situation


def test_no_situation_outside_play() -> None:
    engine = Engine.new("altbaumer-standard", {"dealer": 3, "deck": deck_of(variant("altbaumer-standard"))})
    assert engine.snapshot()["phase"] != "play" and situation_at(engine) is None


CLAUSE = """\
game: altbaumer
title: T
sections: [{{id: play, title: P}}]
clauses:
  - id: altbaumer.play.x
    title: T
    section: play
    observes: [{observes}]
    when: {{led: [top_trump]}}
    text: A player MUST play a trump.
    sources: [altbaumer-account]
"""


def test_validate_holds_when_to_a_clause_ruling_on_plays(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    path = write("clauses.yaml", CLAUSE.format(observes="legal.play"))
    assert main(["validate", str(path)]) == 0, capsys.readouterr().err
    path = write("clauses.yaml", CLAUSE.format(observes="legal.trump"))
    assert main(["validate", str(path)]) == 2
    said = f"{path}:9:5: $.clauses[0].when: expected the clause to observe legal.play: when says the plays it rules on"
    assert said in capsys.readouterr().err.splitlines()
