"""Where the kit's data lives: a checkout's top level, or inside the installed wheel."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_DATA_DIRS = ("spec", "schemas", "scenarios")


@cache
def root() -> Path:
    """The folder holding spec/, schemas/ and scenarios/."""
    for candidate in (_PACKAGE / "_data", _PACKAGE.parent):
        if all((candidate / name).is_dir() for name in _DATA_DIRS):
            return candidate
    raise FileNotFoundError(f"kit data ({', '.join(_DATA_DIRS)}) not found beside {_PACKAGE}")


def spec_dir() -> Path:
    return root() / "spec"


def schemas_dir() -> Path:
    return root() / "schemas"


def scenarios_dir() -> Path:
    return root() / "scenarios"


def docs_dir() -> Path:
    """The engine author's pages (the protocol, the guides, the scenario format): in a checkout, the whole site's source."""
    return root() / "docs"


def examples_dir() -> Path:
    """The example engines: in the wheel, those written for the docs (a whole-game engine, a template, JavaScript)."""
    return root() / "examples"


def kit_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("trickspec")
    except PackageNotFoundError:
        return "0+checkout"


def kit_homepage() -> str:
    """The project's Homepage URL as the installed package states it ("" from a bare checkout)."""
    from importlib.metadata import PackageNotFoundError, metadata

    try:
        urls = metadata("trickspec").get_all("Project-URL") or []
    except PackageNotFoundError:
        return ""
    return next((url.strip() for label, _, url in (u.partition(",") for u in urls) if label.strip() == "Homepage"), "")
