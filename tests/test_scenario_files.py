"""Scenario files with bad data: located errors from validate and from pytest collection, never a crash."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cli import main
from conformance.engines.adapter import reference_adapter
from conformance.run import runner
from conformance.suite.scenarios import expand_setup, load_files
from conformance.vocabulary import Outcome
from specreader import kitdata
from specreader.notation import SCENARIO_FORMAT
from specreader.problems import DataError
from specreader.spec import variant
from specreader.yamlio import load

pytest_plugins = ["pytester"]

GOOD = """\
# yaml-language-server: $schema=../schemas/scenario.schema.json
variant: albastini-2p
scenarios:
  - id: test/topic/{name}
    title: A trick
    clauses: [{clause}]
    source: {{derived: a test}}
    setup:
      dealer: 1
      hands: {{0: [AH, KC, QD, 4C, 5D], 1: [3S, 7H, 6C, 4D, 5C]}}
      stock: [rest, 6S]
      start: {{phase: play, trump: S, to_act: 0, indicator: 6S}}
    steps:
      - play: {{0: {lead}, 1: 3S}}
        expect: {{last_trick: {{winner: 1, points: 11}}}}
"""


def scenario_file(tmp_path: Path, name: str = "ok", clause: str = "albastini.play.trick-winner", lead: str = "AH") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(GOOD.format(name=name, clause=clause, lead=lead), encoding="utf-8")
    return path


def errors(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str]:
    code = main(["validate", str(path)])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err


def test_a_good_file_is_valid(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(scenario_file(tmp_path))]) == 0


@pytest.mark.parametrize(
    ("lead", "line", "message"),
    [
        ("10H", "14:19", "$.scenarios[0].steps[0].play[\"0\"]: expected a card code"),
        ("XS", "14:19", "found string \"XS\""),
        ("9H", "14:19", "expected a card of albastini-2p, found '9H'"),
        ("'no'", "14:19", "found string \"no\""),
    ],
)
def test_bad_card_codes_are_located(tmp_path: Path, capsys: pytest.CaptureFixture[str], lead: str, line: str,
                                    message: str) -> None:
    path = scenario_file(tmp_path, lead=lead)
    code, err = errors(capsys, path)
    assert code == 2
    assert f"{path}:{line}:" in err and message in err


@pytest.mark.parametrize(
    ("step", "message"),
    [
        ("{do: {type: play, seat: 0, card: AH}, play: {1: 3S}}",
         "16:9: $.scenarios[0].steps[1]: expected only one of 'do', 'play', found them together"),
        ("{}", "16:9: $.scenarios[0].steps[1]: expected at least 1 key, found mapping {}"),
        ("{do: {type: play, seat: 0, card: AH}, refusal: [must_trump, not_your_turn]}",
         '16:56: $.scenarios[0].steps[1].refusal: expected at most 1 item, found array ["must_trump", "not_your_turn"]'),
        ("{do: {type: play, seat: 0, card: AH}, refusal: must_trump}",
         '16:56: $.scenarios[0].steps[1].refusal: expected array, found string "must_trump"'),
        ("{do: {type: play, seat: 0, card: AH}, refusal: {codes: [must_trump, not_your_turn]}}",
         "16:56: $.scenarios[0].steps[1].refusal: missing required key 'because'"),
        ("{do: {type: play, seat: 0, card: AH}, refusal: {codes: [must_trump], because: x}}",
         '16:64: $.scenarios[0].steps[1].refusal.codes: expected at least 2 items, found array ["must_trump"]'),
        ("{do: {type: play, seat: 0, card: AH}, refusal: {codes: [must_trump, nope], because: x}}",
         "16:77: $.scenarios[0].steps[1].refusal.codes[1]: unknown refusal code 'nope': expected a code of spec/refusals.yaml"),
        ("{expect: {hands: {7: [AH]}}}",
         '16:27: $.scenarios[0].steps[1].expect.hands["7"]: unexpected key \'7\': expected a string matching ^[0-5]$'),
    ],
)
def test_step_shapes_are_explained(tmp_path: Path, capsys: pytest.CaptureFixture[str], step: str, message: str) -> None:
    path = scenario_file(tmp_path)
    path.write_text(path.read_text() + f"      - {step}\n", encoding="utf-8")
    code, err = errors(capsys, path)
    assert code == 2
    assert f"{path}:{message}" in err


def test_several_codes_are_accepted_with_their_reason(tmp_path: Path) -> None:
    path = scenario_file(tmp_path)
    because = "the scenario is about the turn; which refusal says so is left open"
    step = f"{{play: {{0: 4D}}, refusal: {{codes: [not_your_turn, card_not_in_hand], because: '{because}'}}}}"
    path.write_text(path.read_text() + f"      - {step}\n", encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    [scenario] = load_files([path])
    refused = scenario.steps[-1]
    assert refused.refuse == ("not_your_turn", "card_not_in_hand") and refused.refuse_because == because
    assert scenario.steps[0].refuse == () and scenario.steps[0].refuse_because is None
    assert runner.run(reference_adapter(), scenario).outcome is Outcome.PASS  # the reference answers one of them


def test_unknown_clause_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario_file(tmp_path, clause="albastini.play.no-such-rule")
    code, err = errors(capsys, path)
    assert code == 2
    assert f"{path}:6:15: $.scenarios[0].clauses[0]: unknown clause 'albastini.play.no-such-rule'" in err


def test_clause_of_another_variant_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario_file(tmp_path, clause="albastini.five-players.indicator-dead")
    code, err = errors(capsys, path)
    assert code == 2 and "applies only to albastini-5p, albastini-over60-5p, not albastini-2p" in err


def test_duplicate_ids_across_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario_file(tmp_path, name="same")
    copy = tmp_path / "sub" / "again.yaml"
    copy.parent.mkdir()
    copy.write_text((tmp_path / "same.yaml").read_text(), encoding="utf-8")
    code, err = errors(capsys, tmp_path)
    assert code == 2 and "duplicate scenario id 'test/topic/same'" in err


def test_card_placed_twice_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario_file(tmp_path)
    path.write_text(path.read_text().replace("1: [3S, 7H", "1: [AH, 7H"), encoding="utf-8")
    code, err = errors(capsys, path)
    assert code == 2 and "AH is placed twice" in err


def test_rest_fills_the_deck_in_order() -> None:
    v = variant("albastini-2p")
    setup = expand_setup({"hands": {"0": ["AH"]}, "stock": ["rest", "6S"]}, v)
    in_deck_order = [r + s for s in v["deck"]["suits"].split() for r in v["deck"]["ranks"].split()]
    assert setup["stock"] == [c for c in in_deck_order if c not in ("AH", "6S")] + ["6S"]
    assert setup["stock"][:3] == ["AC", "7C", "KC"]


def test_a_second_rest_is_located_where_it_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario_file(tmp_path)
    path.write_text(path.read_text().replace("stock: [rest, 6S]", "stock: [rest, 6S, rest]"), encoding="utf-8")
    code, err = errors(capsys, path)
    assert code == 2
    assert f"{path}:11:25: $.scenarios[0].setup.stock[2]: rest stands for the cards placed nowhere else: once a setup " \
           "(first at setup.stock.0)" in err


@pytest.mark.parametrize(
    ("written", "where"),
    [
        ("hands: {0: [rest], 1: [AH, 7H, 6C, 4D, 5C]}", '10:19: $.scenarios[0].setup.hands["0"][0]'),
        ("hands: {0: [KC, rest], 1: [AH, 7H, 6C, 4D, 5C]}", '10:23: $.scenarios[0].setup.hands["0"][1]'),
        ("piles: {0: [rest]}", '12:76: $.scenarios[0].setup.start.piles["0"][0]'),
        ("dead: [rest]", "12:71: $.scenarios[0].setup.start.dead[0]"),
    ],
)
def test_rest_in_a_hand_or_a_pile_and_in_the_stock_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              written: str, where: str) -> None:
    path = scenario_file(tmp_path)
    text = path.read_text()
    if written.startswith("hands"):
        text = text.replace("hands: {0: [AH, KC, QD, 4C, 5D], 1: [3S, 7H, 6C, 4D, 5C]}", written)
    else:
        text = text.replace("indicator: 6S}", f"indicator: 6S, {written}}}")
    path.write_text(text, encoding="utf-8")
    code, err = errors(capsys, path)
    assert code == 2
    assert f"{path}:{where}: rest stands for the cards placed nowhere else: once a setup (first at setup.stock.0)" in err


def test_rest_fills_a_hand_with_the_cards_placed_nowhere_else(tmp_path: Path) -> None:
    path = scenario_file(tmp_path)
    hands = "hands: {0: [AH, KC, QD, 4C, 5D], 1: [3S, 7H, 6C, 4D, 5C]}"
    stock = "[AC, 7C, JC, QC, 3C, AD, 7D, KD, JD, 6D, 3D, KH, JH, QH, 6H, 5H, 4H, 3H, AS, 7S, KS, JS, QS, 5S, 4S, 6S]"
    path.write_text(path.read_text().replace(hands, "hands: {0: [AH, KC, QD, 4C, 5D], 1: [rest]}")
                    .replace("stock: [rest, 6S]", f"stock: {stock}"), encoding="utf-8")
    [scenario] = load_files([path])
    assert scenario.setup["hands"]["0"] == ["AH", "KC", "QD", "4C", "5D"]
    assert sorted(scenario.setup["hands"]["1"]) == ["3S", "4D", "5C", "6C", "7H"]
    assert runner.run(reference_adapter(), scenario).outcome is Outcome.PASS


@pytest.mark.parametrize(
    ("stock", "missing"),
    [
        ("[6S]", "AC 7C JC QC 3C AD 7D KD JD 6D 3D KH JH QH 6H 5H 4H 3H AS 7S KS JS QS 5S 4S: place them"),  # no rest
        ("[AC, 7C, JC, QC, 3C, AD, 7D, KD, JD, 6D, 3D, KH, JH, QH, 6H, 5H, 4H, 3H, AS, 7S, KS, JS, QS, 5S]",
         "4S: place them"),  # the indicator named, under the stock, and one card placed nowhere
    ],
)
def test_cards_left_unplaced_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str], stock: str, missing: str) -> None:
    path = scenario_file(tmp_path)
    path.write_text(path.read_text().replace("stock: [rest, 6S]", f"stock: {stock}"), encoding="utf-8")
    code, err = errors(capsys, path)
    assert code == 2
    assert f"{path}:9:7: $.scenarios[0].setup: expected every card of albastini-2p placed, missing {missing}" in err


VARIANT_FILES = {
    "cycle": "id: cycle\ntitle: C\nextends: cycle\n",
    "orphan": "id: orphan\ntitle: O\nextends: no-such-variant\n",
    "deckless": "id: deckless\ntitle: D\ngame: albastini\n",
}


@pytest.mark.parametrize(
    ("vid", "why"),
    [
        ("cycle", "extends cycle through cycle -> cycle"),
        ("orphan", "it extends unknown variant 'no-such-variant'"),
        ("deckless", "no deck with suits and ranks"),
    ],
)
def test_scenario_of_a_broken_variant_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str], vid: str,
                                                 why: str) -> None:
    variants = tmp_path / "variants"
    variants.mkdir()
    (variants / f"{vid}.yaml").write_text(VARIANT_FILES[vid], encoding="utf-8")
    path = scenario_file(tmp_path)
    path.write_text(path.read_text().replace("variant: albastini-2p", f"variant: {vid}"), encoding="utf-8")
    code = main(["validate", str(variants), str(path)])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert code == 2
    assert f"{path}:2:10: $.variant: variant '{vid}' cannot be used ({why}): expected a valid variant" in err


def test_abstract_variant_is_located_where_it_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario_file(tmp_path)
    path.write_text(path.read_text().replace("variant: albastini-2p", "variant: albastini-base"), encoding="utf-8")
    code, err = errors(capsys, path)
    assert code == 2
    assert f"{path}:2:10: $.variant: variant 'albastini-base' is abstract: expected a playable variant" in err


def test_pytest_collection_reports_the_location(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad scenario file fails collection with file:line, not a traceback."""
    # The plugin collects only files under the kit's scenarios/: point that at a temporary folder, so the
    # test never writes into the kit that others may be reading.
    folder = pytester.path / "scenarios"
    folder.mkdir()
    bad = folder / "zz-test-bad.yaml"
    bad.write_text(GOOD.format(name="bad", clause="albastini.play.nope", lead="AH"), encoding="utf-8")
    monkeypatch.setattr(kitdata, "scenarios_dir", lambda: folder)
    done = pytester.runpytest_inprocess("--engine", "reference", str(bad), "-q", "-p", "no:cacheprovider")
    out, err = "\n".join(done.outlines), "\n".join(done.errlines)
    assert done.ret == pytest.ExitCode.INTERRUPTED, out + err  # an error during collection
    assert f"{bad}:6:15: $.scenarios[0].clauses[0]: unknown clause" in out
    assert "Traceback" not in out + err


