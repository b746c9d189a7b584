"""Scenarios whose setup must be refused (refuse_setup): their file shape, the judge, the engines that
carry the code, and the coverage they give the clauses about a legal setup."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.cli import main
from conformance.engines.adapter import InProcessAdapter, reference_adapter, setup_error
from conformance.engines.messages import Request
from conformance.engines.protocol import SubprocessAdapter
from conformance.measures import coverage
from conformance.run import runner
from conformance.suite import scenarios, schemas
from conformance.suite.observing import clauses_of
from conformance.vocabulary import ErrorKind, Outcome
from reference import Engine
from reference.errors import SetupError
from specreader.spec import kit_spec

from depth import cases
from json_strategies import json_values

REFUSAL = """\
variant: albastini-2p
scenarios:
  - id: test/refused/{name}
    title: A card twice
    clauses: [albastini.cards.pack]
    source: {{derived: a test}}
    setup:
      dealer: {dealer}
      hands: {{0: [AH, AH, QD, 4C, 5D], 1: [3S, 7H, 6C, 4D, 5C]}}
      stock: [rest]
{tail}"""

CODE = "    refuse_setup: invalid_setup\n"


def refusal_file(tmp_path: Path, tail: str = CODE, name: str = "twice", dealer: str = "1") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(REFUSAL.format(name=name, dealer=dealer, tail=tail), encoding="utf-8")
    return path


def validate(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str]:
    code = main(["validate", str(path)])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err


@pytest.fixture
def refusal(tmp_path: Path) -> scenarios.Scenario:
    (scenario,) = scenarios.load_files([refusal_file(tmp_path)])
    return scenario


# -- the file ---------------------------------------------------------------------------------------


def test_a_deliberately_bad_setup_is_valid_where_its_refusal_is_expected(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert validate(capsys, refusal_file(tmp_path)) == (0, "")


def test_the_same_setup_with_steps_is_still_refused_by_validate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = validate(capsys, refusal_file(tmp_path, tail="    steps:\n      - expect: {phase: bidding}\n"))
    assert code == 2 and "AH is placed twice" in err


@pytest.mark.parametrize(
    ("tail", "dealer", "message"),
    [
        (CODE + "    steps:\n      - expect: {phase: bidding}\n", "1",
         "$.scenarios[0]: expected only one of 'steps', 'refuse_setup', found them together"),
        ("", "1", "$.scenarios[0]: missing required key 'steps'"),
        ("    refuse_setup: no_such_code\n", "1", "$.scenarios[0].refuse_setup: unknown refusal code 'no_such_code'"),
        ("    refuse_setup: must_trump\n", "1",
         "$.scenarios[0].refuse_setup: 'must_trump' refuses an action, not a setup: expected a code marked refuses: setup "
         "(invalid_setup)"),
        ("    refuse_setup: [invalid_setup]\n", "1", "$.scenarios[0].refuse_setup: expected string"),
        # The setup's shape is still checked: seats are 0 to 5 in every setup an engine is sent.
        (CODE, "7", "$.scenarios[0].setup.dealer: expected at most 5, found integer 7"),
    ],
)
def test_the_shape_of_a_refusal_scenario_is_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], tail: str, dealer: str, message: str
) -> None:
    path = refusal_file(tmp_path, tail=tail, dealer=dealer)
    code, err = validate(capsys, path)
    assert code == 2
    assert message in err, err


def test_a_setup_code_is_no_action_refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tail = "    steps:\n      - {bid: {0: AH}, refusal: [invalid_setup]}\n"
    path = refusal_file(tmp_path, tail=tail)
    path.write_text(path.read_text().replace("[AH, AH,", "[AH, KC,"), encoding="utf-8")
    code, err = validate(capsys, path)
    assert code == 2
    assert "$.scenarios[0].steps[0].refusal[0]: 'invalid_setup' refuses a setup, not an action: see refuse_setup" in err


def test_a_refusal_scenario_sends_the_setup_and_no_action(refusal: scenarios.Scenario) -> None:
    request = runner.request_for(refusal)
    assert request["actions"] == [] and request["observe"] == []
    assert request["setup"]["hands"]["0"][:2] == ["AH", "AH"]
    assert len(request["setup"]["stock"]) == 27  # rest: every card but the nine placed, AH among them
    assert refusal.refusals() == {"invalid_setup"} and refusal.action_refusals() == set()


# -- the judge --------------------------------------------------------------------------------------


def _refused(code: object = "invalid_setup", kind: str = "setup") -> dict[str, Any]:
    error = {"kind": kind, "message": "no"} if code is None else {"kind": kind, "message": "no", "code": code}
    return {"id": "x", "error": error}


def test_refused_with_the_code_passes(refusal: scenarios.Scenario) -> None:
    verdict = runner.judge(refusal, _refused())
    assert (verdict.outcome, verdict.mismatches, verdict.error) == (Outcome.PASS, [], None)


@pytest.mark.parametrize(
    ("answer", "observed"),
    [
        ({"id": "x", "observations": [{"rejected": None, "snapshot": None, "legal": None}]}, "accepted"),
        (_refused("invalid_action"), "invalid_action"),
        (_refused(None), "refused without a code"),
        (_refused("invalid_setup\x1b[2J" + "x" * 500), "invalid_setup\\x1b[2J"),
    ],
)
def test_accepted_or_refused_otherwise_fails_with_what_was_observed(
    refusal: scenarios.Scenario, answer: dict[str, Any], observed: str
) -> None:
    verdict = runner.judge(refusal, answer)
    assert verdict.outcome == Outcome.FAIL
    (mismatch,) = verdict.mismatches
    assert (mismatch.step, mismatch.what, mismatch.expected) == (0, "setup refused with", "invalid_setup")
    assert mismatch.line == refusal.refuse_setup_line == 11
    assert mismatch.observed.startswith(observed)
    assert "\x1b" not in mismatch.observed and len(mismatch.observed) <= 120  # engine text, made safe and cut


@pytest.mark.parametrize(
    ("answer", "outcome", "kind"),
    [
        (_refused(None, kind="unsupported"), Outcome.UNSUPPORTED, ErrorKind.UNSUPPORTED),
        (_refused(None, kind="crash"), Outcome.ERROR, ErrorKind.CRASH),
        (_refused(7), Outcome.ERROR, ErrorKind.MALFORMED),
        ({"id": "x", "observations": []}, Outcome.ERROR, ErrorKind.MALFORMED),
        ({"id": "x"}, Outcome.ERROR, ErrorKind.MALFORMED),
    ],
)
def test_other_answers_are_judged_as_for_any_scenario(
    refusal: scenarios.Scenario, answer: dict[str, Any], outcome: Outcome, kind: ErrorKind
) -> None:
    verdict = runner.judge(refusal, answer)
    assert verdict.outcome == outcome and verdict.error is not None and verdict.error.kind == kind


_ANYTHING = json_values(
    st.none() | st.booleans() | st.integers() | st.sampled_from(["setup", "crash", "invalid_setup", "code", ""]),
    st.sampled_from(["kind", "code", "message"]),
    width=3,
    max_leaves=6,
)


@settings(max_examples=cases(quick=60, deep=2000), deadline=None)
@given(answer=_ANYTHING | st.fixed_dictionaries({"id": st.just("x")}, optional={"error": _ANYTHING, "observations": _ANYTHING}))
def test_the_refusal_judge_never_raises(answer: Any) -> None:
    assert runner.judge(_kit_refusals()[0], answer).outcome in (Outcome.PASS, Outcome.FAIL, Outcome.ERROR, Outcome.UNSUPPORTED)


# -- the engines ------------------------------------------------------------------------------------


def _kit_refusals() -> list[scenarios.Scenario]:
    return [s for s in scenarios.kit_scenarios() if s.refuse_setup]


def test_the_in_process_adapter_carries_the_code_of_the_engine_s_refusal() -> None:
    request: Request = {"id": "x", "variant": "albastini-2p", "setup": {"dealer": 2, "deck": []}, "actions": [], "observe": []}
    answer = reference_adapter().run(request)
    assert answer == {
        "id": "x",
        "error": {"kind": "setup", "code": "invalid_setup", "message": "SetupError: $.dealer: expected a seat from 0 to 1"},
    }
    assert "code" not in setup_error(SystemExit(3))  # a code that is no string is not a refusal code


class _Lenient:
    """An engine that plays any setup it cannot read from the one of the pack in order: it refuses nothing."""

    @staticmethod
    def new(variant: str, setup: dict[str, Any]) -> Engine:
        try:
            return Engine.new(variant, setup)
        except ValueError:
            return Engine.new(variant, {"dealer": 0, "deck": scenarios.deck_of(kit_spec().resolved(variant))})


class _WrongCode:
    """An engine that refuses bad setups, but with an action's code."""

    @staticmethod
    def new(variant: str, setup: dict[str, Any]) -> Engine:
        try:
            return Engine.new(variant, setup)
        except ValueError as err:
            refused = ValueError(str(err))
            refused.code = "invalid_action"  # type: ignore[attr-defined]
            raise refused from None


