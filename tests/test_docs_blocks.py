"""The docs an engine author reads on the repository page read whole: the tables made from the code are written
into the pages (rulesite/docs_blocks.py), and match what the code renders."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesite import docs_blocks

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_the_generated_tables_are_as_the_code_renders_them() -> None:
    assert docs_blocks.differences() == [], "run python -m rulesite.docs_blocks"


@pytest.mark.parametrize("page", ["protocol.md", "guide/running.md", "guide/traces.md", "scenarios.md"])
def test_no_page_an_engine_author_reads_holds_a_placeholder(page: str) -> None:
    assert not re.search(r"\[\[[a-z-]+:[^\]]*\]\]", (DOCS / page).read_text(encoding="utf-8"))


def test_a_table_out_of_date_is_a_difference(tmp_path: Path) -> None:
    for page in docs_blocks.PAGES:
        (tmp_path / page).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / page).write_text((DOCS / page).read_text(encoding="utf-8"), encoding="utf-8")
    running = tmp_path / "guide" / "running.md"
    running.write_text(running.read_text(encoding="utf-8").replace("<code>--engine ENGINE</code>", "<code>--old</code>", 1),
                       encoding="utf-8")
    assert docs_blocks.differences(tmp_path) == ["guide/running.md"]
