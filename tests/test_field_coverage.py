"""Field coverage: what each snapshot field means in each phase (``x-phases`` in the snapshot schema),
and ``trickspec coverage --fields``, which counts the scenarios pinning each field in each phase."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import rulesite
from conformance import cli
from conformance.measures import field_coverage
from conformance.run.runner import request_for
from conformance.suite import field_phases, scenarios
from conformance.suite.comparisons import _field
from rulesite import fields_reference, paths
from specreader.jsontypes import Json

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("albastini", "altbaumer", "bisca", "briscola")


def test_the_annotations_break_no_rule_of_their_own() -> None:
    assert field_phases.problems() == []


@pytest.fixture
def schema(monkeypatch: pytest.MonkeyPatch) -> Iterator[Json]:
    """A copy of the snapshot schema the field phases are read from, to break."""
    mine = copy.deepcopy(field_phases._snapshot_schema())
    cached = (field_phases.fields, field_phases.phases_and_match_over, field_phases.left_empty, field_phases.held_by_seat_or_side)
    for function in cached:
        function.cache_clear()
    monkeypatch.setattr(field_phases, "_snapshot_schema", lambda: mine)
    yield mine
    for function in cached:
        function.cache_clear()


def test_a_field_without_phases_is_a_problem(schema: Json) -> None:
    del schema["properties"]["dealer"]["x-phases"]
    assert field_phases.problems() == ["dealer: no x-phases"]


def test_a_result_field_without_phases_is_a_problem(schema: Json) -> None:
    del schema["properties"]["result"]["oneOf"][1]["anyOf"][0]["properties"]["tie"]["x-phases"]
    assert field_phases.problems() == ["result.tie: no x-phases"]


def test_a_result_branch_without_its_games_is_a_problem(schema: Json) -> None:
    del schema["properties"]["result"]["oneOf"][1]["anyOf"][1]["x-games"]
    assert field_phases.problems() == ["result: a branch without x-games: A deal scored by tricks (Altbaumer)."]


def test_a_field_of_some_games_names_games_that_exist_and_phases_they_play(schema: Json) -> None:
    schema["properties"]["bids"]["x-games"] = ["albastini", "skat"]
    schema["properties"]["makers"]["x-phases"]["bidding"] = "null: Albastini has no makers."
    assert field_phases.problems() == [
        "bids: x-games names no game 'skat'",
        "makers: x-phases names 'bidding', a phase none of its games plays",
    ]


def test_a_branch_naming_a_game_that_does_not_exist_is_one_problem(schema: Json) -> None:
    schema["properties"]["result"]["oneOf"][1]["anyOf"][1]["x-games"] = ["altbaumer", "skat"]
    assert field_phases.problems() == ["result branch 'A deal scored by tricks (Altbaumer).': x-games names no game 'skat'"]


def test_a_field_of_some_games_has_an_empty_value_for_the_others(schema: Json) -> None:
    schema["properties"]["dealer"]["x-games"] = ["albastini"]  # a seat, never null: nothing to hold elsewhere
    assert field_phases.problems() == ["dealer: x-games on a field that is neither a list nor ever null, so has no empty value"]


def test_a_phase_the_snapshot_does_not_have_is_a_problem(schema: Json) -> None:
    schema["properties"]["trick"]["x-phases"]["dealing"] = "cards going round"
    assert field_phases.problems() == ["trick: x-phases names no phase 'dealing'"]


def test_a_field_held_by_what_is_neither_a_seat_nor_a_side_is_a_problem(schema: Json) -> None:
    schema["properties"]["match"]["anyOf"][0]["properties"]["sheet"]["x-per"] = "player"
    assert field_phases.problems() == ["match.sheet: x-per names 'player', neither 'seat' nor 'side'"]


def test_each_game_has_the_phases_its_variants_wait_in() -> None:
    assert field_phases.game_phases("albastini") == ("bidding", "play", "over", "match-over")
    assert field_phases.game_phases("altbaumer") == ("cut", "trump", "discard", "lone", "play", "over", "match-over")
    assert field_phases.game_phases("bisca") == ("play", "over", "match-over")


def test_a_game_leaves_the_fields_of_other_games_empty() -> None:
    assert field_phases.left_empty("briscola") == {"bids": [], "makers": None, "lone": None, "trees_taken": []}
    assert field_phases.left_empty("altbaumer") == {"indicator": None, "bids": []}
    assert "bids" in field_phases.defined("albastini") and "bids" not in field_phases.defined("briscola")
    # always, for a field of some games, means the phases those games play
    assert set(field_phases.defined("altbaumer")["match.decider"]) == set(field_phases.game_phases("altbaumer"))


def test_result_fields_follow_the_games_score() -> None:
    albastini, altbaumer = field_phases.defined("albastini"), field_phases.defined("altbaumer")
    assert "result.tie" in albastini and "result.tie" not in altbaumer
    assert "match.decider" in altbaumer and "match.vp" not in altbaumer
    assert set(albastini["result.tie"]) == {"over", "match-over"}
    assert set(albastini["result"]) == {"bidding", "play"}  # null while the deal goes on


def test_the_reference_reports_every_field_defined_where_it_is_defined() -> None:
    """Each field a game defines at a phase is in the reference's snapshot there (so the x-games of
    result's and match's branches name the right games)."""
    engine = field_coverage.adapter.reference_adapter()
    seen = set()
    for s in scenarios.kit_scenarios():
        if s.refuse_setup is not None:
            continue
        for observation in engine.answer(request_for(s)).get("observations", []):
            snapshot: Any = observation.get("snapshot")
            if snapshot is None:
                continue
            phase = field_phases.phase_shown(snapshot)
            seen.add((s.game, phase))
            for path, by_moment in field_phases.defined(s.game).items():
                if phase in by_moment:
                    assert _field(snapshot, path) != "<missing>", (s.id, path, phase)
            for path, empty in field_phases.left_empty(s.game).items():  # a field of other games: always empty
                assert snapshot[path] == empty, (s.id, path, phase)
    assert {(g, m) for g in GAMES for m in field_phases.game_phases(g)} <= seen


def test_an_expect_pins_the_fields_its_keys_reach() -> None:
    fields = {"hands", "bids", "result", "result.tie", "match.vp", "last_trick"}
    expect = {
        "holds": {"0": ["AS"]},
        "result": {"tie": True},
        "snapshot": {"bids.0.card": "3C", "match": {"vp": [1, 0]}},
        "last_trick": {"winner": 1},
        "legal": {"includes": ["0 pass"]},
    }
    assert field_coverage.pinned_fields(expect, fields) == {"hands", "result.tie", "bids", "match.vp", "last_trick"}
    assert field_coverage.pinned_fields({"snapshot": {"result": None}}, fields) == {"result"}


def test_the_end_of_the_match_is_a_moment_of_its_own() -> None:
    assert field_phases.phase_shown({"phase": "over", "match": {"winner": None}}) == "over"
    assert field_phases.phase_shown({"phase": "over", "match": {"winner": 1}}) == "match-over"
    assert field_phases.phase_shown({"phase": "play", "match": {"winner": None}}) == "play"


def test_the_kit_pins_every_field_in_every_phase(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["coverage", "--fields"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "GAP" not in "\n".join(out)
    assert out[-1].startswith("field coverage: ") and out[-1].endswith("(100.0%)")
    header = next(line for line in out if line.startswith("field ") and "cut" in line)
    assert header.split() == ["field", "cut", "trump", "discard", "lone", "play", "over", "match-over"]


def test_a_field_no_scenario_pins_in_a_phase_fails(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # Without the scenario that pins every field as a Bisca match ends, Bisca's match-over column has gaps.
    kept = tuple(s for s in scenarios.kit_scenarios() if s.id != "bisca/fields/match-won")
    monkeypatch.setattr(scenarios, "kit_scenarios", lambda: kept)
    assert cli.main(["coverage", "--fields"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "GAP bisca: variant at match-over: The variant being played." in out
    assert not any(line.startswith(("GAP albastini", "GAP altbaumer", "GAP briscola")) for line in out)
    bisca = out[out.index("== bisca") :]
    variant_row = next(line for line in bisca if line.startswith("variant "))
    assert variant_row.split()[-1] == "GAP"  # the match-over column
    assert not out[-1].endswith("(100.0%)")


def test_the_field_reference_says_what_each_field_holds_in_each_phase(site_data: rulesite.SiteData) -> None:
    data = site_data
    schemas = fields_reference.Schemas(data)
    altbaumer = {r.dotted: r for r in fields_reference.game_fields(schemas, data, "altbaumer").snapshot}
    scores = dict(altbaumer["match.scores"].phases)
    assert scores["match over"] == "0 for every side: the deal won the last round."
    assert "cut, trump, discard, lone, play" in scores
    page = fields_reference.fields_pages(data)[paths.game_fields_path("altbaumer")]
    assert "<br>*deal over, match over*: The side that won a round with this deal" not in page  # two meanings, two entries
    assert "*deal over*: The side that won a round with this deal; null when none did\\." in page


def test_by_variant_counts_each_variant_s_own_scenarios(capsys: pytest.CaptureFixture[str]) -> None:
    main = cli.main
    assert main(["coverage", "--by-variant"]) == 2  # it counts fields: with --fields alone
    capsys.readouterr()
    main(["coverage", "--fields", "--by-variant"])
    out = capsys.readouterr().out
    tables = [line.removeprefix("== ") for line in out.splitlines() if line.startswith("== ")]
    assert "albastini-over60-3p" in tables and "briscola-4p" in tables and "albastini" not in tables
    three = out.split("== albastini-over60-3p\n", 1)[1].split("\n== ", 1)[0]
    tie = next(line for line in three.splitlines() if line.startswith("result.tie "))
    assert tie.split()[-2:] == ["2", "1"], tie  # pinned at the end of the deal and of the match by its own scenarios
