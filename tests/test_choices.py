"""The choices the rules leave to a player or the table: each clause names what expresses its
choices (``choices``: an action type or a setup field), validate checks the names, and coverage
asks for a scenario of the clause that makes each choice (conformance/suite/choices.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.measures import coverage
from conformance.suite import choices, scenarios
from reference.engine import compile_rules
from specreader.spec import kit_spec, variant, variant_ids

Write = Callable[[str, str], Path]

CLAUSES = """\
game: albastini
title: T
sections: [{{id: dealer, title: D}}]
clauses:
  - id: albastini.dealer.x
    title: T
    section: dealer
    choices: {choices}
    text: The side MAY choose.
    sources: [pagat]
"""


def test_validate_locates_a_choice_that_names_no_action_or_setup_field(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write("clauses.yaml", CLAUSES.format(choices="[action.choose_dealer, setup.match.next, setup.match.target]"))
    assert main(["validate", str(path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert any(
        line.startswith(f"{path}:8:15: $.clauses[0].choices[0]: expected an action type of schemas/action.schema.json")
        and "take_deal" in line and line.endswith("found 'choose_dealer'")
        for line in lines
    ), lines
    setup_field = "expected a field of schemas/setup.schema.json by dotted path, found 'match.next'"
    assert f"{path}:8:37: $.clauses[0].choices[1]: {setup_field}" in lines
    assert not any("choices[2]" in line for line in lines)  # match.target is a setup field


def test_validate_accepts_choices_that_name_an_action_and_a_setup_field(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write("clauses.yaml", CLAUSES.format(choices="[action.take_deal, setup.dealer, setup.start.trump]"))
    assert main(["validate", str(path)]) == 0, capsys.readouterr().err


def test_validate_holds_a_clause_s_usual_values_to_its_choices(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    usual = "[setup.match.target]\n    usual: {setup.match.target: [5, 10], setup.dealer: [0]}\n    variants: [albastini-2p]"
    path = write("clauses.yaml", CLAUSES.format(choices=usual))
    assert main(["validate", str(path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert [line for line in lines if "usual" in line] == [
        f"{path}:9:42: $.clauses[0].usual[\"setup.dealer\"]: expected one of the clause's choices, found 'setup.dealer'"
    ], lines


def test_validate_holds_a_usual_value_to_what_its_setup_field_may_hold(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    usual = "[setup.match.target]\n    usual: {setup.match.target: [5, five, 0]}\n    variants: [albastini-2p]"
    path = write("clauses.yaml", CLAUSES.format(choices=usual))
    assert main(["validate", str(path)]) == 2
    lines = [line for line in capsys.readouterr().err.splitlines() if "usual" in line]
    assert lines == [
        f'{path}:9:37: $.clauses[0].usual["setup.match.target"][1]: expected integer, found string "five"',
        f'{path}:9:43: $.clauses[0].usual["setup.match.target"][2]: expected at least 1, found integer 0',
    ], lines


def test_validate_refuses_two_clauses_giving_usual_values_for_one_variant(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    """The rules' words say one clause's usual values: a second for a variant the first applies to is located,
    the kit's own among them (albastini.over-60.vp-target, for the over-60 variants)."""
    second = CLAUSES.split("clauses:\n")[1].replace("albastini.dealer.x", "albastini.dealer.{id}")
    usual = "[setup.match.target]\n    usual: {{setup.match.target: {values}}}\n"
    text = CLAUSES.format(choices=usual.format(values="[5, 10]") + "    variants: [albastini-2p]") + "".join(
        second.format(id=cid, choices=usual.format(values=values) + variants).rstrip("\n") + "\n"
        for cid, values, variants in [
            ("apart", "[7]", "    variants: [albastini-3p]"),
            ("same", "[3]", "    variants: [albastini-3p, albastini-2p]"),
            ("every", "[10]", ""),
        ]
    )
    path = write("clauses.yaml", text)
    assert main(["validate", str(path)]) == 2
    lines = [line.split(": ", 1)[1] for line in capsys.readouterr().err.splitlines() if "usual" in line]
    said = "expected one clause to give the usual values of setup.match.target for a variant, found"
    assert lines == [
        f"$.clauses[2].usual[\"setup.match.target\"]: {said} 'albastini.dealer.x' giving them too",
        f"$.clauses[3].usual[\"setup.match.target\"]: {said} 'albastini.over-60.vp-target' giving them too",
    ], lines


