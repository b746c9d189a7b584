"""Engine text is data: what an engine sends is made safe once, where it enters the kit.

Every string an engine controls (error messages, stderr, observed values, its handshake) passes
through here before it reaches a verdict, so the terminal, the run log, Markdown and JUnit XML
all receive one line of printable text of bounded size: no escape sequence can recolour a
terminal or forge a closing line, no control character can break XML, and a 200 MB message
costs a report 4 KiB. Every JSON line an engine sends is read by ``json_line``: strict UTF-8,
each key once in an object, and a bounded nesting depth, so no answer can exhaust the kit's stack.
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Collection, Iterator
from typing import Any, TypeGuard

import orjson

from conformance.text import json_positions
from specreader import jsonio, limits
from specreader.jsontypes import JsonPath
from specreader.problems import format_path

# Levels of nesting a JSON line may have: the protocol's messages need about ten; the kit's own
# code walks values recursively, so a line nested much deeper is refused before it is used.
MAX_DEPTH = limits.MAX_DEPTH

CAP = limits.ENGINE_TEXT_CAP

# Levels of nesting of an engine's value kept as a value; deeper, it is kept as text. The room left
# under the kit's limit is the run-log line's own nesting around the value.
KEPT_DEPTH = limits.MAX_DEPTH - 8

# Controls (C0 with newline and tab, DEL, C1), the format characters that reorder or hide text
# (bidirectional overrides and isolates, zero-width marks), which no report should carry raw, lone
# surrogates (an in-process engine's strings may hold them), which no UTF-8 file can, and the
# noncharacters U+FFFE and U+FFFF, which no XML file (junit.xml) may hold.
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb\ufffe\uffff\ud800-\udfff]"
)


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


TAIL_LINES = limits.TAIL_LINES


# A stack frame as JavaScript, Java and C# print them ("    at f (engine.js:3:9)"): below the error's own message,
# which a tail of the last lines would otherwise lose behind them.
_FRAME = re.compile(
    r"\s+at\s"  # JavaScript's and Java's frames, Rust's file lines
    r"|\s+\d+: +(?:\S*::\S*|0x[0-9a-f]+)"  # Rust's numbered frames: a path (std::rt::lang_start) or an address
    r"|stack backtrace:$|note: .*RUST_BACKTRACE"  # Rust's heading and advice
    r"|goroutine \d+ \["  # Go's heading
)
_GO_FILE = re.compile(r"\t\S+:\d+( \+0x[0-9a-f]+)?$")  # a Go frame's file line, under the line naming its function


def tail(label: str, lines: list[str]) -> str:
    """The last ``TAIL_LINES`` of ``lines`` that are neither blank nor stack frames, as a clause for an error
    message (``; label: a | b``, at most 1,024 characters made safe), or "" when there are none."""
    shown = [line for line in lines if line.strip()]
    frames = {i for i, line in enumerate(shown) if _FRAME.match(line)}
    frames |= {place for i, line in enumerate(shown) if _GO_FILE.match(line) for place in (i - 1, i)}
    said = ([line for i, line in enumerate(shown) if i not in frames] or shown)[-TAIL_LINES:]
    return f"; {label}: " + text(" | ".join(said), 1024) if said else ""


def data(value: Any, cap: int = CAP) -> Any:
    """A JSON value an engine sent, with every string made safe; too large a value becomes its
    safe, cut text (so a report never carries more than about ``cap`` characters of it)."""
    try:
        size = len(json.dumps(value, ensure_ascii=False, default=repr))
    except (ValueError, RecursionError):  # a cycle, a nesting deeper than json allows, an int too long for str()
        return text(_shown_somehow(value)[: cap * 2], cap)
    if size > cap or jsonio.too_deep(value, KEPT_DEPTH):
        return text(json.dumps(value, ensure_ascii=False, default=repr), cap)
    return strings_made_safe(value, cap)


def _shown_somehow(value: Any) -> str:
    """``repr(value)``, or what it is where repr raises as json did (an int of 5,000 digits, a nesting too deep)."""
    try:
        return repr(value)
    except (ValueError, RecursionError):
        return f"a {type(value).__name__} too large or too deep to show"


# What a comparison observed of a field the engine did not report, as a run log keeps it.
MISSING = "<missing>"

# What a comparison expected where the engine's value had another shape than a path needs (<an object keyed by
# seat>), as a run log keeps it: the kit's words in angle brackets, as MISSING is, a form none of the cards,
# phases and codes a scenario expects has.
_KIND = re.compile(r"<[a-z ]+>")


def kind(words: str) -> str:
    """The shape a comparison expected, in the kit's words (``an object``), as the reports write it bare."""
    return f"<{words}>"


