"""The bounds on data the kit reads: every reader checks them before using a value, and the
documentation renders ``described()``. Each is stated here and nowhere else."""

from __future__ import annotations

import math

# Largest magnitude of a number in data: below 2**53, so an engine reading JSON numbers as
# doubles (JavaScript, Lua) gets every integer exactly; the rules never need more.
MAX_NUMBER = 10**15
MAX_NUMBER_TEXT = "10^15"

# Deepest nesting of mappings and lists in one file or JSON line; the kit's data needs about 8.
MAX_DEPTH = 64

# Longest chain of variants extending variants; the kit's own chains are 3 long.
MAX_INHERITANCE = 16

# Largest YAML file read (spec, scenario or expectation file): far above any the kit ships.
MAX_YAML_BYTES = 2 * 1024 * 1024

# Problems listed of a run log, which is then read no further, or of a check-trace run, whose other problems are
# counted: a file given by mistake (a trace to report, say) has one a line.
MAX_PROBLEMS = 1000
# Lines of a trace file read before any names a variant, as every game does: past them, the file is taken for one
# given by mistake (a log of another kind) and read no further, rather than a problem and a report line each.
MAX_LINES_WITHOUT_GAME = 1000
# Characters of a scenario id a run log may hold (schemas/run-log.schema.json's maxLength says the same, a test holds
# them equal): far more than any the kit writes, the longest being a trace game's, its file's path whole (at most
# 4,096 bytes, each escaped to at most 4 characters), its line and 100 characters of its own name. A longer id is
# refused where it stands, before it is held or compared: ``id_order`` splits an id into parts, tens of times its size.
RUN_ID_CAP = 32 * 1024
MAX_DEALS_IN_MATCH = 1000  # deals of a match on one line of a trace (schemas/trace.schema.json's maxItems)
MAX_JOBS = 64  # --jobs: worker processes of fuzz and check-trace, each with its pipes and engine

# Characters of one engine message kept in a verdict or report; the rest is cut, and the cut is said.
ENGINE_TEXT_CAP = 4096

# Characters of each field of an engine's handshake kept (name, version, language, homepage, each variant id).
IDENTITY_CAP = 200

# Variant ids kept of a handshake, each once: far more than any spec holds.
VARIANTS_KEPT = 1024

# Bytes of one line of JSON Lines the kit accepts: of an engine's standard output, a trace or a run log (whose
# files may be of any length, read a line at a time); a longer line is refused unread.
MAX_LINE_BYTES = 64 * 1024 * 1024

# Bytes of an engine's output read and not yet taken: past it the reader waits, so an engine that writes
# without end waits on its own output instead of filling the kit's memory.
MAX_BACKLOG_BYTES = 16 * 1024 * 1024

# Characters of an engine's refusal or refusal code kept for reports: a code is a short word (spec/refusals.yaml).
CODE_CAP = 80

# Differences of one failing scenario a report shows, the rest counted: the run log keeps every one.
DIFFERENCES_SHOWN = 10

# Of two lists that differ (a hand, a stock), the items a difference's hint names on each side, the rest counted,
# each cut to a number of characters (a card or an action is a few); and the longest list it looks into, far
# longer than any pack (a run log anyone wrote may hold any).
HINT_ITEMS_SHOWN = 8
HINT_ITEM_CAP = 40
MAX_HINT_LIST_ITEMS = 1000

# Lines of what an engine wrote on the side (its standard error) that go with its failure: the last few.
TAIL_LINES = 5

# Scenarios a run log's footer names as answered again after they were judged (the rest are counted), so that
# the footer stays a short line whatever the engine does; schemas/run-log.schema.json's maxItems says the same.
LATE_COPIES_KEPT = 1024

# The longest time limit taken from a command line: a day. Any longer is no limit a run means, and the lock an
# answer is waited on refuses a time the platform cannot represent (``inf``, ``1e308``).
MAX_TIMEOUT = 86_400.0

