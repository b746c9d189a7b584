"""trickspec check-trace: games an engine played, replayed through the reference from the engine's own deal.

The whole-game example (examples/whole-game: callback players, no step API) writes a trace that passes, and with
its planted bug fails under the right clause, the scenario written for it failing on that engine and passing on the
reference. Partial reports are compared in part, a move the reference refuses fails the game, a deal the rules do
not allow fails it too, bad lines are located problems, and jobs and shards give the single run.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from conformance.cli import main
from conformance.engines.adapter import open_engine, reference_adapter
from conformance.fuzz.compare import REPORT, Divergence
from conformance.fuzz.shrink import from_position
from conformance.measures.selfcheck import mutants
from conformance.run import runlog, runner
from conformance.suite.comparisons import Mismatch
from conformance.suite.scenarios import deck_of, load_files
from conformance.text import json_positions
from conformance.traces import checking, judging, reading
from conformance.traces.line_problems import NoGame
from conformance.vocabulary import Outcome
from reference import Engine
from reference.engine import compile_rules
from specreader import limits
from specreader.spec import variant

from depth import cases

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "whole-game"
JS_ENGINE = ROOT / "examples" / "js-albastini-2p" / "engine.js"


def _example_trace(path: Path, games: int, *bug: str) -> Path:
    subprocess.run(
        [sys.executable, str(EXAMPLE / "briscola.py"), "--games", str(games), "--seed", "3", "--trace", str(path), *bug],
        check=True,
        timeout=600,
    )
    return path


def _reference_game(variant_id: str, seed: int, *, every: bool = True) -> dict[str, Any]:
    """A game the reference plays with random legal moves, reported in full: what a right engine writes."""
    rng = random.Random(seed)
    deck = deck_of(variant(variant_id))
    rng.shuffle(deck)
    deal, _ = _played(variant_id, {"dealer": 0, "deck": deck}, rng, every)
    return {"game": seed, "variant": variant_id, **deal}


def _played(
    variant_id: str, setup: dict[str, Any], rng: random.Random, every: bool = True, *, leave_dealer: bool = False
) -> tuple[dict[str, Any], Engine]:
    """A deal the reference plays from ``setup`` with random legal moves, reported in full (``every``: after every
    action, else after the deal alone), and the engine at its end. ``leave_dealer``: a winning side that may name
    the next dealer leaves it to the rules."""
    engine = Engine.new(variant_id, setup)
    observations = [{"snapshot": engine.snapshot(), "legal": engine.legal_actions()}]
    actions = []
    while (legal := engine.legal_actions()) and not (leave_dealer and engine.to_act is None):
        actions.append(rng.choice(legal))
        engine.apply(actions[-1])
        observations.append({"snapshot": engine.snapshot(), "legal": engine.legal_actions()} if every else None)
    return {"setup": setup, "actions": actions, "observations": observations}, engine


def _write(path: Path, *lines: Any) -> Path:
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines), encoding="utf-8")
    return path


def _check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    status = main(["check-trace", *args])
    return status, capsys.readouterr().out


def test_the_whole_game_example_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = cases(300, 10_000)
    trace = _example_trace(tmp_path / "games.jsonl", games)
    status, out = _check(capsys, str(trace))
    assert status == 0, out
    assert f"{games} passed, 0 failed" in out
    assert "fields the trace reported: hands, last_trick, phase, result, stock_count, to_act, totals, trick, trump" in out


def test_a_planted_bug_fails_with_its_clause_and_its_scenario_fails_on_the_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = _example_trace(tmp_path / "bad.jsonl", 200, "--bug", "led-suit-wins")
    status, out = _check(capsys, str(trace), "--out", str(tmp_path / "found"), "--report-dir", str(tmp_path / "reports"))
    assert status == 1, out
    assert "FAIL briscola-2p last_trick.winner" in out and "briscola.cards.rank-order" in out
    (written,) = sorted((tmp_path / "found").glob("*.yaml"))
    (scenario,) = load_files([written])  # it validates
    assert re.fullmatch(r"last_trick\.winner after seat [01]'s play \w\w, as the reference engine reports it", scenario.title)
    assert runner.run(reference_adapter(), scenario).outcome is Outcome.PASS
    buggy = open_engine(None, f"{sys.executable} {EXAMPLE / 'serve.py'} led-suit-wins", timeout=30)
    try:
        assert runner.run(buggy, scenario).outcome is Outcome.FAIL
    finally:
        buggy.close()
    log = runlog.read(tmp_path / "reports" / "run.jsonl")  # the run log reads back as verify's does
    failing = [line for line in log.scenarios if line["outcome"] == "fail"]
    assert failing and failing[0]["file"] == str(trace) and failing[0]["line"] >= 2
    assert failing[0]["clauses"] == ["briscola.cards.rank-order", "briscola.play.free"]  # what decides a trick's winner


def test_the_example_s_games_written_as_matches_hold_its_dealer_to_the_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The whole-game example keeps no match: written five games a line, its dealer is held to the rules from one
    game to the next, and its planted dealer bug, which each game judged alone passes, fails."""
    trace = _example_trace(tmp_path / "matches.jsonl", 100, "--match", "5")
    status, out = _check(capsys, str(trace))
    assert status == 0 and "100 passed, 0 failed" in out, out
    trace = _example_trace(tmp_path / "stays.jsonl", 100, "--match", "5", "--bug", "dealer-stays")
    status, out = _check(capsys, str(trace), "--out", str(tmp_path / "found"))
    assert status == 1 and "FAIL briscola-2p result.next_dealer (first at " in out, out
    assert "  clauses: briscola.score.over-sixty" in out and "(as the next deal's setup carries the match on)" in out
    (written,) = (tmp_path / "found").glob("*.yaml")
    (scenario,) = load_files([written])
    assert runner.run(reference_adapter(), scenario).outcome is Outcome.PASS
    alone = _example_trace(tmp_path / "alone.jsonl", 100, "--bug", "dealer-stays")
    assert _check(capsys, str(alone))[0] == 0  # a game a line: each judged from the dealer it names


def test_findings_of_two_traces_written_to_one_folder_keep_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each trace's first game shows the bug: the scenarios written are named for their game, not its place in the run."""
    found = tmp_path / "found"
    for seed in ("3", "4"):
        trace = tmp_path / f"bad-{seed}.jsonl"
        command = [sys.executable, str(EXAMPLE / "briscola.py"), "--games", "20", "--seed", seed, "--trace", str(trace)]
        subprocess.run([*command, "--bug", "led-suit-wins"], check=True, timeout=600)
        assert _check(capsys, str(trace), "--out", str(found))[0] == 1
    written = sorted(found.glob("*.yaml"))
    assert len(written) == 2
    assert len({s.id for s in load_files(written)}) == 2  # they validate together: no id twice
    again = tmp_path / "again"
    assert _check(capsys, str(tmp_path / "bad-4.jsonl"), "--out", str(again))[0] == 1
    (same,) = again.glob("*.yaml")
    assert same.name in {w.name for w in written}  # the same game found again gets the same name


def test_a_deal_the_rules_refuse_is_said_in_the_places_the_trace_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The turned card, which the kit puts on top of the stock, also left at the stock's bottom by the engine."""
    deck = deck_of(variant("briscola-2p"))
    turned, stock = deck[6], deck[7:]
    setup = {"dealer": 0, "hands": {"0": deck[0:6:2], "1": deck[1:6:2]}, "turned": turned, "stock": [*stock, turned]}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", {"variant": "briscola-2p", "setup": setup, "actions": []})))
    assert status == 1
    assert f"the deal: $.stock[{len(stock)}]: {turned} is also at $.turned" in out, out


def test_a_snapshot_key_that_names_no_field_is_a_located_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A field misspelt would be compared nowhere, and the game pass."""
    game = _reference_game("briscola-2p", 3)
    game["observations"][0]["snapshot"]["trumps"] = game["observations"][0]["snapshot"].pop("trump")
    played = next(o for o in game["observations"] if o["snapshot"]["last_trick"])
    played["snapshot"]["last_trick"]["winer"] = played["snapshot"]["last_trick"].pop("winner")
    trace = _write(tmp_path / "typo.jsonl", game)
    status, out = _check(capsys, str(trace))
    assert status == 2, out
    problems = [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith(f"{trace}:1:")]
    assert "$.observations[0].snapshot.trumps: expected a snapshot field, found 'trumps' (did you mean 'trump'?)" in problems
    assert any(p.endswith("snapshot.last_trick.winer: expected a key of last_trick, found 'winer' (did you mean 'winner'?)")
               for p in problems), problems  # fmt: skip
    assert "no game was judged: each line read has a problem, above" in out.splitlines()


def _problems_at(out: str, trace: Path, text: str) -> dict[str, tuple[int, str]]:
    """The problems said of the trace's first line, by JSON path: the column each is said at, and its message."""
    found = {}
    for said in out.splitlines():
        if said.startswith(f"{trace}:1:"):
            column, path, message = said[len(f"{trace}:1:") :].split(": ", 2)
            found[path] = (int(column), message)
    return found