def difference(what: str, expected: Any, observed: Any) -> str:
    """``what: expected X, observed Y``, each value as JSON writes it (null, true, "a"): the notation of the
    protocol and the traces, whatever language the engine is written in. A field not reported reads
    ``observed <missing>``, no JSON string; a value of another shape than the field needs, ``expected <an
    object>``."""
    return f"{what}: expected {expected_text(expected)}, observed {observed_text(observed)}"


def expected_text(expected: Any) -> str:
    """What a comparison expected, as ``json_text`` writes it, or the shape it expected (``kind``) bare."""
    return expected if is_kind(expected) else json_text(expected)


def is_kind(value: Any) -> TypeGuard[str]:
    """Whether a value a comparison expected is a shape in the kit's words (``kind``), no value."""
    return type(value) is str and _KIND.fullmatch(value) is not None


def observed_text(observed: Any) -> str:
    """What an engine reported, as ``json_text`` writes it, or ``<missing>`` bare where it reported nothing."""
    return MISSING if type(observed) is str and observed == MISSING else json_text(observed)


def json_text(value: Any, cap: int = CAP) -> str:
    """A JSON value as ``json.dumps`` writes it (``ensure_ascii`` off), made safe text of at most ``cap``
    characters: written only that far, so that an enormous value costs no more than a small one. Cut, it
    says so, but not its length in all, which would take writing it whole."""
    parts: list[str] = []
    written = 0
    for part in _json_parts(value, cap + 1):
        parts.append(part)
        written += len(part)
        if written > cap:  # cut as ``text`` cuts
            return _UNSAFE.sub(_escaped, "".join(parts)[:cap])[:cap] + f" [cut: more than {cap} characters in all]"
    return text("".join(parts), cap)


def _json_parts(value: Any, cap: int) -> Iterator[str]:
    """``json.dumps(value, ensure_ascii=False)`` in parts, as far as they are taken; a string is cut at ``cap``
    characters first (written, it is then longer than ``cap``: its cut end is never shown)."""
    if isinstance(value, str):
        yield json.dumps(value[:cap], ensure_ascii=False)
    elif isinstance(value, (list, tuple)):
        yield "["
        for index, item in enumerate(value):
            yield ", " if index else ""
            yield from _json_parts(item, cap)
        yield "]"
    elif isinstance(value, dict):
        yield "{"
        for index, (key, item) in enumerate(value.items()):
            name = key if isinstance(key, str) else json.dumps(key)  # as json names a key that is no string
            yield (", " if index else "") + json.dumps(name[:cap], ensure_ascii=False) + ": "
            yield from _json_parts(item, cap)
        yield "}"
    else:
        yield json.dumps(value)


def shown_part(value: Any, cap: int = CAP) -> Any:
    """As much of a JSON value as ``json_text(value, cap)`` shows: a value it writes the same, which costs about
    ``cap`` characters of JSON however large or deep ``value`` is (a run log's values are kept so while reports are
    made: a value of megabytes is millions of objects). Past the first ``cap`` + 1 characters nothing is shown, so
    items and characters after them are left out; what is written past them (closing brackets) is cut as before."""
    budget = [cap + 1]  # characters of the written value still shown
    return _shown_part(value, budget)


