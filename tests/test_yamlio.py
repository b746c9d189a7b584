"""The strict loader: YAML 1.2 scalars, no duplicates, no tags, located errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from specreader import files
from specreader.limits import MAX_YAML_BYTES
from specreader.problems import DataError
from specreader.yamlio import load, loads


def problems_of(text: str) -> list[str]:
    with pytest.raises(DataError) as caught:
        loads(text, "f.yaml")
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize("word", ["no", "No", "on", "off", "y", "n", "yes", "NO"])
def test_yaml11_booleans_stay_strings(word: str) -> None:
    assert loads(f"a: {word}\n").data == {"a": word}


def test_core_scalars() -> None:
    doc = loads("a: true\nb: 7\nc: -1.5\nd: null\ne: ~\nf: '7'\ng: 7H\nh: 1e3\n")
    assert doc.data == {"a": True, "b": 7, "c": -1.5, "d": None, "e": None, "f": "7", "g": "7H", "h": 1000.0}


def test_keys_are_strings_as_in_json() -> None:
    assert loads("values: {A: 11, 7: 10, true: 1}\n").data == {"values": {"A": 11, "7": 10, "true": 1}}


def test_every_node_keeps_line_and_column() -> None:
    doc = loads("top:\n  list:\n    - 7H\n    - TD\n")
    assert doc.marks[("top", "list", 1)] == (4, 7)
    assert doc.where(("top", "list", 1, "missing")) == (4, 7)


def test_duplicate_key_names_both_places() -> None:
    assert problems_of("a: 1\nb:\n  c: 1\n  c: 2\n") == ["f.yaml:4:3: $.b.c: duplicate key 'c' (first at line 3, column 3)"]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("a: !!python/object/apply:os.system [ls]\n", "tags are not allowed"),
        ("a: !custom 1\n", "tags are not allowed"),
        ("a: &x 1\nb: *x\n", "anchors (&name) are not allowed"),
        ("base: {k: 1}\nother:\n  <<: {k: 2}\n", "merge keys"),
    ],
)
def test_no_object_construction(text: str, fragment: str) -> None:
    (problem,) = problems_of(text)
    assert fragment in problem and problem.startswith("f.yaml:")


def test_invalid_yaml_is_located() -> None:
    (problem,) = problems_of("a: [1, 2\nb: 3\n")
    assert problem.startswith("f.yaml:2:") and "invalid YAML" in problem


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("")
    with pytest.raises(DataError, match="found an empty file"):
        load(path)


def test_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "bin.yaml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0")
    with pytest.raises(DataError, match="binary data"):
        load(path)


def test_not_utf8_is_located(tmp_path: Path) -> None:
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"a: 1\nb: caf\xe9\n")
    with pytest.raises(DataError) as caught:
        load(path)
    assert str(caught.value.problems[0]).startswith(f"{path}:2:7:")


def test_oversized_file(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("a: " + "x" * (10 * 1024 * 1024) + "\n")
    assert path.stat().st_size > MAX_YAML_BYTES
    with pytest.raises(DataError, match=r"at most 2 MiB, found 10\.0 MiB"):
        load(path)


def test_missing_path(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no such file or directory"):
        load(tmp_path / "nope.yaml")


def test_forbidden_character_is_located_where_it_stands() -> None:
    (problem,) = problems_of("a: 1\nb: x\x07y\n")
    assert problem == "f.yaml:2:5: $: invalid YAML: unacceptable character #x0007: control characters are not allowed"


@pytest.mark.parametrize("text", ["~\n", "null\n", "---\n"])
def test_a_null_document_is_not_called_empty(text: str) -> None:
    (problem,) = problems_of(text)
    assert problem.endswith("$: expected a YAML mapping, found null")


def test_unreadable_file_is_a_located_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "locked.yaml"
    path.write_text("a: 1\n")

    def refuse(opened: Path) -> int:
        raise PermissionError(13, "Permission denied", str(opened))

    monkeypatch.setattr(files, "_open_for_reading", refuse)  # chmod 000 does not stop root, who runs CI here
    with pytest.raises(DataError) as caught:
        load(path)
    assert [str(p) for p in caught.value.problems] == [f"{path}: cannot read: Permission denied"]