def test_a_steps_actions_are_sent_in_the_order_written(tmp_path: Path) -> None:
    path = scenario_file(tmp_path)
    path.write_text(path.read_text() + "      - {pass: [1], do: {type: play, seat: 0, card: KC}, bid: {1: 7H, 0: QD}}\n",
                    encoding="utf-8")
    [scenario] = load_files([path])
    sent = [(a["type"], a["seat"], a.get("card")) for a in scenario.steps[-1].actions]
    assert sent == [("pass", 1, None), ("play", 0, "KC"), ("bid", 1, "7H"), ("bid", 0, "QD")]


def test_an_id_of_the_kit_is_refused_in_a_file_checked_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario_file(tmp_path)
    path.write_text(path.read_text().replace("test/topic/ok", "albastini/otea/pass-then-bid-in-one-step"), encoding="utf-8")
    code, err = errors(capsys, path)
    assert code == 2
    assert f"{path}:4:9: $.scenarios[0].id: duplicate scenario id 'albastini/otea/pass-then-bid-in-one-step'" in err
    assert "(first at scenarios/albastini/otea/bids.yaml:" in err


def test_a_kit_file_checked_alone_does_not_repeat_itself(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(kitdata.scenarios_dir() / "albastini" / "otea" / "bids.yaml")]) == 0


