"""The docs an engine author reads, made from the code and the kit's data, written into docs/ so that each page
reads whole where it is read (the repository, an editor), not only on the built site.

    python -m rulesite.docs_blocks [--check]

Two kinds: the tables of hand-written pages, and the reference pages the protocol's page links to (schemas,
refusal codes, fields), written whole. A block is ``<!-- generated: KIND ARGS -->``, then what the shortcode
``[[KIND: ARGS]]`` renders, then ``<!-- end generated -->``; a shortcode alone on a line of these pages becomes
such a block. A reference page is the site's page as ``rulesite.pages`` makes it. ``--check`` lists the pages
that differ from what the code renders now, and exits 1; the site's build refuses a reference page out of date.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from pathlib import Path

from rulesite import paths, repository_links
from rulesite.shortcodes import expand_shortcodes
from rulesite.site import pages
from rulesite.sitedata import SiteData, load_site_data

DOCS = Path(__file__).resolve().parent.parent / "docs"
PAGES = ("guide/running.md", "guide/traces.md", "scenarios.md")
_BLOCK = re.compile(r"<!-- generated: (?P<kind>[a-z-]+)(?P<args>[^>]*?) -->\n.*?<!-- end generated -->", re.S)
_ALONE = re.compile(r"^\[\[(?P<kind>cli|pytest-options|limits):(?P<args>[^\]]*)\]\]$", re.M)


def _block(kind: str, args: str) -> str:
    args = args.strip()
    shortcode = f"[[{kind}:{' ' + args if args else ''}]]"
    rendered = expand_shortcodes(shortcode).strip()
    return f"<!-- generated: {kind}{' ' + args if args else ''} -->\n{rendered}\n<!-- end generated -->"


def rendered(text: str) -> str:
    """The page with every block, and every shortcode alone on a line, as the code renders it now."""
    text = _BLOCK.sub(lambda m: _block(m["kind"], m["args"]), text)
    return _ALONE.sub(lambda m: _block(m["kind"], m["args"]), text)


def is_reference_page(page: str) -> bool:
    """A page of the site made whole from the kit's data that is kept in docs/ too."""
    return page in (paths.SCHEMAS_PAGE, paths.REFUSALS_PAGE, paths.FIELDS_PAGE) or page.startswith(paths.FIELDS_FOLDER)


def reference_pages(data: SiteData | None = None) -> dict[str, str]:
    """The reference pages as docs/ keeps them, from ``data`` (the kit's, read afresh, by default)."""
    data = data if data is not None else load_site_data()
    return {page: kept_page(page, text, data) for page, text in pages(data).items() if is_reference_page(page)}


def kept_page(page: str, text: str, data: SiteData) -> str:
    """A reference page as docs/ keeps it: as the site makes it, its links to the pages the site makes from the
    kit's data leading to the files they are made from (the site's build leads them back)."""
    return repository_links.to_repository(text, page, data.games(), data.ruling_game)


def _stale(docs: Path, page: str, text: str) -> bool:
    path = docs / page
    return not path.is_file() or path.read_text(encoding="utf-8") != text


def stale_reference_pages(made: Mapping[str, str], docs: Path) -> list[str]:
    """The reference pages of ``made`` (pages by path, as the code renders them now) that ``docs`` does not hold
    as made, then the game pages of the field reference it holds for no game of ``made``."""
    kept = {page: text for page, text in made.items() if is_reference_page(page)}
    return [page for page, text in kept.items() if _stale(docs, page, text)] + [
        page for page in _kept_game_pages(docs) if page not in kept
    ]


def differences(docs: Path = DOCS, data: SiteData | None = None) -> list[str]:
    found = [page for page in PAGES if rendered(text := (docs / page).read_text(encoding="utf-8")) != text]
    return found + stale_reference_pages(reference_pages(data), docs)


def _kept_game_pages(docs: Path) -> list[str]:
    return [f"{paths.FIELDS_FOLDER}{p.name}" for p in sorted((docs / paths.FIELDS_FOLDER).glob("*.md"))]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--check"]:
        found = differences()
        print("\n".join(f"docs/{page}: differs from what the code renders: run python -m rulesite.docs_blocks" for page in found)
              or "the generated pages and tables of the docs are as the code renders them")
        return 1 if found else 0
    if args:
        print("usage: python -m rulesite.docs_blocks [--check]", file=sys.stderr)
        return 2
    for page in PAGES:
        path = DOCS / page
        path.write_text(rendered(path.read_text(encoding="utf-8")), encoding="utf-8")
    made = reference_pages()
    for old in _kept_game_pages(DOCS):
        if old not in made:
            (DOCS / old).unlink()
    for page, text in made.items():
        (DOCS / page).parent.mkdir(parents=True, exist_ok=True)
        (DOCS / page).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
