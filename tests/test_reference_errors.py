"""The engine's rejection codes are the closed list of spec/errors.yaml, and it answers with each."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import reference
from reference import errors
from specreader import kitdata
from specreader.yamlio import load


def test_the_engine_names_every_code_of_the_spec_list_and_no_other() -> None:
    spec = load(kitdata.spec_dir() / "errors.yaml").data
    constants = {name: value for name, value in vars(errors).items() if name.isupper() and isinstance(value, str)}
    assert sorted(constants.values()) == sorted(entry["code"] for entry in spec["errors"])
    assert all(name == value.upper() for name, value in constants.items())


def test_the_engine_answers_with_every_code_it_names() -> None:
    constants = {name: value for name, value in vars(errors).items() if name.isupper() and isinstance(value, str)}
    sources = "".join(p.read_text() for p in Path(errors.__file__).parent.glob("*.py") if p.name != "errors.py")
    # errors.py itself uses a code once past its definition: every SetupError answers with invalid_setup.
    defined = re.compile(r'^[A-Z_]+ = "[a-z_]+"$', re.MULTILINE)
    sources += defined.sub("", Path(errors.__file__).read_text())
    unused = [name for name in constants if f"errors.{name}" not in sources and f" {name}" not in sources]
    assert not unused, f"codes the engine never answers with: {unused}"


def test_a_bad_setup_is_refused_with_the_setup_code() -> None:
    """The engine's refusal of a setup names its code, for the protocol's setup error to carry."""
    with pytest.raises(errors.SetupError) as refused:
        reference.Engine.new("albastini-2p", {"dealer": 2, "deck": []})
    assert refused.value.code == errors.INVALID_SETUP == "invalid_setup"
    assert refused.value.path == ("dealer",)
