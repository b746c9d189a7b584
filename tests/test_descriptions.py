"""The kit's one-line descriptions name every game it checks, so that an author of any of them learns from the
first line they read (the package index, the site's metadata, the README) that the kit is for them."""

from __future__ import annotations

import tomllib
from pathlib import Path

import yaml

from specreader.spec import kit_spec

ROOT = Path(__file__).resolve().parent.parent


def _game_names() -> dict[str, str]:
    """Each game's title, by its id, as its clauses file gives it."""
    return {str(d.data["game"]): str(d.data["title"]) for d in kit_spec().clause_files if isinstance(d.data, dict)}


def _descriptions() -> dict[str, str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    paragraphs = [p for p in readme.split("\n\n") if p.strip() and not p.startswith("#")]
    mkdocs = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)  # its !!python tags
    return {
        "pyproject.toml": tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["description"],
        "mkdocs.yml site_description": str(mkdocs["site_description"]),
        "README.md, first paragraph": paragraphs[0],
    }


def test_each_description_names_every_game_the_kit_checks() -> None:
    names = _game_names()
    assert len(names) == len(kit_spec().games()) >= 4
    for where, text in _descriptions().items():
        missing = [title for title in names.values() if title not in text]
        assert not missing, f"{where} does not name {missing}: {text!r}"
