"""An engine judged on the snapshot fields it says it keeps (``reports`` in its handshake, ``REPORTS`` on a
Python engine class): nothing it lacks fails it, and nothing it reports is masked."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.run import runlog, runner
from conformance.suite import scenarios
from conformance.suite.reported import as_judged, covers, declaration_problem, within
from conformance.suite.scenarios import deck_of
from reference import Engine
from specreader.spec import variant

LACKING = "lacking_engine:Lacking"  # tests/lacking_engine.py: no dealer, no match, no result.vp
TIE_BUG = "lacking_engine:TieBug"  # the same, giving a level deal to seat 0's side


def test_an_expectation_is_narrowed_to_the_declared_fields() -> None:
    declared = frozenset({"to_act", "last_trick.winner", "hands", "result.tie"})
    expect = {"to_act": 1, "dealer": 0, "last_trick": {"winner": 1, "points": 11}, "holds": {"0": ["AH"]},
              "result": {"tie": True, "vp": 0}, "snapshot": {"match.vp": [1, 0]}}  # fmt: skip
    kept, left = within(expect, declared)
    assert kept == {"to_act": 1, "last_trick": {"winner": 1}, "holds": {"0": ["AH"]}, "result": {"tie": True}}
    assert sorted(left) == ["dealer", "last_trick.points", "match.vp", "result.vp"]
    assert within(expect, None) == (expect, [])
    assert covers(frozenset({"legal"}), "legal.play") and not covers(frozenset({"last_trick.winner"}), "last_trick")
    # A field with no value yet is judged on an engine keeping part of it: that part has none either.
    assert within({"snapshot": {"result": None, "match": None}, "last_trick": None}, declared) == (
        {"snapshot": {"result": None}, "last_trick": None}, ["match"])
    assert as_judged({"to_act": 1}, declared) == {"to_act": 1, "last_trick": None, "result": None}
    assert as_judged({"to_act": 1, "result": {"tie": True}}, declared)["result"] == {"tie": True}


def test_a_scenario_refusing_an_action_is_judged_whatever_fields_the_engine_reports() -> None:
    """A refusal is judged on its code and on the state left unchanged, which need no declared field: a scenario
    refusing an action is never set aside for the fields its expectations check, as it is without the refusal."""
    scenario = next(s for s in scenarios.kit_scenarios() if s.id == "albastini/deal/six-threes-dealer-1")
    steps = tuple(replace(step, expect={"hands": {"0": ["KS"]}}) if step.expect else step for step in scenario.steps)
    refusing = replace(scenario, steps=steps)
    assert any(step.refuse for step in refusing.steps)
    assert runner.unjudgeable(refusing, frozenset({"phase"})) == ""
    not_refusing = replace(scenario, steps=tuple(step for step in steps if not step.refuse))
    assert runner.unjudgeable(not_refusing, frozenset({"phase"})) == "hands.0"
    assert runner.unjudgeable(not_refusing, frozenset({"hands"})) == runner.unjudgeable(not_refusing, None) == ""


def test_an_engine_lacking_fields_it_declares_passes_what_it_can_be_judged_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["verify", "--engine", LACKING, "--report-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "fields: the engine reports 34 of the 48 the scenarios check; not dealer, match.decider" in out
    lines = runlog.read(tmp_path / "run.jsonl").scenarios
    unjudged = [line for line in lines if line["outcome"] == "unsupported"]
    assert unjudged and all(line["error"].startswith("it checks only fields the engine does not report: ") for line in unjudged)
    assert any("match.rounds" in line["error"] for line in unjudged)
    assert sum(line["outcome"] == "pass" for line in lines) > 500


def test_a_bug_in_a_declared_field_fails_under_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["verify", "--engine", TIE_BUG, "--report-dir", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 1, out
    failed = [line for line in runlog.read(tmp_path / "run.jsonl").scenarios if line["outcome"] == "fail"]
    assert failed and all({m["what"] for m in line["mismatches"]} <= {"result.tie", "result.winner"} for line in failed)
    assert sum(any(m["what"] == "result.tie" for m in line["mismatches"]) for line in failed) > 10


def test_a_bug_in_a_declared_field_fails_under_fuzz_and_a_lacking_field_does_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fuzz", "--engine", LACKING, "--deals", "120", "--variant", "albastini-2p"]) == 0, capsys.readouterr().out
    capsys.readouterr()
    status = main(["fuzz", "--engine", TIE_BUG, "--deals", "120", "--variant", "albastini-2p", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 1, out
    assert "FAIL albastini-2p result.tie" in out and "albastini.score.tie" in out
    (written,) = tmp_path.glob("*.yaml")
    assert "result: {tie: true" in written.read_text(encoding="utf-8")


def test_a_result_given_before_the_end_fails_an_engine_keeping_part_of_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Where the deal has no result yet, an engine declaring result.winner and result.tie reports none: null or the
    field left out passes, a winner given while the deal goes on fails, under verify, fuzz and check-trace."""
    assert main(["verify", "--engine", "lacking_engine:LeftOut"]) == 0, capsys.readouterr().out
    assert main(["fuzz", "--engine", "lacking_engine:LeftOut", "--deals", "30", "--variant", "albastini-2p"]) == 0
    capsys.readouterr()
    assert main(["verify", "--engine", "lacking_engine:EarlyResult", "--report-dir", str(tmp_path)]) == 1
    capsys.readouterr()
    failed = [line for line in runlog.read(tmp_path / "run.jsonl").scenarios if line["outcome"] == "fail"]
    assert failed and any(m["what"] == "result" and m["expected"] is None for line in failed for m in line["mismatches"])
    assert main(["fuzz", "--engine", "lacking_engine:EarlyResult", "--deals", "10", "--variant", "albastini-2p"]) == 1
    assert "FAIL albastini-2p result " in capsys.readouterr().out
    reports = ["to_act", "last_trick", "result.winner", "result.tie"]
    engine = Engine.new("briscola-2p", {"dealer": 0, "deck": deck_of(variant("briscola-2p"))})
    actions, observations = [], [{"snapshot": {}}]
    while legal := engine.legal_actions():
        actions.append(legal[0])
        engine.apply(legal[0])
        snapshot = {k: v for k, v in engine.snapshot().items() if k in ("to_act", "last_trick", "result")}
        observations.append({"snapshot": snapshot})
    game = {"variant": "briscola-2p", "setup": {"dealer": 0, "deck": deck_of(variant("briscola-2p"))},
            "actions": actions, "observations": observations}  # fmt: skip
    trace = tmp_path / "trace.jsonl"
    for early, status in ((False, 0), (True, 1)):
        if early:
            observations[3]["snapshot"]["result"] = {"winner": 0, "tie": False}
        trace.write_text(json.dumps({"trace": 1, "reports": reports}) + "\n" + json.dumps(game) + "\n", encoding="utf-8")
        assert main(["check-trace", str(trace)]) == status, capsys.readouterr().out
    assert "result" in capsys.readouterr().out


