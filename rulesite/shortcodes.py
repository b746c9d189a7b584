"""Shortcodes for the hand-written pages: cards drawn, a variant's card values, the command-line reference.

``[[cards: AH 3S]]`` draws cards inline, ``[[hand: ...]]`` a row of big cards, ``[[show: Anna:AH Boris:3S]]``
big cards with captions (``_`` for a space), ``[[values: VARIANT]]`` the variant's ranks and values.
``[[cli: verify]]`` lists a ``trickspec`` command's options (``[[cli:]]`` the commands) and
``[[pytest-options:]]`` the pytest plugin's, ``[[limits:]]`` the data limits, all read from the code so the
guide cannot drift from it. A bad card code or an unknown variant is an error, so a typo
fails the build. ``[[ruling: R6]]`` marks, where players read, what follows the project's ruling, and
``[[rule: albastini.deal.first-dealer]]`` says a clause's text as the ruleset pages say it to players.
A shortcode in inline code or a fenced code block is left as written, so a page can show one as an example.
"""

from __future__ import annotations

import re

from rulesite import cli_reference, how_to_play, paths, ruling_marks, templating, variant_pages
from rulesite.cards import is_card
from rulesite.links import PageLinks
from rulesite.sitedata import SiteData
from specreader import limits
from specreader.jsontypes import Json

_SHORTCODE = re.compile(
    r"\[\[(cards|hand|show|values|cli|pytest-options|limits|walkthrough|table|rulesets|ruling|rule):\s*([^\]]*)\]\]"
)

# Where Markdown reads code, not text: a fenced block (``` or ~~~, at any indent, as in a list or an admonition)
# runs to a closing fence of the same character at least as long, or to the end; a code span is a run of
# backticks, not escaped, up to the next run of the same length, within one paragraph.
_FENCE_OPEN = re.compile(r"[ \t]*(?P<fence>`{3,}(?!.*`)|~{3,})")
_CODE_SPAN = re.compile(r"(?<![\\`])(?P<ticks>`+)(?!`)(?:(?!\n[ \t]*\n).)+?(?<!`)(?P=ticks)(?!`)", re.S)


def _outside_code(markdown: str) -> list[tuple[str, bool]]:
    """``markdown`` in pieces, in order, each with whether it is text (not code) Markdown would render."""
    parts: list[tuple[str, bool]] = []
    text: list[str] = []
    fence = ""
    for line in markdown.splitlines(keepends=True):
        if fence:
            parts[-1] = (parts[-1][0] + line, False)
            closing = line.strip()
            if closing.startswith(fence) and closing == fence[0] * len(closing):
                fence = ""
        elif opened := _FENCE_OPEN.match(line):
            parts.append(("".join(text), True))
            text = []
            parts.append((line, False))
            fence = opened["fence"]
        else:
            text.append(line)
    parts.append(("".join(text), True))
    pieces: list[tuple[str, bool]] = []
    for part, is_text in parts:
        if not is_text:
            pieces.append((part, False))
            continue
        start = 0
        for span in _CODE_SPAN.finditer(part):
            pieces += [(part[start : span.start()], True), (span.group(), False)]
            start = span.end()
        pieces.append((part[start:], True))
    return pieces


def values_table(variant: Json) -> str:
    ranking = variant.get("ranking", {})
    deck = variant.get("deck", {})
    order = str(ranking.get("plain_order", deck.get("ranks", ""))).split()
    values = variant.get("values", {}) if isinstance(variant.get("values"), dict) else {}
    per_suit = sum(int(v) for v in values.values() if isinstance(v, int))
    total = per_suit * len(str(deck.get("suits", "")).split())
    return templating.render("values_table.html.j2", order=order, values=values, total=total)


def ruling_note(ruling: Json, links: PageLinks) -> str:
    """The ruling's line as a paragraph of its own, marked for the stylesheet."""
    return f"{ruling_marks.ruling_words(ruling, links)}\n{{: .ruling-note }}\n"


def expand_shortcodes(markdown: str, data: SiteData | None = None, page: str = "index.md") -> str:
    """``page`` is the page's path under the docs folder, for the links the pieces carry."""

    def replace(m: re.Match[str]) -> str:
        kind, arg = m.group(1), m.group(2).split()
        if kind == "ruling":
            if data is None or len(arg) != 1 or arg[0] not in data.rulings:
                raise ValueError(f"[[ruling: ...]]: expected a ruling id, found {' '.join(arg)!r}")
            return ruling_note(data.rulings[arg[0]], PageLinks(page, data))
        if kind == "rule":
            clause = data.clauses.get(arg[0]) if data is not None and len(arg) == 1 else None
            if data is None or clause is None or not clause.get("text"):
                raise ValueError(f"[[rule: ...]]: expected the id of a clause with text, found {' '.join(arg)!r}")
            return str(PageLinks(page, data).rule_text(clause))
        if kind == "rulesets":
            if data is None or len(arg) != 1 or arg[0] not in data.games():
                raise ValueError(f"[[rulesets: ...]]: expected one game, found {' '.join(arg)!r}")
            return str(variant_pages.selector(arg[0], page, data))
        if kind in ("walkthrough", "table"):
            if data is None or len(arg) != 1 or arg[0] not in data.deals:
                known = ", ".join(sorted(data.deals)) if data else "none"
                raise ValueError(f"[[{kind}: ...]]: expected the name of a deal script (known: {known}), found {' '.join(arg)!r}")
            script = data.deals[arg[0]]
            if kind == "table":
                return str(how_to_play.start_table(script))
            return how_to_play.walkthrough_markdown(script, PageLinks(page, data))
        if kind == "cli":
            return cli_reference.options_table(arg[0]) if arg else cli_reference.commands_table()
        if kind == "pytest-options":
            return cli_reference.pytest_options_table()
        if kind == "limits":
            return templating.render("limits_table.html.j2", limits=limits.described())
        if kind == "show":
            pairs = [a.rpartition(":") for a in arg]
            bad = [a for a, (label, _, c) in zip(arg, pairs, strict=True) if not label or not is_card(c)]
            if bad:
                raise ValueError(f"[[show: ...]]: expected Label:CARD items, found {', '.join(bad)}")
            shown = [(label.replace("_", " "), c) for label, _, c in pairs]
            return templating.macro("cards.html.j2", "labelled")(shown, coded=paths.for_engines(page))
        if kind in ("cards", "hand"):
            bad = [c for c in arg if not is_card(c)]
            if bad:
                raise ValueError(f"[[{kind}: ...]]: not card codes: {', '.join(bad)}")
            return templating.macro("cards.html.j2", "row")(arg, big=kind == "hand", coded=paths.for_engines(page))
        if data is None or len(arg) != 1 or arg[0] not in data.variants:
            raise ValueError(f"[[values: ...]]: expected one known variant id, found {' '.join(arg)!r}")
        return values_table(data.variants[arg[0]])

    return "".join(_SHORTCODE.sub(replace, piece) if is_text else piece for piece, is_text in _outside_code(markdown))
