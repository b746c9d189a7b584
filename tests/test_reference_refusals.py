"""The engine's refusal codes are the closed list of spec/refusals.yaml, and it answers with each."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import reference
from reference import refusals
from specreader import kitdata
from specreader.yamlio import load


def _constants() -> dict[str, str]:
    return {name: value for name, value in vars(refusals).items() if name.isupper() and isinstance(value, str)}


def test_the_engine_names_every_code_of_the_spec_list_and_no_other() -> None:
    spec = load(kitdata.spec_dir() / "refusals.yaml").data
    constants = _constants()
    assert sorted(constants.values()) == sorted(entry["code"] for entry in spec["refusals"])
    assert all(name == value.upper() for name, value in constants.items())


def test_the_engine_answers_with_every_code_it_names() -> None:
    here = Path(refusals.__file__)
    sources = "".join(p.read_text() for p in here.parent.glob("*.py") if p.name != here.name)
    defined = re.compile(r'^[A-Z_]+ = "[a-z_]+"$', re.MULTILINE)
    sources += defined.sub("", here.read_text())
    unused = [name for name in _constants() if f"refusals.{name}" not in sources and f" {name}" not in sources]
    assert not unused, f"codes the engine never answers with: {unused}"


def test_a_bad_setup_is_refused_with_the_setup_code() -> None:
    """The engine's refusal of a setup names its code, for the protocol's setup error to carry."""
    with pytest.raises(reference.SetupError) as refused:
        reference.Engine.new("albastini-2p", {"dealer": 2, "deck": []})
    assert refused.value.code == refusals.INVALID_SETUP == "invalid_setup"
    assert refused.value.path == ("dealer",)