def test_a_bad_card_after_rest_in_a_hand_is_located_where_it_is_written(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario_file(tmp_path)
    text = path.read_text().replace("1: [3S, 7H, 6C, 4D, 5C]}", "1: [rest, 10H]}").replace("stock: [rest, 6S]", "stock: [6S]")
    path.write_text(text, encoding="utf-8")
    code, err = errors(capsys, path)
    assert code == 2
    assert f'{path}:10:50: $.scenarios[0].setup.hands["1"][1]: expected a card code' in err, err


@pytest.mark.parametrize(
    ("start", "message"),
    [
        ("piles: {0: [AD, 7D, KD]}",
         "12:75: $.scenarios[0].setup.start.piles[\"0\"]: a deal cannot start from this setup: "
         "side 0 has 1 tricks of 2 cards but 3 cards"),
        ("piles: {0: [AD, 7D]}, tricks: [2, 0]",
         "12:75: $.scenarios[0].setup.start.piles[\"0\"]: a deal cannot start from this setup: "
         "side 0 has 2 tricks of 2 cards but 2 cards"),
        ("trick: [{seat: 1, card: 7S}]",
         "10:43: $.scenarios[0].setup.hands[\"1\"]: a deal cannot start from this setup: expected 4 cards, found 5"),
        # the trick's leader is the last trick's winner: seat 0 leads the second trick, which seat 1 won
        ("piles: {1: [AD, 7D]}",
         "12:46: $.scenarios[0].setup.start.to_act: a deal cannot start from this setup: a trick after the first is "
         "led by the last trick's winner, and seat 0's side has won none"),
    ],
)
def test_a_setup_no_deal_can_start_from_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str], start: str,
                                                   message: str) -> None:
    path = scenario_file(tmp_path)
    path.write_text(path.read_text().replace("indicator: 6S}", f"indicator: 6S, {start}}}"), encoding="utf-8")
    code, err = errors(capsys, path)
    assert code == 2
    assert f"{path}:{message}" in err, err


