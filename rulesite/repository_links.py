"""Links of the docs kept in the repository, which lead to files there, and the same links on the site.

The pages an engine author reads where the kit is (the repository, an installed kit: the protocol's page,
docs/guide, docs/reference) link what the site makes from the kit's data to the file it is made from: a
game's rules page to its clauses, a ruling to its game's rulings, the worked examples to the scenarios, a
schema's row of the schemas page to the schema. ``to_repository`` writes a page's links so; the site's
build leads each back to its page (``to_site``), where the docs tool checks it and its anchor. A link
to ``spec/refusals.yaml`` leads to the refusal codes' page on the site.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Collection, Mapping

from rulesite import paths

DOCS = "docs"  # the docs folder, from the repository's root
SCENARIOS = "scenarios/"
_LINK = re.compile(r"\]\((?P<target>[^)\s#]+)(?P<anchor>#[^)\s]*)?\)")
_CLAUSES = re.compile(r"spec/(?P<game>[a-z0-9-]+)/clauses\.yaml")
_RULINGS = re.compile(r"spec/(?P<game>[a-z0-9-]+)/rulings\.yaml")
_RULES_PAGE = re.compile(re.escape(paths.RULES_FOLDER) + r"(?P<game>[a-z0-9-]+)\.md")
_SCHEMA = re.compile(r"schemas/(?P<name>[a-z0-9-]+)\.schema\.json")
_SCHEMA_ROW = re.compile(r"#" + re.escape(paths.schema_anchor("")) + r"(?P<name>[a-z0-9-]+)")
REFUSALS = "spec/refusals.yaml"


def to_repository(markdown: str, page: str, games: Collection[str], ruling_game: Mapping[str, str]) -> str:
    """``page``'s links to the site's pages of a game's rules (``games``: the games' ids), of the rulings
    (``ruling_game``: each ruling's game) and of the worked examples, as links to the files they are made from."""

    def repository_file(site_page: str, anchor: str) -> tuple[str, str] | None:
        found = _RULES_PAGE.fullmatch(site_page)
        if found and found["game"] in games:
            return f"spec/{found['game']}/clauses.yaml", anchor
        if site_page == paths.RULINGS_PAGE and anchor[1:] in ruling_game:
            return f"spec/{ruling_game[anchor[1:]]}/rulings.yaml", anchor
        if site_page == paths.SCHEMAS_PAGE and (row := _SCHEMA_ROW.fullmatch(anchor)):
            return f"schemas/{row['name']}.schema.json", ""
        return (SCENARIOS, anchor) if site_page == paths.EXAMPLES_INDEX else None

    def relink(target: str, anchor: str) -> str | None:
        found = repository_file(posixpath.normpath(posixpath.join(posixpath.dirname(page), target)), anchor)
        return None if found is None else _relative(found[0], f"{DOCS}/{page}") + found[1]

    return _rewrite(markdown, relink)


def to_site(markdown: str, page: str) -> str:
    """``page``'s links to the files the site's pages are made from, as links to those pages."""

    def site_page(repository_file: str, anchor: str) -> tuple[str, str] | None:
        if found := _CLAUSES.fullmatch(repository_file):
            return paths.rules_page_path(found["game"]), anchor
        if _RULINGS.fullmatch(repository_file):
            return paths.RULINGS_PAGE, anchor
        if found := _SCHEMA.fullmatch(repository_file):
            return paths.SCHEMAS_PAGE, "#" + paths.schema_anchor(f"{found['name']}.schema.json")
        if repository_file == REFUSALS:
            return paths.REFUSALS_PAGE, anchor
        return (paths.EXAMPLES_INDEX, anchor) if repository_file == SCENARIOS.rstrip("/") else None

    def relink(target: str, anchor: str) -> str | None:
        found = site_page(posixpath.normpath(posixpath.join(DOCS, posixpath.dirname(page), target)), anchor)
        return None if found is None else _relative(found[0], page) + found[1]

    return _rewrite(markdown, relink)


def _relative(target: str, from_file: str) -> str:
    relative = posixpath.relpath(target, posixpath.dirname(from_file) or ".")
    return relative + "/" if target.endswith("/") else relative


def _rewrite(markdown: str, relink: Callable[[str, str], str | None]) -> str:
    def replaced(link: re.Match[str]) -> str:
        target, anchor = link["target"], link["anchor"] or ""
        if "://" in target or target.startswith(("/", "mailto:")):
            return link.group()
        changed = relink(target, anchor)
        return link.group() if changed is None else f"]({changed})"

    return _LINK.sub(replaced, markdown)
