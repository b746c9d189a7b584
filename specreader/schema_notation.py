"""The parts of the schemas that state the kit's notation, generated from specreader/notation.py.

    python -m specreader.schema_notation [--check]

Writes each pattern and enum in place (``--check`` lists the differences and exits 1 instead), so
that a card code or an action kind is stated once, in specreader/notation.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from specreader import kitdata
from specreader.notation import ACTION_KINDS, CARD, RANK, SCENARIO_FORMAT, SUIT, kinds

_SEAT = "[0-5]"
_KIND_WORDS = "|".join(ACTION_KINDS)


def generated() -> dict[tuple[str, tuple[str | int, ...]], Any]:
    """Each generated value, by schema file and the path to it inside the file."""
    return {
        ("common.schema.json", ("$defs", "card", "pattern")): f"^{CARD}$",
        ("common.schema.json", ("$defs", "suit", "pattern")): f"^{SUIT}$",
        ("common.schema.json", ("$defs", "rank_sequence", "pattern")): f"^{RANK}( {RANK})*$",
        ("common.schema.json", ("$defs", "suit_sequence", "pattern")): f"^{SUIT}( {SUIT})*$",
        ("variant.schema.json", ("properties", "values", "propertyNames", "pattern")): f"^{RANK}$",
        ("action.schema.json", ("oneOf", 0, "properties", "type", "enum")): kinds(with_card=True),
        ("action.schema.json", ("oneOf", 1, "properties", "type", "enum")): kinds(with_card=False),
        ("scenario.schema.json", ("$defs", "action", "properties", "type", "enum")): list(ACTION_KINDS),
        ("scenario.schema.json", ("$defs", "legal", "pattern")): f"^{_SEAT} ({_KIND_WORDS})( {CARD})?$",
        ("scenario.schema.json", ("properties", "format", "enum")): list(range(1, SCENARIO_FORMAT + 1)),
    }


def _at(node: Any, path: tuple[str | int, ...]) -> Any:
    for key in path:
        node = node[key]
    return node


def differences(folder: Path | None = None) -> list[str]:
    """Where the schemas differ from what the notation generates, one line each."""
    folder = folder or kitdata.schemas_dir()
    found = []
    for (name, path), value in generated().items():
        try:
            written = _at(json.loads((folder / name).read_text(encoding="utf-8")), path)
        except (KeyError, IndexError, TypeError):
            written = None
        if written != value:
            found.append(f"{name} {'/'.join(map(str, path))}: {json.dumps(written)} should be {json.dumps(value)}")
    return found


def write(folder: Path | None = None) -> None:
    folder = folder or kitdata.schemas_dir()
    by_file: dict[str, list[tuple[tuple[str | int, ...], Any]]] = {}
    for (name, path), value in generated().items():
        by_file.setdefault(name, []).append((path, value))
    for name, values in by_file.items():
        file = folder / name
        schema = json.loads(file.read_text(encoding="utf-8"))
        for path, value in values:
            _at(schema, path[:-1])[path[-1]] = value
        file.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--check"]:
        found = differences()
        print("\n".join(found) or "the schemas state the notation as specreader/notation.py does")
        return 1 if found else 0
    if args:
        print("usage: python -m specreader.schema_notation [--check]", file=sys.stderr)
        return 2
    write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