@pytest.mark.parametrize(
    ("variant_id", "field", "key", "value"),
    [("altbaumer-standard", "match", "vp", [1, 0]), ("albastini-2p", "result", "deal_score", [1, 0])],
)
def test_a_key_of_another_game_s_result_or_match_is_a_located_problem(
    variant_id: str, field: str, key: str, value: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Judging compares the keys the reference reports, so a key only another game's result or match has (Albastini's
    victory points in Altbaumer, Altbaumer's deal score in Albastini) would be compared nowhere: it is said, at the
    key, as no key of this game's."""
    game = _reference_game(variant_id, 3)
    last = game["observations"][-1]["snapshot"]
    assert isinstance(last[field], dict) and key not in last[field]
    last[field][key] = value
    trace = _write(tmp_path / "t.jsonl", game)
    status, out = _check(capsys, str(trace))
    assert status == 2, out
    text = trace.read_text(encoding="utf-8")
    name = variant_id.split("-")[0]
    at = f"$.observations[{len(game['observations']) - 1}].snapshot.{field}.{key}"
    said = f"expected a key of {field} in {name}, found {key!r}, a key of another game's {field}"
    assert _problems_at(out, trace, text) == {at: (text.rindex(f'"{key}"') + 1, said)}


def test_a_seat_or_side_the_table_does_not_have_is_a_located_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Judging compares the seats and sides the reference reports: any other would be compared nowhere."""
    game = _reference_game("albastini-2p", 3)
    snapshots = [o["snapshot"] for o in game["observations"]]
    # what a trace may give: a hand for one seat, a pile for one side (the snapshot's piles are a list)
    snapshots[1]["hands"] = {"0": snapshots[1]["hands"]["0"]}
    snapshots[1]["piles"] = {"1": snapshots[1]["piles"][1]}
    assert _check(capsys, str(_write(tmp_path / "in-part.jsonl", game)))[0] == 0
    snapshots[2]["hands"] = {**snapshots[2]["hands"], "7": ["AS"]}
    snapshots[3]["hands"] = {"seat0": "nonsense"}
    snapshots[4]["piles"] = {"x": [1, 2]}
    snapshots[5]["totals"] = [*snapshots[5]["totals"], 987654]
    snapshots[6]["hands"] = list(snapshots[6]["hands"].values())
    snapshots[7]["match"]["sheet"] = {"0": 0, "2": 0}
    trace = _write(tmp_path / "off-table.jsonl", game)
    status, out = _check(capsys, str(trace))
    assert status == 2, out
    text = trace.read_text(encoding="utf-8")
    at = {  # where each is said: a key at the key, anything else at its value
        "$.observations[2].snapshot.hands[\"7\"]": text.index('"7": ["AS"]') + 1,
        "$.observations[3].snapshot.hands.seat0": text.index('"seat0"') + 1,
        "$.observations[4].snapshot.piles.x": text.index('{"x"') + 2,
        "$.observations[5].snapshot.totals[2]": text.index("987654") + 1,
        "$.observations[6].snapshot.hands": text.index('"hands": [') + len('"hands": ') + 1,
        "$.observations[7].snapshot.match.sheet[\"2\"]": text.index('"2": 0}') + 1,
    }
    assert _problems_at(out, trace, text) == {
        path: (column, message) for (path, column), message in zip(at.items(), [
            'expected a seat of the table, "0".."1", found \'7\'',
            'expected a seat of the table, "0".."1", found \'seat0\'',
            'expected a side of the table, "0".."1", found \'x\'',
            "expected 2 items, one per side of the table, found 3: it has no side 2",
            'expected a mapping keyed by seat, "0".."1", found a list',
            'expected a seat of the table, "0".."1", found \'2\'',
        ], strict=True)
    }, out  # fmt: skip


def test_the_table_is_the_variant_s_its_seats_and_its_sides_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Altbaumer seats four in two sides: seat 3 has a hand, and there is no side 2 to have a pile or a score."""
    game = _reference_game("altbaumer-standard", 5)
    snapshot = game["observations"][1]["snapshot"]
    snapshot["hands"] = {"3": snapshot["hands"]["3"]}
    assert _check(capsys, str(_write(tmp_path / "seat-3.jsonl", game)))[0] == 0
    snapshot["piles"] = {"2": []}
    snapshot["match"]["scores"] = [0, 0, 0]
    trace = _write(tmp_path / "side-2.jsonl", game)
    status, out = _check(capsys, str(trace))
    assert status == 2, out
    text = trace.read_text(encoding="utf-8")
    no_side = "expected 2 items, one per side of the table, found 3: it has no side 2"
    side_2 = 'expected a side of the table, "0".."1", found \'2\''
    assert _problems_at(out, trace, text) == {
        '$.observations[1].snapshot.piles["2"]': (text.index('{"2": []}') + 2, side_2),
        "$.observations[1].snapshot.match.scores[2]": (text.index('"scores": [0, 0, 0]') + len('"scores": [0, 0, ') + 1, no_side),
    }, out  # fmt: skip


def test_what_is_no_trace_file_is_refused_by_name_in_a_folder_or_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "traces"
    folder.mkdir()
    _write(folder / "good.jsonl", _reference_game("briscola-2p", 5))
    os.mkfifo(folder / "pipe.jsonl")
    (folder / "gone.jsonl").symlink_to(tmp_path / "nowhere")
    status, out = _check(capsys, str(folder))
    assert status == 2, out
    assert f"{folder / 'pipe.jsonl'}: expected a trace file, found a FIFO (named pipe)" in out.splitlines()
    assert f"{folder / 'gone.jsonl'}: no such file or directory" in out.splitlines()
    assert "1 passed, 2 failed (2 error)" in out  # the rest is judged; each file that is none, an error
    status, out = _check(capsys, str(folder / "pipe.jsonl"))
    assert status == 2 and "found a FIFO (named pipe)" in out, out


def test_a_hand_is_a_set_of_cards_in_whatever_order_the_engine_keeps(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _reference_game("albastini-2p", 9)
    for observation in game["observations"]:
        hands = observation["snapshot"]["hands"]
        observation["snapshot"]["hands"] = {seat: list(reversed(cards)) for seat, cards in hands.items()}
    assert _check(capsys, str(_write(tmp_path / "reversed.jsonl", game)))[0] == 0
    hands = game["observations"][2]["snapshot"]["hands"]
    seat = next(s for s, cards in hands.items() if cards)
    gone, other = hands[seat][0], "AC" if hands[seat][0] != "AC" else "KC"
    hands[seat] = [*hands[seat][1:], other]  # one card another
    status, out = _check(capsys, str(_write(tmp_path / "other.jsonl", game)))
    assert status == 1 and f"hands.{seat} (as a set)" in out, out
    assert f"(missing {gone}; extra {other})" in out, out  # as verify says which cards differ


def test_fields_a_header_declares_and_no_game_gives_are_noted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Declared, a field is judged wherever it is given: given nowhere, it was judged nowhere."""
    game = _reference_game("briscola-2p", 8)
    header = {"trace": 1, "reports": ["phase", "to_act", "legal", "piles", "dealer", "hands"]}
    for observation in game["observations"]:
        observation["snapshot"] = {k: observation["snapshot"][k] for k in ("phase", "to_act", "hands")}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", header, game)))
    assert status == 0, out
    assert "note: the header declares fields no game gives: dealer, piles" in out.splitlines()
    assert "fields the trace reported: hands, phase, to_act; the legal actions" in out.splitlines()
    for observation in game["observations"]:
        del observation["legal"]
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", header, game)))
    assert status == 0 and "fields the trace reported: hands, phase, to_act" in out.splitlines(), out


def _guide_example() -> tuple[dict[str, Any], dict[str, Any]]:
    """The header and the game of docs/guide/traces.md's "What a trace holds", as an engine writes them: the stock's
    ``"..."`` stands for its other cards, which a setup's ``rest`` places."""
    section = (ROOT / "docs" / "guide" / "traces.md").read_text(encoding="utf-8").split("## What a trace holds")[1]
    header, game = (json.loads(block) for block in re.findall(r"```json\n(.*?)```", section, re.S)[:2])
    stock = game["setup"]["stock"]
    stock[stock.index("...")] = "rest"
    assert "..." not in json.dumps(game), "the guide's game leaves out more than the stock's other cards"
    return header, game


def test_the_guide_s_example_trace_passes_judged_on_every_field_it_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    header, game = _guide_example()
    status, out = _check(capsys, str(_write(tmp_path / "guide.jsonl", header, game)))
    assert status == 0 and "1 passed, 0 failed" in out, out
    assert "judged nowhere" not in out, out
    game["observations"][-1]["snapshot"]["last_trick"]["points"] = 99  # every field it gives is judged: its points too
    status, out = _check(capsys, str(_write(tmp_path / "guide.jsonl", header, game)))
    assert status == 1 and "last_trick.points: expected 4, observed 99" in out, out


def test_fields_given_and_declared_are_noted_as_finely_as_the_header_names_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A header declaring the last trick's winner alone has its points judged nowhere, and one declaring a seat's
    hand that no game gives declares a field no game gives, though the other seat's hand is given."""
    game = _reference_game("briscola-2p", 8)
    for observation in game["observations"]:
        snapshot = observation["snapshot"]
        observation["snapshot"] = {"to_act": snapshot["to_act"], "hands": {"0": snapshot["hands"]["0"]}}
        if snapshot["last_trick"] is not None:
            observation["snapshot"]["last_trick"] = {k: snapshot["last_trick"][k] for k in ("winner", "points")}
    header = {"trace": 1, "reports": ["to_act", "hands.0", "hands.1", "last_trick.winner"]}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", header, game)))
    assert status == 0, out
    assert "note: the games give fields the header does not declare, judged nowhere: last_trick.points, the legal actions" \
        in out.splitlines(), out
    assert "note: the header declares fields no game gives: hands.1" in out.splitlines(), out
    header["reports"] = ["to_act", "hands", "last_trick", "legal"]  # each given field declared whole
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", header, game)))
    assert status == 0 and "note: the" not in out, out


def test_a_refusal_naming_no_code_is_a_problem_of_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """As verify and fuzz read it: a refusal with an empty code is no refusal a kit can judge, nor an action accepted."""
    game = _reference_game("briscola-2p", 4, every=False)
    game["observations"] = [None, {"rejected": {"code": ""}}]
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", game)))
    assert status == 2 and "$.observations[1].rejected" in out, out


@pytest.mark.parametrize("turned", [["4H"], 5, None, True])
def test_a_turned_card_that_is_no_card_code_is_a_problem_of_the_line(
    turned: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = deck_of(variant("briscola-2p"))
    setup = {"dealer": 0, "hands": {"0": deck[0:6:2], "1": deck[1:6:2]}, "turned": turned, "stock": deck[6:]}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", {"variant": "briscola-2p", "setup": setup, "actions": []})))
    assert status == 2 and "$.setup.turned: expected a card code, found" in out, out


def test_a_header_declaring_a_part_of_a_field_compared_whole_is_a_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``totals.0`` names a side's part of a field the kit compares whole: declared, it would be judged nowhere."""
    header = {"trace": 1, "reports": ["phase", "hands.0", "totals.0"]}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", header, _reference_game("briscola-2p", 2))))
    assert status == 2 and "no game was judged" in out, out
    assert ("$.reports: expected reports to name fields as the kit compares them, found 'totals.0', a part of totals, "
            "which is compared whole: name 'totals'") in out, out  # fmt: skip


def test_a_header_declaring_a_field_there_is_not_is_a_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Declared, only the fields named are judged: a name misspelt would have every field judged nowhere."""
    header = {"trace": 1, "reports": ["phase", "trumps"]}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", header, _reference_game("briscola-2p", 2))))
    assert status == 2
    assert f"{tmp_path / 't.jsonl'}:1:" in out and "$.reports: expected reports to name snapshot fields" in out, out
    assert "found 'trumps' (did you mean 'trump'?)" in out  # as a key of an observation's snapshot is said
    # and its games are not judged: on every field, or under no name, they would be judged wrongly
    assert f"{tmp_path / 't.jsonl'}:1:1: $: 1 game of this file not judged: expected a header the kit can read" in out
    assert "no game was judged" in out and "0 passed, 1 failed (1 error)" in out, out


def test_traces_of_several_engines_are_said_to_be(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _reference_game("briscola-2p", 6, every=False)
    a = _write(tmp_path / "a.jsonl", {"trace": 1, "engine": {"name": "first", "version": "1"}}, game)
    b = _write(tmp_path / "b.jsonl", {"trace": 1, "engine": {"name": "second", "version": "2"}}, game)
    status, out = _check(capsys, str(a), str(b))
    assert status == 0, out
    assert "note: the traces' headers name 2 engines (first 1, second 2); the run log names the first" in out
    assert "note:" not in _check(capsys, str(a), str(a))[1]


def test_the_example_s_adapter_is_judged_on_the_fields_it_keeps(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["verify", "--engine-cmd", f"{sys.executable} {EXAMPLE / 'serve.py'}", "--variant", "briscola-2p"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "fields: the engine reports 14 of the 33 the scenarios check; not dead, dealer," in out  # no field of other games


def test_the_example_s_adapter_passes_fuzz_and_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    """Fuzz also asks for a move after the last trick, which this engine cannot be asked for: unsupported, not
    an answer short of observations; smoke judges its one scenario on the fields it keeps."""
    served = f"{sys.executable} {EXAMPLE / 'serve.py'}"
    status = main(["fuzz", "--engine-cmd", served, "--deals", "200", "--seed", "1", "--variant", "briscola-2p"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert main(["smoke", "--engine-cmd", served]) == 0
    assert re.search(r"a scenario: \S+: pass \(a wrong verdict is for verify to judge\)", capsys.readouterr().out)


def test_what_a_game_reports_in_part_is_compared_in_part(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _reference_game("briscola-2p", 1)
    played = next(i for i, o in enumerate(game["observations"]) if o["snapshot"]["last_trick"])
    winner = game["observations"][played]["snapshot"]["last_trick"]["winner"]
    partial = {**game, "observations": [None] * played + [{"snapshot": {"last_trick": {"winner": winner}}}]}
    status, out = _check(capsys, str(_write(tmp_path / "right.jsonl", partial)))
    assert status == 0 and "fields the trace reported: last_trick" in out, out
    partial["observations"][played]["snapshot"]["last_trick"]["winner"] = 1 - winner
    status, out = _check(capsys, str(_write(tmp_path / "wrong.jsonl", partial)))
    assert status == 1, out
    assert f"last_trick.winner: expected {winner}, observed {1 - winner}" in out


def test_every_difference_of_the_observation_is_in_the_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _reference_game("albastini-2p", 2)
    seen = game["observations"][3]["snapshot"]
    seen["to_act"], seen["totals"] = 7, [1, 2]
    _check(capsys, str(_write(tmp_path / "t.jsonl", game)), "--report-dir", str(tmp_path / "r"))
    (line,) = runlog.read(tmp_path / "r" / "run.jsonl").scenarios
    assert {m["what"] for m in line["mismatches"]} == {"to_act", "totals"}


@pytest.mark.parametrize("field", ["to_act", "result.tie", "seat"])
def test_true_is_not_one_nor_false_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str) -> None:
    """JSON's true and false are no numbers, though Python's True == 1: an engine reporting one for the other fails."""
    game = _reference_game("albastini-2p", 2)
    observations = game["observations"]
    if field == "to_act":
        at = next(i for i, o in enumerate(observations) if o["snapshot"]["to_act"] == 1)
        observations[at]["snapshot"]["to_act"] = True
    elif field == "result.tie":
        at = len(observations) - 1
        observations[at]["snapshot"]["result"]["tie"] = int(observations[at]["snapshot"]["result"]["tie"])
    else:  # a seat in the legal actions
        at = next(i for i, o in enumerate(observations) if o["legal"] and o["legal"][0]["seat"] in (0, 1))
        first = dict(observations[at]["legal"][0])
        observations[at]["legal"] = [{**first, "seat": bool(first["seat"])}, *observations[at]["legal"][1:]]
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", game)))
    if field == "seat":  # an action's seat is held to the action schema as the line is read
        assert status == 2 and "legal[0].seat: expected integer, found boolean true" in out, out
    else:
        assert status == 1 and "1 failed" in out, out


def test_a_true_in_a_string_is_no_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The line's words true and false are counted to know where flags may stand: one in a name has the game
    judged again, looking at every value, and it passes."""
    again: list[bool] = []
    judge_deal = judging.judge_deal

    def counted(*args: Any, **kwargs: Any) -> Any:
        again.append(kwargs.get("every_value", False))
        return judge_deal(*args, **kwargs)

    monkeypatch.setattr(judging, "judge_deal", counted)
    game = {**_reference_game("albastini-2p", 2), "game": "true-or-false"}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", game)))
    assert status == 0 and "1 passed, 0 failed" in out, out
    assert again == [False, True]  # the first pass, then the recursive call: judged again on every value


def test_a_known_difference_hides_no_flag_that_stands_for_a_number(tmp_path: Path) -> None:
    """A report judged by the scenarios' comparisons (its legal actions differ, as an expectation file allows)
    counts its flags once: a true standing for a number earlier in the game still fails it."""
    game = _reference_game("albastini-2p", 2)
    at = next(i for i, o in enumerate(game["observations"]) if o["snapshot"]["to_act"] == 1)
    game["observations"][at] = {"snapshot": {"to_act": True}}
    last = game["observations"][-1]
    last["snapshot"] = {"result": {"tie": last["snapshot"]["result"]["tie"]}}
    last["legal"] = [{"type": "pass", "seat": 0}]  # the reference's list is empty
    read = reading.read_games(reading.TraceLine(0, str(tmp_path / "t.jsonl"), 1, json.dumps(game).encode()))
    assert not isinstance(read, NoGame), read
    result, _ = judging.judge(read[0], frozenset({"legal"}))
    assert result.outcome is Outcome.FAIL and result.field == "to_act", (result.outcome, result.field)


def test_a_move_the_reference_refuses_fails_the_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _reference_game("briscola-2p", 4, every=False)
    first = game["actions"][0]
    game["actions"] = [{**first, "seat": 1 - first["seat"]}, *game["actions"]]  # out of turn, and taken
    game["observations"] = []
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", game)))
    assert status == 1, out
    assert "FAIL briscola-2p rejected" in out and "briscola.play.in-turn" in out
    assert 'refusal code: expected ["not_your_turn"], observed "accepted"' in out


def test_a_deal_the_rules_do_not_allow_fails_the_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _reference_game("briscola-2p", 5, every=False)
    deck = game["setup"]["deck"]
    game["setup"] = {"dealer": 0, "hands": {"0": deck[:4], "1": deck[4:8]}, "stock": deck[8:]}
    game["actions"], game["observations"] = [], []
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", game)))
    assert status == 1, out
    assert "FAIL briscola-2p setup" in out and "briscola.deal.three-each" in out
    assert "no scenario written: the engine's deal is one the rules do not allow" in out


_NINES = {"0": "9C", "1": "9H", "2": "9S", "3": "9D"}  # seat 0 deals first; red 1 and 3 against black 0 and 2


@pytest.mark.parametrize(
    ("variant_id", "setup", "said", "clause"),
    [
        ("altbaumer-standard", {"dealer": 1, "nines": _NINES}, "the draw makes seat 0 the first dealer",
         "altbaumer.deal.draw-partners"),
        ("altbaumer-standard", {"dealer": 0, "nines": {**_NINES, "1": "9S", "2": "9H"}}, "mixes red and black",
         "altbaumer.deal.draw-partners"),
        ("altbaumer-standard", {"dealer": 1, "dealer_history": [3]}, "must end with the dealer", "altbaumer.deal.next-dealer"),
        ("altbaumer-standard", {"dealer": 1, "match": {"scores": [0, 0], "rounds": [2, 0]}}, "the match is already won",
         "altbaumer.match.match-win"),
        ("altbaumer-standard", {"dealer": 1, "match": {"scores": [7, 0], "rounds": [0, 0]}}, "a round is already won",
         "altbaumer.match.round-win"),
        ("altbaumer-standard", {"dealer": 4}, "expected a seat from 0 to 3", "altbaumer.table.players"),
        ("albastini-over60-2p", {"dealer": 0, "match": {"vp": [5, 0]}}, "the match is already won",
         "albastini.over-60.vp-target"),
        # the table's own target: the clause leaving that choice, not every clause of the open match
        ("albastini-2p", {"dealer": 0, "match": {"vp": [3, 0], "target": 3}}, "the match is already won (target 3)",
         "albastini.match.house-target"),
        # a match the rule cannot read: the match's clause, not the hand size's
        ("briscola-2p", {"dealer": 0, "match": {"vp": [0]}}, "expected a list of 2 non-negative integers",
         "briscola.score.running-tally"),
    ],
)
def test_a_deal_the_rules_do_not_allow_is_put_on_the_clause_stating_the_rule_it_breaks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant_id: str, setup: dict[str, Any], said: str, clause: str
) -> None:
    """Not on the clause of the hand size, which every setup refusal was put on but the pack's."""
    game = {"variant": variant_id, "setup": {**setup, "deck": deck_of(variant(variant_id))}, "actions": []}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", game)))
    assert status == 1 and said in out, out
    assert f"  clauses: {clause}\n" in out, out


def _mid_play(variant_id: str, **start: Any) -> dict[str, Any]:
    """A setup starting mid-trick where the reference's first legal moves lead, its ``start`` changed by ``start``."""
    engine = Engine.new(variant_id, {"dealer": 0, "deck": deck_of(variant(variant_id))})
    while (snapshot := engine.snapshot())["phase"] != "play" or not snapshot["trick"] or not any(snapshot["tricks"]):
        engine.apply(engine.legal_actions()[0])
    setup = from_position({"dealer": 0}, snapshot)
    assert setup is not None
    return {**setup, "start": {**setup["start"], **start}}


def _before_the_first_lead(variant_id: str, **start: Any) -> dict[str, Any]:
    """A setup starting as play begins, nobody having led, its ``start`` changed by ``start``."""
    engine = Engine.new(variant_id, {"dealer": 0, "deck": deck_of(variant(variant_id))})
    while (snapshot := engine.snapshot())["phase"] != "play":
        engine.apply(engine.legal_actions()[0])
    setup = from_position({"dealer": 0}, snapshot)
    assert setup is not None
    return {**setup, "start": {**setup["start"], **start}}


@pytest.mark.parametrize(
    ("variant_id", "setup", "clause"),
    [
        # after the Otea: the clause of the first lead, not those of who bids and in what order
        ("albastini-4p", _before_the_first_lead("albastini-4p", to_act=2), "albastini.play.first-lead"),
        ("albastini-2p", _before_the_first_lead("albastini-2p", to_act=0), "albastini.play.first-lead"),
        # play follows the deal: the clause saying who leads first, not that of playing in turn
        ("briscola-2p", _before_the_first_lead("briscola-2p", to_act=0), "briscola.play.free"),
        # after the makers' choice to go alone, though making trumps left the stock out of play: the clauses of the
        # first lead, not the one ordering the choice, which a position begun in play never made
        ("altbaumer-standard", _before_the_first_lead("altbaumer-standard", to_act=0),
         "altbaumer.lone.lead-when-forehand-out, altbaumer.play.first-lead"),
    ],
)
def test_a_wrong_first_lead_is_put_on_the_clause_stating_who_leads_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant_id: str, setup: dict[str, Any], clause: str
) -> None:
    """Not on the clauses of playing in turn or of the winner leading, which observe whose turn it is in play."""
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", {"variant": variant_id, "setup": setup, "actions": []})))
    assert status == 1 and "the first trick is led by seat 1" in out, out
    assert f"  clauses: {clause}\n" in out, out


@pytest.mark.parametrize(
    ("variant_id", "setup", "said", "clause"),
    [
        # the indicator's place is stated where the trump card is turned, not where the stock is drawn
        ("bisca-2p", _mid_play("bisca-2p", indicator="AC"), "the indicator lies under the stock",
         "bisca.deal.trump-card"),
        # of the clauses stating the five-player indicator, the one saying where it lies, not those of the tricks and
        # the points that follow from it
        ("albastini-5p", _mid_play("albastini-5p", indicator="AC"), "the indicator lies under the stock",
         "albastini.five-players.indicator-dead"),
        # whose turn it is mid-trick: the clauses of playing in turn, not of the hand size
        ("briscola-2p", _mid_play("briscola-2p", to_act=1), "expected the active seat after the last card",
         "briscola.play.free, briscola.play.in-turn"),
        # makers where nobody makes trumps: the clause saying what makes trumps (the card turned), not the others of
        # the trump rule (Albastini's compulsory exchange)
        ("briscola-2p", _mid_play("briscola-2p", makers=0), "this variant has no makers", "briscola.deal.trump-card"),
        ("albastini-4p", _mid_play("albastini-4p", makers=0), "this variant has no makers", "albastini.otea.turn-up"),
        # a lone player where nobody goes alone: no clause states it, so the deal's clauses refusing setups are named
        ("bisca-2p", _mid_play("bisca-2p", lone=0), "this variant has no lone player",
         "bisca.deal.three-each, bisca.deal.trump-card"),
        # cards no deal turns: the clauses of how trumps are made that observe what was turned
        ("briscola-2p", _mid_play("briscola-2p", turned=["AC", "AD"]), "the dealer turns one card, not 2",
         "briscola.deal.trump-card"),
        ("albastini-4p", _mid_play("albastini-4p", turned=["AC"]), "AC turned makes C trumps, not H",
         "albastini.otea.turn-up"),
        ("altbaumer-standard", _mid_play("altbaumer-standard", turned=["9H", "TH"]),
         "TH, the last card turned, is taken and makes H trumps, not S", "altbaumer.trump.turn-up, altbaumer.trump.refuse"),
    ],
)
def test_a_deal_begun_mid_play_is_put_on_the_clause_of_the_position_it_gives_wrongly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant_id: str, setup: dict[str, Any], said: str, clause: str
) -> None:
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", {"variant": variant_id, "setup": setup, "actions": []})))
    assert status == 1 and said in out, out
    assert f"  clauses: {clause}\n" in out, out


