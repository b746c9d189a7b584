"""What kind of kit file a YAML file is, from the file itself rather than its folder: the schema
its editor hint names, else the keys at its top level. A file outside spec/ can sit in any folder,
and a folder's name (``variants/``) says nothing about what is in it."""

from __future__ import annotations

import io
import itertools
import re
from pathlib import Path

from specreader import files, limits
from specreader.problems import DataError
from specreader.yamlio import load_bytes

# The kind (spec.kind_of's names, and scenario) of each schema a hint may name: schemas/<name>.schema.json.
_KIND_OF_SCHEMA = {
    "scenario": "scenario",
    "variant": "variants",
    "clauses": "clauses",
    "rulings": "rulings",
    "sources": "sources",
    "refusals": "refusals",
    "games": "games",
    "selfcheck-equivalents": "equivalents",
    "expectations": "expectations",  # an engine's known failures (conformance/run/expectations.py), not of the spec
}

# The editor's hint: a comment line naming a schema by path or by its published $id.
_HINT = re.compile(r"^#\s*yaml-language-server:\s*\$schema=(?P<ref>\S+)", re.MULTILINE)
_SCHEMA_NAME = re.compile(r"(?:^|[/\\])(?P<name>[a-z-]+)\.schema\.json$")

_OPENING_LINES = 10  # the hint is among the file's opening comment lines, where editors look

# The top-level key each kind alone has, looked for in this order (a variant lists sources too).
_KEY_OF_KIND = (
    ("scenarios", "scenario"),
    ("expectations", "expectations"),
    ("known", "expectations"),  # a file of known divergences alone, for fuzz and check-trace
    ("clauses", "clauses"),
    ("rulings", "rulings"),
    ("equivalents", "equivalents"),
    ("refusals", "refusals"),
    ("id", "variants"),
    ("sources", "sources"),
    ("games", "games"),
)


def hinted_schema(text: str) -> str | None:
    """The schema name (``variant``) a ``yaml-language-server: $schema=`` line of the file's
    opening comments names, by path or by $id."""
    first = itertools.islice(io.StringIO(text), _OPENING_LINES)  # the opening lines only, not the whole file split
    opening = "".join(itertools.takewhile(lambda line: line.startswith("#"), first))
    hint = _HINT.search(opening)
    named = _SCHEMA_NAME.search(hint["ref"]) if hint else None
    return named["name"] if named else None


def kind_of_file(path: Path) -> str | None:
    """The kind of a file: its hint's, else its content's; None when neither says (or it does not
    read: its reader reports why)."""
    try:
        raw = files.read_bytes(path, limits.MAX_YAML_BYTES, "YAML file")
        text = raw.decode("utf-8")
    except (DataError, UnicodeDecodeError):
        return None
    schema = hinted_schema(text)
    if schema in _KIND_OF_SCHEMA:
        return _KIND_OF_SCHEMA[schema]
    try:
        data = load_bytes(raw, str(path)).data  # as the file's reader will parse it: once
    except DataError:
        return None
    if isinstance(data, dict):
        for key, kind in _KEY_OF_KIND:
            if key in data:
                return kind
    return None
