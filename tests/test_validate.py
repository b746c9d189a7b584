"""`trickspec validate`: schema and cross-file problems, one located line each, exit 2."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from conformance.cli import main

LOCATED = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<path>\$\S*): (?P<msg>.+)$")

Write = Callable[[str, str], Path]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    code = main(["validate", *args])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, [line for line in err.splitlines() if not line.endswith("problem(s)")]


def test_the_kit_is_valid(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate"]) == 0
    assert capsys.readouterr().out.startswith("valid")


VARIANT = """\
id: {id}
title: Test variant
extends: {parent}
"""


def test_extends_cycle(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    a = write("variants/a.yaml", VARIANT.format(id="cycle-a", parent="cycle-b"))
    write("variants/b.yaml", VARIANT.format(id="cycle-b", parent="cycle-a"))
    code, lines = run(capsys, str(a.parent))
    assert code == 2
    assert any("extends cycle" in line and LOCATED.match(line) for line in lines)


def test_unknown_parent_and_incomplete_variant(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    lonely = write("variants/lonely.yaml", "id: lonely\ntitle: Alone\nextends: no-such-variant\n")
    bare = write("variants/bare.yaml", "id: bare\ntitle: Bare\ngame: albastini\n")
    code, lines = run(capsys, str(lonely), str(bare))
    assert code == 2
    assert f"{lonely}:3:10: $.extends: unknown variant 'no-such-variant'" in "\n".join(lines)
    assert any(line.startswith(f"{bare}:1:1: $: after inheritance: missing required key 'players', 'sides'") for line in lines)


def test_unknown_keys_wrong_types_and_bad_cards(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(
        "variants/typo.yaml",
        "id: typo\ntitle: Typo\nextends: albastini-4p\nplayer: 4\ndeal: {hand_size: five}\n"
        "ranking: {top_trumps: [10H, XS, no]}\n",
    )
    code, lines = run(capsys, str(path))
    assert code == 2
    text = "\n".join(lines)
    assert f"{path}:4:1: $.player: unknown key 'player'" in text
    assert f'{path}:5:19: $.deal.hand_size: expected integer, found string "five"' in text
    for column, card in ((24, "10H"), (29, "XS"), (33, "no")):
        assert f"{path}:6:{column}: $.ranking.top_trumps[" in text and f'found string "{card}"' in text
    assert all(LOCATED.match(line) for line in lines)


def test_deck_tables_must_cover_the_deck(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(
        "variants/short.yaml",
        "id: short-ranks\ntitle: Short\nextends: albastini-4p\nranking: {plain_order: A 7 K J Q 6 5 4}\n"
        "deck: {ranks: A 7 K J Q T 6 5 4 3}\n",
    )
    code, lines = run(capsys, str(path))
    assert code == 2
    text = "\n".join(lines)
    assert "$.ranking.plain_order: expected an order of exactly the deck's ranks" in text
    assert "$.values: expected a value for every rank of the deck, missing T" in text


def test_undefined_clause_reference_in_a_ruling(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(
        "rulings.yaml",
        "game: albastini\nrulings:\n  - id: R99\n    title: T\n    question: Q\n    readings:\n"
        "      - {summary: one, sources: [pagat]}\n      - {summary: two, sources: [nowhere]}\n"
        "    decision: D\n    clauses: [albastini.play.no-such-clause]\n",
    )
    code, lines = run(capsys, str(path))
    assert code == 2
    text = "\n".join(lines)
    assert f"{path}:10:15: $.rulings[0].clauses[0]: unknown clause 'albastini.play.no-such-clause'" in text
    assert f"{path}:8:34: $.rulings[0].readings[1].sources[0]: unknown source 'nowhere'" in text


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"a: [1, 2\n", "invalid YAML"),
        (b"", "found an empty file"),
        (b"\x00\x01\x02binary", "binary data"),
        (b"id: x\nid: y\n", "duplicate key 'id'"),
    ],
)
def test_malformed_files(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, fragment: str) -> None:
    path = tmp_path / "variants" / "bad.yaml"
    path.parent.mkdir()
    path.write_bytes(content)
    code, lines = run(capsys, str(path))
    assert code == 2
    assert any(fragment in line and line.startswith(str(path)) for line in lines)


def test_ten_megabyte_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("scenarios:\n" + "# padding\n" * (1024 * 1024), encoding="utf-8")
    code, lines = run(capsys, str(path))
    assert code == 2
    assert lines == [f"{path}:1:1: $: expected a YAML file of at most 2 MiB, found 10.0 MiB"]


def test_missing_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = run(capsys, str(tmp_path / "nowhere.yaml"))
    assert code == 2
    assert lines == [f"{tmp_path / 'nowhere.yaml'}:0:0: $: no such file or directory"]


def test_every_problem_in_one_run(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    one = write("variants/one.yaml", "id: one\ntitle: One\nextends: albastini-2p\nplayers: two\n")
    two = write("variants/two.yaml", "id: two\ntitle: Two\nextends: albastini-2p\ndirection: sideways\n")
    code, lines = run(capsys, str(one), str(two))
    assert code == 2
    assert {line.split(":")[0] for line in lines} >= {str(one), str(two)}
