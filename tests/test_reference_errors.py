"""The engine's rejection codes are exactly the closed list of spec/errors.yaml."""

from __future__ import annotations

import reference
from conformance import kitdata
from conformance.yamlio import load
from reference import errors


def test_engine_codes_equal_the_spec_list() -> None:
    spec = load(kitdata.spec_dir() / "errors.yaml").data
    spec_codes = [entry["code"] for entry in spec["errors"]]
    assert sorted(errors.CODES) == sorted(spec_codes)
    assert len(set(errors.CODES)) == len(errors.CODES)


def test_every_code_constant_is_listed() -> None:
    constants = {value for name, value in vars(errors).items() if name.isupper() and isinstance(value, str)}
    assert constants == set(errors.CODES)
    assert reference.CODES is errors.CODES
