"""How many cases the kit's randomized tests draw: one knob for all of them.

The suite draws a quick number of cases per test, so that a whole run stays short; with
``TRICKSPEC_DEEP=1`` every randomized test draws its campaign number instead (what a change to
the engine, the fuzzer or the judge deserves before it lands), e.g.

    TRICKSPEC_DEEP=1 .venv/bin/python -m pytest tests/test_action_ids.py -n auto
"""

from __future__ import annotations

import os

DEEP = os.environ.get("TRICKSPEC_DEEP", "") not in ("", "0")


def cases(quick: int, deep: int) -> int:
    """``deep`` under TRICKSPEC_DEEP=1, else ``quick``."""
    return deep if DEEP else quick