def _shown_part(value: Any, budget: list[int]) -> Any:
    if isinstance(value, str):
        kept = value[: budget[0]]  # json_text writes no more than its first cap + 1 characters
        budget[0] -= len(json.dumps(kept, ensure_ascii=False))
        return kept
    if isinstance(value, list):
        items: list[Any] = []
        budget[0] -= 1  # [
        for index, item in enumerate(value):
            if budget[0] <= 0:
                break
            budget[0] -= 2 if index else 0  # ", "
            items.append(_shown_part(item, budget))
        return items
    if isinstance(value, dict):
        members: dict[str, Any] = {}
        budget[0] -= 1  # {
        for index, (key, item) in enumerate(value.items()):
            if budget[0] <= 0:
                break
            budget[0] -= 2 if index else 0  # ", "
            name, shown = str(key), budget[0]
            while name[:shown] in members:  # a key cut to what is shown of it may be an earlier key in whole
                shown += 1
            budget[0] -= len(json.dumps(name[:shown], ensure_ascii=False)) + 2  # the key and ": "
            members[name[:shown]] = _shown_part(item, budget) if budget[0] > 0 else None
        return members
    budget[0] -= len(json.dumps(value))
    return value


def strings_made_safe(value: Any, cap: int = CAP) -> Any:
    """A JSON value with every string (keys too) made safe text, each cut at ``cap``: for values
    read back from a file anyone may have written (a run log), whatever their size."""
    if isinstance(value, str):
        return text(value, cap)
    if isinstance(value, dict):
        return {text(k, cap): strings_made_safe(v, cap) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [strings_made_safe(v, cap) for v in value]
    return value


# What the kit keeps of an engine's handshake, each field cut short: it heads every report.
_IDENTITY_FIELDS = ("name", "version", "language", "homepage")
REPORTS_KEPT = limits.VARIANTS_KEPT  # field paths kept of a declaration: far more than a snapshot has
_IDENTITY_CAP = limits.IDENTITY_CAP
VARIANTS_KEPT = limits.VARIANTS_KEPT


def identity(hello: object, known: Collection[str] = ()) -> dict[str, Any]:
    """An engine's handshake as the kit keeps it: who it is, and the variant ids it declares, each once, in its
    order: every one of ``known`` (the variants the run may ask for, which it must not miss), and of the others the
    first VARIANTS_KEPT, so that no handshake makes every report as large as it likes."""
    given = hello if isinstance(hello, dict) else {}
    out: dict[str, Any] = {key: text(given[key], _IDENTITY_CAP) for key in _IDENTITY_FIELDS if key in given}
    variants = given.get("variants")
    kept: dict[str, None] = {}
    others = 0
    for variant in variants if isinstance(variants, list) else []:
        if not isinstance(variant, str) or variant in kept:
            continue
        if variant in known:
            kept[variant] = None
        elif others < VARIANTS_KEPT:
            others += 1
            kept.setdefault(text(variant, _IDENTITY_CAP), None)
    out["variants"] = list(kept)
    reports = given.get("reports")
    if isinstance(reports, list) and all(isinstance(r, str) for r in reports):  # the fields it declares it keeps
        out["reports"] = list(dict.fromkeys(text(r, _IDENTITY_CAP) for r in reports[:REPORTS_KEPT]))
    return out


_SHOWN = 80  # the characters of a line that is no JSON shown in its message


class Unreadable(ValueError):
    """A line that is not one JSON value the kit can use: the message says why, for a report."""

    def __init__(self, message: str, column: int = 1, path: JsonPath = (), *, first_part: str | None = None) -> None:
        super().__init__(message)
        self.column = column  # where in the line, counting from 1
        self.path = path  # what in the line, when the line is JSON
        self._first_part = first_part  # the text that may be a first part of JSON, if the line may be one

    @functools.cached_property
    def ends_early(self) -> bool:
        """Whether the text stops inside a value: what a line written in part looks like. Found only when asked
        (of a run log's last line): trying each way of finishing a long line costs a few dozen parses of it."""
        return self._first_part is not None and is_json_prefix(self._first_part)


class _RepeatedKey(Exception):
    pass


_UNSURE = object()  # the fast readers' answer for a line they cannot vouch for

# The deepest line orjson reads here: it writes back at most 254 levels, and json reads a few hundred before the
# interpreter's recursion limit, where the careful reading says the line is too deep.
_FAST_DEPTH = 200


def _read_fast(raw: bytes, keys_once: bool) -> Any:
    """The line as the careful reading gives it, read by orjson where that is sure to be the same; else _UNSURE.

    orjson builds values several times faster than json and refuses what JSON refuses (bad UTF-8, a
    lone surrogate, NaN, a control character in a string), but it reads a key twice as its last one
    and a large integer as a float. So it reads only a line whose numbers are all integers too short
    to pass the kit's bound (``jsonio.short_integers_only``); and a key twice shows as fewer colons
    written back than the line holds, its strings' colons being the same in both unless one is
    written as an escape."""
    if b"\\u003a" in raw or b"\\u003A" in raw:
        return _UNSURE
    if not jsonio.short_integers_only(raw):
        return _UNSURE
    try:
        value = orjson.loads(raw)
        if keys_once and orjson.dumps(value).count(b":") != raw.count(b":"):
            return _UNSURE
    except (orjson.JSONDecodeError, orjson.JSONEncodeError):
        return _UNSURE  # the careful reading says what is wrong, and where
    return value


def _keys_counted(raw: bytes, line: str, hooks: dict[str, Any]) -> Any:
    """The line as _unique_keys reads it, where its keys are sure to be once each; else _UNSURE.

    The objects are built by json itself and only counted, which costs much less than a list of pairs
    handed to _unique_keys for each: every key stands before a colon, so as many keys kept as colons
    in the text means none was dropped as repeated. A colon in a string, a key twice, or anything
    json refuses leaves the line _UNSURE, and _unique_keys reads it, and says what is wrong, as ever."""
    keys = 0

    def counted(made: dict[str, Any]) -> dict[str, Any]:
        nonlocal keys
        keys += len(made)
        return made

    try:
        value = json.loads(line, object_hook=counted, **hooks)
    except (ValueError, RecursionError):
        return _UNSURE
    return value if keys == raw.count(b":") else _UNSURE


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    made = dict(pairs)
    if len(made) != len(pairs):
        raise _RepeatedKey
    return made


def json_line(raw: bytes, max_depth: int = MAX_DEPTH, *, keys_once: bool = True) -> Any:
    """One line of JSON (UTF-8), each key once in an object, nested at most ``max_depth`` levels
    deep; ``Unreadable`` otherwise.

    The depth is checked before parsing, so a deep line costs no more than a shallow one. A key
    twice is refused as I-JSON (RFC 7493, section 2.3) refuses it: readers disagree on which one
    counts, so the kit would judge a value the engine's own reader might not take. ``keys_once``
    off skips that check, for text the kit wrote from mappings (``as_json``), and the cost of it.
    """
    if _nested_deeper(raw, max_depth):
        _decoded(raw)  # a line that is no UTF-8 is said to be so first
        raise Unreadable(limits.depth_problem(max_depth))
    # orjson reads the bytes and refuses what is no UTF-8 itself: the decoded text, as large as the line, is made
    # only where it cannot vouch for the line, not held beside the value it builds
    value = _read_fast(raw, keys_once) if max_depth <= _FAST_DEPTH else _UNSURE
    if value is not _UNSURE:
        return value
    line = _decoded(raw)
    hooks = jsonio.number_hooks(line)
    value = _keys_counted(raw, line, hooks) if keys_once else _UNSURE
    if value is _UNSURE:
        try:
            value = json.loads(line, object_pairs_hook=_unique_keys if keys_once else None, **hooks)
        except (_RepeatedKey, ValueError) as err:  # json.JSONDecodeError is a ValueError
            raise _refused(line, err) from None
        except RecursionError:  # nesting the bracket count let through (it may misjudge invalid text): never a traceback
            raise Unreadable(limits.depth_problem(max_depth)) from None
    if _SURROGATE_ESCAPE.search(raw) and (lone := _lone_surrogate(value)) is not None:
        path, column = json_positions.positions(line).first(_holds_lone_surrogate) or ((), 1)
        at = _lone_escape(line, column - 1)
        escape = line[at : at + 6].lower() if line.startswith("\\u", at) else f"\\u{ord(lone):04x}"
        column = at + 1
        found = f"expected Unicode text, found the lone surrogate {escape} in a string (RFC 8259, section 8.2)"
        raise Unreadable(found, column, path)
    return value


def _decoded(raw: bytes) -> str:
    """The line as text; ``Unreadable`` where it is no UTF-8, at the first byte that is not."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        column = len(raw[: err.start].decode("utf-8", "replace")) + 1  # in characters, as JSON errors count
        # A character cut in two: a first part if that character, whole ("x" for it: only a string holds either), is.
        cut = err.reason == "unexpected end of data" and err.end == len(raw)
        found = f"expected UTF-8, found byte 0x{raw[err.start]:02x} at position {err.start}"
        raise Unreadable(found, column, first_part=raw[: err.start].decode() + "x" if cut else None) from None


def _refused(line: str, err: Exception) -> Unreadable:
    """Why json refused ``line``, located: its syntax first (the hooks refuse what they meet before the
    parser reaches a later fault), then a key twice or a number beyond the kit's limits."""
    syntax = err if isinstance(err, json.JSONDecodeError) else _syntax_error(line)
    if syntax is not None:
        # quoted as Python writes a string (its escapes once), cut first: the line may be megabytes long
        shown = repr(line[:_SHOWN]) + (f" [cut: {len(line):,} characters in all]" if len(line) > _SHOWN else "")
        found = f"expected a JSON object per line, found {text(shown, 2 * CAP)} ({_BOM_SAID.get(syntax.msg, syntax.msg)})"
        return Unreadable(found, syntax.colno, first_part=line)  # what a writer stopped mid-line leaves, if it ends early
    where = json_positions.positions(line)
    if isinstance(err, _RepeatedKey):
        path, column = where.repeated or ((), 1)
        return Unreadable(f"expected each key once in an object, found {text(format_path(path), 200)} twice", column, path)
    path, column = where.first(_number_out_of_limits) or ((), 1)
    return Unreadable(str(err), column, path)


# json's word for a line behind a byte order mark is advice to its caller, to decode it away: the kit says what it is
_BOM_SAID = {"Unexpected UTF-8 BOM (decode using utf-8-sig)": "a byte order mark, U+FEFF, before the value"}


def _syntax_error(line: str) -> json.JSONDecodeError | None:
    try:
        json.loads(line, parse_int=str, parse_float=str, parse_constant=str)  # the syntax alone
    except json.JSONDecodeError as err:
        return err
    return None


# What may finish the value a first part of JSON text stops in (a string, its escape, a number, a
# literal), then what may finish the member or item it stops in; its brackets are closed after.
_VALUE_ENDS = ("", '"', '""', '0"', '00"', '000"', '0000"', "0", "ull", "ll", "l", "rue", "ue", "e", "alse", "lse", "se")
_MEMBER_ENDS = ("", "0", ":0", '"k":0')


# Every byte but those no JSON text holds, in a string or out of one: the C0 controls but tab, line feed and carriage return.
_MAY_BE_IN_JSON = bytes(b for b in range(256) if b >= 0x20 or b in b"\t\n\r")


def is_json_prefix(text: str) -> bool:
    """Whether some text after ``text`` makes it one JSON value (strict JSON: no NaN or Infinity).

    Finishing a first part takes at most finishing the token it stops in, then the member or item,
    then closing its brackets; each way is tried (on a line being refused: a few dozen parses). A control
    character JSON holds nowhere, not even in a string, refuses the text at once, whatever its length."""
    if text.encode("utf-8", "surrogatepass").translate(None, _MAY_BE_IN_JSON):
        return False
    closers = _closers(text)
    if closers is None:
        return False
    for value_end in _VALUE_ENDS:
        for member_end in _MEMBER_ENDS:
            try:
                json.loads(text + value_end + member_end + closers, parse_constant=_not_strict)
            except ValueError:
                continue
            return True
    return False


def _not_strict(name: str) -> Any:
    raise ValueError(name)


def _closers(text: str) -> str | None:
    """The brackets that close what ``text`` opens (outside its strings), innermost first; None if
    it closes one it never opened."""
    opened: list[str] = []
    in_string = escaped = False
    for char in text:
        if in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in "[{":
            opened.append("]" if char == "[" else "}")
        elif char in "]}" and (not opened or opened.pop() != char):
            return None
    return "".join(reversed(opened))


def _number_out_of_limits(text: str) -> bool:
    return isinstance(text, json_positions.Number) and jsonio.number_problem(text) is not None


def _holds_lone_surrogate(text: str) -> bool:
    return not isinstance(text, json_positions.Number) and _SURROGATE.search(text) is not None


_ESCAPE = re.compile(r'\\(?:u([0-9a-fA-F]{4})|.)|"')


def _lone_escape(line: str, quote: int) -> int:
    """Where, in the string whose opening quote is at ``quote``, its first lone surrogate's escape is."""
    high = None  # where a high surrogate waits for its low half
    for escape in _ESCAPE.finditer(line, quote + 1):
        if escape.group() == '"':
            break
        code = int(escape.group(1), 16) if escape.group(1) else -1
        if high is not None and not 0xDC00 <= code <= 0xDFFF:
            return high
        if 0xD800 <= code <= 0xDBFF and high is None:
            high = escape.start()
        elif 0xDC00 <= code <= 0xDFFF and high is None:
            return escape.start()
        else:
            high = None
    return quote if high is None else high


class Unencodable(Unreadable):
    """A value no JSON line can carry at all (a set, bytes, NaN, a cycle): what a served engine fails to send."""


def as_json(value: Any, max_bytes: int = limits.MAX_LINE_BYTES) -> Any:
    """An in-process engine's value read as a served engine's line would be: encoded as the server encodes it
    (conformance/engines/serve.py) and read by ``json_line``. What no JSON line can carry (a set, bytes, an object,
    NaN, a cycle, an int too long to write) is ``Unencodable``, located; a number beyond the kit's limits, a key
    twice once keys are written as JSON writes them, a nesting too deep or a line too long is ``Unreadable``, as on
    the protocol. What is kept is plain JSON, which the kit's comparisons and writers can hold whatever the
    engine's objects do."""
    try:
        line = json.dumps(value, allow_nan=False, separators=(",", ":")).encode("ascii")
    except Exception as err:  # TypeError, ValueError, RecursionError, or whatever an engine's mapping raises
        path, what = unencodable(value) or ((), "")
        said = f"found {what}" if what else f"found what JSON cannot hold ({text(_message(err), 200)})"
        raise Unencodable(f"expected a JSON value, {said}", path=path) from None
    if len(line) > max_bytes:
        raise Unreadable(f"expected lines of at most {limits.mebibytes(max_bytes)}, found one of {len(line):,} bytes")
    return json_line(line)


def unencodable(value: Any) -> tuple[JsonPath, str] | None:
    """Where the first value json cannot encode is in ``value`` (in the order json writes it), and what it is; None
    if there is none to be found. Walked without recursion, never raising, at most ``MAX_DEPTH`` levels down (deeper
    is itself what no line carries)."""
    stack: list[tuple[JsonPath, Any, frozenset[int]]] = [((), value, frozenset())]
    while stack:
        path, item, holders = stack.pop()
        if item is None or isinstance(item, (str, bool)):
            continue
        if isinstance(item, (int, float)):
            if (what := _number_unwritable(item)) is not None:
                return path, what
            continue
        if not isinstance(item, (dict, list, tuple)):
            return path, f"a value of type {text(type(item).__name__, 80)}"
        if id(item) in holders:
            return path, "a value that holds itself (a cycle)"
        if len(path) >= MAX_DEPTH:
            return path, f"a nesting deeper than {MAX_DEPTH} levels"
        inside = holders | {id(item)}
        try:
            members = list(item.items()) if isinstance(item, dict) else list(enumerate(item))
        except Exception as err:
            return path, f"a {text(type(item).__name__, 80)} that cannot be read ({describe(err)})"
        children: list[tuple[JsonPath, Any, frozenset[int]]] = []
        for key, member in members:
            if isinstance(item, dict):
                if not (key is None or isinstance(key, (str, int, float, bool))):
                    return path, f"a key of type {text(type(key).__name__, 80)}"
                if isinstance(key, (int, float)) and (what := _number_unwritable(key)) is not None:
                    return path, f"a key that is {what}"
                key = key if isinstance(key, str) else text(json.dumps(key), 80)
            children.append(((*path, key), member, inside))
        stack.extend(reversed(children))
    return None


def _number_unwritable(number: int | float) -> str | None:
    if isinstance(number, float):
        return None if math.isfinite(number) else f"{float(number)!r} (JSON has no NaN or infinity)"
    try:
        int.__repr__(number)
    except ValueError:
        return f"an integer too long to write ({number.bit_length():,} bits)"
    return None


def describe(err: BaseException) -> str:
    """An exception as ``Kind: message``, made safe, whatever its message does."""
    return text(f"{type(err).__name__}: {_message(err)}", 200)


def _message(err: BaseException) -> str:
    try:
        return str(err)
    except Exception:  # a message that cannot even be read (an int of more digits than str() takes)
        return type(err).__name__


# A lone surrogate can only come from a \u escape (UTF-8 cannot encode one), so a line with none
# of these is never walked; a pair (\ud83d\ude00) is one character once parsed, and passes.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


def _lone_surrogate(value: Any) -> str | None:
    """The first lone surrogate in the strings of a parsed JSON value (keys included), if any."""
    if isinstance(value, str):
        found = _SURROGATE.search(value)
        return found.group() if found else None
    items = [*value.keys(), *value.values()] if isinstance(value, dict) else value if isinstance(value, list) else []
    for item in items:
        if (lone := _lone_surrogate(item)) is not None:
            return lone
    return None


_STRING = re.compile(rb'"[^"]*"')
_RUN = re.compile(rb"\[+|\]+")
_NOT_BRACKET_OR_QUOTE = bytes(b for b in range(256) if b not in b'[]{}"')
_ONE_BRACKET_KIND = bytes.maketrans(b"{}", b"[]")


def _nested_deeper(raw: bytes, limit: int) -> bool:
    """Whether JSON text is nested deeper than ``limit``, judged from its brackets outside strings
    (escapes go first, so each quote left opens or closes a string). Exact for valid JSON; on
    invalid text it may answer either way, and the parser then says what is wrong."""
    if b"\\" in raw:
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    marks = raw.translate(_ONE_BRACKET_KIND, _NOT_BRACKET_OR_QUOTE)
    quotes = marks.count(b'"')
    # Each string left as "" (none holds a bracket): every quote goes, as replacing each "" would
    # remove it, with no copy per string.
    marks = marks.translate(None, b'"') if quotes == 2 * marks.count(b'""') else marks.replace(b'""', b"")
    if b'"' in marks:  # a string holding brackets
        marks = _STRING.sub(b"", marks)
        if b'"' in marks:  # a string still open where the text stops (cut): what follows it is inside it
            marks = marks[: marks.index(b'"')]
    # Peel the innermost pairs a level at a time, in C; once few pairs are left in a long text
    # (a deep chain), peeling would copy it once per level, so count the runs of brackets instead.
    for peeled in range(limit):
        pairs = marks.count(b"[]")
        if not pairs:  # nothing left, or unbalanced: the brackets still open at the end nest at least that deep
            return len(marks.lstrip(b"]")) > limit
        if pairs * 16 < len(marks):
            return _runs_deeper(marks, limit - peeled)
        marks = marks.replace(b"[]", b"")
    return bool(marks)


def _runs_deeper(marks: bytes, limit: int) -> bool:
    level = 0
    for run in _RUN.finditer(marks):
        level += len(run[0]) if run[0][0] == 0x5B else -len(run[0])  # 0x5B: "["
        if level > limit:
            return True
        if level < 0:
            return False
    return False
