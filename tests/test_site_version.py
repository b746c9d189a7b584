"""The version on every page of the rules site is the package's, and the changelog's newest entry names it.

The version has one source, pyproject.toml: the installed package's metadata is made from it, run logs and
reports read that metadata, and so does docs/hooks.py for the footer of every page
(docs/overrides/partials/copyright.html), beside the spec version a run log pins.
"""

from __future__ import annotations

import re
import tomllib
from html.parser import HTMLParser
from importlib.metadata import version
from pathlib import Path

import pytest

from conformance.run.runlog import spec_version

ROOT = Path(__file__).resolve().parents[1]
CHANGELOG = ROOT / "CHANGELOG.md"
# Keep a Changelog: "## [1.2.0] - 2026-12-01", newest first.
_ENTRY = re.compile(r"^## \[([^\]]+)\] - (\d{4}-\d{2}-\d{2})$", re.MULTILINE)
_RELEASE = re.compile(r"\d+\.\d+\.\d+")
# Where a page's footer version line can begin: the footer is parsed from there, not from the top of the page,
# whose navigation makes most of it (what comes before opens no div.site-version, so it changes nothing found).
_FOOTER_START = re.compile(r"<div\b[^>]*\bsite-version\b", re.IGNORECASE)


def pyproject_version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"])


def changelog_entries() -> list[tuple[str, str]]:
    return _ENTRY.findall(CHANGELOG.read_text(encoding="utf-8"))


def test_the_installed_package_has_the_version_of_pyproject() -> None:
    assert version("trickspec") == pyproject_version(), "pyproject.toml changed since the install: pip install -e ."


def test_the_changelogs_newest_entry_names_the_version() -> None:
    entries = changelog_entries()
    assert entries, "CHANGELOG.md has no '## [version] - date' entry"
    assert entries[0][0] == pyproject_version()


def test_the_changelog_lists_each_version_once_newest_first() -> None:
    versions = [v for v, _ in changelog_entries()]
    assert all(_RELEASE.fullmatch(v) for v in versions), versions
    numbers = [tuple(int(n) for n in v.split(".")) for v in versions]
    assert numbers == sorted(set(numbers), reverse=True), versions
    dates = [d for _, d in changelog_entries()]
    assert dates == sorted(dates, reverse=True), dates


class _Footer(HTMLParser):
    """The footer's version line: the kit's version, the spec version and the link to the changelog."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, str] = {}
        self._in: str | None = None
        self._depth = 0  # inside div.site-version

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "div" and "site-version" in classes:
            self._depth = 1
        elif self._depth:
            if tag == "div":
                self._depth += 1
            if tag == "span" and classes:
                self._in = classes[0]
            if tag == "a":
                self.found["changelog"] = dict(attrs).get("href") or ""

    def handle_endtag(self, tag: str) -> None:
        self._in = None
        if self._depth and tag == "div":
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._in:
            self.found[self._in] = self.found.get(self._in, "") + data.strip()


@pytest.fixture(scope="module")
def site(built_site: Path) -> Path:
    """The site as ``mkdocs build --strict`` makes it (one a run, or kept from the last: tests/site_build.py)."""
    return built_site


def test_every_page_shows_the_packages_version_and_links_the_changelog(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert {"index.html", "protocol.html", "changelog.html"} <= {p.relative_to(site).as_posix() for p in pages}
    expected = {"site-version__kit": pyproject_version(), "site-version__spec": spec_version()}
    assert expected["site-version__spec"].startswith(expected["site-version__kit"] + "+")
    wrong = []
    for page in pages:
        html = page.read_text(encoding="utf-8")
        start = _FOOTER_START.search(html)
        footer = _Footer()
        footer.feed(html[start.start() :] if start else "")
        shown = {k: footer.found.get(k) for k in expected}
        href = footer.found.get("changelog", "")
        # The 404 page, served at any path, links from the site's root.
        link = (site / href.lstrip("/") if href.startswith("/") else page.parent / href).resolve()
        if shown != expected or link != (site / "changelog.html").resolve():
            wrong.append(f"{page.relative_to(site)}: {footer.found}")
    assert not wrong, "\n".join(wrong[:10])


def test_the_changelog_page_is_the_changelog(site: Path) -> None:
    html = (site / "changelog.html").read_text(encoding="utf-8")
    shown = re.findall(r"<h2[^>]*>(.*?)<", html)  # each heading's text, up to its permalink
    written = re.findall(r"^## (.+)$", CHANGELOG.read_text(encoding="utf-8"), re.MULTILINE)
    assert shown == written  # an [Unreleased] part may come first, as Keep a Changelog has it
    assert f"[{pyproject_version()}] - {changelog_entries()[0][1]}" in shown