@pytest.mark.parametrize(("engine", "observed"), [(_Lenient, "accepted"), (_WrongCode, "invalid_action")])
def test_an_engine_that_does_not_refuse_bad_setups_with_the_code_fails_every_refusal(engine: Any, observed: str) -> None:
    adapter = InProcessAdapter(engine.new, {"name": "broken"}, list(kit_spec().variants_raw()))
    chosen = _kit_refusals()
    verdicts = list(runner.run_all(adapter, chosen))
    assert {v.outcome for v in verdicts} == {Outcome.FAIL}
    assert {v.mismatches[0].observed for v in verdicts} == {observed}


def test_the_reference_puts_each_refused_setup_on_the_clauses_its_scenario_checks() -> None:
    """fuzz and check-trace name a deal the rules do not allow after the clauses the reference's refusal is put on
    (observing.for_setup): for every scenario of a refused setup, those are the clauses it checks, no more, no
    fewer."""
    named: dict[str, tuple[str, ...]] = {}
    for scenario in _kit_refusals():
        with pytest.raises(SetupError) as err:
            Engine.new(scenario.variant, scenario.setup)
        blamed = clauses_of(scenario.variant).for_setup(err.value, scenario.variant)
        if set(blamed.clauses) != set(scenario.clauses):
            named[scenario.id] = blamed.clauses
    assert named == {}


