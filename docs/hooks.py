"""MkDocs hooks: hand the pages of the ``rulesite`` package to MkDocs at build time.

The generator knows nothing of MkDocs; this file is the only glue. The spec,
scenarios and schemas are read afresh on every build, so ``mkdocs serve``
shows edits to them (mkdocs.yml watches those folders).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

import rulesite
from conformance.suite.scenarios import Scenario
from rulesite import docs_blocks, repository_links
from rulesite.implementations import IMPLEMENTATIONS_PAGE, implementations_page
from rulesite.search_weights import search_settings
from specreader.problems import DataError

# The nav entry that stands for every worked-example page; replaced in on_config.
EXAMPLES_PLACEHOLDER = rulesite.EXAMPLES_INDEX
# In a nav entry, what stands for each game: the entry is replaced by one per game, in the spec's order, in on_config.
GAME_PLACEHOLDER = "{game}"

_data: rulesite.SiteData | None = None
_fragments: rulesite.Fragments | None = None  # the HTML fragments of the generated pages (on_files)


def _load(config: MkDocsConfig) -> rulesite.SiteData:
    root = Path(config.config_file_path).resolve().parent
    docs = Path(config.docs_dir)
    try:
        return rulesite.load_site_data(root, docs / "glossary.yaml", rulesite.DEALS)
    except DataError as err:
        raise PluginError("the rules site cannot be built from this data:\n" + str(err)) from None


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    global _data
    _data = _load(config)
    if config.nav:
        sections = {**rulesite.rules_nav(_data), **rulesite.fields_nav(_data), **rulesite.summary_nav(_data)}
        games = [(game, _data.game_title(game)) for game in _data.games()]
        config.nav = _expand_nav(config.nav, rulesite.example_nav(_data), sections, games)
    config.extra[VERSION_KEY] = site_version()
    return config


def _expand_nav(nav: list[Any], examples: list[Any], sections: dict[str, list[Any]], games: list[tuple[str, str]]) -> list[Any]:
    """Replace an entry naming a page by ``{game}`` by that page of each game (``games``: each with its title),
    the section whose value is the examples index by the full examples tree, each game's specification page by a
    section holding it and the game's rulesets, a game's print page by a section holding it and a sheet per table
    size, and the field reference's first page by a section holding it and each game's fields."""
    out: list[Any] = []
    for item in _each_game(nav, games):
        if isinstance(item, dict):
            ((title, value),) = item.items()
            if value == EXAMPLES_PLACEHOLDER:
                out.append({title: examples})
            elif isinstance(value, str) and value in sections:
                out.append({title: sections[value]})
            elif isinstance(value, list):
                out.append({title: _expand_nav(value, examples, sections, games)})
            else:
                out.append(item)
        else:
            out.append(item)
    return out


def _each_game(nav: list[Any], games: list[tuple[str, str]]) -> list[Any]:
    """The entries, each naming a page by ``{game}`` (``play/{game}.md``) replaced by one per game, under its title."""
    out: list[Any] = []
    for item in nav:
        if isinstance(item, str) and GAME_PLACEHOLDER in item:
            out += [{title: item.replace(GAME_PLACEHOLDER, game)} for game, title in games]
        else:
            out.append(item)
    return out


REPORT_PAGE = "reference/report.md"
# The contributor guide lives at the top of the repository, where contributors look first.
CONTRIBUTING_PAGE = "contributing.md"
# So does the changelog (CHANGELOG.md), with the version every page's footer shows: docs/overrides/partials/copyright.html
# reads config.extra[VERSION_KEY].
CHANGELOG_PAGE = "changelog.md"
VERSION_KEY = "trickspec"


def site_version() -> dict[str, str]:
    """The kit's version, whose one source is pyproject.toml (read through the installed package, as run logs and
    reports read it), and the spec version they pin: that version with a digest of spec/ and scenarios/."""
    from conformance.run.runlog import spec_version
    from specreader.kitdata import kit_version

    return {"version": kit_version(), "spec": spec_version()}


def conformance_report(chosen: Sequence[Scenario] | None = None) -> str:
    """The reference engine verified against every scenario at build time, as `verify` reports it: those given
    (the site's, read once for the build), else the kit's."""
    from conformance.engines.adapter import reference_adapter
    from conformance.run import reports
    from conformance.run.verify import verify
    from conformance.suite import scenarios

    log = verify(reference_adapter(), scenarios.kit_scenarios() if chosen is None else chosen)
    body = reports.render_md(reports.summary(log))
    title, _, rest = body.partition("\n")
    intro = (
        "Built with the site: the reference engine, in process, against every scenario of this "
        "version of the kit, as `trickspec verify --report-dir` writes `report.md`."
    )
    return f"{title}\n\n{intro}\n{rest}"


def on_files(files: Files, config: MkDocsConfig) -> Files:
    global _fragments
    data = _data or _load(config)
    try:
        with rulesite.fragments_kept() as _fragments:
            generated = rulesite.pages(data)
        generated[REPORT_PAGE] = conformance_report(data.scenarios)
        generated[IMPLEMENTATIONS_PAGE] = implementations_page(data, Path(config.docs_dir) / "implementations")
        generated[CONTRIBUTING_PAGE] = (Path(config.config_file_path).resolve().parent / "CONTRIBUTING.md").read_text(
            encoding="utf-8"
        )
        generated[CHANGELOG_PAGE] = (Path(config.config_file_path).resolve().parent / "CHANGELOG.md").read_text(encoding="utf-8")
        written = rulesite.hand_written_pages()  # the home page and the how-to-play pages, shortcodes and all
        if clash := sorted(written.keys() & generated.keys()):
            raise ValueError(f"rulesite/hand_written/ holds pages the site makes from the kit's data: {', '.join(clash)}")
        generated.update(written)
    except ValueError as err:
        raise PluginError(f"the rules site cannot be generated: {err}") from None
    # The reference pages are kept in docs/ too, so that they read whole in the repository: they must be as made.
    kept = {
        path: docs_blocks.kept_page(path, _fragments.expand(text), data)
        for path, text in generated.items()
        if docs_blocks.is_reference_page(path)
    }
    stale = docs_blocks.stale_reference_pages(kept, Path(config.docs_dir))
    if stale:
        raise PluginError(f"docs/{', docs/'.join(stale)}: not as the kit's data makes them: run python -m rulesite.docs_blocks")
    for path, content in generated.items():
        existing = files.get_file_from_path(path)
        if path in kept:
            continue
        if existing is not None:
            made = "from the kit's data or rulesite/hand_written"
            raise PluginError(f"docs/{path} exists but the site makes this page ({made}): remove it")
        files.append(File.generated(config, path, content=content))
    changelog = files.get_file_from_path(CHANGELOG_PAGE)
    if changelog is not None:  # for the footer's link
        config.extra[VERSION_KEY]["changelog"] = changelog.url
    return files


def on_page_content(html: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """The page's HTML with the fragments the generated Markdown held as markers (on_files)."""
    return _fragments.expand(html) if _fragments is not None else html


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    page.meta["search"] = search_settings(page.file.src_uri, page.meta.get("search"), _data.games() if _data else ())
    markdown = repository_links.to_site(markdown, page.file.src_uri)  # the links docs/ holds to the kit's data files
    try:
        return rulesite.expand_shortcodes(markdown, _data, page.file.src_uri)
    except ValueError as err:
        raise PluginError(f"{page.file.src_uri}: {err}") from None
