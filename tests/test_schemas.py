"""The schemas themselves: valid JSON Schema 2020-12, stable ids, every reference resolvable offline."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from conformance.suite import schemas
from specreader import kitdata
from specreader.yamlio import load

SCHEMA_FILES = sorted(kitdata.schemas_dir().glob("*.schema.json"))


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda p: p.name)
def test_schema_is_valid_with_a_stable_id(path: Path) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == schemas.BASE + path.name


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda p: p.name)
def test_every_reference_resolves_offline(path: Path) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))
    resolver = schemas.registry().resolver(base_uri=schema["$id"])
    for ref in _refs(schema):
        resolver.lookup(ref)  # raises Unresolvable if a file or a $defs entry is missing


def test_yaml_files_point_editors_at_their_schema() -> None:
    root = kitdata.root()
    published = {json.loads(p.read_text(encoding="utf-8"))["$id"] for p in SCHEMA_FILES}
    for path in sorted((root / "spec").rglob("*.yaml")) + sorted((root / "scenarios").rglob("*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema="), path
        named = first.split("$schema=", 1)[1]
        if named.startswith("https://"):  # the published $id, as a file outside the kit may name it
            assert named in published, f"{path}: {named} is no schema's $id"
            continue
        target = (path.parent / named).resolve()
        assert target.is_file(), f"{path}: {target} does not exist"


@pytest.mark.parametrize("game", ["albastini\n", "albastini\r\n", "Albastini", ""])
def test_a_pattern_ends_where_the_text_ends(game: str) -> None:
    """Both validators read ``$`` as JSON Schema does: ``"albastini\\n"`` is not a game id, though
    Python's ``re`` alone would let it pass."""
    clauses = {**load(kitdata.root() / "spec" / "albastini" / "clauses.yaml").data, "game": game}
    quick = schemas.quick_validator("clauses")
    assert quick is not None and not quick.is_valid(clauses)
    assert [message for path, message, _ in schemas.explain("clauses", clauses) if path == ("game",)]
    assert schemas.explain("clauses", {**clauses, "game": "albastini"}) == []


def test_schema_path_prints_the_installed_schema_an_editor_can_use(capsys: pytest.CaptureFixture[str]) -> None:
    from conformance.cli import main

    assert main(["schema-path", "scenario"]) == 0
    path = Path(capsys.readouterr().out.strip())
    assert json.loads(path.read_text(encoding="utf-8"))["$id"] == "https://trickspec.dev/schemas/scenario.schema.json"
    assert main(["schema-path"]) == 0 and Path(capsys.readouterr().out.strip()) == kitdata.schemas_dir()
    assert main(["schema-path", "scenarios"]) == 2
    assert "no schema 'scenarios': expected one of action" in capsys.readouterr().err


@pytest.mark.parametrize(
    "hint",
    [
        "# yaml-language-server: $schema=https://trickspec.dev/schemas/variant.schema.json",
        "# yaml-language-server: $schema=../../../schemas/variant.schema.json",
        "# yaml-language-server: $schema=/opt/venv/lib/python3.11/site-packages/specreader/_data/schemas/variant.schema.json",
    ],
)
def test_a_hint_names_its_schema_by_id_or_by_path_from_any_folder(hint: str) -> None:
    from specreader.filekinds import hinted_schema

    assert hinted_schema(f"{hint}\nid: x\n") == "variant"
    assert hinted_schema(f"id: x\n{hint}\n") is None  # a hint is an opening comment, as editors read it


def test_a_key_an_object_must_not_have_is_named_alone() -> None:
    """``not: {required: [id]}`` (an answer to a message that is no command carries no id) is said as one key,
    not as "only one of" a list of one; two keys that exclude each other are said as before."""
    answer = {"id": "albastini/trick/anna-boris-trump-captures", "error": {"kind": "unknown_command", "message": "?"}}
    assert schemas.explain("protocol", answer, "/$defs/unknown_command") == [((), "expected no key 'id' here, found one", False)]


def test_a_choice_of_shapes_is_explained_by_the_branch_meant() -> None:
    """An action's type picks its branch: a bad card in a play is that one problem, not also a type the other
    branch wants and a key it does not take; a legal action where null or an object may stand is the object."""
    bad_card = [(("card",), 'expected a card code: rank A K Q J T 9 8 7 6 5 4 3 2, then suit C D H S (7H, TD, QC), '
                 'found string "ZZ"', False)]  # fmt: skip
    assert schemas.explain("action", {"type": "play", "seat": 1, "card": "ZZ"}) == bad_card
    observation = {"legal": [{"type": "play", "seat": 1, "card": "ZZ"}]}
    assert [p for p, _, _ in schemas.explain("trace", observation, "/$defs/observation")] == [("legal", 0, "card")]
    misspelt = schemas.explain("action", {"type": "plya", "seat": 1, "card": "7C"})  # no branch meant: each says why
    assert {p for p, _, _ in misspelt} == {("type",), ("card",)}


def test_the_first_problems_asked_for_are_the_first_of_all() -> None:
    observation = {"legal": [{"type": "play", "seat": 0, "card": f"Z{i}"} for i in range(500)]}
    every = schemas.explain("trace", observation, "/$defs/observation")
    assert len(every) == 500
    assert schemas.explain("trace", observation, "/$defs/observation", most=3) == every[:3]


def test_items_given_more_than_once_are_named_the_first_five_and_the_rest_counted() -> None:
    """Found in one pass over the list: a header or a handshake naming a million fields is data an engine may send."""
    header = {"trace": 1, "reports": ["phase", "trump", "phase", *[f"hands.{i}" for i in range(8)] * 2]}
    ((path, message, _),) = schemas.explain("trace", header, "/$defs/header")
    assert path == ("reports",)
    said = '"phase", "hands.0", "hands.1", "hands.2", "hands.3" and 4 more'
    assert message == f"expected each item once, found more than once: {said}"
    many = {"trace": 1, "reports": ["phase", "trump"] * 100_000}
    message = schemas.explain("trace", many, "/$defs/header")[0][1]
    assert message == 'expected each item once, found more than once: "phase", "trump"'


def test_an_item_given_more_than_once_is_cut_as_a_value_found_is() -> None:
    long = "x" * 1_000_000
    message = schemas.explain("trace", {"trace": 1, "reports": [long, "phase", long]}, "/$defs/header")[0][1]
    assert message == f'expected each item once, found more than once: "{"x" * 56}...'


def test_items_given_more_than_once_are_named_in_the_order_they_first_show() -> None:
    message = schemas.explain("trace", {"trace": 1, "reports": ["trump", "phase", "phase", "trump"]}, "/$defs/header")[0][1]
    assert message == 'expected each item once, found more than once: "trump", "phase"'
