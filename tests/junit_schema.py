"""The JUnit XML schema the kit's reports are checked against (schemas/junit.xsd): read once a process, and
xmlschema imported only by the tests that check a report (its import alone is 80 ms, in every worker)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from specreader import kitdata


@cache
def _schema() -> Any:
    import xmlschema

    return xmlschema.XMLSchema(str(kitdata.schemas_dir() / "junit.xsd"))


def validate(report: Path) -> None:
    """Raise xmlschema's error if the JUnit report at ``report`` breaks the schema."""
    _schema().validate(str(report))
