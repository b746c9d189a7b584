"""The engine's rejection codes are the closed list of spec/errors.yaml, and it answers with each."""

from __future__ import annotations

from pathlib import Path

import reference
from reference import errors
from specreader import kitdata
from specreader.yamlio import load


def test_engine_codes_are_the_spec_list() -> None:
    spec = load(kitdata.spec_dir() / "errors.yaml").data
    assert list(errors.CODES) == [entry["code"] for entry in spec["errors"]]
    assert reference.CODES is errors.CODES


def test_every_spec_code_has_a_named_constant_the_engine_uses() -> None:
    constants = {name: value for name, value in vars(errors).items() if name.isupper() and isinstance(value, str)}
    assert set(constants.values()) == set(errors.CODES)
    sources = "".join(p.read_text() for p in Path(errors.__file__).parent.glob("*.py") if p.name != "errors.py")
    unused = [name for name in constants if f"errors.{name}" not in sources and f" {name}" not in sources]
    assert not unused, f"codes the engine never answers with: {unused}"
