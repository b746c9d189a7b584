"""The reference's phases are the snapshot's: one enum, the values the schemas allow."""

from __future__ import annotations

import json

import pytest

from reference.state import Phase
from specreader import kitdata


@pytest.mark.parametrize("schema", ["snapshot", "view"])
def test_the_phases_are_the_ones_the_schemas_name(schema: str) -> None:
    document = json.loads((kitdata.schemas_dir() / f"{schema}.schema.json").read_text(encoding="utf-8"))
    assert [phase.value for phase in Phase] == document["properties"]["phase"]["enum"]