def test_the_first_trick_of_a_setup_is_led_by_forehand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario_file(tmp_path)
    path.write_text(path.read_text().replace("dealer: 1", "dealer: 0"), encoding="utf-8")  # seat 1 is forehand
    code, err = errors(capsys, path)
    assert code == 2
    assert f"{path}:12:46: $.scenarios[0].setup.start.to_act: a deal cannot start from this setup: the first trick is " \
        "led by seat 1 (forehand, or the next to play if forehand sits out), not seat 0" in err, err


def test_a_setup_to_be_refused_is_not_held_to_what_it_breaks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario_file(tmp_path)
    text = path.read_text().replace("indicator: 6S}", "indicator: 6S, piles: {0: [AD, 7D, KD]}}")
    steps = text.index("    steps:")
    path.write_text(text[:steps] + "    refuse_setup: invalid_setup\n", encoding="utf-8")
    assert errors(capsys, path) == (0, "")


@pytest.mark.parametrize(
    ("expect", "message"),
    [
        ("{piles: {1: {holds: [AH, 3S], lacks: [9H]}}}",
         "16:56: $.scenarios[0].steps[1].expect.piles[\"1\"].lacks[0]: expected a card of albastini-2p, found '9H'"),
        ("{dead: {lack: [AH]}}",
         "16:26: $.scenarios[0].steps[1].expect.dead.lack: unknown key 'lack'; expected one of: holds, lacks"),
    ],
)
def test_a_partial_pile_or_dead_expectation_is_checked(tmp_path: Path, capsys: pytest.CaptureFixture[str], expect: str,
                                                       message: str) -> None:
    path = scenario_file(tmp_path)
    path.write_text(path.read_text() + f"      - {{expect: {expect}}}\n", encoding="utf-8")
    code, err = errors(capsys, path)
    assert code == 2
    assert f"{path}:{message}" in err, err