def _rows(kit: list[scenarios.Scenario]) -> dict[str, coverage.ClauseCoverage]:
    return {row.clause: row for row in coverage.measure(kit_spec(), kit)}


def test_coverage_asks_for_a_scenario_that_makes_each_choice() -> None:
    kit = scenarios.kit_scenarios()
    clause = "albastini.dealer.team-choice"
    assert _rows(kit)[clause].unmade == () and _rows(kit)[clause].complete
    # Without the scenarios where the side takes the deal, only the default and the refusals are tested.
    made = [s for s in kit if choices.made_in("action.take_deal", s)]
    assert made and all(s.id.startswith("albastini/dealer/") for s in made)
    row = _rows([s for s in kit if s not in made])[clause]
    assert row.scenarios > 0 and row.negative > 0
    assert row.unmade == ("action.take_deal",) and not row.complete
    assert "MISSING scenario making the choice action.take_deal" in coverage.table([row])


def test_a_refused_action_or_an_absent_setup_field_makes_no_choice() -> None:
    by_id = {s.id: s for s in scenarios.kit_scenarios()}
    refused_only = by_id["albastini/dealer/losing-side-cannot-take-the-deal"]
    assert not choices.made_in("action.take_deal", refused_only)
    assert choices.made_in("action.take_deal", by_id["albastini/dealer/side-names-its-other-member"])
    assert choices.made_in("setup.dealer", refused_only) and not choices.made_in("setup.match.target", refused_only)


def test_every_choice_a_clause_names_is_made_by_a_scenario_of_the_clause() -> None:
    rows = _rows(scenarios.kit_scenarios())
    named = {cid: clause["choices"] for cid, clause in kit_spec().clause_index().items() if "choices" in clause}
    assert "action.take_deal" in named["albastini.dealer.team-choice"]
    assert {cid: rows[cid].unmade for cid in named if rows[cid].unmade} == {}


def test_the_rules_page_names_what_makes_each_choice(site_pages: dict[str, str]) -> None:
    page = site_pages["rules/albastini.md"]
    start = page.index('??? info "albastini.dealer.team-choice')
    clause = page[start : page.index("??? info", start + 1)]
    assert "**A player's choice, made with:** <code>action.take_deal</code>" in clause
    assert "made with" not in page[page.index('??? info "albastini.dealer.winner-deals') : start]


def test_an_informative_clause_that_names_a_choice_needs_a_scenario_making_it() -> None:
    kit = scenarios.kit_scenarios()
    clause = "albastini.match.host-correction"  # informative: the host's correction is a setup's sheet
    assert kit_spec().clause_index()[clause]["informative"] and _rows(kit)[clause].complete
    row = _rows([s for s in kit if not choices.made_in("setup.match.sheet", s)])[clause]
    assert row.unmade == ("setup.match.sheet",) and not row.complete
    assert "MISSING scenario making the choice setup.match.sheet" in coverage.table([row])


def test_the_side_can_name_its_dealer_exactly_where_the_clause_applies() -> None:
    # take_deal is an action of the variants where a winning side has several members to choose
    # from: the team-choice clause's variants, and no other (two-player Albastini, the JS
    # example's, has none).
    offered = {v for v in variant_ids() if "take_deal" in compile_rules(variant(v)).index.kinds}
    assert offered == set(kit_spec().clause_index()["albastini.dealer.team-choice"]["variants"])
    assert "albastini-2p" not in offered
