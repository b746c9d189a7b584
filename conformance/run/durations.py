"""Times given on a command line (``--timeout``, ``--time``, pytest's ``--engine-timeout``), read once for all."""

from __future__ import annotations

import argparse
import math

from specreader import limits

MAX_TIMEOUT = limits.MAX_TIMEOUT


def seconds(text: str) -> float:
    """An argparse type: a finite number of seconds above 0 (nan and inf refused: a run must end)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < math.inf:  # also refuses nan
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, found {text!r}")
    return value


def timeout(text: str) -> float:
    """An argparse type: a time limit, in seconds above 0 and at most a day."""
    value = seconds(text)
    if value > MAX_TIMEOUT:
        raise argparse.ArgumentTypeError(f"expected a time limit of at most {MAX_TIMEOUT:g} seconds (a day), found {text!r}")
    return value
