"""The one Jinja2 environment every page and fragment of the site is rendered with.

Autoescape is on for every template: a page is Markdown with inline HTML, so each value a template prints is
HTML-escaped unless it is Markup, that is text the ``md`` filter has escaped for Markdown, or a fragment the
kit built from escaped parts. Undefined names fail the build rather than print nothing.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
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
    env.filters.update(
        md=escaping.md, anchor=escaping.anchor, html_anchor=escaping.html_anchor, code=escaping.code, fragment=fragment,
        in_symbols=cards.in_symbols,
    )
    # "list" where Jinja's own "sequence" would also take strings and mappings.
    env.tests.update(list=lambda value: isinstance(value, list), card=cards.is_card)
    env.globals.update(face=cards.face, suit=cards.suit)
    return env


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


def macro(template: str, name: str) -> Callable[..., Markup]:
    """A macro of a template, callable from Python; it returns Markup, so its output nests in other templates."""
    return cast(Callable[..., Markup], getattr(environment().get_template(template).module, name))


class Fragments:
    """HTML fragments (each card, each deal drawn) kept out of the Markdown while pages are rendered: a page
    holds a marker in the place of each, until its HTML is made (``expand``). Python-Markdown reads every tag
    of inline HTML, and the example pages are mostly cards: their Markdown is 5.9 MB with the cards, 1.35 MB
    with markers, and MkDocs builds the site in about 0.7 of the time."""

    def __init__(self) -> None:
        # A marker is private-use characters around this build's own random key: no page's text forges one.
        key = secrets.token_hex(8)
        self._open, self._close = f"\ue000{key}-", "\ue001"
        self._marker = re.compile(re.escape(self._open) + r"(\d+)" + re.escape(self._close))
        self._html: list[str] = []
        self._number: dict[str, int] = {}  # the same card is one fragment on every page

    def keep(self, html: str) -> Markup:
        html = self.expand(html)  # a fragment holding others (a deal's cards) is kept whole
        number = self._number.setdefault(html, len(self._html))
        if number == len(self._html):
            self._html.append(html)
        return Markup(f"{self._open}{number}{self._close}")

    def expand(self, text: str) -> str:
        """``text`` with each of its markers replaced by its fragment."""
        return self._marker.sub(lambda m: self._html[int(m.group(1))], text)


_kept: ContextVar[Fragments | None] = ContextVar("kept_fragments", default=None)


@contextmanager
def fragments_kept() -> Iterator[Fragments]:
    """Render with HTML fragments kept out of the pages (``Fragments``); without it they are written in place."""
    kept = Fragments()
    token = _kept.set(kept)
    try:
        yield kept
    finally:
        _kept.reset(token)


def fragment(html: Markup) -> Markup:
    """A template's HTML fragment (``{% filter fragment %}``): a marker while fragments are kept, else as it is."""
    kept = _kept.get()
    return html if kept is None else kept.keep(str(html))
