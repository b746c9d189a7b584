"""A corpus of malformed variant and scenario files, mutated from the kit's own from a fixed seed:
`trickspec validate` reads every one without a traceback, and every problem it reports is one
line naming an existing file, at a line and column inside it when the file has lines."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.suite import schemas
from specreader import kitdata, limits
from specreader.problems import DataError
from specreader.yamlio import load

SEED = 20_241_101
VARIANT_MUTANTS = 34  # rounds of one mutant of each kit variant file (15 files): 510 files
SCENARIO_MUTANTS = 520
BATCH = 104  # scenario files per validate run: few runs, as each reads and checks the kit's spec (its mutants too) again

LOCATED = re.compile(r"^(?P<file>.+?\.yaml):(?P<line>\d+):(?P<column>\d+): \$.*: .+$")

Mutation = Callable[[random.Random, bytes], bytes]


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True) or [b""]


def truncate(rng: random.Random, data: bytes) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def delete_line(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    del lines[rng.randrange(len(lines))]
    return b"".join(lines)


def duplicate_line(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    at = rng.randrange(len(lines))
    lines.insert(at, lines[at])
    return b"".join(lines)


def swap_lines(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"".join(lines)


def reindent(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    at = rng.randrange(len(lines))
    shift = rng.choice([-3, -2, -1, 1, 2, 3])
    lines[at] = b" " * shift + lines[at] if shift > 0 else lines[at][-shift:]
    return b"".join(lines)


_VALUE = re.compile(rb"(:\s+|-\s+)([^\s#\[\]{},][^\n#\[\]{},]*)")

HOSTILE_VALUES = [
    b"[1, 2]", b"{a: 1}", b"null", b"true", b"'text'", b"-7", b"0.5", b"[]", b"{}", b"~",
    b"9" * 5000, b"-" + b"9" * 4400, str(limits.MAX_NUMBER + 1).encode(), b"1e400", b"-1e999", b".inf", b"-.inf", b".nan",
    b"[" * 70 + b"]" * 70, b"[" * 5000 + b"]" * 5000, b"{a: " * 80 + b"1" + b"}" * 80,
    b"!!python/object/apply:os.system [ls]", b"!custom 1", b"&anchor 1", b"*alias", b"<<: {a: 1}",
    b"150000000", b"|\n  block\n", b"'unclosed", b'"\\x"', b"@at", b"`tick", b"%percent",
]


def replace_value(rng: random.Random, data: bytes) -> bytes:
    found = list(_VALUE.finditer(data))
    if not found:
        return data + b"\nextra: " + rng.choice(HOSTILE_VALUES) + b"\n"
    match = rng.choice(found)
    return data[: match.start(2)] + rng.choice(HOSTILE_VALUES) + data[match.end(2) :]


def insert_key(rng: random.Random, data: bytes) -> bytes:
    lines = _lines(data)
    at = rng.randrange(len(lines) + 1)
    indent = b" " * rng.choice([0, 2, 4, 6])
    lines.insert(at, indent + rng.choice([b"players", b"sides", b"deck", b"id", b"steps", b"unknown"]) + b": "
                 + rng.choice(HOSTILE_VALUES) + b"\n")
    return b"".join(lines)


def random_bytes(rng: random.Random, data: bytes) -> bytes:
    at = rng.randrange(len(data) + 1)
    noise = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 12)))
    return data[:at] + noise + data[at + rng.randrange(4) :]


def invalid_utf8(rng: random.Random, data: bytes) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice([b"\xff", b"\xc3", b"\xe2\x82", b"\x80", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80"]) + data[at:]


CONTROLS = [b"\x00", b"\x07", b"\x1b[31m", b"\x7f", b"\r", b"\t", b"\xef\xbb\xbf", b"\xc2\x85", b"\xe2\x80\xa8"]


def control_character(rng: random.Random, data: bytes) -> bytes:
    at = rng.randrange(len(data) + 1)
    return data[:at] + rng.choice(CONTROLS) + data[at:]


def second_document(rng: random.Random, data: bytes) -> bytes:
    return data + rng.choice([b"---\n", b"---\na: 1\n", b"...\n", b"--- !!str\n"])


def empty(rng: random.Random, data: bytes) -> bytes:
    return rng.choice([b"", b"# only a comment\n", b"\n\n", b"~\n", b"- a\n- b\n", b"text\n"])


MUTATIONS: list[Mutation] = [
    truncate, truncate, delete_line, duplicate_line, swap_lines, reindent, replace_value, replace_value, insert_key,
    random_bytes, invalid_utf8, control_character, second_document, empty,
]


def mutate(rng: random.Random, data: bytes) -> bytes:
    """One to three mutations in a row."""
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        data = rng.choice(MUTATIONS)(rng, data)
    return data


@dataclass
class Corpus:
    runs: list[list[Path]]  # the files of each validate run

    @property
    def files(self) -> list[Path]:
        return [file for batch in self.runs for file in batch]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    """Variant mutants in runs of one per kit variant file, so each stands in for its original (a
    broken base then has the kit's variants built on it); scenario mutants in runs of BATCH."""
    rng = random.Random(SEED)
    root = tmp_path_factory.mktemp("corpus")
    kit = kitdata.root()
    variants = sorted((kit / "spec").rglob("variants/*.yaml"))
    scenarios = sorted((kit / "scenarios").rglob("*.yaml"))
    runs: list[list[Path]] = []
    for round_number in range(VARIANT_MUTANTS):
        folder = root / f"round{round_number}" / "variants"
        folder.mkdir(parents=True)
        batch = []
        for source in variants:
            path = folder / f"{source.parent.parent.name}-{source.name}"
            path.write_bytes(mutate(rng, source.read_bytes()))
            batch.append(path)
        runs.append(batch)
    batch = []
    for number in range(SCENARIO_MUTANTS):
        source = rng.choice(scenarios)
        path = root / f"scenarios{number // BATCH}" / f"{number}-{source.name}"
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(mutate(rng, source.read_bytes()))
        batch.append(path)
        if len(batch) == BATCH:
            runs.append(batch)
            batch = []
    if batch:
        runs.append(batch)
    return Corpus(runs)


def test_the_corpus_is_large_and_malformed(corpus: Corpus) -> None:
    assert len(corpus.files) >= 1000
    kit = {path.read_bytes() for path in kitdata.root().rglob("*.yaml")}
    assert sum(path.read_bytes() not in kit for path in corpus.files) >= 1000


# What YAML counts as a line break (libyaml also counts NEL and the Unicode separators).
_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


def _line_count(path: Path) -> int | None:
    """How many lines the file has, when it is text a reader can count lines in."""
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return None
    return len(_BREAK.findall(text)) + 1


def test_every_problem_is_one_located_line(corpus: Corpus, capsys: pytest.CaptureFixture[str]) -> None:
    counts = {path: _line_count(path) for path in corpus.files}
    checked = 0
    for batch in corpus.runs:
        code = main(["validate", *map(str, batch)])
        captured = capsys.readouterr()
        assert "Traceback" not in captured.err + captured.out
        assert code in (0, 2)
        lines = captured.err.removesuffix("\n").split("\n")  # the terminal's lines: a problem is one
        if code == 2:
            assert lines[-1].endswith("problem(s)")
            lines = lines[:-1]
        for line in lines:
            match = LOCATED.match(line)
            assert match is not None, line
            file, number, column = Path(match["file"]), int(match["line"]), int(match["column"])
            assert file.is_file(), line
            assert number >= 1 and column >= 1, line
            total = counts.get(file)
            if total is not None:
                assert number <= total, line
            checked += 1
    assert checked >= len(corpus.files)  # each malformed file says at least something


def test_the_quick_validator_agrees_with_the_explaining_one(corpus: Corpus) -> None:
    """`schemas.explain` trusts jsonschema-rs's "valid" and asks Python's jsonschema only to explain a
    failure: on every corpus file that parses, and every kit file, the two must give the same verdict."""
    compared = invalid = 0
    kit = sorted(kitdata.root().glob("spec/*/variants/*.yaml")) + sorted(kitdata.root().glob("scenarios/**/*.yaml"))
    for path in [*corpus.files, *kit]:
        try:
            data = load(path).data
        except DataError:
            continue
        kind = "variant" if path.parent.name == "variants" else "scenario"
        quick = schemas.quick_validator(kind)
        assert quick is not None
        explained = list(schemas.validator(kind).iter_errors(data))
        assert quick.is_valid(data) == (not explained), f"{path}: {[e.message for e in explained]}"
        compared += 1
        invalid += bool(explained)
    assert compared >= 300 and invalid >= 100 and compared - invalid >= 100, (compared, invalid)  # both verdicts met often
