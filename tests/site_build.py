"""The rules site as ``mkdocs build --strict`` makes it, for the tests that read the built pages, and its hooks."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    import rulesite

ROOT = Path(__file__).resolve().parents[1]


def built(out: Path) -> Path:
    """The site built into ``out``, or the build already there; a failed build fails the test that asked, with
    mkdocs' output."""
    done_marker = out.with_name(f"{out.name}.built")
    if done_marker.exists():
        return out
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}", pytrace=False)
    done_marker.touch()
    return out


def hooks() -> Any:
    """docs/hooks.py, loaded as MkDocs loads it."""
    pytest.importorskip("mkdocs")
    spec = importlib.util.spec_from_file_location("site_hooks", ROOT / "docs" / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def nav(data: rulesite.SiteData) -> list[Any]:
    """mkdocs.yml's nav as docs/hooks.py makes it of the kit's data (the worked examples left out)."""
    import yaml

    import rulesite

    written = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
    sections = {**rulesite.rules_nav(data), **rulesite.fields_nav(data), **rulesite.summary_nav(data)}
    expanded: list[Any] = hooks()._expand_nav(written, [], sections, [(game, data.game_title(game)) for game in data.games()])
    return expanded
