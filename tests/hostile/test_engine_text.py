"""Engine text is data: whatever an engine says reaches the terminal, the run log and every report
as one safe line of bounded size (conformance/text/untrusted.py)."""

from __future__ import annotations

import json
import re
import sys
import tracemalloc
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.cli import main
from conformance.engines import protocol
from conformance.text import untrusted
from conformance.vocabulary import EngineError, ErrorKind
from specreader import limits

from depth import cases
from json_strategies import json_values

FORGED = "\n425 passed, 0 failed\n"
NASTY = (
    "\x1b[31mred\x1b[0m <script>alert(1)</script> *bold* [link](http://x) ~~struck~~ https://evil.example/x"
    " www.evil.example mail@evil.example \x00\x07\x08\u202e \ufffe\uffff" + FORGED
)  # no lone surrogate: a line carrying one is malformed as a whole (tests/hostile/test_engine_process.py)
HUGE = "y" * 200_000


class _NastyEngine:
    """Answers every scenario with observations full of control characters, markup and a forged
    closing line, and with an error message of 200,000 characters on the Altbaumer ones."""

    def hello(self) -> dict[str, Any]:
        variants = ["albastini-2p", "altbaumer-standard"]
        return {"name": "nasty\x1b[2J" + FORGED, "version": "<b>1</b>", "language": "python", "variants": variants}

    def run(self, request: dict[str, Any]) -> dict[str, Any]:
        snapshot = {"phase": NASTY, "to_act": NASTY}
        observation = {"rejected": {"code": NASTY, "message": NASTY}, "snapshot": snapshot, "legal": [NASTY]}
        answer: dict[str, Any] = {"id": request["id"], "observations": [observation] * (len(request["actions"]) + 1)}
        if request["variant"] == "altbaumer-standard":
            answer["error"] = {"kind": "crash", "message": NASTY + HUGE}
        return answer

    def close(self) -> None:
        pass


def nasty() -> _NastyEngine:
    return _NastyEngine()


@pytest.fixture(scope="module")
def nasty_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, str, Path]:
    import contextlib
    import io

    reports = tmp_path_factory.mktemp("reports")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["verify", "--engine", f"{__name__}:nasty", "--report-dir", str(reports)])
    return code, out.getvalue(), reports


def test_the_terminal_gets_no_escape_byte_and_no_forged_closing_line(nasty_run: tuple[int, str, Path]) -> None:
    code, out, _ = nasty_run
    assert code == 1
    assert "\x1b" not in out and "\x00" not in out and "\u202e" not in out and "\ud800" not in out
    lines = out.splitlines()
    closing = [line for line in lines if re.match(r"\d+ passed, \d+ failed", line)]
    assert closing == [lines[-1]] and not lines[-1].startswith("425 passed, 0 failed")


def test_junit_parses_and_carries_no_control_character(nasty_run: tuple[int, str, Path]) -> None:
    _, _, reports = nasty_run
    text = (reports / "junit.xml").read_text(encoding="utf-8")
    ET.fromstring(text.encode("utf-8"))
    assert not any(ord(c) < 32 and c not in "\n\t" for c in text)


def test_report_md_carries_no_live_markup(nasty_run: tuple[int, str, Path]) -> None:
    _, _, reports = nasty_run
    text = (reports / "report.md").read_text(encoding="utf-8")
    assert "<script>" not in text and "<b>" not in text and "&lt;script&gt;" in text
    assert "[link](" not in text and "\\[link\\]" in text
    assert "~~struck~~" not in text and "\\~\\~struck\\~\\~" in text  # no strikethrough
    # no address GitHub would make a link of by itself
    assert not re.search(r"https?://|\bwww\.|\w@\w", text) and "https\\://evil.example/x www\\.evil.example mail\\@" in text
    assert "\x1b" not in text and "\ufffe" not in text


def test_a_huge_message_is_cut_in_every_file(nasty_run: tuple[int, str, Path]) -> None:
    _, out, reports = nasty_run
    for file in ("run.jsonl", "report.md", "junit.xml", "summary.json"):
        text = (reports / file).read_text(encoding="utf-8")
        assert HUGE[: untrusted.CAP + 1] not in text, file
        assert "[cut: " in text, file
    assert len(out) < 2_000_000
    for line in (reports / "run.jsonl").read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry["type"] == "scenario" and entry["error"]:
            assert len(entry["error"]) < untrusted.CAP + 100


