"""The tables of hand-written docs pages that are made from the code, written into the pages themselves, so that
each page reads whole where it is read (the repository, an editor), not only on the built site.

    python -m rulesite.docs_blocks [--check]

A block is ``<!-- generated: KIND ARGS -->``, then what the shortcode ``[[KIND: ARGS]]`` renders, then
``<!-- end generated -->``; a shortcode alone on a line of these pages becomes such a block. ``--check`` lists the
blocks that differ from what the code renders now, and exits 1.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from rulesite.shortcodes import expand_shortcodes

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


def differences(docs: Path = DOCS) -> list[str]:
    return [page for page in PAGES if rendered(text := (docs / page).read_text(encoding="utf-8")) != text]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--check"]:
        found = differences()
        print("\n".join(f"docs/{page}: its generated tables differ: run python -m rulesite.docs_blocks" for page in found)
              or "the generated tables of the docs are as the code renders them")
        return 1 if found else 0
    if args:
        print("usage: python -m rulesite.docs_blocks [--check]", file=sys.stderr)
        return 2
    for page in PAGES:
        path = DOCS / page
        path.write_text(rendered(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
