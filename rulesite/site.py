"""The whole generated site: every page, by its path under the docs folder."""

from __future__ import annotations

from rulesite import paths
from rulesite.example_pages import example_page, examples_index, page_labels
from rulesite.fields_reference import PROTOCOL, SNAPSHOT, fields_pages
from rulesite.glossary_page import glossary_page
from rulesite.refusals_page import refusals_page
from rulesite.rules_pages import rules_page
from rulesite.rulings_page import rulings_page
from rulesite.schemas_page import schemas_page
from rulesite.sitedata import SiteData
from rulesite.sources_page import sources_page
from rulesite.summary_pages import summary_pages
from rulesite.variant_pages import variant_page
from rulesite.variants_page import variants_page


def pages(data: SiteData) -> dict[str, str]:
    out = {paths.rules_page_path(game): rules_page(game, data) for game in data.games()}
    for game in data.games():
        for vid in data.playable_variants(game):
            out[paths.variant_rules_path(vid)] = variant_page(vid, data)
        out.update(summary_pages(game, data))
    out[paths.VARIANTS_PAGE] = variants_page(data)
    out[paths.RULINGS_PAGE] = rulings_page(data)
    out[paths.GLOSSARY_PAGE] = glossary_page(data)
    out[paths.SOURCES_PAGE] = sources_page(data)
    out[paths.REFUSALS_PAGE] = refusals_page(data)
    out[paths.SCHEMAS_PAGE] = schemas_page(data)
    if {PROTOCOL, SNAPSHOT} <= {name for name, _ in data.schemas}:  # the reference is made from them
        out.update(fields_pages(data))
    out[paths.EXAMPLES_INDEX] = examples_index(data)
    labels = page_labels(data)
    for path, group in data.example_files().items():
        out[path] = example_page(path, group, data, labels)
    return out
