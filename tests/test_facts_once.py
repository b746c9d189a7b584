"""Each fact of the kit's notation and each data limit is stated once: card codes and action kinds in
specreader/notation.py (the schemas' patterns and enums generated from it), the limits in specreader/limits.py."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from rulesite import cards
from specreader import notation, schema_notation

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("specreader", "reference", "conformance", "rulesite")
NOTATION = ROOT / "specreader" / "notation.py"
KIND_LIST = re.compile(r"bid\W+pass\W+play\W+take_tree")


def sources() -> list[Path]:
    found = [p for package in PACKAGES for p in (ROOT / package).rglob("*") if p.suffix in (".py", ".j2", ".js")]
    return [*found, ROOT / "docs" / "hooks.py", *(ROOT / "docs" / "javascripts").glob("*.js")]


def test_the_schemas_state_the_notation_as_generated() -> None:
    assert schema_notation.differences() == []


def test_a_schema_changed_by_hand_is_a_difference(tmp_path: Path) -> None:
    for schema in (ROOT / "schemas").glob("*.json"):
        (tmp_path / schema.name).write_text(schema.read_text(encoding="utf-8"), encoding="utf-8")
    common = tmp_path / "common.schema.json"
    common.write_text(common.read_text(encoding="utf-8").replace("[CDHS]$", "[CDHSX]$", 1), encoding="utf-8")
    assert schema_notation.differences(tmp_path) == [
        'common.schema.json $defs/card/pattern: "^[AKQJT98765432][CDHSX]$" should be "^[AKQJT98765432][CDHS]$"'
    ]
    schema_notation.write(tmp_path)
    assert schema_notation.differences(tmp_path) == []


@pytest.mark.parametrize("fact", [notation.RANK_LETTERS, notation.SUIT_LETTERS])
def test_the_card_alphabet_is_written_in_one_module(fact: str) -> None:
    stated = [p.relative_to(ROOT) for p in sources() if fact in p.read_text(encoding="utf-8") and p != NOTATION]
    assert stated == [], f"{fact!r} written outside specreader/notation.py: import it from there"


def test_the_action_kinds_are_listed_in_one_module() -> None:
    stated = [p.relative_to(ROOT) for p in sources() if KIND_LIST.search(p.read_text(encoding="utf-8")) and p != NOTATION]
    assert stated == [], "the action kinds listed outside specreader/notation.py: import them from there"


def test_the_site_names_every_letter_and_no_other() -> None:
    """The site's names for ranks and suits are words for players, which notation.py cannot generate."""
    assert set(cards.SUITS) == set(notation.SUIT_LETTERS)
    assert set(cards.RANKS) == set(notation.RANK_LETTERS)


_LIMIT_NAME = re.compile(r"^_?(MAX_[A-Z_]+|[A-Z_]*CAP|[A-Z_]*_KEPT|[A-Z_]*_BYTES|[A-Z_]*_LINES)$")