def test_the_indicator_named_and_placed_nowhere_lies_under_the_stock(tmp_path: Path) -> None:
    path = scenario_file(tmp_path)
    path.write_text(path.read_text().replace("stock: [rest, 6S]", "stock: [rest]"), encoding="utf-8")
    [scenario] = load_files([path])
    assert scenario.setup["stock"][-1] == "6S" and scenario.setup["stock"].count("6S") == 1
    assert runner.run(reference_adapter(), scenario).outcome is Outcome.PASS


TURNED_SETUP = """\
# yaml-language-server: $schema=../schemas/scenario.schema.json
variant: {variant}
scenarios:
  - id: test/topic/turned
    title: The card turned up
    clauses: [{clause}]
    source: {{derived: a test}}
    setup:
      dealer: 0
      turned: {turned}
      {cards}
    steps:
      - expect: {{phase: {phase}}}
"""


@pytest.mark.parametrize(
    ("variant", "cards", "turned", "at"),
    [
        ("albastini-2p", "deck: [rest]", "7H", ("deck", 10)),  # after two hands of five
        ("albastini-5p", "deck: [rest]", "7H", ("deck", 25)),
        ("albastini-2p", "{hands: {0: [AC, 7C, KC, JC, QC], 1: [AD, 7D, KD, JD, QD]}, stock: [rest]}", "7H", ("stock", 0)),
    ],
)
def test_the_turned_card_is_put_where_the_deal_turns_it_up(tmp_path: Path, variant: str, cards: str, turned: str,
                                                           at: tuple[str, int]) -> None:
    path = tmp_path / "turned.yaml"
    cards = cards.strip("{}").replace(", stock", "\n      stock")
    text = TURNED_SETUP.format(variant=variant, clause="albastini.otea.turn-up", turned=turned, cards=cards, phase="bidding")
    path.write_text(text, encoding="utf-8")
    [scenario] = load_files([path])
    key, index = at
    assert "turned" not in scenario.setup and scenario.setup[key][index] == turned
    assert runner.run(reference_adapter(), scenario).outcome is Outcome.PASS


@pytest.mark.parametrize(
    ("turned", "message"),
    [
        ("10H", "10:15: $.scenarios[0].setup.turned: expected a card code, found '10H'"),
        ("AH", "10:15: $.scenarios[0].setup.turned: a deck is cut before it is dealt, so the card it turns up is not known"),
    ],
)
def test_a_turned_card_that_cannot_be_placed_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str], turned: str,
                                                        message: str) -> None:
    path = tmp_path / "turned.yaml"
    text = TURNED_SETUP.format(variant="altbaumer-standard", clause="altbaumer.deal.cutter", turned=turned, cards="deck: [rest]",
                               phase="cut")
    path.write_text(text, encoding="utf-8")
    code, err = errors(capsys, path)
    assert code == 2
    assert f"{path}:{message}" in err, err


