"""Engine text is data: what an engine sends is made safe once, where it enters the kit.

Every string an engine controls (error messages, stderr, observed values, its handshake) passes
through here before it reaches a verdict, so the terminal, the run log, Markdown and JUnit XML
all receive one line of printable text of bounded size: no escape sequence can recolour a
terminal or forge a closing line, no control character can break XML, and a 200 MB message
costs a report 4 KiB.
"""

from __future__ import annotations

import json
import re
from typing import Any

# Characters of one engine message kept in a verdict; the rest is cut, and the cut is said.
CAP = 4096

# Controls (C0 with newline and tab, DEL, C1), and the format characters that reorder or hide
# text (bidirectional overrides and isolates, zero-width marks), which no report should carry raw.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def text(value: object, cap: int = CAP) -> str:
    """``value`` as one line of safe text, at most ``cap`` characters and a note when it was cut."""
    raw = value if isinstance(value, str) else repr(value)
    safe = _UNSAFE.sub(_escaped, raw[:cap])  # cut before escaping: a huge message costs little
    if len(raw) <= cap and len(safe) <= cap:
        return safe
    return safe[:cap] + f" [cut: {len(raw)} characters in all]"


def data(value: Any, cap: int = CAP) -> Any:
    """A JSON value an engine sent, with every string made safe; too large a value becomes its
    safe, cut text (so a report never carries more than about ``cap`` characters of it)."""
    try:
        size = len(json.dumps(value, ensure_ascii=False, default=repr))
    except (ValueError, RecursionError):  # a cycle or a nesting deeper than json allows
        return text(repr(value)[: cap * 2], cap)
    if size > cap:
        return text(json.dumps(value, ensure_ascii=False, default=repr), cap)
    return _strings_made_safe(value, cap)


def _strings_made_safe(value: Any, cap: int) -> Any:
    if isinstance(value, str):
        return text(value, cap)
    if isinstance(value, dict):
        return {text(k, cap): _strings_made_safe(v, cap) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_strings_made_safe(v, cap) for v in value]
    return value


# What the kit keeps of an engine's handshake, each field cut short: it heads every report.
_IDENTITY_FIELDS = ("name", "version", "language", "homepage")
_IDENTITY_CAP = 200


def identity(hello: object) -> dict[str, Any]:
    """An engine's handshake as the kit keeps it: who it is, and the variant ids it declares."""
    given = hello if isinstance(hello, dict) else {}
    out: dict[str, Any] = {key: text(given[key], _IDENTITY_CAP) for key in _IDENTITY_FIELDS if key in given}
    variants = given.get("variants")
    out["variants"] = [text(v, _IDENTITY_CAP) for v in variants if isinstance(v, str)] if isinstance(variants, list) else []
    return out
