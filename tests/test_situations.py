"""The situation a play is made, a trick won or a deal scored in (conformance/suite/situations.py), which a
clause's ``when`` names: the card led, whether the player is held to some cards, the highest kind of card a trick
holds and the card it is given to, how a deal ended; validate holds ``when`` to clauses ruling on plays, on tricks or
on what follows from a deal's end."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.suite import schemas, situations
from conformance.suite.observing import clauses_of
from conformance.suite.scenarios import deck_of
from conformance.suite.situations import Situation, deal_scored_at, situation_at, trick_won_at
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
    ended = schema["$defs"]["clause"]["properties"]["when"]["properties"]["result"]["items"]["enum"]
    assert set(ended) == {situations.SINGLE, situations.DOUBLE, situations.TIE, situations.NOBODY}
    given_to = schema["$defs"]["clause"]["properties"]["when"]["properties"]["given_to"]["items"]["enum"]
    assert set(given_to) == {situations.TRUMP, situations.SUIT_LED, situations.OFF_SUIT}


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


def test_a_player_whose_every_card_follows_the_suit_led_is_held_to_it() -> None:
    """The duty to follow binds, though it leaves every card in hand: the player is not free to play any card, as
    a player who can neither follow nor trump is."""
    hands = {**SETUP["hands"], "1": ["9H", "JH", "QH", "KH", "TH"], "2": ["TC", "TD", "TS", "KC", "KD"],
             "3": ["QD", "QS", "JS", "9S", "JC"]}  # fmt: skip
    start = {**SETUP["start"], "dead": ["9C", "KS", "9D", "JD"]}
    engine = Engine.new("altbaumer-standard", {**SETUP, "hands": hands, "start": start})
    engine.apply({"type": "play", "seat": 0, "card": "AH"})
    assert len(engine.legal_actions()) == len(hands["1"])
    assert situation_at(engine) == Situation("plain", True)


@pytest.mark.parametrize(
    ("plays", "situation"),
    [
        (["AH", "KH", "TH", "QH"], Situation("plain", trick="plain")),
        (["AC", "9C", "TC", "QD"], Situation("top_trump_suit", trick="trump")),  # seat 3, with no club, trumps
        (["AD", "KD", "TD", "QD"], Situation("trump", trick="trump")),
        (["QC", "JC", "TD", "QD"], Situation("top_trump", trick="top_trump")),
    ],
)
def test_the_situation_of_a_trick_won_names_its_card_led_and_the_highest_kind_it_holds(
    plays: list[str], situation: Situation
) -> None:
    engine = Engine.new("altbaumer-standard", SETUP)
    assert trick_won_at(engine) is None
    for seat, card in enumerate(plays):
        engine.apply({"type": "play", "seat": seat, "card": card})
    assert engine.snapshot()["last_trick"]["cards"] == [{"seat": seat, "card": card} for seat, card in enumerate(plays)]
    assert trick_won_at(engine) == situation


# Clubs trumps (the 6C turned), seat 1 leads from AD KD QD; seat 0 holds one card of each kind to answer with.
BRISCOLA_DEAL = ["AD", "3D", "KD", "2C", "QD", "AS", "6C"]


@pytest.mark.parametrize(
    ("answer", "given_to", "kind"),
    [
        ("3D", 0, "suit_led"),
        ("3D", 1, "suit_led"),  # the card led
        ("2C", 0, "trump"),
        ("AS", 0, "off_suit"),
        # what another engine says is untrusted: a seat that played no card, or no seat, tells nothing
        ("AS", 2, None),
        ("AS", True, None),
        ("AS", "0", None),
        ("AS", None, None),
    ],
)
def test_the_situation_of_a_trick_won_names_the_kind_of_card_another_engine_gives_it_to(
    answer: str, given_to: object, kind: str | None
) -> None:
    deck = deck_of(variant("briscola-2p"))
    engine = Engine.new("briscola-2p", {"dealer": 0, "deck": BRISCOLA_DEAL + [c for c in deck if c not in BRISCOLA_DEAL]})
    engine.apply({"type": "play", "seat": 1, "card": "AD"})
    engine.apply({"type": "play", "seat": 0, "card": answer})
    situation = trick_won_at(engine, given_to)
    assert situation is not None and situation.given_to == kind


def test_a_tree_is_a_trump_to_the_trick_it_is_given() -> None:
    engine = Engine.new("altbaumer-standard", SETUP)
    for seat, card in enumerate(["QC", "JC", "TD", "QD"]):
        engine.apply({"type": "play", "seat": seat, "card": card})
    assert [trick_won_at(engine, seat) for seat in (0, 1)] == [Situation("top_trump", trick="top_trump", given_to="trump")] * 2


@pytest.mark.parametrize(("lone", "alone"), [("pass", False), ("alone", True)])
def test_how_a_deal_ended_says_whether_a_player_went_alone_and_the_deal_decided_the_match(lone: str, alone: bool) -> None:
    engine = Engine.new("altbaumer-standard", {"dealer": 0, "deck": deck_of(variant("altbaumer-standard"))})
    assert deal_scored_at(engine) is None
    while not engine.snapshot().get("result"):
        actions = engine.legal_actions()
        engine.apply(next((a for a in actions if a["type"] == lone), actions[0]))
    assert deal_scored_at(engine) == Situation(None, result=situations.SINGLE, alone=alone, decider=False)


def test_an_altbaumer_deal_s_score_and_round_are_named_after_the_clauses_ruling_on_how_it_ended() -> None:
    """Three clauses observe an Altbaumer deal's score: the lone player's rules on a deal played alone only. Three
    observe the round a deal wins: the deciding deal's rules on it alone, the lone sweep's on a deal played alone."""
    clauses = clauses_of("altbaumer-standard")
    scored = clauses.for_field("result.deal_score", "play")
    assert clauses.in_situation(scored, Situation(None, result="single", alone=False, decider=False)) == (
        "altbaumer.score.tricks", "altbaumer.score.makers-lose"
    )
    assert clauses.in_situation(scored, Situation(None, result="single", alone=True, decider=False)) == scored
    rounds = clauses.for_field("match.round_winner", "play")
    ended = {(alone, decider): clauses.in_situation(rounds, Situation(None, result="single", alone=alone, decider=decider))
             for alone in (False, True) for decider in (False, True)}  # fmt: skip
    assert ended == {
        (False, False): ("altbaumer.match.round-win",),
        (True, False): ("altbaumer.match.round-win", "altbaumer.match.lone-sweep"),
        (False, True): ("altbaumer.match.decider",),
        (True, True): ("altbaumer.match.decider",),
    }


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
    said = f"{path}:9:12: $.clauses[0].when.led: expected the clause to observe legal.play: when.led says the plays it rules on"
    assert said in capsys.readouterr().err.splitlines()
    path = write("clauses.yaml", CLAUSE.format(observes="legal.play").replace("{led: [top_trump]}", "{trick: [plain]}"))
    assert main(["validate", str(path)]) == 2
    said = "$.clauses[0].when.trick: expected the clause to observe last_trick.winner: when.trick says the tricks it rules on"
    assert f"{path}:9:12: {said}" in capsys.readouterr().err.splitlines()
    path = write("clauses.yaml", CLAUSE.format(observes="legal.play").replace("{led: [top_trump]}", "{given_to: [off_suit]}"))
    assert main(["validate", str(path)]) == 2
    said = "$.clauses[0].when.given_to: expected the clause to observe last_trick.winner: when.given_to says the tricks"
    said += " it rules on"
    assert f"{path}:9:12: {said}" in capsys.readouterr().err.splitlines()


def test_validate_holds_when_result_to_a_clause_observing_what_follows_from_a_deal_s_end(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write("clauses.yaml", CLAUSE.format(observes="result.vp").replace("{led: [top_trump]}", "{result: [tie]}"))
    assert main(["validate", str(path)]) == 0, capsys.readouterr().err
    path = write("clauses.yaml", CLAUSE.format(observes="result.winner").replace("{led: [top_trump]}", "{result: [tie]}"))
    assert main(["validate", str(path)]) == 2
    fields = ", ".join(situations.DEAL_ENDED)
    said = f"$.clauses[0].when.result: expected the clause to observe one of {fields}: when.result says the deals it rules on"
    assert f"{path}:9:12: {said}" in capsys.readouterr().err.splitlines()
    path = write("clauses.yaml", CLAUSE.format(observes="result.winner").replace("{led: [top_trump]}", "{alone: true}"))
    assert main(["validate", str(path)]) == 2
    said = f"$.clauses[0].when.alone: expected the clause to observe one of {fields}: when.alone says the deals it rules on"
    assert f"{path}:9:12: {said}" in capsys.readouterr().err.splitlines()
    path = write("clauses.yaml", CLAUSE.format(observes="result.next_dealer").replace("{led: [top_trump]}", "{result: [tie]}"))
    assert main(["validate", str(path)]) == 0, capsys.readouterr().err  # who deals next hangs on how the deal ended too
