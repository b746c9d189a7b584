"""JSON-like values for the tests that feed the kit nonsense: leaves, and lists and objects of them.

The nesting is a named function, never a lambda: Hypothesis describes a lambda by reading its source
and iterating ``sys.modules``, which raises when another thread imports a module meanwhile (an engine
loaded in a worker thread, the rules site's build starting beside the first tests). It describes the
strategy whenever a draw of ``recursive`` runs past ``max_leaves``, so a lambda here made a test fail
now and then under pytest-xdist.
"""

from __future__ import annotations

from functools import partial

from hypothesis import strategies as st


def _nested(inner: st.SearchStrategy[object], *, keys: st.SearchStrategy[str], width: int | None) -> st.SearchStrategy[object]:
    return st.lists(inner, max_size=width) | st.dictionaries(keys, inner, max_size=width)


def json_values(
    leaves: st.SearchStrategy[object], keys: st.SearchStrategy[str], *, width: int | None, max_leaves: int
) -> st.SearchStrategy[object]:
    """``leaves``, and lists and objects (keys drawn from ``keys``) of up to ``width`` items each, nested."""
    return st.recursive(leaves, partial(_nested, keys=keys, width=width), max_leaves=max_leaves)
