"""The site's hand-written pages: the home page and each game's how-to-play page, prose for players with
shortcodes only the site renders (``[[cards: 7D]]``, ``[[table: albastini]]``), and the deal scripts the
how-to-play pages walk through (``play/<game>.yaml``).

They are kept here, beside the templates, rather than in docs/: docs/ holds the pages that read whole where
the repository or an installed kit shows them. ``docs/hooks.py`` adds these to the site as it builds it.
"""

from __future__ import annotations

from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "hand_written"
DEALS = FOLDER / "play"  # the deal scripts


def hand_written_pages() -> dict[str, str]:
    """Each page by its path on the site (``index.md``, ``play/albastini.md``), as written."""
    return {path.relative_to(FOLDER).as_posix(): path.read_text(encoding="utf-8") for path in sorted(FOLDER.rglob("*.md"))}
