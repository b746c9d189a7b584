"""Where each generated page lives under the docs folder, and the relative links between pages.

Links are relative Markdown links to ``.md`` files, so that the docs tool checks them (and their anchors)
when it builds.
"""

from __future__ import annotations

import posixpath
from pathlib import Path
from urllib.parse import quote

from conformance.suite.scenarios import Scenario
from specreader.spec import kit_spec

RULINGS_PAGE = "rulings.md"
VARIANTS_PAGE = "variants.md"
GLOSSARY_PAGE = "glossary.md"
SOURCES_PAGE = "sources.md"
EXAMPLES_INDEX = "examples/index.md"
SCHEMAS_PAGE = "reference/schemas.md"
REFUSALS_PAGE = "reference/refusals.md"
FIELDS_PAGE = "reference/fields.md"
SCENARIO_FORMAT_PAGE = "scenarios.md"  # hand-written
# The folders of the pages made per game or per variant, and of the worked examples.
RULES_FOLDER = "rules/"
PLAY_FOLDER = "play/"
PRINT_FOLDER = "print/"
EXAMPLES_FOLDER = "examples/"
FIELDS_FOLDER = "reference/fields/"
# The folders of the pages for engine authors, where a card's code (TS) is said with its name.
REFERENCE_FOLDER = "reference/"
GUIDE_FOLDER = "guide/"


def for_engines(page: str) -> bool:
    """Whether the page at ``page`` is for engine authors, who write cards as codes: the worked examples (the
    scenarios drawn), the reference, the guides and each game's specification. Players read the rest (a table's
    ruleset among them) and never need a code."""
    return (
        page.startswith((EXAMPLES_FOLDER, REFERENCE_FOLDER, GUIDE_FOLDER))
        or page == SCENARIO_FORMAT_PAGE
        or page in {rules_page_path(game) for game in kit_spec().games()}
    )


def rules_page_path(game: str) -> str:
    return f"{RULES_FOLDER}{game}.md"


def variant_rules_path(variant_id: str) -> str:
    return f"{RULES_FOLDER}{variant_id}.md"


def how_to_play_path(game: str) -> str:
    """Hand-written: the prose is for players, the walk-through and the table come from shortcodes."""
    return f"{PLAY_FOLDER}{game}.md"


def game_fields_path(game: str) -> str:
    """A game's fields, in the field reference."""
    return f"{FIELDS_FOLDER}{game}.md"


def summary_path(game: str) -> str:
    """A game's one-page summary, to print; for a game of several table sizes, the page choosing among them."""
    return f"{PRINT_FOLDER}{game}.md"


def table_summary_path(game: str, players: int) -> str:
    """The one-page summary of a game's tables of ``players``, when the game has several sizes."""
    return f"{PRINT_FOLDER}{game}-{players}p.md"


def example_page_path(scenario: Scenario, root: Path | None = None) -> str:
    """``scenarios/albastini/play/turn.yaml`` becomes ``examples/albastini/play/turn.md``."""
    path = Path(scenario.file)
    rel: tuple[str, ...] = ()
    if root is not None:
        try:
            rel = path.resolve().relative_to(root.resolve()).parts
        except ValueError:
            rel = ()
    if not rel and "scenarios" in path.parts:
        rel = path.parts[len(path.parts) - path.parts[::-1].index("scenarios") :]
    if not rel:
        rel = (*scenario.id.split("/")[:2], "scenarios.yaml")
    stem = posixpath.splitext("/".join(rel))[0]
    return f"{EXAMPLES_FOLDER}{stem}.md"


def link(from_page: str, to_page: str, anchor: str | None = None) -> str:
    """A relative link target from one generated page to another, with an optional anchor (percent-encoded
    where it holds anything but the characters of the kit's ids, so a bad id cannot break out of the link)."""
    fragment = quote(anchor, safe="/.-_~:") if anchor else None
    if from_page == to_page and fragment:
        return f"#{fragment}"
    target = quote(posixpath.relpath(to_page, posixpath.dirname(from_page) or "."), safe="/.-_~")
    return f"{target}#{fragment}" if fragment else target


def schema_anchor(file: str) -> str:
    """The anchor of a schema file's row on the schemas page: ``protocol.schema.json`` is ``schema-protocol``."""
    return "schema-" + file.removesuffix(".schema.json")