def test_a_deal_breaking_what_no_clause_states_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bisca states no clause of going alone: the deal's clauses are named, and the words say why."""
    game = {"variant": "bisca-2p", "setup": _mid_play("bisca-2p", lone=0), "actions": []}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", game)))
    assert status == 1 and "this variant has no lone player" in out, out
    said = "no clause of bisca-2p states `components.lone`, the part of the variant it breaks: the deal's clauses are named"
    assert said in out, out
    assert "  clauses: bisca.deal.three-each, bisca.deal.trump-card\n" in out, out


def _pile_of_side(variant_id: str, side: int) -> dict[str, Any]:
    """A setup begun mid-play whose first pile is given to ``side`` instead."""
    setup = _mid_play(variant_id)
    (_, cards), *others = setup["start"]["piles"].items()
    return {**setup, "start": {**setup["start"], "piles": {str(side): cards, **dict(others)}}}


@pytest.mark.parametrize(
    ("variant_id", "setup", "said", "clause"),
    [
        ("briscola-2p", {"dealer": 2}, "expected a seat from 0 to 1", "briscola.players.count"),
        ("briscola-4p", {"dealer": 4}, "expected a seat from 0 to 3", "briscola.players.count"),
        ("bisca-2p", {"dealer": 2}, "expected a seat from 0 to 1", "bisca.players.two"),
        ("briscola-4p", _pile_of_side("briscola-4p", 2), 'expected a side key "0".."1"', "briscola.players.sides"),
        ("bisca-2p", _pile_of_side("bisca-2p", 2), 'expected a side key "0".."1"', "bisca.players.alone"),
    ],
)
def test_a_seat_or_side_the_table_does_not_have_is_put_on_the_clause_of_the_players(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant_id: str, setup: dict[str, Any], said: str, clause: str
) -> None:
    """Briscola and Bisca state their players and sides: a dealer at a seat the table does not have, or a pile of a
    side it does not have, breaks the clause stating them, not the deal's."""
    dealt = setup if "start" in setup else {**setup, "deck": deck_of(variant(variant_id))}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", {"variant": variant_id, "setup": dealt, "actions": []})))
    assert status == 1 and said in out, out
    assert f"  clauses: {clause}\n" in out and "no clause of" not in out, out


def test_a_house_target_no_clause_states_is_said_so_not_put_on_the_open_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A house variant playing to a target of its own, which no clause states: Briscola's running tally, which
    fixes no target, is not the clause it breaks."""
    variants = tmp_path / "house" / "briscola" / "variants"
    variants.mkdir(parents=True)
    (variants / "to-seven.yaml").write_text(
        "id: club-briscola-to-seven\nextends: briscola-2p\ntitle: Briscola to seven\nsources: [briscola]\n"
        "components:\n  match:\n    rule: vp-target\n    target: 7\n",
        encoding="utf-8",
    )
    deck = deck_of(variant("briscola-2p"))
    game = {"variant": "club-briscola-to-seven", "setup": {"dealer": 0, "deck": deck, "match": {"vp": [7, 0]}}, "actions": []}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", game)), "--spec", str(tmp_path / "house"))
    assert status == 1 and "the match is already won (target 7)" in out, out
    assert "briscola.score.running-tally" not in out
    assert "no clause of club-briscola-to-seven states `components.match.target`" in out, out


def test_lines_that_are_no_game_are_located_and_the_rest_judged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _reference_game("briscola-2p", 6, every=False)
    trace = _write(
        tmp_path / "t.jsonl",
        {"trace": 1, "engine": {"name": "e\x1b[31m", "version": "1"}},
        good,
        '{"variant": "briscola-2p", "setup": {"dealer": 0, "deck": []}, "actions": [',
        {**good, "variant": "briscola-9p"},
        {key: value for key, value in good.items() if key != "setup"},
        {**good, "observations": [None] * (len(good["actions"]) + 2)},
        {**good, "setup": {**good["setup"], "dealer": "zero"}},
    )
    status, out = _check(capsys, str(trace))
    assert status == 2, out
    assert f"{trace}:3:" in out and "expected a JSON object per line" in out
    assert f"{trace}:4:24: $.variant: expected a playable variant of spec/*/variants, found 'briscola-9p'" in out
    assert f"{trace}:5:1: $: missing required key 'setup'" in out
    assert f"{trace}:6:" in out and "$.observations: expected at most" in out
    assert f"{trace}:7:" in out and "$.setup.dealer: expected integer" in out
    assert "1 passed, 5 failed (5 error)" in out  # each line that is no game an error of the run, in every report
    badge = tmp_path / "r"
    assert main(["check-trace", str(trace), "--report-dir", str(badge)]) == 2
    capsys.readouterr()
    assert json.loads((badge / "badge.json").read_text(encoding="utf-8"))["message"] == "1/6 passed"
    errors = [line for line in runlog.read(badge / "run.jsonl").scenarios if line["outcome"] == "error"]
    assert [(line["id"], line["game"]) for line in errors] == [(f"{trace}:{n}", "(no game)") for n in range(3, 8)]
    assert "\x1b" not in out and "engine: e\\x1b[31m 1" in out  # the engine's name is text, never a terminal control


def test_past_the_bound_on_problems_they_are_counted_and_the_games_still_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "MAX_PROBLEMS", 3)
    game = _reference_game("briscola-2p", 1, every=False)
    trace = _write(tmp_path / "mixed.jsonl", *(["not a game"] * 10), game, *(["[]"] * 5))
    status, out = _check(capsys, str(trace))
    assert status == 2
    assert out.count(f"{trace}:") == 3 and "and 12 problems more, not listed" in out and "1 passed, 15 failed" in out
    listed = [line for line in out.splitlines() if line.startswith(f"{trace}:")]
    assert [line.split(":")[1] for line in listed] == ["1", "2", "3"], listed  # the first by line
    # Lines too long are found as the file is read, ahead of the workers' answers on the lines before them.
    _write(trace, *(["not a game"] * 10), game, *(["[" + " " * 200 + "]"] * 5))
    monkeypatch.setattr(limits, "MAX_LINE_BYTES", 100)
    monkeypatch.setattr(checking, "BATCH", 2)
    one, two = (_check(capsys, str(trace), "--jobs", jobs)[1] for jobs in ("1", "2"))
    assert one.splitlines()[:4] == two.splitlines()[:4]
    assert [line.split(":")[1] for line in two.splitlines()[:3]] == ["1", "2", "3"]


def _located_at_once(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many problems each walk of a line locates, as check-trace reads its lines (in this process)."""
    walks: list[int] = []
    columns = json_positions.Positions.columns

    def counted(self: json_positions.Positions, wanted: Any) -> list[int]:
        walks.append(len(wanted))
        return columns(self, wanted)

    monkeypatch.setattr(json_positions.Positions, "columns", counted)
    return walks


