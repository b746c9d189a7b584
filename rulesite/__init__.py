"""The rules site's pages, generated from spec/, scenarios/ and schemas/.

Pure functions from the kit's data to Markdown strings (with inline HTML for cards and a few tables), rendered
through the Jinja2 templates of ``rulesite/templates`` with autoescape on. Nothing here imports a docs tool:
``docs/hooks.py`` hands the pages to MkDocs, and any other tool could take the same strings.
"""

from __future__ import annotations

from rulesite.example_pages import example_nav
from rulesite.fields_reference import fields_nav
from rulesite.hand_written import DEALS, hand_written_pages
from rulesite.paths import EXAMPLES_INDEX
from rulesite.shortcodes import expand_shortcodes
from rulesite.site import pages
from rulesite.sitedata import SiteData, load_site_data
from rulesite.summary_pages import summary_nav
from rulesite.templating import Fragments, fragments_kept
from rulesite.variant_pages import rules_nav

__all__ = [
    "DEALS",
    "EXAMPLES_INDEX",
    "Fragments",
    "SiteData",
    "example_nav",
    "expand_shortcodes",
    "fields_nav",
    "fragments_kept",
    "hand_written_pages",
    "load_site_data",
    "pages",
    "rules_nav",
    "summary_nav",
]
