"""The refusal codes page shows the refusal precedence of spec/refusals.yaml: the order, its reason,
a game's own order, and each code's decision where it has one."""

from __future__ import annotations

import copy
import re
from typing import Any

from rulesite.refusals_page import refusals_page
from rulesite.sitedata import SiteData
from specreader.spec import load_spec_precedence
from specreader.yamlio import Document


def with_errors(site_data: SiteData, errors_data: dict[str, Any]) -> SiteData:
    spec = copy.copy(site_data.spec)
    spec.refusals_file = Document("spec/refusals.yaml", errors_data)
    return SiteData(spec, site_data.scenarios, site_data.glossary, site_data.schemas)


def numbered(page: str) -> list[str]:
    """The codes of the page's numbered lists, in order."""
    return re.findall(r"^\d+\. \[<code>([a-z_]+)</code>\]\(#\1\)$", page, re.M)


def test_the_page_lists_the_order_with_its_reason_before_the_codes(site_data: SiteData) -> None:
    page = refusals_page(site_data)
    order = load_spec_precedence("albastini")
    assert numbered(page) == order
    section = page.index('<a id="precedence"></a>')
    assert section < page.index("## invalid\\_action")
    assert "From the action itself to the position it is tried in" in page[section:]
    assert re.search(r"^Decision: Kept apart from \[<code>not_your_turn</code>\]", page, re.M)


def test_a_games_own_order_is_shown_under_it(site_data: SiteData) -> None:
    raw = copy.deepcopy(site_data.spec.refusals_file.data if site_data.spec.refusals_file else {})
    common = raw["precedence"]["order"]
    own = [*common[:2], *reversed(common[2:])]
    raw["precedence"]["games"] = {"altbaumer": {"order": own, "reason": "<script>x</script> a test order"}}
    page = refusals_page(with_errors(site_data, raw))
    assert numbered(page) == [*common, *own]
    assert page.index('<a id="precedence-altbaumer"></a>') > page.index('<a id="precedence"></a>')
    assert "&lt;script&gt;x&lt;/script&gt; a test order" in page and "<script>" not in page


def test_the_games_own_orders_come_in_the_order_of_the_games(site_data: SiteData) -> None:
    raw = copy.deepcopy(site_data.spec.refusals_file.data if site_data.spec.refusals_file else {})
    common = raw["precedence"]["order"]
    raw["precedence"]["games"] = {game: {"order": common, "reason": f"{game}'s own"} for game in ("bisca", "briscola")}
    page = refusals_page(with_errors(site_data, raw))
    assert site_data.games().index("briscola") < site_data.games().index("bisca")
    assert page.index('<a id="precedence-briscola"></a>') < page.index('<a id="precedence-bisca"></a>')


def test_without_a_precedence_the_page_has_no_such_section(site_data: SiteData) -> None:
    page = refusals_page(with_errors(site_data, {"refusals": [{"code": "must_trump", "meaning": "m"}]}))
    assert "precedence" not in page and "## must\\_trump" in page
