"""Rule components have one source of truth: the engine's registry and each rule's parameter
declarations. The variant schema's component blocks are generated from them, and a rule reads
exactly the parameters it declares."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from conformance.cli import main
from reference import VariantError, compile_rules, components
from reference import component_schema as cs
from reference.components import REGISTRY
from reference.params import Kind, Param, Params, When
from reference.rules import Rule, Rules
from specreader.spec import variant, variant_ids

COMMITTED: dict[str, Any] = json.loads(cs.schema_path().read_text(encoding="utf-8"))


def test_the_committed_schema_is_what_the_declarations_generate() -> None:
    expected = cs.generated(COMMITTED)
    differences = cs.drift(COMMITTED, expected)
    assert not differences, "run python -m reference.component_schema:\n" + "\n".join(differences)
    assert cs.schema_path().read_text(encoding="utf-8") == cs.text(expected)


def _registry_with(component: str, rule: str, implementation: type[Rule] | None) -> cs.Registry:
    registry = {name: dict(rules) for name, rules in REGISTRY.items()}
    if implementation is None:
        del registry[component][rule]
    else:
        registry.setdefault(component, {})[rule] = implementation
    return registry


class Auction(Rule):
    PARAMETERS = (Param("opening_bid", Kind.INTEGER, minimum=1),)


class OteaWithAnotherChoice(Rule):
    PARAMETERS = (Param("bidders", Kind.TEXT, choices=("dealer-opponents", "none", "everyone")),)


class MrithiWithAFlag(Rule):
    PARAMETERS = (
        Param("line_per_member", Kind.FLAG, default=False),
        Param("single", Kind.INTEGER, minimum=1),
        Param("double", Kind.INTEGER, minimum=1),
    )


@pytest.mark.parametrize(
    ("registry", "reported"),
    [
        (_registry_with("trump", "turn-up", None), "trump rule turn-up: in the schema, not in the engine"),
        (_registry_with("trump", "auction", Auction), "trump rule auction: in the engine, not in the schema"),
        (_registry_with("sorcery", "x", Rule), "component sorcery: in the engine, not in the schema"),
        (
            _registry_with("trump", "otea", OteaWithAnotherChoice),
            'trump rule otea: parameter bidders: the schema says {"enum": ["dealer-opponents", "none"]}, '
            'the engine {"enum": ["dealer-opponents", "none", "everyone"]}',
        ),
        (
            _registry_with("score", "mrithi", MrithiWithAFlag),
            'score rule mrithi: parameter line_per_member: the schema says {"minimum": 0, "type": "integer"}, '
            'the engine {"default": false, "type": "boolean"}',
        ),
        (_registry_with("score", "mrithi", MrithiWithAFlag), "score rule mrithi: parameter line_per_member required: in the"),
    ],
    ids=["rule-only-in-schema", "rule-only-in-engine", "component-only-in-engine", "choices", "type", "requirement"],
)
def test_changed_declarations_are_reported_as_drift(registry: cs.Registry, reported: str) -> None:
    differences = cs.drift(COMMITTED, cs.generated(COMMITTED, registry))
    assert any(line.startswith(reported) for line in differences), differences


def test_two_rules_of_a_component_cannot_declare_one_parameter_two_ways() -> None:
    class OteaWithOneChoice(Rule):
        PARAMETERS = (Param("bidders", Kind.TEXT, choices=("none",)),)

    with pytest.raises(ValueError, match="trump rules declare 'bidders' differently"):
        cs.generated(COMMITTED, _registry_with("trump", "auction", OteaWithOneChoice))


def test_a_hand_edited_schema_is_reported_as_drift() -> None:
    edited = copy.deepcopy(COMMITTED)
    score = edited["$defs"]["component_score"]
    score["properties"]["bonus"] = {"type": "integer"}
    score["allOf"][0]["then"]["properties"]["bonus"] = True  # mrithi
    edited["$defs"]["component_match"]["properties"]["rule"]["enum"].append("golf")
    del edited["properties"]["components"]["properties"]["look"]
    assert set(cs.drift(edited, cs.generated(COMMITTED))) >= {
        "score rule mrithi: parameter bonus: in the schema, not in the engine",
        "match rule golf: in the schema, not in the engine",
        "component look: in the engine, not in the schema",
    }


def test_every_rule_is_played_by_some_variant_so_the_spec_reads_every_declaration() -> None:
    used = {(name, component["rule"]) for vid in variant_ids() for name, component in variant(vid)["components"].items()}
    registered = {(name, rule) for name, rules in REGISTRY.items() for rule in rules}
    assert registered <= used, f"no variant plays {sorted(registered - used)}"
    for vid in variant_ids():
        compile_rules(variant(vid))  # each rule reads what it declares, and only that


class ReadsAnUndeclaredParameter(Rule):
    def __init__(self, rules: Rules, params: Params) -> None:
        params.integer("line_per_member")


class DeclaresAParameterItNeverReads(Rule):
    PARAMETERS = (Param("line_per_member", Kind.INTEGER), Param("single", Kind.INTEGER), Param("double", Kind.INTEGER))

    def __init__(self, rules: Rules, params: Params) -> None:
        params.integer("single")
        params.integer("double")


class ReadsAnOptionalParameterAsIfAlwaysThere(Rule):
    PARAMETERS = (Param("line_per_member", Kind.INTEGER, optional=True),)

    def __init__(self, rules: Rules, params: Params) -> None:
        params.integer("line_per_member")


@pytest.mark.parametrize(
    ("component", "rule", "implementation", "error", "message"),
    [
        ("trick", "highest-trump-else-led-suit", ReadsAnUndeclaredParameter, LookupError,
         "reads 'line_per_member' but does not declare it"),
        ("score", "mrithi", DeclaresAParameterItNeverReads, TypeError, "declares line_per_member but does not read it"),
        ("trick", "highest-trump-else-led-suit", ReadsAnOptionalParameterAsIfAlwaysThere, TypeError,
         "may be given no 'line_per_member'"),
    ],
)
def test_a_rule_reads_exactly_what_it_declares(
    monkeypatch: pytest.MonkeyPatch, component: str, rule: str, implementation: type[Rule], error: type[Exception], message: str
) -> None:
    monkeypatch.setitem(REGISTRY, component, {**REGISTRY[component], rule: implementation})
    with pytest.raises(error, match=message):
        components.build(Rules(variant("albastini-2p")), component)


def _with_component(name: str, block: dict[str, Any]) -> dict[str, Any]:
    v = variant("altbaumer-standard" if name in ("match", "trump") else "briscola-2p")
    v["components"][name] = block
    return v


@pytest.mark.parametrize(
    ("name", "block", "path", "message"),
    [
        ("score", {"rule": "over-threshold", "win_over": 60, "single": 1, "double": 2}, "double_over", "when double is given"),
        ("score", {"rule": "over-threshold", "win_over": 60, "single": 1, "double_over": 90}, "double", "when double_over"),
        ("score", {"rule": "over-threshold", "win_over": "60", "single": 1}, "win_over", "expected an integer"),
        ("score", {"rule": "over-threshold", "single": 1}, "win_over", "missing required parameter"),
        ("match", {"rule": "rounds", "round_target": 5, "rounds_to_win": 2, "decider": "single-deal"}, "decider_tricks",
         "required when decider is single-deal"),
        ("match", {"rule": "rounds", "round_target": 5, "rounds_to_win": 2, "decider": "two-deals"}, "decider",
         "expected one of single-deal, none"),
        ("trump", {"rule": "turn-up", "discard": "any", "bidders": "none"}, "bidders", "unknown parameter"),
    ],
)
def test_parameters_are_checked_against_their_declarations(name: str, block: dict[str, Any], path: str, message: str) -> None:
    with pytest.raises(VariantError, match=message) as err:
        compile_rules(_with_component(name, block))
    assert err.value.path == ("components", name, path)


def test_defaults_are_what_the_engine_plays_and_what_the_schema_states() -> None:
    block = {"rule": "rounds", "round_target": 5, "rounds_to_win": 2}
    rules = compile_rules(_with_component("match", block))
    assert (rules.match.decider, rules.match.lone_sweep) == ("none", False)
    stated = COMMITTED["$defs"]["component_match"]["properties"]
    assert (stated["decider"]["default"], stated["lone_all_five_wins_round"]["default"]) == ("none", False)


def test_validate_reports_a_parameter_required_by_another(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "variants" / "doubles.yaml"
    path.parent.mkdir()
    path.write_text(
        "id: doubles\ntitle: D\nextends: briscola-2p\n"
        "components:\n  score: {rule: over-threshold, win_over: 60, single: 1, double: 2}\n",
        encoding="utf-8",
    )
    assert main(["validate", str(path)]) == 2
    assert f"{path}:5:10: $.components.score: after inheritance: missing required key 'double_over'" in capsys.readouterr().err


@pytest.mark.parametrize(
    "declare",
    [
        lambda: Param("bidders", Kind.TEXT),
        lambda: Param("single", Kind.INTEGER, default=1, optional=True),
        lambda: Param("double", Kind.INTEGER, default=2, required_when=When("double_over")),
    ],
    ids=["text-without-choices", "default-and-optional", "default-and-required-when"],
)
def test_a_declaration_says_one_thing(declare: Any) -> None:
    with pytest.raises(ValueError):
        declare()
