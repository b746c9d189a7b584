"""JSON text read within the kit's data limits (specreader/limits.py): numbers and nesting bounded."""

from __future__ import annotations

from typing import Any

from specreader import limits


def _integer(text: str) -> int:
    _refuse(limits.integer_problem(text))
    return int(text)


def _number(text: str) -> float:
    _refuse(limits.float_problem(text))
    return float(text)


def _not_finite(text: str) -> Any:
    raise ValueError(f"expected a finite number, found {text}")


# What json.loads takes to read numbers within the limits: pass them to any reader of outside JSON.
NUMBER_HOOKS: dict[str, Any] = {"parse_int": _integer, "parse_float": _number, "parse_constant": _not_finite}


# A run of as many digits as MAX_NUMBER has: without one, every integer in the text is within the bound.
# Looked for as a run of "0" in the text's bytes with every digit made "0" (_NUMBER_MARKS): a search
# in C, where a regular expression for a run of digits steps through the text in its own engine.
_LONG_RUN = b"0" * len(str(limits.MAX_NUMBER))
# Each digit made "0", each mark of a fraction or an exponent ".", every other byte " ".
_NUMBER_MARKS = bytes(ord("0") if 0x30 <= byte <= 0x39 else ord(".") if chr(byte) in ".eE" else ord(" ") for byte in range(256))
_FRACTIONS_ONLY: dict[str, Any] = {key: hook for key, hook in NUMBER_HOOKS.items() if key != "parse_int"}


def number_hooks(text: str) -> dict[str, Any]:
    """NUMBER_HOOKS for ``text``; without the integer hook when no digit run in it is long enough to
    pass the bound, so json's C scanner converts the integers (most engine lines: a hook call per
    integer was a fifth of a fuzz campaign's time)."""
    marks = text.encode("utf-8", "surrogatepass").translate(_NUMBER_MARKS)
    return NUMBER_HOOKS if _LONG_RUN in marks else _FRACTIONS_ONLY


def short_integers_only(raw: bytes) -> bool:
    """Whether every number in JSON text is an integer too short to pass the bound: no digit is followed by a
    fraction or an exponent, and no run of digits is as long as MAX_NUMBER's (strings are looked in too)."""
    marks = raw.translate(_NUMBER_MARKS)
    return b"0." not in marks and _LONG_RUN not in marks


def number_problem(text: str) -> str | None:
    """What the kit's limits find wrong with a number as JSON text writes it (or as Python's json
    reads NaN and Infinity), or None: what the hooks refuse, for a reader locating it."""
    if text in ("NaN", "Infinity", "-Infinity"):
        return f"expected a finite number, found {text}"
    return limits.float_problem(text) if any(mark in text for mark in ".eE") else limits.integer_problem(text)


def _refuse(problem: str | None) -> None:
    if problem is not None:
        raise ValueError(problem)


def too_deep(value: Any, limit: int = limits.MAX_DEPTH) -> bool:
    """Whether mappings and lists nest more than ``limit`` levels (walked without recursion)."""
    stack = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
        for child in children:
            if isinstance(child, (dict, list)):
                if depth + 1 >= limit:
                    return True
                stack.append((child, depth + 1))
    return False
