"""The docs an engine author reads on the repository page read whole: the tables made from the code are written
into the pages (rulesite/docs_blocks.py), and match what the code renders."""

from __future__ import annotations

import posixpath
import re
import shutil
from pathlib import Path

import pytest

import rulesite
from rulesite import docs_blocks, repository_links

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_the_generated_tables_are_as_the_code_renders_them() -> None:
    assert docs_blocks.differences() == [], "run python -m rulesite.docs_blocks"


# Every page docs/ holds: each reads whole where the repository shows it (the site's hand-written pages, which
# hold shortcodes only the site renders, are kept in rulesite/hand_written).
DOCS_PAGES = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))


@pytest.mark.parametrize("page", DOCS_PAGES)
def test_no_page_of_docs_holds_a_placeholder(page: str) -> None:
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


_LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)\s]*)?\)")


@pytest.mark.parametrize("page", DOCS_PAGES)
def test_every_link_of_a_page_of_docs_leads_to_a_file_in_the_repository(page: str) -> None:
    """Where the site has a page made from the kit's data, the page links the file it is made from: the link
    works on the repository page and where the kit is installed (tests/test_wheel.py), and the site's build
    leads it back to its page."""
    text = (DOCS / page).read_text(encoding="utf-8")
    targets = {t for t in _LINK.findall(text) if "://" not in t and not t.startswith("mailto:")}
    missing = sorted(t for t in targets if not (DOCS / page).parent.joinpath(t).resolve().exists())
    assert not missing, f"docs/{page} links to what the repository does not hold: {missing}"


def test_the_site_leads_a_kept_link_back_to_the_page_it_stood_for(site_data: rulesite.SiteData) -> None:
    made = rulesite.pages(site_data)
    kept = docs_blocks.reference_pages(site_data)
    assert kept and kept.keys() <= made.keys()
    for page, text in kept.items():
        assert "../rules/" not in text and "rulings.md" not in text, page  # every such link leads to a file
        assert repository_links.to_site(text, page) == made[page], page


@pytest.mark.parametrize(
    ("page", "site", "repository"),
    [
        ("guide/adapter.md", "[rules](../rules/albastini.md#albastini.play.in-turn)",
         "[rules](../../spec/albastini/clauses.yaml#albastini.play.in-turn)"),
        ("reference/fields/bisca.md", "[R2](../../rulings.md#R2)", "[R2](../../../spec/albastini/rulings.yaml#R2)"),
        ("protocol.md", "[examples](examples/index.md)", "[examples](../scenarios/)"),
        ("reference/fields.md", "[the schema](schemas.md#schema-action)", "[the schema](../../schemas/action.schema.json)"),
    ],
)  # fmt: skip
def test_a_link_to_a_page_made_from_the_kit_s_data_leads_to_its_file_and_back(
    site_data: rulesite.SiteData, page: str, site: str, repository: str
) -> None:
    assert repository_links.to_repository(site, page, site_data.games(), site_data.ruling_game) == repository
    assert repository_links.to_site(repository, page) == site


def test_the_refusal_codes_file_leads_to_its_page_on_the_site() -> None:
    assert repository_links.to_site("[codes](../spec/refusals.yaml#x)", "protocol.md") == "[codes](reference/refusals.md#x)"


@pytest.mark.parametrize(
    "link",
    ["[a variant](../rules/albastini-2p.md)", "[a ruling](../rulings.md#R99)", "[off](https://example.org/rules/x.md)",
     "[same page](#wrong_phase)", "[the licence](../../LICENSE)"],
)  # fmt: skip
def test_other_links_are_left_as_they_are(site_data: rulesite.SiteData, link: str) -> None:
    assert repository_links.to_repository(link, "reference/refusals.md", site_data.games(), site_data.ruling_game) == link
    assert repository_links.to_site(link, "reference/refusals.md") == link
