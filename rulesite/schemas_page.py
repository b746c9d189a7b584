"""The schemas page: every JSON Schema of schemas/, its title and what it describes."""

from __future__ import annotations

from rulesite.paths import schema_anchor
from rulesite.sitedata import SiteData
from rulesite.templating import render


def schemas_page(data: SiteData) -> str:
    return render("schemas.md.j2", schemas=data.schemas, schema_anchor=schema_anchor)