def test_the_handshake_is_kept_as_safe_text(nasty_run: tuple[int, str, Path]) -> None:
    _, _, reports = nasty_run
    header = json.loads((reports / "run.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert header["engine"]["name"].startswith("nasty\\x1b[2J\\x0a425 passed")
    assert header["engine"]["variants"] == ["albastini-2p", "altbaumer-standard"]


def test_a_handshake_declaring_variants_without_end_is_kept_short() -> None:
    """Every report carries the engine's variants: of those the run does not ask for, the first VARIANTS_KEPT are
    kept, each once, each cut short."""
    declared = ["albastini-2p", "albastini-2p"] + [f"v{i}-" + "x" * 300 for i in range(50_000)]
    kept = untrusted.identity({"name": "e", "variants": declared})["variants"]
    assert len(kept) == untrusted.VARIANTS_KEPT and kept[0] == "albastini-2p" and len(set(kept)) == len(kept)
    assert kept[1].startswith("v0-" + "x" * 150) and len(kept[1]) < 250  # cut, and said to be
    # a variant the run may ask for is kept wherever the engine names it: the cap is on the others
    late = untrusted.identity({"variants": [*declared, "altbaumer-standard"]}, {"albastini-2p", "altbaumer-standard"})
    assert late["variants"][-1] == "altbaumer-standard" and len(late["variants"]) == untrusted.VARIANTS_KEPT + 2


def test_a_handshake_declaring_fields_without_end_keeps_the_first_reports_kept() -> None:
    """Every report carries the fields an engine declares it reports: the first REPORTS_KEPT of them, no more."""
    declared = [f"field{i}" for i in range(5_000)]
    kept = untrusted.identity({"name": "e", "reports": declared})["reports"]
    assert len(declared) > untrusted.REPORTS_KEPT and kept == declared[: untrusted.REPORTS_KEPT]


def test_a_log_s_header_of_any_size_makes_a_summary_of_the_kit_s(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A run log is a file anyone may write: its header's engine and kit are kept as a handshake is."""
    assert main(["verify", "--variant", "briscola-2p", "--report-dir", str(tmp_path / "made")]) == 0
    header, *rest = (tmp_path / "made" / "run.jsonl").read_text(encoding="utf-8").splitlines()
    swollen = json.loads(header)
    swollen["engine"] = {**swollen["engine"], "variants": [f"v{i}" for i in range(100_000)], "extra": "x" * 1_000_000}
    swollen["kit"] = {**swollen["kit"], "extra": ["y" * 1000] * 1000}
    (tmp_path / "run.jsonl").write_text("\n".join([json.dumps(swollen), *rest]) + "\n", encoding="utf-8")
    assert main(["report", str(tmp_path / "run.jsonl"), "--format", "json", "-o", str(tmp_path / "summary.json")]) == 0
    capsys.readouterr()
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert len(summary["engine"]["variants"]) <= untrusted.VARIANTS_KEPT and "extra" not in summary["engine"]
    assert set(summary["kit"]) == {"name", "version"}
    assert (tmp_path / "summary.json").stat().st_size < 200_000


@pytest.mark.parametrize(
    "character",
    [
        "\x00", "\x1b", "\x7f", "\x85", "\u202e", "\u061c", "\u2066", "\ufeff", "\n", "\r", "\t", "\ud800", "\udfff", "\ufffe",
        "\uffff",
    ],
)
def test_every_unsafe_character_is_escaped(character: str) -> None:
    made_safe = untrusted.text(f"a{character}b")
    assert character not in made_safe and made_safe.startswith("a\\") and made_safe.endswith("b")
    assert character not in str(EngineError(ErrorKind.CRASH, character))


def test_text_escaped_beyond_the_cap_is_cut_at_the_cap_and_says_so() -> None:
    """Escaping makes text longer (one character, four): text within the cap may grow past it, and is cut there,
    the note giving the length it had."""
    assert untrusted.text("\x1b" * 8, 8) == "\\x1b\\x1b [cut: 8 characters in all]"
    note = f" [cut: {untrusted.CAP} characters in all]"
    made_safe = untrusted.text("\x00" * untrusted.CAP)
    assert made_safe == ("\\x00" * untrusted.CAP)[: untrusted.CAP] + note
    assert len(made_safe) == untrusted.CAP + len(note)


def test_printable_text_in_any_script_is_kept() -> None:
    assert untrusted.text("Anna spielt ♠A, Борис ♥10 — 黒") == "Anna spielt ♠A, Борис ♥10 — 黒"


def test_a_line_with_a_lone_surrogate_is_unreadable_where_it_is() -> None:
    with pytest.raises(untrusted.Unreadable, match=r"found the lone surrogate \\udc00 in a string") as refused:
        untrusted.json_line('{"é": ["ok", "\\uDC00"]}'.encode())
    assert refused.value.column == 15  # counted in characters, as the parser counts them


@pytest.mark.parametrize(
    ("line", "value"),
    [('{"a": "\\ud83d\\ude00"}', {"a": "\U0001f600"}), ('{"a": "\\\\ud800"}', {"a": "\\ud800"})],
    ids=["a surrogate pair", "an escaped backslash"],
)
def test_a_surrogate_pair_and_an_escaped_backslash_are_read(line: str, value: object) -> None:
    assert untrusted.json_line(line.encode()) == value


def test_a_byte_that_is_not_utf8_is_located_in_characters() -> None:
    """Columns count characters, as the JSON parser's own do: é is two bytes and one column."""
    with pytest.raises(untrusted.Unreadable) as unreadable:
        untrusted.json_line('{"é":"'.encode() + b'\xff"}')
    assert unreadable.value.column == 7 and "found byte 0xff at position 7" in str(unreadable.value)


@pytest.mark.parametrize(
    ("line", "column", "escape"),
    [
        (r'{"x":"\ud83d\ude00\ud83d"}', 19, r"\ud83d"),  # a pair, then a high half alone
        (r'{"x":"\\ud800","y":"\ud800"}', 21, r"\ud800"),  # an escaped backslash first: text, not an escape
        (r'{"v":"\udc00","\ud800":1}', 7, r"\udc00"),  # a value before a key: the line's order
        (r'{"a":"\ud800\ud800\udc00"}', 7, r"\ud800"),  # a high half, then a whole pair
    ],
)
def test_a_lone_surrogate_is_located_at_its_own_escape(line: str, column: int, escape: str) -> None:
    with pytest.raises(untrusted.Unreadable, match=re.escape(f"found the lone surrogate {escape} in a string")) as refused:
        untrusted.json_line(line.encode())
    assert refused.value.column == column


CUT_LINES = [
    '{"type":"scenario","id":"a/b","seconds":0.25,"error":null,"ok":true,"no":false,"n":-12e+3,"t":[1,[2,{"x":[]}],{}]}',
    json.dumps({"é": "中 \U0001f600 \\u \"quoted\"", "s": "\x1b", "f": 1.5e-07}, ensure_ascii=False),
    json.dumps({"é": "中 \U0001f600", "s": "\x1b"}),  # escaped: \u00e9, a surrogate pair, \u001b
]


@pytest.mark.parametrize("line", CUT_LINES)
def test_every_first_part_of_a_line_is_one_that_ends_early(line: str) -> None:
    """What a writer stopped mid-line leaves (a run log's last line, when the run was killed), byte by byte."""
    raw = line.encode()
    for end in range(1, len(raw)):
        with pytest.raises(untrusted.Unreadable) as refused:
            untrusted.json_line(raw[:end])
        assert refused.value.ends_early, (raw[:end], str(refused.value))


@pytest.mark.parametrize(
    "line",
    ['{"a":1}}', '{"a":1} {"b":2}', '{"a": x', '{"a":1,"a":2}', '{"a":{"b":1,"b":2}, oops', '{"a":"\\ud800"}', '{"a":NaN}'],
)
def test_a_line_wrong_in_itself_does_not_end_early(line: str) -> None:
    with pytest.raises(untrusted.Unreadable) as refused:
        untrusted.json_line(line.encode())
    assert not refused.value.ends_early, str(refused.value)


@pytest.mark.parametrize("line", ['{"a":{"b":1,"b":2}', '{"a":{"b":1,"b":2}, oops', '{"a":' + "9" * 5000])
def test_a_key_twice_or_a_long_number_before_a_fault_of_syntax_is_that_fault(line: str) -> None:
    """The parser meets the key or the number first; what is wrong with the line as text is said first."""
    with pytest.raises(untrusted.Unreadable, match=r"expected a JSON object per line"):
        untrusted.json_line(line.encode())


@pytest.mark.parametrize(
    "line", ['{"a":0 1', "[1 2", "{t", '{"a":1.5.', '{"a":00', '{"a":"x" "y', "{1", '{"a":Na', '{"a":1e5e'],
)
def test_text_no_completion_could_make_json_does_not_end_early(line: str) -> None:
    """Each of these stops at its end, but was wrong before it: no killed writer leaves it."""
    with pytest.raises(untrusted.Unreadable) as refused:
        untrusted.json_line(line.encode())
    assert not refused.value.ends_early, str(refused.value)
    with pytest.raises(untrusted.Unreadable) as refused:
        untrusted.json_line(line.encode() + "é".encode()[:1])  # and a character cut after it
    assert not refused.value.ends_early, str(refused.value)


@pytest.mark.parametrize(("raw", "cut"), [(b'{"a":"\xc3', True), (b'{"a":1}\xc3', False), (b'{"a":1,\xc3', False)])
def test_a_character_cut_in_two_is_a_first_part_only_inside_a_string(raw: bytes, cut: bool) -> None:
    with pytest.raises(untrusted.Unreadable) as refused:
        untrusted.json_line(raw)
    assert refused.value.ends_early is cut


HALF_MIB = 1 << 19  # lines of a MiB or so
HOPELESS_LINES: dict[str, Callable[[], str]] = {  # made when a test asks, so that no worker holds them all
    "a NUL in a string": lambda: '{"a":"' + "x" * HALF_MIB + "\x00" + "x" * HALF_MIB + '"}',
    "a NUL at its start": lambda: '\x00{"a":"' + "x" * 2 * HALF_MIB,
    "an escape character at its end": lambda: '{"a":"' + "x" * 2 * HALF_MIB + "\x1b",
}


@pytest.mark.parametrize("name", HOPELESS_LINES)
def test_a_line_holding_a_control_character_json_holds_nowhere_is_no_first_part_and_parsed_no_more(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A C0 control but tab, line feed and carriage return is in no JSON text, not even escaped in a string:
    whatever follows such a line, it is not one, and that is said without a parse of it (a line of a few
    hundred MB once took dozens)."""
    line = HOPELESS_LINES[name]()
    parsed: list[int] = []
    loads = json.loads

    def counted(text: str, **hooks: Any) -> Any:
        parsed.append(len(text))
        return loads(text, **hooks)

    monkeypatch.setattr(json, "loads", counted)
    assert untrusted.is_json_prefix(line) is False
    assert parsed == []


def test_an_engine_line_refused_is_not_tried_as_a_first_part_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether a refused line stops inside a value matters only for a run log's last line; an engine's line
    is refused without trying each way of finishing it (a few dozen parses of a line of up to 64 MiB)."""
    tried: list[str] = []
    real = untrusted.is_json_prefix
    monkeypatch.setattr(untrusted, "is_json_prefix", lambda text: tried.append(text) or real(text))
    with pytest.raises(untrusted.Unreadable) as refused:
        untrusted.json_line(b'{"id": "a", "result": [1, 2')
    assert tried == []
    assert refused.value.ends_early is True and tried == ['{"id": "a", "result": [1, 2']
    assert refused.value.ends_early is True and len(tried) == 1  # found once


def test_a_line_nested_to_the_limit_is_read_and_one_level_more_is_too_deep() -> None:
    """The bound itself is accepted; one level over it is refused, however few brackets surround the chain."""
    at_limit = untrusted.json_line(b"[" * limits.MAX_DEPTH + b"]" * limits.MAX_DEPTH)
    for _ in range(limits.MAX_DEPTH - 1):
        (at_limit,) = at_limit
    assert at_limit == []
    over = limits.MAX_DEPTH + 1
    with pytest.raises(untrusted.Unreadable) as refused:
        untrusted.json_line(b"[" * over + b"]" * over)
    assert str(refused.value) == f"expected at most {limits.MAX_DEPTH} levels of nesting, found more"


@pytest.mark.parametrize("raw", [b"[" * 100_000, b'{"a": ' + b"[" * 100_000, b"[1, " * 100_000])
def test_brackets_opened_deeper_than_the_limit_and_never_closed_are_too_deep(raw: bytes) -> None:
    """Unbalanced text too: json would recurse into it as into any deep line, and fail with no message."""
    with pytest.raises(untrusted.Unreadable, match="levels of nesting"):
        untrusted.json_line(raw)


@pytest.mark.parametrize(
    ("raw", "limit"),
    [
        (b'{"a":[[[1]]],"b":[[[2', 6),  # 4 deep: the earlier value's brackets are siblings, not around the open ones
        (b'{"id":"x","clauses":["' + b"[" * 200, 100),  # the brackets are in a string the cut left open
    ],
)
def test_a_shallow_line_cut_short_is_no_deeper_than_it_is(raw: bytes, limit: int) -> None:
    """What a writer stopped mid-line leaves (a run log's last line) is said to end early, not to be too deep."""
    with pytest.raises(untrusted.Unreadable) as refused:
        untrusted.json_line(raw, limit)
    assert "levels of nesting" not in str(refused.value) and refused.value.ends_early is True


@pytest.mark.parametrize(
    "value", [12345, None, -0.0, [], [1, "é", {"a": None, "b": [True, 1.5e300]}], {"k\x1b": "\u202e"}, ["x" * 300]]
)
def test_an_id_that_is_no_string_is_shown_as_json_writes_it(value: object) -> None:
    whole = json.dumps(value, ensure_ascii=False)
    shown = protocol._shown_id({"id": value})
    if len(whole) <= 200:
        assert shown == f"{untrusted.text(whole, 200)}, not a string"
    else:
        assert shown == f"{untrusted.text(whole[:200], 200)} [cut: more than 200 characters in all], not a string"


ENORMOUS_IDS: dict[str, Callable[[], object]] = {
    "a long list": lambda: list(range(100_000)),
    "a long string": lambda: {"k": "x" * 2_000_000},
    "a long string to escape": lambda: [["\n" * 500_000]],
    "a wide object": lambda: {f"k{i}": [i] for i in range(50_000)},
}


@pytest.mark.parametrize("name", ENORMOUS_IDS)
def test_an_enormous_id_is_written_only_as_far_as_it_is_shown(name: str) -> None:
    """An id as large as an engine's line may be (64 MiB) costs a message no more than a small one: its first
    200 characters, as JSON writes them, and nothing of the rest is written, not even to count it."""
    value = ENORMOUS_IDS[name]()
    tracemalloc.start()
    shown = protocol._shown_id({"id": value})
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 64 * 1024, f"{peak} bytes"
    start = untrusted.text(json.dumps(value, ensure_ascii=False)[:200], 200)
    assert shown == f"{start} [cut: more than 200 characters in all], not a string"


@settings(max_examples=cases(quick=200, deep=5000), deadline=None, database=None)
@given(json_values(st.integers() | st.floats() | st.booleans() | st.none() | st.text(), st.text(), width=5, max_leaves=20),
       st.integers(1, 80))
def test_a_json_value_is_written_as_json_dumps_writes_it_as_far_as_it_is_shown(value: object, cap: int) -> None:
    whole = json.dumps(value, ensure_ascii=False)
    shown = untrusted.json_text(value, cap)
    if len(whole) <= cap:
        assert shown == untrusted.text(whole, cap)
    else:
        assert shown == untrusted.text(whole[:cap], cap)[:cap] + f" [cut: more than {cap} characters in all]"


@settings(max_examples=cases(quick=300, deep=5000), deadline=None, database=None)
@given(json_values(st.integers() | st.floats(allow_nan=False) | st.booleans() | st.none() | st.text(), st.text(),
                   width=8, max_leaves=60),
       st.integers(1, 120))
def test_the_part_of_a_value_shown_is_written_as_the_value_is(value: object, cap: int) -> None:
    """What a run log's value is cut to when read is written as the value is, so a report made of it is the same."""
    part = untrusted.shown_part(value, cap)
    assert untrusted.json_text(part, cap) == untrusted.json_text(value, cap)
    assert len(json.dumps(part, ensure_ascii=False)) <= max(len(json.dumps(value, ensure_ascii=False)), cap + 200)


def test_the_part_shown_of_a_value_of_millions_of_items_is_a_few_thousand_characters() -> None:
    value = [[]] * 2_000_000
    part = untrusted.shown_part(value)
    assert len(json.dumps(part)) < 2 * untrusted.CAP and untrusted.json_text(part) == untrusted.json_text(value)


def _log(path: Path, scenario: dict[str, Any], spec_version: str = "0.1.0+0") -> Path:
    """A run log of one scenario line, as anyone may have written one."""
    header = {"type": "header", "kit": {"name": "trickspec", "version": "0.1.0"}, "spec_version": spec_version, "engine":
              {"name": "e", "version": "1"}, "options": {}, "started": "2026-12-03T11:23:28+00:00", "scenarios": 1}
    line = {"type": "scenario", "id": "a/b/c", "outcome": "fail", "game": "albastini", "variant": "albastini-2p",
            "clauses": ["albastini.play.trick-winner"], "file": "f.yaml", "line": 1, "seconds": 0.1, "mismatch": None,
            "mismatches": [], "error": None, "expected": None, "note": None, **scenario}
    footer = {"type": "footer", "counts": {"fail": 1}, "seconds": 1.0, "finished": "2026-12-03T11:23:28+00:00"}
    path.write_text("".join(json.dumps(entry) + "\n" for entry in (header, line, footer)), encoding="utf-8")
    return path


def test_a_failure_s_text_is_cut_in_a_junit_report_made_from_a_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mismatch = {"step": 1, "line": 1, "what": "totals", "expected": ["x"] * 200_000, "observed": [0, 0]}
    log = _log(tmp_path / "run.jsonl", {"mismatch": mismatch})
    assert main(["report", "--format", "junit", str(log)]) == 0
    out = capsys.readouterr().out
    ET.fromstring(out.encode("utf-8"))
    assert len(out) < 3 * untrusted.CAP and "[cut: " in out


def test_an_id_in_several_logs_is_named_as_safe_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nasty = {"id": "x/\x1b[31mRED\x1b[0m\x07\u202e"}
    logs = [str(_log(tmp_path / f"{k}.jsonl", nasty)) for k in "ab"]
    assert main(["report", *logs]) == 2
    err = capsys.readouterr().err
    assert "also in" in err and "\x1b" not in err and "\x07" not in err and "\u202e" not in err


def test_a_report_with_its_standard_streams_closed_writes_no_traceback_and_no_note_into_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`trickspec report ... >&-` and `2>&- > report.json`: Python's stream is None for a closed one."""
    logs = [str(_log(tmp_path / f"{k}.jsonl", {"id": f"a/b/{k}"}, f"0.1.0+{k}")) for k in "ab"]  # two specs: a note to say
    monkeypatch.setattr(sys, "stderr", None)
    assert main(["report", "--format", "json", *logs]) == 0
    json.loads(capsys.readouterr().out)  # the report alone: the note went nowhere, not into it
    monkeypatch.setattr(sys, "stdout", None)
    assert main(["report", *logs]) == 0


def _read(raw: bytes, *, fast: bool) -> tuple[str, object]:
    """What json_line makes of ``raw``: the value (its repr, which tells 1 from 1.0 and true from 1) or its
    refusal, message, column and path; with orjson's fast reading, or with json's alone."""
    with pytest.MonkeyPatch.context() as patch:
        if not fast:
            patch.setattr(untrusted, "_read_fast", lambda raw, keys_once: untrusted._UNSURE)
        try:
            return ("value", repr(untrusted.json_line(raw)))
        except untrusted.Unreadable as err:
            return ("refused", (str(err), err.column, err.path))


_LEAVES = (
    st.integers(-(10**17), 10**17)
    | st.integers(10**15 - 2, 10**15 + 2)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.booleans()
    | st.none()
    | st.text(alphabet=st.sampled_from('a:é"\\\x1f\u2028 0eE.\U0001f600'), max_size=6)
)


def _leaf_text(ascii_only: bool, value: object) -> str:
    return json.dumps(value, ensure_ascii=ascii_only)


def _array(items: list[str]) -> str:
    return "[" + ",".join(items) + "]"


def _object(members: list[tuple[str, str]]) -> str:
    return "{" + ",".join(f"{key}:{value}" for key, value in members) + "}"


def _nested_text(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    keys = st.text(alphabet=st.sampled_from('a:"\\e'), max_size=2).map(json.dumps)  # few keys: one twice is common
    return st.lists(inner, max_size=4).map(_array) | st.lists(st.tuples(keys, inner), max_size=4).map(_object)


@st.composite
def _lines(draw: st.DrawFn) -> bytes:
    """JSON text as engines write it (ASCII or not, spaced or not, a key twice now and then), and a byte
    of it changed, cut or repeated now and then: a number made long, a letter where a digit stood."""
    ascii_only = draw(st.booleans())
    text = draw(st.recursive(_LEAVES.map(partial(_leaf_text, ascii_only)), _nested_text, max_leaves=16))
    raw = text.replace(",", draw(st.sampled_from([",", ", ", " ,\t"]))).encode()  # in strings too: still JSON
    edit = draw(st.sampled_from(["none", "insert", "cut", "repeat"]))
    at = draw(st.integers(0, len(raw)))
    if edit == "insert":
        inserted = [b"0", b"9" * 16, b"e", b".5", b"\\", b"\\u003a", b"\\udc00", b"\xff", b"\x00", b"true"]
        raw = raw[:at] + draw(st.sampled_from(inserted)) + raw[at:]
    elif edit == "cut":
        raw = raw[:at] + raw[at + 1 :]
    elif edit == "repeat":
        raw = raw[:at] + raw[at : at + draw(st.integers(1, 8))] + raw[at:]
    return raw


@settings(max_examples=cases(quick=300, deep=20000), deadline=None, database=None)
@given(_lines())
def test_the_fast_reading_reads_every_line_as_json_alone_does(raw: bytes) -> None:
    """orjson reads the lines it can vouch for: each gives the same value, or the same refusal, as json alone."""
    assert _read(raw, fast=True) == _read(raw, fast=False)


@pytest.mark.parametrize(
    "line",
    [
        '{"a": 1, "a": 2}',  # a key twice, which orjson reads as its last
        '{"a:b": 1, "a": 2, "a": 3}',  # a colon in a key as well
        '{"\\u003a": 1, "a": 1, "a": 2}',  # an escaped colon, which json writes back as a colon
        f'{{"a": {10**15}}}',  # the bound itself
        f'{{"a": {10**15 + 1}}}',  # past it
        '{"a": 18446744073709551616}',  # which orjson reads as a float
        '{"a": 1E400}',
        '{"a": 1.0, "b": -0, "c": -0.0}',
        '{"a": NaN}',
        '\ufeff{"a": 1}',
        '{"a": "\\udc00"}',
        '{"a": true, "b": [false, null]}',
    ],
)
def test_the_fast_reading_reads_these_lines_as_json_alone_does(line: str) -> None:
    assert _read(line.encode(), fast=True) == _read(line.encode(), fast=False)


@pytest.mark.parametrize(("raw", "depth", "keys_once"), [
    (b"[" * 255 + b"]" * 255, 255, True),  # deeper than orjson writes back
    (b"[" * 994 + b"]" * 994, 2000, False),  # deeper than json reads within the interpreter's recursion
    (b"[" * 200 + b"]" * 200, 200, True),
])  # fmt: skip
def test_a_line_nested_deeper_than_the_kit_s_limit_allows_is_read_as_json_alone_reads_it(
    raw: bytes, depth: int, keys_once: bool
) -> None:
    """Callers may allow a deeper nesting than the kit's: the reading is then the careful one's."""

    def read(fast: bool) -> tuple[str, object]:
        with pytest.MonkeyPatch.context() as patch:
            if not fast:
                patch.setattr(untrusted, "_read_fast", lambda raw, keys_once: untrusted._UNSURE)
            try:
                return ("value", repr(untrusted.json_line(raw, depth, keys_once=keys_once)))
            except untrusted.Unreadable as err:
                return ("refused", str(err))

    assert read(fast=True) == read(fast=False)


def test_an_engine_s_error_message_is_kept_from_behind_its_stack_frames() -> None:
    """Node.js, Java and C# print the error first and its frames under it: the tail the kit shows passes over the
    frames, else the message would be lost behind them; Python's traceback ends with its message anyway."""
    node = ["/p/engine.js:100", "    throw new TypeError('boom on 3H');", "    ^", "", "TypeError: boom on 3H",
            *[f"    at f{i} (node:internal/{i}:1:1)" for i in range(10)], "", "Node.js v20.20.2"]  # fmt: skip
    assert "TypeError: boom on 3H" in untrusted.tail("stderr", node)
    python = ["Traceback (most recent call last):", '  File "e.py", line 3, in <module>', "    f()", "ValueError: bad"]
    assert untrusted.tail("stderr", python).endswith("ValueError: bad")
    assert untrusted.tail("stderr", ["    at only frames"]) == "; stderr:     at only frames"
    rust = ["thread 'main' panicked at src/main.rs:113:66:", "index out of bounds: the len is 3 but the index is 5",
            "stack backtrace:", "   0: __rustc::rust_begin_unwind",
            "             at /rustc/17067e9ac6d7e98f18d4e5ed6a1c8e1f6b8bd0d4/library/std/src/panicking.rs:697:5",
            "   1: core::panicking::panic_fmt", "   2: brisk::main", "   3: core::ops::function::FnOnce::call_once",
            "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace."]  # fmt: skip
    assert untrusted.tail("stderr", rust) == (
        "; stderr: thread 'main' panicked at src/main.rs:113:66: | index out of bounds: the len is 3 but the index is 5"
    )
    go = ["panic: runtime error: index out of range [5] with length 3", "", "goroutine 1 [running]:",
          "main.(*Game).Play(0xc000012345, 0x5)", "\t/home/a/brisk/game.go:42 +0x1d", "main.main()",
          "\t/home/a/brisk/main.go:8 +0x25", "exit status 2"]  # fmt: skip
    numbered = ["error: bad setup:", "  1: hands must hold 3 cards", "  2: stock too short"]  # the engine's own list
    assert untrusted.tail("stderr", numbered) == "; stderr: " + " | ".join(numbered)
    assert untrusted.tail("stderr", go) == "; stderr: panic: runtime error: index out of range [5] with length 3 | exit status 2"


def test_a_value_python_cannot_show_is_said_to_be_one() -> None:
    """An in-process engine's snapshot may hold what neither json nor repr can write: said, never raised."""
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    assert untrusted.data({"stock_count": 10**5000}) == "a dict too large or too deep to show"
    assert untrusted.data(deep) == "a list too large or too deep to show"


def test_a_line_that_is_no_json_is_shown_with_its_escapes_once_and_cut() -> None:
    """Quoted as Python writes a string: an escape byte or a byte order mark is written once (\\x1b, \\ufeff), not
    with its backslash doubled; a long line is cut before it is quoted."""
    with pytest.raises(untrusted.Unreadable) as refused:
        untrusted.json_line('\ufeff{"a": "\x1b[31m" oops'.encode())
    said = str(refused.value)
    assert said.startswith("expected a JSON object per line, found '\\ufeff{\"a\": \"\\x1b[31m\" oops' (") and "\\\\" not in said
    with pytest.raises(untrusted.Unreadable) as refused:
        untrusted.json_line(b"x" * 100_000)
    assert f"found '{'x' * 80}' [cut: 100,000 characters in all] (Expecting value)" in str(refused.value)
    assert len(str(refused.value)) < 200


def _nested(levels: int) -> list[Any]:
    """A list nested ``levels`` deep ([] is one level)."""
    value: list[Any] = []
    for _ in range(levels - 1):
        value = [value]
    return value


def test_a_value_nested_deeper_than_the_kept_depth_is_kept_as_its_text() -> None:
    """A run-log line nests an engine's value within its own: a value nested deeper than KEPT_DEPTH is kept as text,
    so no line the kit writes is too deep for it to read back."""
    assert untrusted.data(_nested(untrusted.KEPT_DEPTH)) == _nested(untrusted.KEPT_DEPTH)
    deeper = untrusted.KEPT_DEPTH + 1
    assert untrusted.data(_nested(deeper)) == "[" * deeper + "]" * deeper


def test_the_tail_of_an_engine_s_output_is_its_last_lines() -> None:
    """What an engine said last is nearest its failure: the first lines are dropped, never the last."""
    lines = [f"line {i}" for i in range(untrusted.TAIL_LINES + 3)]
    assert untrusted.tail("stderr", lines) == "; stderr: " + " | ".join(lines[-untrusted.TAIL_LINES :])