def test_the_served_reference_refuses_every_bad_setup_with_the_code() -> None:
    served = SubprocessAdapter([sys.executable, "-m", "conformance.engines.serve"], validate=True)
    try:
        verdicts = list(runner.run_all(served, _kit_refusals()))
    finally:
        served.close()
    assert verdicts and all(v.outcome == Outcome.PASS for v in verdicts), [v.reason or v.mismatches for v in verdicts]


def test_the_protocol_schema_takes_a_setup_error_s_code() -> None:
    answer = _refused()
    assert schemas.explain("protocol", answer, "/$defs/result") == []
    assert schemas.explain("protocol", _refused(None), "/$defs/result") == []  # optional: version 1 as it was
    assert schemas.explain("protocol", _refused("Not A Code"), "/$defs/result")


# -- coverage ---------------------------------------------------------------------------------------


def test_every_clause_refusing_a_setup_has_a_refusal_scenario() -> None:
    spec = kit_spec()
    setup_codes = spec.setup_codes()
    refusing = {cid for cid, clause in spec.clause_index().items() if setup_codes & set(clause.get("refuses_with", []))}
    assert {"albastini.players.count", "altbaumer.table.players", "albastini.cards.pack", "bisca.deal.three-each"} <= refusing
    rows = {row.clause: row for row in coverage.measure(spec, scenarios.kit_scenarios())}
    assert all(rows[cid].negative > 0 for cid in refusing), [cid for cid in refusing if not rows[cid].negative]


def test_a_refusal_scenario_is_the_negative_one_coverage_asks_for(refusal: scenarios.Scenario) -> None:
    spec = kit_spec()
    rows = {row.clause: row for row in coverage.measure(spec, [refusal])}
    assert rows["albastini.cards.pack"].needs_negative and rows["albastini.cards.pack"].negative == 1
    plain = scenarios.Scenario(**{**vars(refusal), "refuse_setup": None})
    assert {row.clause: row for row in coverage.measure(spec, [plain])}["albastini.cards.pack"].negative == 0
