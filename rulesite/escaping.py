"""Text from the kit's data made safe for a page that is Markdown with inline HTML.

The templates escape every value for HTML (autoescape); where a value lands in Markdown, the ``md`` filter
also disarms Markdown's own markup. Both return :class:`~markupsafe.Markup`, which autoescape then leaves alone.
"""

from __future__ import annotations

import html
import re

from markupsafe import Markup

# Characters Python-Markdown treats as markup and accepts a backslash before
# (the core set plus "|" for tables); no extension that gives other characters a meaning is enabled.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|])")
_RFC = re.compile(r"\b(MUST NOT|MUST|SHOULD NOT|SHOULD|MAY|SHALL NOT|SHALL|REQUIRED|OPTIONAL)\b")
_ANCHOR = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/:-]*")


def md(text: object) -> Markup:
    """Text for an inline Markdown context: shown exactly as written, on one line.

    Runs of whitespace (newlines included) become one space so the text cannot start a new block.
    """
    return md_chunk(" ".join(str(text).split()))


def md_chunk(text: str) -> Markup:
    """Every Markdown punctuation character backslash-escaped, then ``&``, ``<`` and ``>`` as entities (so no
    tag or entity of the source survives; the entities hold no escapable character). Whitespace is kept."""
    return Markup(html.escape(_MD_SPECIAL.sub(r"\\\1", text), quote=False))


def rfc_keywords(escaped: Markup) -> Markup:
    """The requirement keywords (MUST, SHOULD...) of already escaped text in bold."""
    # On a Markup subject re.sub would join the pieces through Markup, escaping the tags it inserts.
    return Markup(_RFC.sub(r'<strong class="rfc">\1</strong>', str(escaped)))


# What the specification says an engine does with a move the rules forbid, and what a player is told of it.
_REFUSED = re.compile(r"\b(?:MUST be|is) refused( too)?\b")


def said_plainly(text: object) -> str:
    """A clause's text with its requirement keywords in lower case ("must", "may"), for a page players read: the
    specification's capitals mark the keywords of RFC 2119 for engine authors; and a move an engine "MUST" refuse
    is one that "is not allowed"."""
    allowed = _REFUSED.sub(lambda m: "is not allowed" + (" either" if m[1] else ""), str(text))
    return _RFC.sub(lambda m: m[1].lower(), allowed)


def code(text: object) -> Markup:
    """Inline code for an id or a key, as HTML so no backtick in the text can break out."""
    return Markup("<code>{}</code>").format(text)


def anchor(name: str) -> Markup:
    """The attr_list block that gives a heading its id; an id that could break out of it is refused."""
    if not _ANCHOR.fullmatch(name):
        raise ValueError(f"unusable anchor id {name!r}")
    return Markup("{{ #{} }}").format(name)


def html_anchor(name: str) -> Markup:
    """An anchor of its own, for a heading of a page kept in the repository, where an attr_list block would
    show as text; put on the line before the heading."""
    if not _ANCHOR.fullmatch(name):
        raise ValueError(f"unusable anchor id {name!r}")
    return Markup('<a id="{}"></a>').format(name)
