"""The docs an engine author reads on the repository page read whole: the tables made from the code are written
into the pages (rulesite/docs_blocks.py), and match what the code renders."""

from __future__ import annotations

import posixpath
import re
import shutil
from pathlib import Path

import pytest

import rulesite
from rulesite import docs_blocks

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_the_generated_tables_are_as_the_code_renders_them() -> None:
    assert docs_blocks.differences() == [], "run python -m rulesite.docs_blocks"


@pytest.mark.parametrize("page", ["protocol.md", "guide/running.md", "guide/traces.md", "scenarios.md"])
def test_no_page_an_engine_author_reads_holds_a_placeholder(page: str) -> None:
    assert not re.search(r"\[\[[a-z-]+:[^\]]*\]\]", (DOCS / page).read_text(encoding="utf-8"))


@pytest.fixture
def copied(tmp_path: Path) -> Path:
    """docs/ as the repository holds it, copied."""
    shutil.copytree(DOCS, tmp_path / "docs", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path / "docs"


def test_a_table_out_of_date_is_a_difference(copied: Path, site_data: rulesite.SiteData) -> None:
    running = copied / "guide" / "running.md"
    running.write_text(running.read_text(encoding="utf-8").replace("<code>--engine ENGINE</code>", "<code>--old</code>", 1),
                       encoding="utf-8")
    assert docs_blocks.differences(copied, site_data) == ["guide/running.md"]


def test_a_reference_page_out_of_date_missing_or_left_over_is_a_difference(copied: Path, site_data: rulesite.SiteData) -> None:
    refusals = copied / "reference" / "refusals.md"
    refusals.write_text(refusals.read_text(encoding="utf-8").replace("not_your_turn", "not_my_turn", 1), encoding="utf-8")
    (copied / "reference" / "fields" / "briscola.md").unlink()
    (copied / "reference" / "fields" / "tarot.md").write_text("# Tarot fields\n", encoding="utf-8")
    assert docs_blocks.differences(copied, site_data) == [
        "reference/refusals.md", "reference/fields/briscola.md", "reference/fields/tarot.md"
    ]


@pytest.mark.parametrize("page", ["protocol.md", "guide/adapter.md", "guide/running.md", "guide/traces.md", "scenarios.md",
                                  "action-ids.md"])
def test_every_reference_page_an_author_s_page_links_to_is_in_the_repository(page: str) -> None:
    text = (DOCS / page).read_text(encoding="utf-8")
    targets = {m.group(1) for m in re.finditer(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)", text)}
    folder = posixpath.dirname(page)
    into_reference = [t for t in targets if docs_blocks.is_reference_page(posixpath.normpath(posixpath.join(folder, t)))]
    assert into_reference, f"{page} links to no reference page"
    missing = [t for t in into_reference if not (DOCS / page).parent.joinpath(t).resolve().is_file()]
    assert not missing, missing