def _unknown_snapshot_keys(game: dict[str, Any], keys: int) -> None:
    game["observations"][0]["snapshot"].update({f"k{i}": 0 for i in range(keys)})


def _seats_the_table_lacks(game: dict[str, Any], keys: int) -> None:
    game["observations"][0]["snapshot"]["hands"] = {f"k{i}": [] for i in range(keys)}


@pytest.mark.parametrize("planted", [_unknown_snapshot_keys, _seats_the_table_lacks])
def test_a_line_s_problems_past_the_bound_are_counted_not_located(
    planted: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A line locates no more problems than a run lists (a later line of its file, no more than the room the lines
    before it leave, but its first): past them, a problem whose message costs little is counted, exactly."""
    monkeypatch.setattr(limits, "MAX_PROBLEMS", 3)
    walks = _located_at_once(monkeypatch)
    many, few, good = (_reference_game("briscola-2p", 1) for _ in range(3))
    planted(many, 10)
    planted(few, 2)
    trace = _write(tmp_path / "t.jsonl", many, few, good)
    status, out = _check(capsys, str(trace), "--report-dir", str(tmp_path / "r"))
    assert status == 2, out
    listed = [line for line in out.splitlines() if line.startswith(f"{trace}:")]
    assert [line.split(": ")[1].rsplit(".", 1)[1] for line in listed] == ['k0', 'k1', 'k2'], listed  # the first, in order
    assert "and 9 problems more, not listed" in out.splitlines() and "1 passed, 2 failed (2 error)" in out
    assert walks == [3, 1]
    errors = [line["error"] for line in runlog.read(tmp_path / "r" / "run.jsonl").scenarios if line["outcome"] == "error"]
    assert [error.rsplit(" (and ", 1)[1] for error in errors] == ["9 more problems of the line)", "1 more problems of the line)"]


def _unknown_game_keys(game: dict[str, Any], keys: int) -> None:
    game.update({f"k{i}": 0 for i in range(keys)})


def _unknown_setup_keys(game: dict[str, Any], keys: int) -> None:
    game["setup"].update({f"k{i}": 0 for i in range(keys)})


def _no_observations(game: dict[str, Any], keys: int) -> None:
    game["observations"][:keys] = ["x"] * keys


@pytest.mark.parametrize("planted", [_unknown_game_keys, _unknown_setup_keys, _no_observations])
def test_a_line_s_schema_problems_past_the_bound_are_not_looked_for(
    planted: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The schema's problems cost as much to find as to say: past those listed, the line looks for one more only,
    and says there are at least that many."""
    monkeypatch.setattr(limits, "MAX_PROBLEMS", 3)
    game = _reference_game("briscola-2p", 1)
    planted(game, 10)
    trace = _write(tmp_path / "t.jsonl", game, _reference_game("briscola-2p", 2))
    status, out = _check(capsys, str(trace), "--report-dir", str(tmp_path / "r"))
    assert status == 2, out
    assert len([line for line in out.splitlines() if line.startswith(f"{trace}:")]) == 3, out
    assert "and at least 1 problem more, not listed" in out.splitlines() and "1 passed, 1 failed (1 error)" in out
    (error,) = [line["error"] for line in runlog.read(tmp_path / "r" / "run.jsonl").scenarios if line["outcome"] == "error"]
    assert error.endswith(" (and at least 3 more problems of the line)"), error


def test_a_match_s_problems_are_located_in_one_walk_of_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "MAX_PROBLEMS", 2)
    walks = _located_at_once(monkeypatch)
    match = _reference_match("briscola-2p", 2, 3)
    for deal in match["deals"]:
        deal["observations"][-1]["snapshot"]["stockCount"] = 0
    trace = _write(tmp_path / "t.jsonl", match)
    status, out = _check(capsys, str(trace))
    assert status == 2, out
    listed = [line.split(": ")[1] for line in out.splitlines() if line.startswith(f"{trace}:1:")]
    assert [path.split(".observations")[0] for path in listed] == ["$.deals[0]", "$.deals[1]"], listed  # the third deal's counted
    assert all(path.endswith(".snapshot.stockCount") for path in listed) and "and 1 problem more, not listed" in out
    assert walks == [2]


def test_a_header_s_reports_are_judged_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _reference_game("briscola-2p", 7)
    for observation in game["observations"]:
        observation["snapshot"]["totals"] = [0, 0]  # an engine that keeps no totals, and says so
    declared = ["phase", "to_act", "hands", "last_trick", "legal"]
    header = {"trace": 1, "engine": {"name": "no-totals"}, "reports": declared}
    reports = tmp_path / "reports"
    status, out = _check(capsys, str(_write(tmp_path / "declared.jsonl", header, game)), "--report-dir", str(reports))
    assert status == 0, out
    # what it gives beyond them is said to be judged nowhere; the run log and report.md keep what was declared
    assert "note: the games give fields the header does not declare, judged nowhere: " in out
    assert "totals" in out.split("judged nowhere: ")[1].splitlines()[0] and "hands" not in out.split("judged nowhere: ")[1]
    assert runlog.read(reports / "run.jsonl").header["engine"]["reports"] == declared
    assert "was judged on those alone: `phase`, `to_act`, `hands`, `last_trick`, `legal`." in (reports / "report.md").read_text()
    status, out = _check(capsys, str(_write(tmp_path / "undeclared.jsonl", game)))
    assert status == 1 and "totals" in out, out


def test_jobs_and_shards_give_the_single_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = _example_trace(tmp_path / "bad.jsonl", 300, "--bug", "led-suit-wins")

    def outcomes(*args: str) -> list[tuple[str, str]]:
        folder = tmp_path / "-".join(args).replace("/", "of")
        main(["check-trace", str(trace), "--report-dir", str(folder), *args])
        capsys.readouterr()
        return [(line["id"], line["outcome"]) for line in runlog.read(folder / "run.jsonl").scenarios]

    single = outcomes()
    assert outcomes("--jobs", "2") == single
    shards = outcomes("--shard", "1/2") + outcomes("--shard", "2/2")
    assert sorted(shards) == sorted(single) and len(single) == 300


def test_a_folder_s_files_go_by_name_numbers_as_numbers_and_its_shards_merge_as_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """day-9 before day-10: the games' ids in a run log's order, so that shards' logs merge as they are read."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for day in (10, 9, 1):
        _write(folder / f"day-{day}.jsonl", *(_reference_game("briscola-2p", day * 10 + n, every=False) for n in range(3)))
    for k in (1, 2):
        assert main(["check-trace", str(folder), "--shard", f"{k}/2", "--report-dir", str(tmp_path / f"shard{k}")]) == 0
    capsys.readouterr()
    shards = [runlog.read(tmp_path / f"shard{k}" / "run.jsonl") for k in (1, 2)]
    judged = [[Path(line["file"]).stem for line in shard.scenarios] for shard in shards]  # each in the run's order
    assert judged == [["day-1", "day-1", "day-9", "day-10", "day-10"], ["day-1", "day-9", "day-9", "day-10"]]
    assert all(runlog._ordered(shard) for shard in shards)  # so merged as they are read


def test_games_of_a_long_path_keep_ids_of_their_own(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An id holds its place whole, however long the path: only the place sets games apart, two files whose paths
    differ far from their end too."""
    deep = ["a-folder-of-games-kept-deep-in-a-site-s-logs-" + str(n) for n in range(8)]
    for site in ("site-a", "site-b"):
        folder = tmp_path.joinpath("logs", site, *deep)
        folder.mkdir(parents=True)
        _write(folder / "games.jsonl", *(_reference_game("briscola-2p", n, every=False) for n in range(2)))
    assert main(["check-trace", str(tmp_path / "logs"), "--report-dir", str(tmp_path / "reports")]) == 0
    capsys.readouterr()
    ids = [line["id"] for line in runlog.read(tmp_path / "reports" / "run.jsonl").scenarios]
    files = [tmp_path.joinpath("logs", site, *deep, "games.jsonl") for site in ("site-a", "site-b")]
    places = [f"{file}:{n + 1}#{n}" for file in files for n in range(2)]
    assert ids == places and len(places[0]) > 300


