"""A difference said in one line, the same in every command and report: ``what: expected X, observed Y``, and
for two lists of cards or of actions a short hint of where they part, which two long lists hide from the eye:
what one holds that the other lacks, or, in a list compared in its order that holds the same items, the first
place the order differs."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from conformance.suite.comparisons import AS_A_SET, LEGAL_EXACTLY
from conformance.text import untrusted
from specreader import limits

SHOWN = limits.HINT_ITEMS_SHOWN
_ITEM_CAP = limits.HINT_ITEM_CAP
_LONGEST = limits.MAX_HINT_LIST_ITEMS
_IN_ORDER = re.compile(r"[a-z_]+(\.[a-z0-9_]+)*")  # a field compared item by item in its order (stock, turned)


def said(what: str, expected: Any, observed: Any) -> str:
    """The difference, with its hint where it has one."""
    return untrusted.difference(what, expected, observed) + hint(what, expected, observed)


def hint(what: str, expected: Any, observed: Any) -> str:
    """`` (missing 7H; extra 4D)``, or `` (in another order: first at index 3, expected 7H, observed 4D)``, or ""
    where neither applies: a value that is no list of words, or a difference of what a hand holds or lacks, or of
    the legal actions an engine must include, whose lists are no two sides of one thing."""
    if not (_words(expected) and _words(observed)):
        return ""
    whatever_order = what.endswith(AS_A_SET) or what == LEGAL_EXACTLY
    if not whatever_order and not _IN_ORDER.fullmatch(what):
        return ""
    missing, extra = Counter(expected) - Counter(observed), Counter(observed) - Counter(expected)
    if missing or extra:
        sides = (("missing", missing), ("extra", extra))
        return f" ({'; '.join(f'{name} {_listed(sorted(items.elements()))}' for name, items in sides if items)})"
    first = next((i for i, (e, o) in enumerate(zip(expected, observed, strict=True)) if e != o), None)
    if whatever_order or first is None:
        return ""
    return f" (in another order: first at index {first}, expected {_item(expected[first])}, observed {_item(observed[first])})"


def _words(value: Any) -> bool:
    return isinstance(value, list) and len(value) <= _LONGEST and all(isinstance(item, str) for item in value)


def _item(item: str) -> str:
    return untrusted.text(item, _ITEM_CAP)


def _listed(items: list[str]) -> str:
    """The first items, apart by spaces where none holds one (cards), else by commas (actions: ``1 play 7H``)."""
    shown = [_item(item) for item in items[:SHOWN]]
    more = f" and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
    return (", " if any(" " in item for item in shown) else " ").join(shown) + more
