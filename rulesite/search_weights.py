"""How much each kind of page weighs in the site's search: the one place that sets a page's search boost.

The search ranks a page first by the rule words in its headings, and a worked-example page repeats the title
of the rule it checks in its own, so without weights the examples crowd out the rules they illustrate. The
pages for players weigh most (how to play, then the glossary), then the specification, the examples least.
The docs tool's glue (``docs/hooks.py``) sets the result as the page's ``search`` settings; a page's own front
matter still wins, key by key.
"""

from __future__ import annotations

from collections.abc import Collection

from rulesite import paths

HOW_TO_PLAY = 5.0
GLOSSARY = 3.0
SPECIFICATION = 2.5  # for engine authors: below the pages for players, which a word of the game should find first
RULESET = 2.0  # the specification's headings again, for one table (out of the index: search_settings)
SECONDARY = 2.0  # rulings, the variants compared, the printable summaries
EXAMPLE = 0.1
OTHER = 1.0


def is_ruleset(path: str, games: Collection[str]) -> bool:
    return path.startswith(paths.RULES_FOLDER) and path not in {paths.rules_page_path(g) for g in games}


def boost(path: str, games: Collection[str] = ()) -> float:
    """The weight of the page at ``path`` under the docs folder; ``games`` tells a specification from a ruleset."""
    if path.startswith(paths.PLAY_FOLDER):
        return HOW_TO_PLAY
    if path in {paths.rules_page_path(g) for g in games}:
        return SPECIFICATION
    if path.startswith(paths.RULES_FOLDER):
        return RULESET
    if path == paths.GLOSSARY_PAGE:
        return GLOSSARY
    if path.startswith(paths.PRINT_FOLDER) or path in (paths.RULINGS_PAGE, paths.VARIANTS_PAGE):
        return SECONDARY
    if path.startswith(paths.EXAMPLES_FOLDER):
        return EXAMPLE
    return OTHER


def search_settings(path: str, own: object = None, games: Collection[str] = ()) -> dict[str, object]:
    """The search settings of the page at ``path``: its weight, under whatever its front matter says itself. A
    ruleset is the specification again for one table: out of the index, so that a search for a word of the game
    lists the specification and the pages for players once, not a copy for every table."""
    settings: dict[str, object] = {"boost": boost(path, games)}
    if is_ruleset(path, games):
        settings["exclude"] = True
    if isinstance(own, dict):
        settings.update({str(k): v for k, v in own.items()})
    return settings