def test_a_bad_card_in_a_stock_with_a_turned_card_is_located_where_it_is_written(tmp_path: Path,
                                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "turned.yaml"
    cards = "hands: {0: [AC, 7C, KC, JC, QC], 1: [AD, 7D, KD, JD, QD]}\n      stock: [10H, rest]"
    text = TURNED_SETUP.format(variant="albastini-2p", clause="albastini.otea.turn-up", turned="7H", cards=cards,
                               phase="bidding")
    path.write_text(text, encoding="utf-8")
    code, err = errors(capsys, path)
    assert code == 2
    assert f"{path}:12:15: $.scenarios[0].setup.stock[0]: expected a card code" in err, err


def test_a_refusal_at_a_named_card_is_located_at_its_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario_file(tmp_path)  # 6S named as the indicator, and also put on the table: it is not under the stock
    text = path.read_text().replace("stock: [rest, 6S]", "stock: [rest]")
    path.write_text(text.replace("1: [3S, 7H, 6C, 4D, 5C]}", "1: [6S, 7H, 6C, 4D, 5C]}"), encoding="utf-8")
    code, err = errors(capsys, path)
    assert code == 2
    assert f"{path}:12:60: $.scenarios[0].setup.start.indicator: a deal cannot start from this setup: the indicator lies " \
           "under the stock" in err, err


def test_a_file_of_format_1_writing_reject_is_read_as_refusal(tmp_path: Path) -> None:
    """Scenario files spelt the refusal of a step ``reject:`` before the kit's words were made one; such a file
    is read as it means today."""
    path = scenario_file(tmp_path)
    written = path.read_text(encoding="utf-8")
    refused = written + "      - {do: {type: play, seat: 0, card: KC}, refusal: [not_your_turn]}\n"
    path.write_text(refused, encoding="utf-8")
    [today] = load_files([path])
    path.write_text(refused.replace("refusal: [not_your_turn]", "reject: [not_your_turn]"), encoding="utf-8")
    [older] = load_files([path])
    assert older.steps == today.steps and older.steps[-1].refuse == ("not_your_turn",)
    path.write_text(refused.replace("refusal: [not_your_turn]", "refusal: [not_your_turn], reject: [not_your_turn]"),
                    encoding="utf-8")
    with pytest.raises(DataError, match="expected only one of 'refusal', 'reject', found them together"):
        load_files([path])
    path.write_text("format: 1\n" + refused.replace("refusal: [not_your_turn]", "reject: [not_your_turn]"), encoding="utf-8")
    [declared] = load_files([path])
    assert [(s.actions, s.refuse, s.expect) for s in declared.steps] == [(s.actions, s.refuse, s.expect) for s in today.steps]


def test_a_file_of_the_current_format_may_not_write_reject(tmp_path: Path) -> None:
    """``reject:`` is format 1's spelling alone: a file that declares the current format is told to write ``refusal``."""
    path = scenario_file(tmp_path)
    written = f"format: {SCENARIO_FORMAT}\n" + path.read_text(encoding="utf-8")
    path.write_text(written + "      - {do: {type: play, seat: 0, card: KC}, refusal: [not_your_turn]}\n", encoding="utf-8")
    [today] = load_files([path])
    assert today.steps[-1].refuse == ("not_your_turn",)
    path.write_text(written + "      - {do: {type: play, seat: 0, card: KC}, reject: [not_your_turn]}\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"steps\[\d+\]: expected no key 'reject' here, found one \(reject is the spelling"):
        load_files([path])


def test_the_kit_writes_its_scenarios_in_the_current_format() -> None:
    files = sorted(kitdata.scenarios_dir().rglob("*.yaml"))
    assert files
    stale = [str(f) for f in files if (load(f).data or {}).get("format") != SCENARIO_FORMAT]
    assert not stale, stale