def test_a_game_s_place_reaches_the_terminal_made_safe(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _reference_game("briscola-2p", 1)
    game["observations"][1]["snapshot"]["to_act"] = 5
    trace = _write(tmp_path / "evil\x1b[2J\x07.jsonl", game)
    status, out = _check(capsys, str(trace), "--out", str(tmp_path / "found"))
    assert status == 1 and "first at " in out and "\x1b" not in out and "\x07" not in out and "\\x1b[2J\\x07.jsonl:1" in out
    (written,) = (tmp_path / "found").glob("*.yaml")
    assert "\\x1b[2J\\x07.jsonl, line 1 (game 1)" in " ".join(written.read_text(encoding="utf-8").split())


def test_the_javascript_example_s_trace_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    node = shutil.which("node")
    if node is None:
        if "CI" in os.environ:
            pytest.fail("node is not on PATH: CI must run the JavaScript example engine")
        pytest.skip("node is not on PATH")
    games = cases(100, 2_000)
    trace = tmp_path / "js.jsonl"
    with trace.open("w", encoding="utf-8") as out:
        subprocess.run([node, str(JS_ENGINE), "--trace", str(games), "7"], stdout=out, check=True, timeout=600)
    status, said = _check(capsys, str(trace))
    assert status == 0 and f"{games} passed, 0 failed" in said, said


def test_a_known_field_is_counted_apart_in_a_trace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _reference_game("albastini-2p", 8)
    for observation in game["observations"]:
        observation["snapshot"]["totals"] = [0, 0]  # known to be wrong; the rest right
    trace = _write(tmp_path / "t.jsonl", game)
    known = tmp_path / "expect.yaml"
    known.write_text("format: 2\nengine: e\nspec_version: x\nexpectations: []\n"
                     "known: [{variant: albastini-2p, field: totals, reason: it keeps no totals}]\n", encoding="utf-8")
    status, out = _check(capsys, str(trace), "--expect", str(known))
    assert status == 0 and "0 passed, 0 failed, 1 xfail" in out, out
    game["observations"][-1]["snapshot"]["to_act"] = 3  # and a difference it does not know of
    status, out = _check(capsys, str(_write(tmp_path / "u.jsonl", game)), "--expect", str(known))
    assert status == 1 and "to_act: expected null, observed 3" in out, out


def test_each_run_writes_its_divergences_though_another_run_in_the_process_wrote_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = _example_trace(tmp_path / "bad.jsonl", 20, "--bug", "led-suit-wins")
    for run in ("first", "second"):
        _check(capsys, str(trace), "--out", str(tmp_path / run))
        assert len(list((tmp_path / run).glob("*.yaml"))) == 1, run


def test_a_stock_written_with_its_turned_card_last_is_said_to_be_the_likely_cause(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An engine that turns the stock's top card and puts it at the bottom writes, naively, the stock it then holds:
    the reference turns another card, and the game fails on trump from the deal on. The failure says why."""
    for seed in range(50):
        game = _reference_game("briscola-2p", seed)
        snapshot = game["observations"][0]["snapshot"]
        stock = snapshot["stock"]  # as the engine holds it after the deal: the turned card last
        if stock[0][-1] != stock[-1][-1]:
            break
    game["setup"] = {"dealer": 0, "hands": snapshot["hands"], "stock": stock}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", game)))
    assert status == 1, out
    assert f"(the engine's trump is the suit of the stock's last card, {stock[-1]}: a trace gives the stock as dealt" in out
    game["setup"] = {"dealer": 0, "hands": snapshot["hands"], "stock": stock[:-1], "turned": stock[-1]}  # as traces.md says
    assert _check(capsys, str(_write(tmp_path / "t.jsonl", game)))[0] == 0


def test_a_turned_card_the_stock_s_last_explains_is_said_to_be_the_likely_cause(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Where the card the engine turned and the stock's top card are of one suit, the trump agrees, and a stock
    written with its turned card last fails the game on the card turned, or on the indicator where the engine reports
    no card turned: the failure says why, as it does for the trump."""
    for seed in range(200):
        game = _reference_game("briscola-2p", seed)
        snapshot = game["observations"][0]["snapshot"]
        stock = snapshot["stock"]  # as the engine holds it after the deal: the turned card last
        if stock[0][-1] == stock[-1][-1]:
            break
    game["setup"] = {"dealer": 0, "hands": snapshot["hands"], "stock": stock}
    cause = "a trace gives the stock as dealt, top first, with the card turned for trumps as turned"
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", game)))
    assert status == 1 and f'turned: expected ["{stock[0]}"], observed ["{stock[-1]}"]' in out, out
    assert f"(the engine's turned card is the stock's last card, {stock[-1]}: {cause}" in out, out
    for observation in game["observations"]:
        del observation["snapshot"]["turned"]
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", game)))
    assert status == 1 and f'indicator: expected "{stock[0]}", observed "{stock[-1]}"' in out, out
    assert f"(the engine's indicator is the stock's last card, {stock[-1]}: {cause}" in out, out


def test_a_mid_deal_game_s_wrong_turned_card_is_not_put_down_to_its_stock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A start names the card turned: a stock there is no stock as dealt, and the hint of a stock written after the
    turn would mislead. Seat 0 bid 5H and took 3H, the card turned, in exchange: 5H, the indicator, is the stock's
    last card, and an engine reporting it as the card turned is wrong on its own."""
    others = [c for c in deck_of(variant("albastini-2p")) if c not in ("5H", "3H")]
    setup = {"dealer": 1, "hands": {"0": ["5H", *others[:4]], "1": others[4:9]}, "stock": ["3H", *others[9:]]}
    engine = Engine.new("albastini-2p", setup)
    engine.apply({"type": "bid", "seat": 0, "card": "5H"})
    position = from_position(setup, engine.snapshot())
    assert position is not None and position["start"]["turned"] == ["3H"] and position["stock"][-1] == "5H"
    mid = {"game": 1, "variant": "albastini-2p", "setup": position, "actions": [],
           "observations": [{"snapshot": {"turned": ["5H"]}}]}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", mid)))
    assert status == 1 and "turned: expected" in out, out
    assert "the stock's last card" not in out


def test_a_deal_with_a_card_twice_is_filed_under_the_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A card placed twice breaks the pack, not the deal: the game is failed under the pack's clause alone."""
    game = _reference_game("briscola-2p", 5, every=False)
    deck = game["setup"]["deck"]
    game["setup"] = {"dealer": 0, "hands": {"0": deck[:3], "1": deck[3:6]}, "stock": [*deck[6:-1], deck[0]]}
    game["actions"], game["observations"] = [], []
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", game)))
    assert status == 1, out
    assert "FAIL briscola-2p setup" in out and "  clauses: briscola.cards.pack\n" in out, out
    assert f"the deal: $.stock[33]: {deck[0]} is also at $.hands[\"0\"][0]" in out


def test_games_that_stop_before_the_deal_is_over_are_judged_as_far_as_they_go_and_noted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole, cut = _reference_game("briscola-2p", 3), _reference_game("briscola-2p", 4)
    cut["actions"], cut["observations"] = cut["actions"][:10], cut["observations"][:11]
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", whole, cut, cut)))
    assert status == 0 and "3 passed, 0 failed" in out, out
    said = f"note: 2 games stop before the deal is over (the first at {tmp_path / 't.jsonl'}:2#4), judged as far as they go"
    assert said in out, out
    assert "before the deal is over" not in _check(capsys, str(_write(tmp_path / "w.jsonl", whole)))[1]


def test_a_trace_file_holding_no_game_is_a_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An engine that wrote no game has nothing checked: its file is no trace that passes (as an empty folder is not)."""
    game = _reference_game("briscola-2p", 3, every=False)
    for name, lines in (("empty", ()), ("header", ({"trace": 1},)), ("blank", ("", "  "))):
        status, out = _check(capsys, str(_write(tmp_path / f"{name}.jsonl", *lines)))
        assert status == 2, out
        assert f"{tmp_path / name}.jsonl: expected a game on each line after the header, found no game in this file" in out
    status, out = _check(capsys, str(_write(tmp_path / "one.jsonl", {"trace": 1}, game)))
    assert status == 0 and "no game in this file" not in out, out


def test_a_trace_named_twice_is_read_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """By two paths, or as a file and inside its folder: each game once, and a run log `report` reads."""
    trace = _write(tmp_path / "good.jsonl", _reference_game("briscola-2p", 4, every=False))
    monkeypatch.chdir(tmp_path)
    status, out = _check(capsys, "good.jsonl", "./good.jsonl", str(tmp_path), "--report-dir", "rep")
    assert status == 0 and "1 passed, 0 failed" in out, out
    assert main(["report", "rep/run.jsonl", "--format", "json"]) == 0
    assert trace.exists()


def test_a_header_the_kit_cannot_read_leaves_its_games_unjudged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A slip in its JSON: judged on every field, or under no engine's name, its games would be judged wrongly. A
    first line that is no header, unreadable (though "trace" is in it), is a game's problem; a byte order mark at the
    start of a file is passed over, as JSON readers may."""
    game = json.dumps(_reference_game("briscola-2p", 5, every=False))
    status, out = _check(capsys, str(_write(tmp_path / "slip.jsonl", '{"trace": 1, "reports": ["trump",]}', game)))
    assert status == 2, out
    engine_first = '{"engine": {"name": "x", "version": "1"}, "trace": 1, "reports": ["trump",]}'  # as a dict may write it
    later = _check(capsys, str(_write(tmp_path / "later.jsonl", engine_first, game)))[1]
    assert "1 game of this file not judged" in later and "0 passed" in later, later
    assert f"{tmp_path / 'slip'}.jsonl:1:1: $: 1 game of this file not judged: expected a header the kit can read" in out
    assert "(the file's header)" in out and "no game was judged" in out and "0 passed" in out, out
    status, out = _check(capsys, str(_write(tmp_path / "game.jsonl", '{"game": "trace", "oops",}', game)))
    assert status == 2 and "1 passed, 1 failed (1 error)" in out and "the file's header" not in out, out
    for name, first in (("bom-header", '\ufeff{"trace": 1, "engine": {"name": "bommed", "version": "1"}}'),
                        ("bom-game", "\ufeff" + game)):  # fmt: skip
        status, out = _check(capsys, str(_write(tmp_path / f"{name}.jsonl", first, game)))
        assert status == 0 and ("2 passed" if name == "bom-game" else "1 passed") in out, out
    assert "engine: bommed 1" in _check(capsys, str(tmp_path / "bom-header.jsonl"))[1]


def test_a_whole_number_written_with_a_point_is_that_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """1.0 and 1 are one JSON number (the schema takes 1.0 as an integer): a seat or a dealer written so is no rule
    the engine broke, and the game passes as written with integers."""
    game = _reference_game("briscola-2p", 6, every=True)
    text = json.dumps(game).replace('"dealer": 0,', '"dealer": 0.0,', 1).replace('"seat": 1,', '"seat": 1.0,', 1)
    assert text.index('"seat": 1.0,') < text.index('"observations"') and '"dealer": 0.0' in text  # in an action
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", text)))
    assert status == 0 and "1 passed, 0 failed" in out, out


def test_an_engine_refusing_an_action_the_rules_allow_fails_on_that_refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The refusal is the difference, not the position it left unchanged, which the reference played on from."""
    game = _reference_game("briscola-2p", 7)
    game["observations"][1] = {"rejected": {"code": "not_your_turn", "message": "no"}, **game["observations"][0]}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", game)))
    assert status == 1, out
    assert "FAIL briscola-2p rejected.accepted" in out
    assert 'action accepted: expected "accepted", observed "not_your_turn"' in out and "trick:" not in out, out


def test_legal_actions_given_twice_are_not_the_legal_actions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _reference_game("briscola-2p", 8)
    game["observations"][0]["legal"].append(game["observations"][0]["legal"][0])
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", game)))
    assert status == 1 and "0 passed, 1 failed" in out and "FAIL briscola-2p legal.play" in out, out


def test_an_abstract_variant_is_a_located_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = {**_reference_game("bisca-2p", 9, every=False), "variant": "bisca-base"}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", game)))
    assert status == 2 and "Traceback" not in out, out
    assert "$.variant: expected a playable variant of spec/*/variants, found 'bisca-base'" in out


def test_blank_lines_between_games_are_passed_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = [_reference_game("briscola-2p", seed, every=False) for seed in (10, 11)]
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", games[0], "   ", "", games[1])))
    assert status == 0 and "2 passed, 0 failed" in out, out


def test_a_divergence_counts_every_game_it_shows_in(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = _example_trace(tmp_path / "games.jsonl", 20, "--bug", "led-suit-wins")
    status, out = _check(capsys, str(trace), "--report-dir", str(tmp_path / "r"))
    assert status == 1, out
    failed = sum(1 for line in runlog.read(tmp_path / "r" / "run.jsonl").scenarios if line["outcome"] == "fail")
    assert failed > 1 and f"; {failed} games)" in out, out


def test_a_problem_of_no_game_is_logged_by_the_first_shard_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that cannot be opened is read by every shard, and is one error of the run, not one a shard."""
    _write(tmp_path / "good.jsonl", *[_reference_game("briscola-2p", seed, every=False) for seed in (12, 13)])
    (tmp_path / "gone.jsonl").symlink_to(tmp_path / "nowhere")
    for k in (1, 2):
        _check(capsys, str(tmp_path / "gone.jsonl"), str(tmp_path / "good.jsonl"), "--shard", f"{k}/2",
               "--report-dir", str(tmp_path / f"shard{k}"))  # fmt: skip
    errors = [[line for line in runlog.read(tmp_path / f"shard{k}" / "run.jsonl").scenarios if line["outcome"] == "error"]
              for k in (1, 2)]  # fmt: skip
    assert len(errors[0]) == 1 and errors[1] == []
    assert main(["report", str(tmp_path / "shard1" / "run.jsonl"), str(tmp_path / "shard2" / "run.jsonl"),
                 "--format", "json"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["counts"] == {"pass": 2, "error": 1}


def test_the_stock_turned_over_note_is_for_a_trump_unlike_the_reference_s_from_the_deal_on() -> None:
    """The likeliest cause of a trump that differs at the deal, the stock written with the turned card last, is said
    there alone: later, the trump was the reference's at the deal, and something else changed it."""
    dealt = {"dealer": 0, "hands": {"0": ["AC", "3C", "KC"], "1": ["QC", "JC", "7C"]}, "stock": ["2S", "rest", "5H"]}
    game = reading.Game(0, "t.jsonl:1", "t.jsonl", 1, "briscola-2p", {}, (), (), dealt=dealt)
    at = [Divergence(REPORT, position, (Mismatch(position, 1, "trump", "S", "H"),)) for position in (0, 1)]
    assert "the engine's trump is the suit of the stock's last card, 5H" in judging._stock_turned_over(game, at[0])
    assert judging._stock_turned_over(game, at[1]) == ""
    # a trump the stock's last card does not explain hides no card turned it would: the cause is another
    other = (Mismatch(0, 1, "trump", "S", "D"), Mismatch(0, 1, "turned", ["2S"], ["5H"]))
    assert judging._stock_turned_over(game, Divergence(REPORT, 0, other)) == ""


def test_a_file_whose_first_lines_name_no_variant_is_read_no_further(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file given by mistake (a log of another kind) costs a bounded number of problems and report lines, not one
    for each of its millions of lines; a file with a game among those first lines is read whole."""
    monkeypatch.setattr(limits, "MAX_LINES_WITHOUT_GAME", 5)
    wrong = _write(tmp_path / "wrong.jsonl", *(["{}"] * 50))
    status, out = _check(capsys, str(wrong), "--report-dir", str(tmp_path / "r"))
    assert status == 2 and "0 passed, 5 failed (5 error)" in out, out
    assert f"{wrong}:5:1: $: expected games: 5 lines of this file, up to this one, name no variant" in out
    assert len(runlog.read(tmp_path / "r" / "run.jsonl").scenarios) == 5
    game = _reference_game("briscola-2p", 15, every=False)
    mixed = _write(tmp_path / "mixed.jsonl", *(["{}"] * 4), game, *(["{}"] * 20))
    status, out = _check(capsys, str(mixed))
    assert status == 2 and "1 passed, 24 failed (24 error)" in out and "name no variant" not in out, out
    escaped = _write(tmp_path / "escaped.jsonl", *(['{"\\u0076ariant": 1}'] * 10))  # a key escaped may be "variant"
    assert "name no variant" not in _check(capsys, str(escaped))[1]


def _reference_match(
    variant_id: str, seed: int, deals: int, carry: Any = None, *, first: Any = None, written: Any = None,
    leave_dealer: bool = False,
) -> dict[str, Any]:
    """A match the reference plays deal after deal with random legal moves, each deal reported in full and its setup
    carrying the match on as the deal before left it: what a right engine writes on one line. ``carry``: how an
    engine with a bug carries the next setup on instead; ``first``: the first deal's setup, but for its cards;
    ``written``: what a later deal's setup says of the one played (all of it, unless given)."""
    rng = random.Random(seed)
    cards = deck_of(variant(variant_id))
    carried: dict[str, Any] | None = first or {"dealer": 0}
    played = []
    while carried is not None and len(played) < deals:
        rng.shuffle(cards)
        deal, engine = _played(variant_id, {**carried, "deck": list(cards)}, rng, leave_dealer=leave_dealer)
        if played and written is not None:
            deal["setup"] = {**written(carried), "deck": deal["setup"]["deck"]}
        played.append(deal)
        carried = engine.next_setup()
        if carry is not None and carried is not None:
            carried = carry(carried)
    return {"game": f"match-{seed}", "variant": variant_id, "deals": played}


@pytest.mark.parametrize("variant_id", ["altbaumer-standard", "albastini-4p", "briscola-2p"])
def test_a_match_on_one_line_is_judged_deal_by_deal_and_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant_id: str
) -> None:
    """Each deal is a game of the run, named after the match's line and its place in the match; a later deal's
    setup may leave the match out, which the kit carries on from the deal before."""
    match = _reference_match(variant_id, 5, 6)
    assert len(match["deals"]) >= 2
    bare = {**match, "deals": [match["deals"][0]] + [
        {**deal, "setup": {k: v for k, v in deal["setup"].items() if k not in ("match", "dealer_history")}}
        for deal in match["deals"][1:]
    ]}  # fmt: skip
    unnamed = {k: v for k, v in match.items() if k != "game"}
    trace = _write(tmp_path / "t.jsonl", match, bare, unnamed)
    status, out = _check(capsys, str(trace), "--report-dir", str(tmp_path / "r"))
    deals = len(match["deals"])
    assert status == 0, out
    assert f"{3 * deals} passed, 0 failed" in out.splitlines()
    ids = [json.loads(line)["id"] for line in (tmp_path / "r" / "run.jsonl").read_text().splitlines()[1:-1]]
    assert ids[: deals + 1] == [f"{trace}:1#match-5/{n}" for n in range(1, deals + 1)] + [f"{trace}:2#match-5/1"]
    assert ids[2 * deals :] == [f"{trace}:3/{n}" for n in range(1, deals + 1)]
    assert main(["report", str(tmp_path / "r" / "run.jsonl"), "--format", "badge"]) == 0  # each id once


def test_a_later_deal_s_setup_is_read_as_the_reference_reads_a_setup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A later deal may give part of the match (the rest carried on), a match written another way the reference
    reads alike (a sheet of its non-zero seats), or the drawn nines for its dealer: a right engine passes."""

    nines = {"0": "9C", "1": "9H", "2": "9S", "3": "9D"}

    def scores_alone(setup: dict[str, Any]) -> dict[str, Any]:
        return {"nines": nines, "match": {"scores": setup["match"]["scores"]}}

    altbaumer = _reference_match("altbaumer-standard", 4, 12, first={"nines": nines}, written=scores_alone)

    def vp_alone(setup: dict[str, Any]) -> dict[str, Any]:
        sheet = {seat: points for seat, points in setup["match"]["sheet"].items() if points}
        return {"dealer": setup["dealer"], "match": {"vp": setup["match"]["vp"], "sheet": sheet}}

    first = {"dealer": 0, "match": {"vp": [0, 0], "target": 9}}  # a house target, carried on
    briscola = _reference_match("briscola-4p", 4, 6, first=first, written=vp_alone)
    trace = _write(tmp_path / "t.jsonl", altbaumer, briscola)
    status, out = _check(capsys, str(trace))
    assert status == 0 and f"{len(altbaumer['deals']) + len(briscola['deals'])} passed, 0 failed" in out, out


def _carried_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str], match: dict[str, Any]) -> tuple[str, list[Path]]:
    out_dir = tmp_path / "found"
    tmp_path.mkdir(exist_ok=True)
    trace = _write(tmp_path / "t.jsonl", match)
    status, out = _check(capsys, str(trace), "--out", str(out_dir), "--report-dir", str(tmp_path / "r"))
    assert status == 1, out
    written = sorted(out_dir.iterdir())
    assert written and main(["validate", *map(str, written)]) == 0
    assert main(["verify", "--scenarios", str(out_dir)]) == 0  # the reference passes what the engine failed
    capsys.readouterr()
    return out, written


def test_a_match_carried_on_wrongly_fails_the_deal_it_was_carried_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The next deal's setup is the engine's report of where the deal before left the match: its dealer is the next
    dealer that deal names, its scores those that deal ended with. Each wrong one fails the deal before, under the
    clauses that decide it, with a scenario of that deal expecting what the reference reports at its end."""
    def one_seat_on(setup: dict[str, Any]) -> dict[str, Any]:  # the same rotation, a seat the rules do not name
        dealer = (setup["dealer"] + 1) % 4
        return {**setup, "dealer": dealer, "dealer_history": [*setup["dealer_history"][:-1], dealer]}

    match = _reference_match("altbaumer-standard", 7, 4, one_seat_on)
    named = match["deals"][0]["observations"][-1]["snapshot"]["result"]["next_dealer"]
    out, written = _carried_wrong(tmp_path / "dealer", capsys, match)
    assert "1 distinct divergence\n" in out  # the match goes on from where the reference left it: no other follows
    assert f"FAIL altbaumer-standard result.next_dealer (first at {tmp_path / 'dealer' / 't.jsonl'}:1#match-7/1;" in out
    assert "  clauses: altbaumer.deal.next-dealer" in out
    dealt = (named + 1) % 4
    carried = f"result.next_dealer: expected {named}, observed {dealt} (as the next deal's setup carries the match on)"
    assert f"  at the deal's end: {carried}" in out  # where in the game: no action of the deal is at fault
    assert len(written) == 1 and "next_dealer" in written[0].read_text(encoding="utf-8")

    def scores_dropped(setup: dict[str, Any]) -> dict[str, Any]:  # the deal's score not kept
        return {**setup, "match": {**setup["match"], "scores": [0, 0]}}

    match = _reference_match("altbaumer-standard", 7, 4, scores_dropped)
    assert match["deals"][0]["observations"][-1]["snapshot"]["match"]["scores"] != [0, 0]
    out, _ = _carried_wrong(tmp_path / "scores", capsys, match)
    assert "FAIL altbaumer-standard match.scores (first at " in out and "altbaumer.match.round-win" in out


def test_a_deal_after_the_match_is_won_fails_the_deal_that_won_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A deal that follows says the match goes on: where the deal before won it, that deal fails, the match's winner
    among its differences."""
    match = _reference_match("altbaumer-standard", 3, 60)
    won = len(match["deals"])
    assert match["deals"][-1]["observations"][-1]["snapshot"]["match"]["winner"] is not None
    match["deals"].append(match["deals"][-2])
    out, _ = _carried_wrong(tmp_path, capsys, match)
    logged = {line["id"]: line for line in map(json.loads, (tmp_path / "r" / "run.jsonl").read_text().splitlines()[1:-1])}
    failed = logged[f"{tmp_path / 't.jsonl'}:1#match-3/{won}"]
    assert failed["outcome"] == "fail" and [m["what"] for m in failed["mismatches"]] == ["match.winner"], failed
    assert "FAIL altbaumer-standard match.winner (first at " in out and "altbaumer.match.match-win" in out


def test_a_problem_in_a_match_s_deal_is_located_in_that_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match = _reference_match("briscola-2p", 2, 3)
    match["deals"][1]["setup"]["dealr"] = 1
    trace = _write(tmp_path / "t.jsonl", match, {**match, "deals": []})
    status, out = _check(capsys, str(trace))
    assert status == 2, out
    assert f"{trace}:1:" in out and "$.deals[1].setup.dealr: unknown key 'dealr'" in out
    assert f"{trace}:2:56: $.deals: expected at least 1 item, found array []" in out


LAX = "components.legality follow-then-trump -> free"  # selfcheck's mutant letting any card be played


def _played_failing(variant_id: str, setup: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], Engine]:
    """A deal an engine plays wrongly midway, and the engine at its end: where the variant forbids cards, the engine
    lets one be played (it plays the deal by a rule letting any card be); elsewhere it says once, midway, that the
    wrong seat is to act."""
    reference = Engine.new(variant_id, setup)
    lax = next((m for m in mutants(variant_id, hybrids=False) if m.what == LAX), None)
    engine = Engine(compile_rules(lax.data), setup) if lax is not None else reference.copy()
    observations = [{"snapshot": engine.snapshot()}]
    actions: list[Any] = []
    wrong = None  # where the engine goes wrong: the card the rules forbid, or the action it says the wrong turn after
    while (legal := engine.legal_actions()) and engine.to_act is not None:
        forbidden = [a for a in legal if a not in reference.legal_actions()] if wrong is None and len(actions) > 4 else []
        actions.append(forbidden[0] if forbidden else rng.choice(legal))
        if wrong is None:
            reference.apply(actions[-1])
        wrong = len(actions) if forbidden else wrong
        engine.apply(actions[-1])
        observations.append({"snapshot": engine.snapshot()})
    if lax is None:
        wrong = len(actions) // 2
        said = observations[wrong]["snapshot"]
        said["to_act"] = (said["to_act"] + 1) % len(said["hands"])
    assert wrong is not None
    return {"setup": setup, "actions": actions, "observations": observations}, engine


def _failing_in_deal_2(variant_id: str, seed: int, deals: int, written: Any) -> dict[str, Any]:
    """A match a right engine plays but for deal 2, which it plays wrongly midway (``_played_failing``): each deal
    reported after every action (the snapshot alone), a winning side leaving the next dealer to the rules, and the
    match going on from where the engine left it, each later deal's setup saying of it what ``written`` takes from
    what the engine carries on (its dealer, the history of dealers, the match)."""
    rng = random.Random(seed)
    cards = deck_of(variant(variant_id))
    carried: dict[str, Any] | None = {"dealer": 0}
    played = []
    while carried is not None and len(played) < deals:
        rng.shuffle(cards)
        setup = {**carried, "deck": list(cards)}
        if len(played) == 1:
            deal, engine = _played_failing(variant_id, setup, rng)
        else:
            deal, engine = _played(variant_id, setup, rng, leave_dealer=True)
            deal["observations"] = [{"snapshot": o["snapshot"]} for o in deal["observations"]]
        if played:
            deal["setup"] = {**written(carried), "deck": setup["deck"]}
        played.append(deal)
        carried = engine.next_setup()
    return {"game": f"match-{seed}", "variant": variant_id, "deals": played}


WRITTEN = {  # what a later deal's setup says of the match the engine carries on
    "everything": lambda carried: carried,
    "the match": lambda carried: {"dealer": carried["dealer"], "match": carried["match"]},
    "the dealer": lambda carried: {"dealer": carried["dealer"]},
}


def _not_judged_since_2(counts: str, how: str = "failed") -> str:
    return (f"match not judged: deal 2 of the match {how}, so where it left the match is not known, and no setup since "
            f"gives the match's {counts}")


@pytest.mark.parametrize(("variant_id", "seed", "counts"), [("altbaumer-standard", 3, "rounds and scores"),
                                                            ("albastini-4p", 5, "sheet and vp")])
@pytest.mark.parametrize("written", list(WRITTEN))
def test_deals_after_one_that_failed_are_judged_on_what_the_trace_tells(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant_id: str, seed: int, counts: str, written: str
) -> None:
    """Where deal 2 fails midway, the reference cannot say where it left the match, and a right engine passes every
    deal after it: each goes on from the dealers the trace shows (who deals after it judged by them, a side's least
    recent dealer too) and from the match's counts its setup gives, judged from them. A setup leaving them out
    leaves the match not judged, in that deal and the next ones, each saying so in the run log, and report.md and
    the terminal counting them."""
    match = _failing_in_deal_2(variant_id, seed, 8, WRITTEN[written])
    deals = len(match["deals"])
    assert deals > 3
    trace = _write(tmp_path / "t.jsonl", match)
    status, out = _check(capsys, str(trace), "--report-dir", str(tmp_path / "r"))
    assert status == 1 and "1 distinct divergence\n" in out and f"\n{deals - 1} passed, 1 failed\n" in out, out
    assert f" (first at {trace}:1#match-{seed}/2; 1 game)" in out, out
    notes = [line["note"] for line in runlog.read(tmp_path / "r" / "run.jsonl").scenarios]
    report = (tmp_path / "r" / "report.md").read_text(encoding="utf-8")
    if written != "the dealer":
        assert notes[2:] == [None] * (deals - 2) and "judged in part" not in out + report, notes
        return
    said = _not_judged_since_2(counts)
    assert notes[2:] == [said] * (deals - 2), notes
    in_part = f"{deals - 2} passed judged in part (the first at {trace}:1#match-{seed}/3: {said}); the run log's note"
    assert f"\nnote: {in_part}" in out and in_part.replace("_", "\\_") in report, out + report
    summary = json.loads((tmp_path / "r" / "summary.json").read_text(encoding="utf-8"))
    assert summary["judged_in_part"] == {"count": deals - 2, "first": f"{trace}:1#match-{seed}/3", "note": said}


def test_a_deal_after_one_that_failed_is_judged_on_all_but_the_match_it_does_not_know(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """While the match's counts are not known, the rest is judged: a wrong turn fails its deal, the divergence saying
    the match was not judged, and a match reported wrongly there is not blamed. Once a setup gives the counts again
    the match is judged from them, until a deal fails again."""
    whole = _failing_in_deal_2("altbaumer-standard", 3, 8, WRITTEN["everything"])
    match = _failing_in_deal_2("altbaumer-standard", 3, 8, WRITTEN["the dealer"])  # the same deals
    assert len(match["deals"]) == 8
    deals = match["deals"]
    deals[2]["observations"][-1]["snapshot"]["match"]["scores"] = [4, -4]  # not known: not judged
    said = deals[4]["observations"][3]["snapshot"]
    turn, said["to_act"] = said["to_act"], (said["to_act"] + 1) % 4
    deals[5]["setup"] = whole["deals"][5]["setup"]  # the match given again
    deals[6]["observations"][-1]["snapshot"]["match"]["scores"] = [4, -4]
    trace = _write(tmp_path / "t.jsonl", match)
    status, out = _check(capsys, str(trace), "--report-dir", str(tmp_path / "r"))
    assert status == 1 and "\n3 distinct divergences\n" in out and "\n5 passed, 3 failed\n" in out, out
    unknown = f"  {_not_judged_since_2('rounds and scores')}\n"
    turned = f"(first at {trace}:1#match-3/5; 1 game)\n"
    assert turned in out and f"to_act: expected {turn}, observed {(turn + 1) % 4}\n{unknown}" in out, out
    assert out.count(unknown) == 1 and f"match.scores (first at {trace}:1#match-3/7; 1 game)\n" in out, out
    notes = [line["note"] or "" for line in runlog.read(tmp_path / "r" / "run.jsonl").scenarios]
    assert [bool(note) for note in notes] == [False, False, True, True, True, False, False, True], notes
    assert notes[-1].startswith("match not judged: deal 7 of the match failed, so "), notes


def test_deals_after_one_the_trace_stops_in_say_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A deal whose trace stops before its end passes as far as it goes, and leaves the match not known as a failed
    one does."""
    match = _reference_match("albastini-2p", 3, 4, written=WRITTEN["the dealer"])
    cut = match["deals"][1]
    cut["actions"], cut["observations"] = cut["actions"][:5], cut["observations"][:6]
    trace = _write(tmp_path / "t.jsonl", match)
    status, out = _check(capsys, str(trace), "--report-dir", str(tmp_path / "r"))
    assert status == 0 and "\n4 passed, 0 failed\n" in out, out
    said = _not_judged_since_2("sheet and vp", "stops before its end")
    assert [line["note"] for line in runlog.read(tmp_path / "r" / "run.jsonl").scenarios] == [None, None, said, said]


def test_a_deal_after_one_dealt_by_the_nines_the_trace_stops_in_is_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An Altbaumer match's first setup gives the nines drawn and no dealer, the draw naming it, and its trace stops
    before the deal's end: that setup shows no dealer to go on from, so the deal after it starts from its own setup,
    and a right engine passes every deal."""
    nines = {"0": "9H", "1": "9S", "2": "9D", "3": "9C"}
    match = _reference_match("altbaumer-standard", 3, 4, first={"nines": nines})
    cut = match["deals"][0]
    assert "dealer" not in cut["setup"] and "dealer_history" not in cut["setup"]
    cut["actions"], cut["observations"] = cut["actions"][:3], cut["observations"][:4]
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", match)))
    assert status == 0 and "\n4 passed, 0 failed\n" in out, out


@pytest.mark.parametrize("refused", [1, 2])
def test_a_deal_refused_at_its_setup_leaves_the_deals_after_it_to_their_own_setups(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], refused: int
) -> None:
    """A setup the rules do not allow (a dealer at a seat the table does not have) fails its deal and shows no dealers
    the reference reads: the deal after it starts from its own setup, and a right engine passes every deal after it."""
    match = _reference_match("albastini-4p", 5, 6, written=WRITTEN["everything"])
    setup = match["deals"][refused - 1]["setup"]
    setup["dealer"], setup["dealer_history"] = 5, [*setup.get("dealer_history", [0])[:-1], 5]
    trace = _write(tmp_path / "t.jsonl", match)
    status, out = _check(capsys, str(trace), "--report-dir", str(tmp_path / "r"))
    assert status == 1 and "1 distinct divergence\n" in out and "\n5 passed, 1 failed\n" in out, out
    assert f"setup (first at {trace}:1#match-5/{refused}; 1 game)" in out and "expected a seat from 0 to 3" in out, out
    assert [line["note"] for line in runlog.read(tmp_path / "r" / "run.jsonl").scenarios] == [None] * 6


@pytest.mark.parametrize("written", ["everything", "the dealer"])
def test_a_count_a_refused_setup_makes_up_is_not_waited_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str
) -> None:
    """Deal 2's setup gives Altbaumer's match a count it does not have (Albastini's vp), and is refused. The deals
    after it wait for no setup to give that count: where their setups give the match's scores and rounds it is
    judged (a wrong score fails), and where they leave them out the note names those two alone."""
    match = _reference_match("altbaumer-standard", 3, 5, written=WRITTEN[written])
    deals = match["deals"]
    assert len(deals) == 5
    deals[1]["setup"]["match"] = {**deals[1]["setup"].get("match", {}), "vp": [0, 0]}
    deals[3]["observations"][-1]["snapshot"]["match"]["scores"] = [4, -4]  # judged where the setups give the match
    trace = _write(tmp_path / "t.jsonl", match)
    status, out = _check(capsys, str(trace), "--report-dir", str(tmp_path / "r"))
    assert status == 1 and f"setup (first at {trace}:1#match-3/2; 1 game)" in out and "vp: unknown key" in out, out
    notes = [line["note"] for line in runlog.read(tmp_path / "r" / "run.jsonl").scenarios]
    if written == "everything":
        assert "\n3 passed, 2 failed\n" in out and f"match.scores (first at {trace}:1#match-3/4; 1 game)" in out, out
        assert notes == [None] * 5 and "judged in part" not in out, notes
        return
    assert "\n4 passed, 1 failed\n" in out, out
    assert notes == [None, None, *[_not_judged_since_2("rounds and scores")] * 3], notes


def _dealers_not_known_since(deal: int, shown: str = "shows no dealers the rules allow") -> str:
    return (f"result.next_dealer not judged: deal {deal} of the match was refused at its setup, which {shown}, so the "
            "match's dealers are not known, and no setup since gives the dealer history")


@pytest.mark.parametrize("refused", ["a card twice", "a seat the table does not have"])
def test_a_deal_after_a_refused_one_goes_on_from_the_dealers_the_trace_shows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], refused: str
) -> None:
    """Deal 2's setup is refused, and the setups after it give no dealer history: the dealers before them decide a
    winning side's least recent dealer. Where deal 2's setup shows its dealer (its deck holds a card twice), the deals
    after it go on from the dealers the trace shows: a right engine passes, and a next dealer reported wrongly fails.
    Where it shows none the reference reads (a dealer at a seat the table does not have), who deals next is not
    judged, each deal after it saying so, until a setup gives a dealer history."""
    match = _reference_match("albastini-4p", 5, 8, written=WRITTEN["the match"], leave_dealer=True)
    whole = _reference_match("albastini-4p", 5, 8, written=WRITTEN["everything"], leave_dealer=True)  # the same deals
    deals = match["deals"]
    assert len(deals) == 8
    deals[5]["setup"]["dealer_history"] = whole["deals"][5]["setup"]["dealer_history"]
    setup = deals[1]["setup"]
    shown = refused == "a card twice"
    if shown:
        setup["deck"][1] = setup["deck"][0]
    else:
        setup["dealer"] = 5
    trace = _write(tmp_path / "t.jsonl", match)
    status, out = _check(capsys, str(trace), "--report-dir", str(tmp_path / "r"))
    assert status == 1 and "1 distinct divergence\n" in out and "\n7 passed, 1 failed\n" in out, out
    assert f"setup (first at {trace}:1#match-5/2; 1 game)" in out, out
    notes = [line["note"] for line in runlog.read(tmp_path / "r" / "run.jsonl").scenarios]
    assert notes == [None, None, *[None if shown else _dealers_not_known_since(2)] * 3, None, None, None], notes
    result = deals[3]["observations"][-1]["snapshot"]["result"]
    result["next_dealer"] = (result["next_dealer"] + 2) % 4  # the other member of its side
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", match)))
    if shown:
        assert status == 1 and f"FAIL albastini-4p result.next_dealer (first at {trace}:1#match-5/4; 1 game)" in out, out
    else:
        assert status == 1 and "\n7 passed, 1 failed\n" in out, out


def test_a_refused_setup_whose_dealers_the_reference_does_not_read_shows_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Deal 1's setup gives dealer 2 after a dealer history of seats 0 and 1, not ending with it, and is refused; the
    setups after it give no dealer history. Going on from seats 0 and 1 would leave seat 2 out of the dealers before,
    and in an Albastini match of four a winning side of two has its member who dealt least recently deal: who deals
    next is not judged from deal 2 on, each deal saying so, and a right engine passes them."""
    first = {"dealer": 2, "dealer_history": [0, 1, 2]}
    match = _reference_match("albastini-4p", 5, 8, first=first, written=WRITTEN["the match"], leave_dealer=True)
    match["deals"][0]["setup"]["dealer_history"] = [0, 1]
    trace = _write(tmp_path / "t.jsonl", match)
    status, out = _check(capsys, str(trace), "--report-dir", str(tmp_path / "r"))
    assert status == 1 and "1 distinct divergence\n" in out and "\n7 passed, 1 failed\n" in out, out
    assert f"setup (first at {trace}:1#match-5/1; 1 game)" in out and "must end with the dealer, seat 2" in out, out
    notes = [line["note"] for line in runlog.read(tmp_path / "r" / "run.jsonl").scenarios]
    assert notes == [None, *[_dealers_not_known_since(1)] * 7], notes


@pytest.mark.parametrize(("refused", "shown"), [(2, "writes no dealer"), (3, "writes no dealer"),
                                               (3, "shows no dealers the rules allow")])
def test_the_deals_after_a_refused_setup_showing_no_dealers_say_which_and_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], refused: int, shown: str
) -> None:
    """In an Albastini match of four the later setups give no dealer history. A setup giving the nines drawn and no
    dealer (Albastini draws none) writes no dealer; one at a seat the table does not have shows no dealers the rules
    allow. Where deal 2's setup is refused so, the deals after it say who deals next is not judged, of deal 2. Where
    deal 2's is refused for a card twice, showing its dealers, and deal 3's is refused so, they say it of deal 3, and
    deal 3 says nothing of it."""
    match = _reference_match("albastini-4p", 5, 8, written=WRITTEN["the match"], leave_dealer=True)
    deals = match["deals"]
    assert len(deals) == 8
    if refused == 3:
        deals[1]["setup"]["deck"][1] = deals[1]["setup"]["deck"][0]
    setup = deals[refused - 1]["setup"]
    if shown == "writes no dealer":
        del setup["dealer"]
        setup["nines"] = {"0": "9C", "1": "9H", "2": "9S", "3": "9D"}
    else:
        setup["dealer"] = 5
    trace = _write(tmp_path / "t.jsonl", match)
    status, out = _check(capsys, str(trace), "--report-dir", str(tmp_path / "r"))
    assert status == 1 and f"\n{9 - refused} passed, {refused - 1} failed\n" in out, out
    notes = [line["note"] for line in runlog.read(tmp_path / "r" / "run.jsonl").scenarios]
    assert notes == [*[None] * refused, *[_dealers_not_known_since(refused, shown)] * (8 - refused)], notes


@pytest.mark.parametrize("variant_id", ["briscola-4p", "albastini-over60"])
@pytest.mark.parametrize("stopped", ["stops before its end", "refused at its setup"])
def test_a_house_target_holds_for_the_match_after_a_deal_that_stopped_short(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant_id: str, stopped: str
) -> None:
    """The first deal's setup agrees a house target, and the later setups give the match's victory points and sheet,
    not the target, which never changes within a match. After deal 2 stops before its end, or is refused at its
    setup, the deals go on to that target and their match is judged: a right engine passes every other deal, none
    of them saying the match was not judged (over-60's usual target, 5, the match would have reached)."""

    def vp_and_sheet(setup: dict[str, Any]) -> dict[str, Any]:
        return {"dealer": setup["dealer"], "match": {"vp": setup["match"]["vp"], "sheet": setup["match"]["sheet"]}}

    first = {"dealer": 0, "match": {"vp": [0, 0], "target": 12}}
    match = _reference_match(variant_id, 4, 12, first=first, written=vp_and_sheet)
    deals = match["deals"]
    assert len(deals) == 12 and deals[-1]["observations"][-1]["snapshot"]["match"]["target"] == 12
    if stopped == "stops before its end":
        deals[1]["actions"], deals[1]["observations"] = deals[1]["actions"][:5], deals[1]["observations"][:6]
    else:
        deals[1]["setup"]["deck"][1] = deals[1]["setup"]["deck"][0]
    trace = _write(tmp_path / "t.jsonl", match)
    status, out = _check(capsys, str(trace), "--report-dir", str(tmp_path / "r"))
    failed = int(stopped == "refused at its setup")
    assert status == failed and f"\n{12 - failed} passed, {failed} failed\n" in out, out
    assert [line["note"] for line in runlog.read(tmp_path / "r" / "run.jsonl").scenarios] == [None] * 12


@pytest.mark.parametrize("unknown", ["the match", "the dealers"])
def test_a_field_the_kit_cannot_judge_in_a_deal_is_not_said_to_be_left_out_by_the_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], unknown: str
) -> None:
    """A trace with no header declares every field. After deal 2 fails, the match is not judged until a setup gives
    its counts; after deal 2 is refused at a dealer the table does not have, who deals next is not judged until a
    setup gives the dealer history. The notes say so, and the field is not among those the games give that the
    header does not declare, judged nowhere: it is judged in the other deals."""
    if unknown == "the match":
        match, field = _failing_in_deal_2("albastini-4p", 5, 8, WRITTEN["the dealer"]), "match"
    else:
        match, field = _reference_match("albastini-4p", 5, 8, written=WRITTEN["the match"]), "result.next_dealer"
        match["deals"][1]["setup"]["dealer"] = 5
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", match)))
    assert status == 1 and f": {field} not judged: deal 2 of the match" in out, out
    assert "the header does not declare" not in out, out


def test_a_result_whose_next_dealer_is_not_judged_is_judged_by_its_other_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In an Albastini match of four a winning side of two has its member who dealt least recently deal. Deal 2's
    setup is refused at a dealer the table does not have and the setups after it give no dealer history, so who deals
    next is not judged in deal 3; the rest of its result is, and its totals reported wrongly fail it."""
    match = _reference_match("albastini-4p", 5, 8, written=WRITTEN["the match"])
    match["deals"][1]["setup"]["dealer"] = 5
    result = match["deals"][2]["observations"][-1]["snapshot"]["result"]
    result["totals"] = result["totals"][::-1]
    trace = _write(tmp_path / "t.jsonl", match)
    status, out = _check(capsys, str(trace))
    assert status == 1 and "\n6 passed, 2 failed\n" in out, out
    failed = f"FAIL albastini-4p result.totals (first at {trace}:1#match-5/3; 1 game)\n"
    assert failed in out and "  result.next_dealer not judged: deal 2 of the match was refused" in out, out


def test_who_deals_next_is_judged_after_a_refused_setup_where_no_dealer_before_decides_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """In Briscola the player after the dealer deals next, whoever dealt before. Deal 2's setup is refused at a dealer
    the table does not have and the setups after it give no dealer history: who deals next is still judged in the
    deals after it, none saying otherwise, and a next dealer reported wrongly fails."""
    match = _reference_match("briscola-2p", 5, 5, written=WRITTEN["the match"])
    match["deals"][1]["setup"]["dealer"] = 5
    result = match["deals"][2]["observations"][-1]["snapshot"]["result"]
    result["next_dealer"] = 1 - result["next_dealer"]
    trace = _write(tmp_path / "t.jsonl", match)
    status, out = _check(capsys, str(trace), "--report-dir", str(tmp_path / "r"))
    assert status == 1 and f"FAIL briscola-2p result.next_dealer (first at {trace}:1#match-5/3; 1 game)" in out, out
    assert [line["note"] for line in runlog.read(tmp_path / "r" / "run.jsonl").scenarios] == [None] * 5


def test_a_dealer_history_kept_wrongly_is_not_taken(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An engine that forgets who dealt before chooses a side's next dealer by its own history; the kit judges by
    the dealers the trace shows, whatever history the setups give, and the choice fails."""

    def history_forgotten(setup: dict[str, Any]) -> dict[str, Any]:
        return {**setup, "dealer_history": [setup["dealer"]]}

    def dealers(match: dict[str, Any]) -> list[int]:
        return [deal["setup"]["dealer"] for deal in match["deals"]]

    for seed in range(100):  # a match whose dealers the forgotten history changes
        match = _reference_match("albastini-4p", seed, 8, history_forgotten, leave_dealer=True)
        if dealers(match) == dealers(_reference_match("albastini-4p", seed, 8, leave_dealer=True)):
            continue
        for deal in match["deals"]:  # reported nowhere but in the next deal's setup
            deal["observations"] = [{"snapshot": {"phase": o["snapshot"]["phase"]}} for o in deal["observations"]]
        status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", match)))
        assert status == 1 and "FAIL albastini-4p result.next_dealer (first at " in out, out
        assert "(as the next deal's setup carries the match on" in out
        return
    pytest.fail("no match whose dealers a forgotten history changes")


def test_a_next_dealer_known_wrong_leaves_the_deals_after_it_judged_from_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A next dealer an expectation file says the engine gets wrong is counted apart, and the next deal is dealt
    from the seat the engine chose, with no history of the kit's to refuse it. A header leaving the result out of
    what the engine reports leaves it judged: a setup always says who deals."""

    def one_seat_on(setup: dict[str, Any]) -> dict[str, Any]:
        return {"dealer": (setup["dealer"] + 1) % 4, "match": setup["match"]}

    match = _reference_match("altbaumer-standard", 7, 5, one_seat_on)
    deals = len(match["deals"])
    known = tmp_path / "known.yaml"
    known.write_text("format: 2\nengine: e\nspec_version: x\nexpectations: []\nknown:\n- {variant: altbaumer-standard, "
                     "field: result.next_dealer, reason: deals one seat on}\n", encoding="utf-8")  # fmt: skip
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", match)), "--expect", str(known))
    assert status == 0 and f"1 passed, 0 failed, {deals - 1} xfail" in out, out
    header = {"trace": 1, "reports": ["phase", "to_act", "hands", "match"]}
    status, out = _check(capsys, str(_write(tmp_path / "h.jsonl", header, match)))
    assert status == 1 and "FAIL altbaumer-standard result.next_dealer (first at " in out, out


def test_a_difference_in_a_deal_s_last_report_is_written_as_that_report_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The scenario of a difference the engine's own last observation shows keeps that observation, not the next
    deal's word, and fails on the engine as the game line's would."""
    match = _reference_match("altbaumer-standard", 7, 3)
    last = match["deals"][0]["observations"][-1]["snapshot"]
    last["match"] = {**last["match"], "scores": [8, 6]}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", match)), "--out", str(tmp_path / "found"))
    assert status == 1 and "match.scores: expected " in out and "observed [8, 6]\n" in out, out
    assert len(list((tmp_path / "found").iterdir())) == 1


def test_a_dealer_an_action_left_out_would_name_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A winning side that names another dealer does so with an action; a trace without it is told which."""
    for seed in range(40):
        match = _reference_match("albastini-4p", seed, 8)
        for number, deal in enumerate(match["deals"][:-1], start=1):
            last = deal["actions"][-1] if deal["actions"] else {}
            ended = deal["observations"][-1]["snapshot"]["result"]
            before = deal["observations"][-2]["snapshot"].get("result") or {}
            if last.get("type") == "take_deal" and before.get("next_dealer") != ended["next_dealer"]:
                deal["actions"], deal["observations"] = deal["actions"][:-1], deal["observations"][:-1]
                status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", match)))
                assert status == 1, out
                said = f"the trace does not hold the take_deal by seat {last['seat']} that would name that dealer)"
                assert f"#match-{seed}/{number};" in out and said in out, out
                return
    pytest.fail("no deal in which a winning side named another dealer")


def test_a_match_holds_at_most_the_kit_s_bound_of_deals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every deal of a line is judged and held at once: a line holds a bounded number (the schema's, the limits')."""
    schema = json.loads((ROOT / "schemas" / "trace.schema.json").read_text(encoding="utf-8"))
    assert schema["$defs"]["match"]["properties"]["deals"]["maxItems"] == limits.MAX_DEALS_IN_MATCH
    deal = _reference_match("briscola-2p", 1, 1)["deals"][0]
    deal = {"setup": deal["setup"], "actions": []}
    trace = _write(tmp_path / "t.jsonl", {"variant": "briscola-2p", "deals": [deal] * (limits.MAX_DEALS_IN_MATCH + 1)})
    status, out = _check(capsys, str(trace))
    assert status == 2 and f"$.deals: expected at most {limits.MAX_DEALS_IN_MATCH} items" in out, out


def test_a_flag_standing_for_a_number_in_a_match_s_deal_fails_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A match's line bounds its deals' flags together: a true standing for seat 1 in one deal is found, and a
    true in the match's name alone has every deal judged again and passing."""
    match = _reference_match("albastini-2p", 3, 3)
    named = {**json.loads(json.dumps(match)), "game": "true-match"}  # the same deals, right, under another name
    deal = match["deals"][1]
    at = next(i for i, o in enumerate(deal["observations"]) if o["snapshot"]["to_act"] == 1)
    deal["observations"][at] = {"snapshot": {"to_act": True}}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", named, match)))
    assert status == 1 and "1 distinct divergence" in out, out
    assert f"FAIL albastini-2p to_act (first at {tmp_path / 't.jsonl'}:2#match-3/2;" in out
    assert f"{2 * len(match['deals']) - 1} passed, 1 failed" in out


def _raising_on(monkeypatch: pytest.MonkeyPatch, number: int, deal: int = 0) -> None:
    """Judging the game on line ``number`` of the trace (its deal ``deal``, of a match) raises, as a fault of the kit's
    that an engine's data set off would: in this process, and in the workers it forks."""
    judge_deal = judging.judge_deal

    def faulty(game: reading.Game, *args: Any, **kwargs: Any) -> Any:
        if game.number == number and game.deal == deal:
            raise TypeError("no such place \x1b[31mred")
        return judge_deal(game, *args, **kwargs)

    monkeypatch.setattr(judging, "judge_deal", faulty)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_game_whose_judging_raises_is_an_error_of_the_kit_s_and_the_others_are_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, jobs: str
) -> None:
    """The game is an error saying the kit failed on it, not the engine, made safe, asking for a report with its line;
    every other game is judged; the traceback is shown once, on standard error; the run exits 4, no pass."""
    _raising_on(monkeypatch, 3)
    monkeypatch.setattr(checking, "BATCH", 2)  # with jobs, the game's batch goes to a worker of its own
    games = [{**_reference_game("briscola-2p", seed), "game": f"g{seed}"} for seed in range(5)]
    trace = _write(tmp_path / "t.jsonl", {"trace": 1, "engine": {"name": "e"}}, *games)
    status = main(["check-trace", str(trace), "--jobs", jobs, "--report-dir", str(tmp_path / "r")])
    out, err = capsys.readouterr()
    assert status == 4, out + err
    said = ("kit fault: the kit raised TypeError: no such place \\x1b[31mred while judging this game, a fault of the "
            "kit's, not the engine's: please report it with this line of the trace")  # fmt: skip
    assert f"KIT FAULT 1 game not judged (first at {trace}:3#g1)\n  {said}\n" in out, out
    assert out.splitlines()[-2:-1] == ["4 passed, 1 failed (1 error)"], out
    assert "0 distinct divergences" in out and "Traceback" not in out and "\x1b" not in out + err, out
    assert err.count("Traceback (most recent call last):") == 1, err
    assert f"the kit failed on {trace}:3#g1 while judging this game (a fault of the kit's, not the engine's)" in err, err
    assert err.rstrip().endswith("TypeError: no such place \\x1b[31mred"), err
    lines = runlog.read(tmp_path / "r" / "run.jsonl").scenarios
    assert [(line["id"], line["outcome"]) for line in lines] == [
        (f"{trace}:{n}#g{n - 2}", "error" if n == 3 else "pass") for n in range(2, 7)
    ]
    assert lines[1]["error"] == said and lines[1]["variant"] == "briscola-2p" and not lines[1]["mismatches"]
    errors = ElementTree.parse(tmp_path / "r" / "junit.xml").getroot().findall(".//error")
    assert [error.get("message") for error in errors] == [said]
    assert "kit fault" in (tmp_path / "r" / "report.md").read_text(encoding="utf-8")


