"""Paths in problems are JSONPath as RFC 9535 writes them: a name after a dot only where its member-name-shorthand
allows it, any other quoted in brackets, so that a reader or a JSONPath tool finds the value the problem names."""

from __future__ import annotations

import pytest

from specreader.jsontypes import JsonPath
from specreader.problems import format_path


@pytest.mark.parametrize(
    ("path", "written"),
    [
        (("components", "trump", 0), "$.components.trump[0]"),
        (("result", "next_dealer"), "$.result.next_dealer"),
        (("_private", "a1"), "$._private.a1"),
        (("hands", "0"), '$.hands["0"]'),
        (("hands", "-1"), '$.hands["-1"]'),  # a seat an engine dealt to: no name JSONPath writes after a dot
        (("variants", "albastini-2p"), '$.variants["albastini-2p"]'),
        (("hands", "a b"), '$.hands["a b"]'),
        (("hands", 'say "hi"'), '$.hands["say \\"hi\\""]'),
        (("hands", "\x1b[2J"), '$.hands["\\u001b[2J"]'),  # a control character escaped, never written as it is
        (("hands", ""), '$.hands[""]'),
    ],
)
def test_a_path_is_written_as_jsonpath(path: JsonPath, written: str) -> None:
    assert format_path(path) == written