def _literal(node: ast.expr) -> bool:
    """A number written in place: a constant, or arithmetic on constants."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int | float)
    if isinstance(node, ast.BinOp):
        return _literal(node.left) and _literal(node.right)
    return False


# Bounds named like limits that bound the kit's own work, not data it reads: each says where it is used.
NOT_DATA_LIMITS = {
    "_OPENING_LINES",  # lines of a file read to guess its kind (specreader/filekinds.py)
    "MAX_SEATS",  # the seats the engine's model has room for (reference/seating.py)
    "_MUTANT_KEYS_KEPT",  # mutants named in one problem (conformance/validate.py)
    "_RELEASED_KEPT",  # request ids remembered to tell a late copy (conformance/engines/protocol.py)
    "MAX_STARTS",  # starting points the shrinker tries (conformance/fuzz/shrink.py)
    "_TEMPORARY_NAME_KEPT",  # bytes of a file's name its temporary file is named with (conformance/run/outputs.py)
    "BATCH_BYTES",  # bytes of trace lines a batch of check-trace's takes (conformance/traces/checking.py)
}


def test_every_data_limit_is_stated_in_limits_py() -> None:
    stated = []
    for path in (p for package in PACKAGES for p in (ROOT / package).rglob("*.py")):
        if path == ROOT / "specreader" / "limits.py":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and _literal(node.value):
                names = [t.id for t in node.targets if isinstance(t, ast.Name) and _LIMIT_NAME.match(t.id)
                         and t.id not in NOT_DATA_LIMITS]
                stated += [f"{path.relative_to(ROOT)}:{node.lineno} {name}" for name in names]
    assert stated == [], "limits stated outside specreader/limits.py:\n" + "\n".join(stated)


# A walk down a dotted path of JSON objects, one key at a time, none left standing for what is absent.
_DOTTED_WALK = re.compile(
    r"for (\w+) in [\w.]+\.split\(\"\.\"\):\n\s+(\w+) = \2\.get\(\1(?:, \w+)?\) if isinstance\(\2, dict\) else \w+"
)
JSONTYPES = ROOT / "specreader" / "jsontypes.py"


# A dotted path told to be another or a part of it, written out.
_PART_TEST = re.compile(r"(\w+) == (\w+) or \1\.startswith\(\2 \+ \"\.\"\)")


def test_a_path_within_another_is_told_by_one_function() -> None:
    """Whether ``result.vp`` lies in ``result`` (and ``result_x`` does not): a field declared, a clause's parameter,
    a ruling's, each told through ``specreader.jsontypes.part_of``."""
    from specreader.jsontypes import part_of

    writing = [p.relative_to(ROOT) for p in sources() if p != JSONTYPES and _PART_TEST.search(p.read_text(encoding="utf-8"))]
    assert writing == [], "a dotted path's parts told outside specreader/jsontypes.py: use part_of"
    assert _PART_TEST.search(JSONTYPES.read_text(encoding="utf-8"))
    assert part_of("result.vp", "result") and part_of("result", "result")
    assert not part_of("result_x", "result") and not part_of("result", "result.vp")
    either = [p.relative_to(ROOT) for p in sources() if p != JSONTYPES and _EITHER_WAY.search(p.read_text(encoding="utf-8"))]
    assert either == [], "either path within the other told outside specreader/jsontypes.py: use overlap"


# Either path told to lie within the other, written out.
_EITHER_WAY = re.compile(r"part_of\((\w+(?:\(\w+\))?), (\w+(?:\(\w+\))?)\) or part_of\(\2, \1\)")


def test_a_checked_path_s_field_is_told_by_one_function() -> None:
    """A checked path's field, without the seat, side or place in a list (``piles.0``: ``piles``): what the summary's
    count of fields the engine reports and fuzz's naming of a divergence both take, through field_phases.field_of."""
    from conformance.suite.field_phases import field_of

    unplacing = re.compile(r"if not (\w+)\.isdigit\(\)\)")
    own = ROOT / "conformance" / "suite" / "field_phases.py"
    elsewhere = [p.relative_to(ROOT) for p in sources() if p != own and unplacing.search(p.read_text(encoding="utf-8"))]
    assert elsewhere == [], "a path's places dropped outside conformance/suite/field_phases.py: use field_of"
    assert field_of("piles.0") == "piles" and field_of("stock.33") == "stock" and field_of("result.vp.1") == "result.vp"


def test_a_value_at_a_dotted_path_is_read_by_one_function() -> None:
    """The variant's parameter at ``components.draw.indicator``, the erratum's ``differs_when``, the mutant's leaf:
    each read through ``specreader.jsontypes.value_at``."""
    from specreader.jsontypes import value_at

    walking = [p.relative_to(ROOT) for p in sources() if p != JSONTYPES and _DOTTED_WALK.search(p.read_text(encoding="utf-8"))]
    assert walking == [], "a dotted path walked outside specreader/jsontypes.py: use value_at"
    assert _DOTTED_WALK.search(JSONTYPES.read_text(encoding="utf-8"))
    variant = {"components": {"draw": {"rule": "stock", "indicator": "dead"}}, "players": 4}
    assert value_at(variant, "components.draw.indicator") == "dead" and value_at(variant, "players") == 4
    assert value_at(variant, "components.cut.rule") is None and value_at(variant, "players.min") is None
    absent = object()
    assert value_at(variant, "components.cut.rule", absent) is absent and value_at(variant, "players", absent) == 4