def test_a_match_s_deal_whose_judging_raises_leaves_the_deals_after_it_unjudged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deals before it stand; it is the kit's error, and so is each deal after it (the match they go on from
    is not known: judged from their setups alone, they could fail for the kit's fault); the next line is judged."""
    _raising_on(monkeypatch, 1, deal=2)
    match = _reference_match("briscola-2p", 5, 4)
    deals = len(match["deals"])
    assert deals >= 3
    trace = _write(tmp_path / "t.jsonl", match, _reference_game("briscola-2p", 1))
    status, out = _check(capsys, str(trace), "--report-dir", str(tmp_path / "r"))
    assert status == 4, out
    assert f"KIT FAULT {deals - 1} games not judged (first at {trace}:1#match-5/2)" in out, out
    lines = runlog.read(tmp_path / "r" / "run.jsonl").scenarios
    assert [(line["id"], line["outcome"]) for line in lines] == [
        (f"{trace}:1#match-5/1", "pass"),
        *[(f"{trace}:1#match-5/{n}", "error") for n in range(2, deals + 1)],
        (f"{trace}:2#1", "pass"),
    ]
    assert lines[1]["error"].startswith("kit fault: the kit raised TypeError: ")
    assert lines[2]["error"] == ("kit fault: not judged, as it goes on from deal 2 of the match, which the kit failed "
                                 "to judge, a fault of the kit's, not the engine's: please report it with this line "
                                 "of the trace")  # fmt: skip