def test_a_flag_reported_as_a_number_fails_under_fuzz(capsys: pytest.CaptureFixture[str]) -> None:
    """Python's 0 == False: JSON's are apart, and so are the kit's, in the fast path that compares a whole report."""
    status = main(["fuzz", "--engine", "lacking_engine:NumbersForFlags", "--deals", "20", "--variant", "albastini-2p"])
    out = capsys.readouterr().out
    assert status == 1, out
    assert "FAIL albastini-2p result." in out


def test_a_handshake_s_reports_reach_the_run_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["verify", "--engine", LACKING, "--report-dir", str(tmp_path), "--variant", "briscola-2p"])
    capsys.readouterr()
    header = json.loads((tmp_path / "run.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert "dealer" not in header["engine"]["reports"] and "result.tie" in header["engine"]["reports"]


def test_a_known_failure_failing_another_way_fails_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pinned = tmp_path / "expect.yaml"
    assert main(["verify", "--engine", TIE_BUG, "--game", "albastini", "--save-expectations", str(pinned)]) == 1
    capsys.readouterr()
    text = pinned.read_text(encoding="utf-8")
    assert text.startswith("format: 2\n") and "differences:" in text and "what: result.tie" in text
    assert main(["verify", "--engine", TIE_BUG, "--game", "albastini", "--expect", str(pinned)]) == 0, capsys.readouterr().out
    capsys.readouterr()
    status = main(["verify", "--engine", "lacking_engine:TieBugOtherSide", "--game", "albastini", "--expect", str(pinned)])
    out = capsys.readouterr().out
    assert status == 1, out
    assert "a new failure inside a known one: now also result.winner = 1" in out and "no longer result.winner = 0" in out


def test_an_expectation_file_of_format_1_pins_the_outcome_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pinned = tmp_path / "expect.yaml"
    main(["verify", "--engine", TIE_BUG, "--game", "albastini", "--save-expectations", str(pinned)])
    capsys.readouterr()
    older = "\n".join(
        line for line in pinned.read_text(encoding="utf-8").splitlines()
        if not line.startswith("format:") and "differences:" not in line and not line.startswith(("  - what", "    observed"))
    )  # fmt: skip
    pinned.write_text(older + "\n", encoding="utf-8")
    assert "observed" not in older
    assert main(["verify", "--engine", "lacking_engine:TieBugOtherSide", "--game", "albastini", "--expect", str(pinned)]) == 0


def _known(path: Path, *fields: str) -> Path:
    listed = "".join(f"  - {{variant: albastini-2p, field: {f}, reason: a level deal given to seat 0}}\n" for f in fields)
    path.write_text(f"format: 2\nengine: e\nspec_version: x\nexpectations: []\nknown:\n{listed}", encoding="utf-8")
    return path


def test_fuzz_counts_a_known_divergence_apart_and_it_hides_nothing_else(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    both = _known(tmp_path / "both.yaml", "result.tie", "result.winner")
    fuzz = ["fuzz", "--engine", TIE_BUG, "--deals", "120", "--variant", "albastini-2p", "--report-dir", str(tmp_path / "r")]
    assert main([*fuzz, "--expect", str(both)]) == 0
    out = capsys.readouterr().out
    assert "0 distinct divergences" in out and " xfail" in out
    xfail = [line for line in runlog.read(tmp_path / "r" / "run.jsonl").scenarios if line["outcome"] == "xfail"]
    assert xfail and all(line["note"].startswith("differs only in fields the expectation file names: result.") for line in xfail)
    one = _known(tmp_path / "one.yaml", "result.winner")  # the tie itself is not known: it still shows
    assert main([*fuzz, "--expect", str(one)]) == 1
    assert "FAIL albastini-2p result.tie" in capsys.readouterr().out


def test_a_known_part_of_a_field_compared_whole_is_refused_with_where_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``match.sheet.0`` names a seat's column of a field the kit compares whole: known, no difference would be it."""
    sheet = _known(tmp_path / "sheet.yaml", "result.tie", "match.sheet.0")
    assert main(["verify", "--engine", TIE_BUG, "--game", "albastini", "--expect", str(sheet)]) == 2
    err = capsys.readouterr().err
    assert (f"{sheet}:7:36: $.known[1].field: expected a field as the kit compares it, "
            "found 'match.sheet.0', a part of match.sheet, which is compared whole: name 'match.sheet'") in err, err


@pytest.mark.parametrize("path", ["hands.00", "hands.\u00b2", "piles.-1", "hands.0x"])
def test_a_seat_written_otherwise_than_the_snapshot_keys_it_names_no_field(path: str) -> None:
    """hands.00 or a superscript two is no seat the snapshot keys: declared, seat 0's hand would be judged nowhere."""
    problem = declaration_problem([path], "reports") or ""
    assert problem.startswith(f"expected reports to name snapshot fields (or legal), found {path!r}"), problem
    assert declaration_problem(["hands.0", "piles.1"], "reports") is None
