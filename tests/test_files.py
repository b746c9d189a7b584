"""Reading a file a line at a time, each line held to a bound; and a problem of a file said in bounded length."""

from __future__ import annotations

import io

import pytest

from specreader import files


@pytest.mark.parametrize(
    ("data", "lines"),
    [
        (b"abcd\nabcd\r\nab\n", [b"abcd\n", b"abcd\r\n", b"ab\n"]),  # the line break is not counted, LF or CRLF
        (b"abcde\nab\n", [None, b"ab\n"]),
        (b"abcde\r\nab", [None, b"ab"]),
        (b"abcdefghijklm\r\nab\r\n", [None, b"ab\r\n"]),  # a line longer than a read is passed over to its end
        (b"abcd", [b"abcd"]),
        (b"abcd\r", [None]),  # a carriage return without a line feed is the line's own
    ],
)
def test_bounded_lines_hold_each_line_to_the_limit(data: bytes, lines: list[bytes | None]) -> None:
    assert list(files.bounded_lines(io.BytesIO(data), 4)) == lines


def test_a_problem_of_a_key_of_megabytes_is_said_short() -> None:
    from specreader.problems import Problem

    key = "k" * 2_000_000
    said = str(Problem("t.jsonl", 1, 5, ("observations", 0, "snapshot", key), f"expected a snapshot field, found {key!r}"))
    assert len(said) < 3_000 and said.count("[cut: ") == 2