def test_a_line_whose_reading_raises_is_one_error_of_the_kit_s(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fault outside any game's judging (here the line's reading) is the line's verdict, under its place, filed
    under no game nor variant; the lines around it are judged, and the run log reads back."""
    read_games = reading.read_games

    def faulty(line: reading.TraceLine, room: int | None = None) -> Any:
        if line.number == 2:
            raise RecursionError("too deep")
        return read_games(line, room)

    monkeypatch.setattr(reading, "read_games", faulty)
    trace = _write(tmp_path / "t.jsonl", *(_reference_game("briscola-2p", seed) for seed in range(3)))
    status = main(["check-trace", str(trace), "--report-dir", str(tmp_path / "r")])
    out, err = capsys.readouterr()
    assert status == 4, out
    assert f"KIT FAULT 1 game not judged (first at {trace}:2)" in out and "2 passed, 1 failed (1 error)" in out, out
    assert err.count("Traceback (most recent call last):") == 1 and "RecursionError: too deep" in err, err
    assert f"the kit failed on {trace}:2 while reading or judging this line (a fault of the kit's, not the" in err, err
    lines = runlog.read(tmp_path / "r" / "run.jsonl").scenarios
    assert [(line["id"], line["outcome"], line["variant"]) for line in lines] == [
        (f"{trace}:1#0", "pass", "briscola-2p"), (f"{trace}:2", "error", "(not read)"), (f"{trace}:3#2", "pass", "briscola-2p"),
    ]  # fmt: skip
    assert lines[1]["error"].startswith("kit fault: the kit raised RecursionError: too deep while reading or judging")
    assert main(["report", str(tmp_path / "r" / "run.jsonl"), "--format", "badge"]) == 0


@pytest.mark.parametrize("command", ["check-trace", "fuzz"])
def test_a_signal_while_the_reports_are_written_leaves_them_all_of_this_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    """SIGTERM arriving as the first report is written waits until every one is: a folder holding another run's
    reports is left with this run's alone (none stale beside a new run log), and the command still ends as the signal
    ends it."""
    import signal

    from conformance.run import reports

    def run_of(games: int) -> list[str]:
        if command == "fuzz":
            return ["fuzz", "--variant", "briscola-2p", "--deals", str(games)]
        header = {"trace": 1, "engine": {"name": "e"}}
        trace = _write(tmp_path / f"t{games}.jsonl", header, *[_reference_game("briscola-2p", s) for s in range(games)])
        return ["check-trace", str(trace)]

    folder = tmp_path / "r"
    assert main([*run_of(1), "--report-dir", str(folder)]) == 0, capsys.readouterr()  # another run's reports
    write = reports.write
    sent: list[bool] = []

    def write_then_stop(*args: Any, **kwargs: Any) -> Any:
        if not sent:
            sent.append(True)
            os.kill(os.getpid(), signal.SIGTERM)
        return write(*args, **kwargs)

    monkeypatch.setattr(reports, "write", write_then_stop)
    assert main([*run_of(3), "--report-dir", str(folder)]) == 128 + signal.SIGTERM, capsys.readouterr()
    assert sent
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    assert sum(summary["counts"].values()) == 3, summary
    suite = ElementTree.parse(folder / "junit.xml").getroot().find("testsuite")
    assert suite is not None and suite.get("tests") == "3"
    assert "3/3" in (folder / "badge.json").read_text(encoding="utf-8")


def test_a_header_after_the_first_line_is_said_to_be_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A header written after the games is no game: said as what it is, not as a game missing its keys."""
    path = _write(tmp_path / "t.jsonl", _reference_game("briscola-2p", 1), {"trace": 1, "reports": ["phase"]})
    status, out = _check(capsys, str(path))
    assert status == 2 and "1 passed" in out, out
    assert (f"{path}:2:2: $.trace: expected a game or a match, found a header: a trace's header comes first, "
            "before its games") in out, out  # fmt: skip
    assert "missing required key" not in out


def test_snapshot_fields_written_beside_legal_are_said_to_go_under_snapshot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _reference_game("briscola-2p", 2)
    game["observations"][0] = {**game["observations"][0]["snapshot"], "legal": game["observations"][0]["legal"]}
    status, out = _check(capsys, str(_write(tmp_path / "t.jsonl", game)))
    assert status == 2, out
    assert ("$.observations[0].phase: unknown key 'phase'; expected one of: legal, rejected, snapshot ('phase' is a "
            "snapshot field: it goes under snapshot)") in out, out  # fmt: skip
