"""The one Jinja2 environment every page and fragment of the site is rendered with.

Autoescape is on for every template: a page is Markdown with inline HTML, so each value a template prints is
HTML-escaped unless it is Markup, that is text the ``md`` filter has escaped for Markdown, or a fragment the
kit built from escaped parts. Undefined names fail the build rather than print nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, cast

import jinja2
from markupsafe import Markup

from rulesite import cards, escaping


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("rulesite", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(md=escaping.md, anchor=escaping.anchor, code=escaping.code)
    # "list" where Jinja's own "sequence" would also take strings and mappings.
    env.tests.update(list=lambda value: isinstance(value, list), card=cards.is_card)
    env.globals.update(face=cards.face, suit=cards.suit)
    return env


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


def macro(template: str, name: str) -> Callable[..., Markup]:
    """A macro of a template, callable from Python; it returns Markup, so its output nests in other templates."""
    return cast(Callable[..., Markup], getattr(environment().get_template(template).module, name))