# Bytes of one line of an engine's standard error kept (a longer line is kept as its length), and lines kept.
STDERR_LINE_BYTES = 4096
STDERR_LINES = 50

# An integer with more significant digits than this is beyond MAX_NUMBER: counted before
# converting, so a long digit string never reaches int() (which refuses over 4,300 digits).
_MAX_DIGITS = len(str(MAX_NUMBER))

# Longest number text quoted back in a message.
_SHOWN = 24


def integer_problem(text: str) -> str | None:
    """What is wrong with an integer written as ``text`` (sign and leading zeros allowed), or None."""
    significant = text.lstrip("+-").lstrip("0")
    if len(significant) <= _MAX_DIGITS and (not significant or int(significant) <= MAX_NUMBER):
        return None
    return f"expected an integer between -{MAX_NUMBER_TEXT} and {MAX_NUMBER_TEXT}, found {_shown(text)}"


def float_problem(text: str) -> str | None:
    """What is wrong with a number with a fraction or exponent written as ``text``, or None.

    float() reads any length quickly; 1e400 becomes infinity, which JSON cannot carry."""
    value = float(text)
    if math.isnan(value):
        return f"expected a number, found {_shown(text)}"
    if not -MAX_NUMBER <= value <= MAX_NUMBER:
        return f"expected a number between -{MAX_NUMBER_TEXT} and {MAX_NUMBER_TEXT}, found {_shown(text)}"
    return None


def depth_problem(limit: int = MAX_DEPTH) -> str:
    return f"expected at most {limit} levels of nesting, found more"


def mebibytes(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MiB" if size % (1024 * 1024) else f"{size // 1024 // 1024} MiB"


def described() -> list[tuple[str, str]]:
    """Each limit in words, as docs/scenarios.md shows them."""
    return [
        ("Numbers", f"between -{MAX_NUMBER_TEXT} and {MAX_NUMBER_TEXT}; not infinite or NaN (`.inf`, `.nan`, `1e400`)"),
        ("Nesting", f"at most {MAX_DEPTH} levels of mappings and lists in a spec, scenario or expectation file"),
        ("Inheritance", f"a chain of at most {MAX_INHERITANCE} variants, each extending the next"),
        ("YAML files", f"at most {mebibytes(MAX_YAML_BYTES)} each: spec, scenario and expectation files"),
        ("Run logs and traces", f"of any length, read a line at a time; each line at most {mebibytes(MAX_LINE_BYTES)}; "
                                f"past {MAX_PROBLEMS:,} problems, a run log is read no further and a trace's are "
                                f"counted, not listed; a trace file is read no further when its first "
                                f"{MAX_LINES_WITHOUT_GAME:,} lines name no variant, as every game does; a run "
                                f"log's scenario ids at most {RUN_ID_CAP:,} characters; a match on one line of a trace "
                                f"at most {MAX_DEALS_IN_MATCH:,} deals"),
        ("Engine lines", f"at most {mebibytes(MAX_LINE_BYTES)} a line of the protocol, nested at most {MAX_DEPTH} levels"),
        ("Engine text", f"each message kept to {ENGINE_TEXT_CAP:,} characters, the cut said; standard error to its last "
                        f"{STDERR_LINES} lines of {STDERR_LINE_BYTES:,} bytes, of which a failure's message ends with the "
                        f"last {TAIL_LINES} that are not stack frames; a hint of where two lists part names at most "
                        f"{HINT_ITEMS_SHOWN} items a side, of at most {HINT_ITEM_CAP} characters each, of lists of at "
                        f"most {MAX_HINT_LIST_ITEMS:,} items"),
        ("File kinds", "regular files, or links to them; a FIFO, device or socket is refused without reading it"),
        ("Jobs", f"at most {MAX_JOBS} worker processes (`--jobs`) for fuzz and check-trace"),
    ]


def _shown(text: str) -> str:
    return text if len(text) <= _SHOWN else f"{text[:_SHOWN - 3]}... ({len(text)} characters)"
