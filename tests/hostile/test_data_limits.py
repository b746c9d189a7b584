"""Hostile data: numbers, nesting, file kinds and sizes beyond the kit's limits (specreader/limits.py),
variants whose own limits the schema sets, broken bases, and outputs that cannot be written. Each
case ends in located problems and exit 2, without a traceback, in bounded time and memory."""

from __future__ import annotations

import json
import os
import re
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import tracemalloc
from collections.abc import Callable, Collection, Generator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.cli import main
from conformance.run import outputs
from conformance.text import json_positions, untrusted
from conformance.text.json_positions import Found
from specreader import jsonio, kitdata, limits
from specreader.jsontypes import JsonPath
from specreader.problems import DataError
from specreader.yamlio import loads

from depth import cases
from json_strategies import json_values

LOCATED = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): (?P<path>\$\S*): (?P<message>.+)$")
SCENARIO_ID = "briscola/cards/four-players-trump-ace-beats-trump-three"
A_VARIANT = "id: hostile\ntitle: Hostile\nextends: albastini-4p\n"


@dataclass
class Run:
    code: int
    out: str
    problems: list[str]  # stderr without the closing count

    @property
    def text(self) -> str:
        return "\n".join(self.problems)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> Run:
    code = main(list(args))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err and "Traceback" not in captured.out
    problems = [line for line in captured.err.splitlines() if not line.endswith("problem(s)")]
    return Run(code, captured.out, problems)


def within(seconds: float, call: Callable[[], int]) -> int:
    """The result of ``call``, which must return within ``seconds`` (a hang fails instead of blocking the suite)."""
    result: list[int] = []
    worker = threading.Thread(target=lambda: result.append(call()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"still running after {seconds} s"
    assert result, "ended without a result"
    return result[0]


@dataclass
class Measured:
    code: int
    err: str
    peak_mib: float


def _cap_memory() -> None:  # so a regression fails with MemoryError instead of taking the machine down
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def measured(*args: str, seconds: float = 30.0) -> Measured:
    """``trickspec ARGS`` in a child process, killed after ``seconds`` as a guard against a hang: exit code, stderr
    and peak resident memory."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        command = [sys.executable, "-m", "conformance.cli", *args]
        child = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=err, preexec_fn=_cap_memory)
        timer = threading.Timer(seconds, child.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(child.pid, 0)
        finally:
            timer.cancel()
        child.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    assert "Traceback" not in text, text
    return Measured(child.returncode, text, usage.ru_maxrss / 1024)


def variant_file(folder: Path, body: str, name: str = "hostile.yaml") -> Path:
    path = folder / "variants" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(A_VARIANT + body, encoding="utf-8")
    return path


# ---------------------------------------------------------------- numbers


HUGE = "9" * 5000


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (HUGE, f"expected an integer between -10^15 and 10^15, found {'9' * 21}... (5000 characters)"),
        ("-" + HUGE, "expected an integer between -10^15 and 10^15, found -"),
        (str(10**15 + 1), "expected an integer between -10^15 and 10^15, found 1000000000000001"),
        ("1e400", "expected a number between -10^15 and 10^15, found 1e400"),
        ("-1e400", "expected a number between -10^15 and 10^15, found -1e400"),
        ("1.5e16", "expected a number between -10^15 and 10^15, found 1.5e16"),
        (".inf", "expected a finite number, found .inf (quote it if it is text)"),
        ("-.Inf", "expected a finite number, found -.Inf (quote it if it is text)"),
        (".nan", "expected a finite number, found .nan (quote it if it is text)"),
    ],
)
def test_numbers_beyond_the_bound_are_located(tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str,
                                              expected: str) -> None:
    path = variant_file(tmp_path, f"values: {{A: {value}}}\n")
    result = run(capsys, "validate", str(path))
    assert result.code == 2
    assert result.problems[0].startswith(f"{path}:4:13: $.values.A: {expected}")
    assert len(result.problems) == 1


def test_the_bound_itself_is_accepted() -> None:
    doc = loads(f"a: {limits.MAX_NUMBER}\nb: -{limits.MAX_NUMBER}\nc: 1e15\nd: 000000000000000000000000042\n")
    assert doc.data == {"a": 10**15, "b": -(10**15), "c": 1e15, "d": 42}


def test_a_number_in_a_scenario_is_located_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "numbers.yaml"
    path.write_text(f"variant: albastini-2p\nscenarios:\n  - id: a/b/c\n    setup: {{dealer: {HUGE}}}\n", encoding="utf-8")
    result = run(capsys, "validate", str(path))
    assert result.code == 2
    assert result.problems == [f"{path}:4:21: $.scenarios[0].setup.dealer: expected an integer between -10^15 and 10^15, "
                               f"found {'9' * 21}... (5000 characters)"]


def test_digits_are_counted_before_any_conversion() -> None:
    previous = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)  # the smallest limit Python allows: converting a long digit string would raise
    try:
        with pytest.raises(DataError, match="found 99999"):
            loads("a: " + "9" * 2_000_000 + "\n", "long.yaml")
    finally:
        sys.set_int_max_str_digits(previous)


def test_a_run_log_line_with_a_huge_number_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "run.jsonl"
    log.write_text('{"type": "footer", "seconds": ' + HUGE + "}\n", encoding="utf-8")
    result = run(capsys, "report", str(log))
    assert result.code == 2
    assert f"{log}:1:31: $.seconds: expected an integer between -10^15 and 10^15" in result.text  # at the number


@pytest.mark.parametrize(
    ("line", "column", "path", "message"),
    [
        ('{"a": [1, {"b": NaN}]}', 17, ("a", 1, "b"), "expected a finite number, found NaN"),
        ('{"a": -Infinity}', 7, ("a",), "expected a finite number, found -Infinity"),
        ('{"é": 1e999}', 7, ("é",), "expected a number between -10^15 and 10^15, found 1e999"),
        ('{"ok": 2, "b": 3' + "0" * 20 + "}", 16, ("b",), "expected an integer between -10^15 and 10^15"),
    ],
)
def test_a_number_beyond_the_limits_is_located_at_itself(line: str, column: int, path: tuple[object, ...], message: str) -> None:
    with pytest.raises(untrusted.Unreadable, match=re.escape(message)) as refused:
        untrusted.json_line(line.encode())
    assert (refused.value.column, refused.value.path) == (column, path)


# ---------------------------------------------------------------- nesting


def nested_flow(depth: int) -> str:
    return "[" * depth + "]" * depth


def nested_block(depth: int) -> str:
    return "".join("  " * i + "- \n" for i in range(depth))


def test_nesting_up_to_the_limit_is_read() -> None:
    doc = loads("a: " + nested_flow(limits.MAX_DEPTH - 1) + "\n")  # the top mapping is the first level
    lists, node = 0, doc.data["a"]
    while isinstance(node, list):
        lists, node = lists + 1, node[0] if node else None
    assert 1 + lists == limits.MAX_DEPTH


# Where the first container too deep starts: the list or mapping at level MAX_DEPTH + 1 (the file's
# mapping is level 1). With a thousand levels or more written in flow style, libyaml's own nesting
# limit is met first, further on: the problem is the same, located where libyaml stopped.
@pytest.mark.parametrize(
    ("body", "line", "column"),
    [
        (f"sources: {nested_flow(limits.MAX_DEPTH)}\n", 4, 10 + limits.MAX_DEPTH - 1),
        (f"sources: {nested_flow(1000)}\n", 4, None),
        (f"sources: {nested_flow(100_000)}\n", 4, None),
        ("sources:\n" + nested_block(1000), 5 + limits.MAX_DEPTH - 1, 1 + 2 * (limits.MAX_DEPTH - 1)),
        ("deck:" + " {a:" * 1000 + " 1" + "}" * 1000 + "\n", 4, 7 + 4 * (limits.MAX_DEPTH - 1)),
    ],
    ids=["one-over", "flow-1000", "flow-100000", "block-1000", "mappings-1000"],
)
def test_nesting_beyond_the_limit_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, line: int,
                                             column: int | None) -> None:
    path = variant_file(tmp_path, body)
    result = run(capsys, "validate", str(path))
    assert result.code == 2
    assert len(result.problems) == 1
    match = LOCATED.match(result.problems[0])
    assert match is not None
    assert (match["file"], int(match["line"])) == (str(path), line)
    assert int(match["column"]) == column if column is not None else int(match["column"]) > 9 + limits.MAX_DEPTH
    assert match["message"] == f"expected at most {limits.MAX_DEPTH} levels of nesting, found more"


def test_a_parsed_value_nested_to_the_limit_is_not_too_deep_and_one_level_more_is() -> None:
    """too_deep counts levels as json_line and the YAML reader do: the bound itself is accepted ([] is one level)."""
    at_limit = json.loads(nested_flow(limits.MAX_DEPTH))
    assert not jsonio.too_deep(at_limit) and not jsonio.too_deep({"a": at_limit}, limits.MAX_DEPTH + 1)
    assert jsonio.too_deep([at_limit]) and jsonio.too_deep({"a": at_limit})
    assert jsonio.too_deep(json.loads(nested_flow(9)), 8) and not jsonio.too_deep(json.loads(nested_flow(8)), 8)


@pytest.mark.parametrize("depth", [limits.MAX_DEPTH + 1, 5_000, 200_000])
def test_a_deep_run_log_line_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str], depth: int) -> None:
    log = tmp_path / "run.jsonl"
    log.write_text('{"type": "header"}\n{"type": "footer", "counts": ' + nested_flow(depth) + "}\n", encoding="utf-8")
    result = run(capsys, "report", str(log))
    assert result.code == 2
    assert f"{log}:2:1: $: expected at most {limits.MAX_DEPTH} levels of nesting, found more" in result.problems


# ---------------------------------------------------------------- what kind of file


def test_a_symlink_loop_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    expected = f"{loop}: a loop of symbolic links: expected a link that ends at a file"
    assert run(capsys, "validate", str(loop)).problems == [expected]
    assert run(capsys, "validate", str(tmp_path)).problems == [expected]
    result = run(capsys, "verify", "--expect", str(loop), "--scenario", SCENARIO_ID)
    assert (result.code, result.problems) == (2, [expected])


def test_a_link_back_up_the_tree_is_refused_not_walked_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kit_file = sorted((kitdata.scenarios_dir() / "briscola").rglob("*.yaml"))[0]
    # Ids of its own: a file checked alone may not repeat the kit's.
    copy = kit_file.read_text(encoding="utf-8").replace("- id: briscola/", "- id: copied/")
    (tmp_path / "copy.yaml").write_text(copy, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "up").symlink_to("..")
    (tmp_path / "sub" / "again").symlink_to(tmp_path)
    result = run(capsys, "validate", str(tmp_path))
    assert result.code == 2
    assert sorted(result.problems) == [  # pytest's own walk would go round them: each is a problem, none is read
        f"{tmp_path / 'sub' / name}: a link to a folder read already: expected each folder once"
        for name in ("again", "up")
    ]


def test_a_link_to_a_folder_outside_the_tree_is_named_and_never_entered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder given could link anywhere (/tmp, /): a link out of it is a problem, and nothing beyond it is read."""
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "bad.yaml").write_text("not: [a scenario file\n", encoding="utf-8")
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "out.yaml").symlink_to(outside)
    (folder / "inside").mkdir()
    (folder / "also").symlink_to(folder / "inside")  # the same folder twice: read once, the other named
    problems = run(capsys, "validate", str(folder)).problems
    assert f"{folder / 'out.yaml'}: a link out of the folder: expected a folder inside it" in problems
    twice = [p for p in problems if p.endswith(": a link to a folder read already: expected each folder once")]
    assert len(problems) == 2 and len(twice) == 1


def test_dev_zero_behind_a_link_is_not_read(tmp_path: Path) -> None:
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")
    result = measured("validate", str(zero), seconds=20)
    assert result.code == 2
    assert f"{zero}: expected a YAML file, found a device" in result.err
    assert result.peak_mib < 300  # killed at the guard's seconds, it would have no exit code 2


def test_a_fifo_named_yaml_does_not_hang(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    expected = f"{fifo}: expected a YAML file, found a FIFO (named pipe)"
    for args in (["validate", str(fifo)], ["validate", str(tmp_path)], ["verify", "--expect", str(fifo)]):
        assert within(10, lambda args=args: main(args)) == 2
        assert expected in capsys.readouterr().err
    assert within(10, lambda: main(["report", str(fifo)])) == 2
    assert f"{fifo}: expected a run log, found a FIFO (named pipe)" in capsys.readouterr().err


def test_a_socket_named_yaml_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with tempfile.TemporaryDirectory(dir="/tmp") as folder, socket.socket(socket.AF_UNIX) as server:
        path = Path(folder) / "s.yaml"  # a short path: socket paths are limited to about 100 bytes
        server.bind(str(path))
        result = run(capsys, "validate", str(path))
    assert result.problems == [f"{path}: expected a YAML file, found a socket"]


def test_a_directory_named_yaml_is_walked_not_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "odd.yaml").mkdir()
    walked = run(capsys, "validate", str(tmp_path / "odd.yaml"))  # a folder of no file, not a file it failed to read
    assert walked.code == 2 and walked.problems == [f"{tmp_path / 'odd.yaml'}: expected YAML files in this folder, found none"]


def test_the_size_is_checked_before_reading(tmp_path: Path) -> None:
    sparse = tmp_path / "sparse.yaml"
    with sparse.open("wb") as out:
        out.truncate(8 << 30)  # 8 GiB of holes: reading it would take the memory, the check takes none
    result = measured("validate", str(sparse), seconds=20)
    assert result.code == 2
    assert f"{sparse}:1:1: $: expected a YAML file of at most 2 MiB, found 8192.0 MiB" in result.err
    assert result.peak_mib < 300  # killed at the guard's seconds, it would have no exit code 2


# ---------------------------------------------------------------- cross-checks within the schema's bounds


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("players: 150000000\n", "4:10: $.players: expected at most 6, found integer 150000000"),
        ("deal: {hand_size: 150000000}\n", "4:19: $.deal.hand_size: expected at most 52, found integer 150000000"),
        ("deal: {stock: 1000000000000000}\n", "4:15: $.deal.stock: expected at most 52, found integer 1000000000000000"),
        ("sides: [[0], [1], [2], [3], [4], [5], [6]]\n", "4:8: $.sides: expected at most 6 items, found array"),
    ],
)
def test_numbers_the_schema_bounds_are_never_looped_over(tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str,
                                                           expected: str) -> None:
    path = variant_file(tmp_path, body)
    result = run(capsys, "validate", str(path))
    assert result.code == 2
    assert result.problems[0].startswith(f"{path}:{expected}")


def test_a_long_extends_chain_is_cut_at_the_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "variants"
    folder.mkdir()
    length = sys.getrecursionlimit() + 100  # past Python's recursion limit, were inheritance resolved without one
    for n in range(length):
        parent = f"chain{n + 1}" if n + 1 < length else "albastini-4p"
        (folder / f"chain{n}.yaml").write_text(f"id: chain{n}\ntitle: C\nextends: {parent}\n", encoding="utf-8")
    result = run(capsys, "validate", str(folder))
    assert result.code == 2
    too_long = [line for line in result.problems if f"longer than {limits.MAX_INHERITANCE} variants" in line]
    # chainN is length - N variants long, then albastini-4p and albastini-base: the last 14 are in the limit
    assert len(too_long) == length + 2 - limits.MAX_INHERITANCE
    assert all(LOCATED.match(line) for line in result.problems)


def test_players_150000000_costs_no_memory(tmp_path: Path) -> None:
    path = variant_file(tmp_path, "players: 150000000\n")
    result = measured("validate", str(path))
    assert result.code == 2
    assert f"{path}:4:10: $.players: expected at most 6, found integer 150000000" in result.err
    assert result.peak_mib < 300  # killed at the guard's seconds, it would have no exit code 2


# ---------------------------------------------------------------- a broken base


BASE_TEXT = (kitdata.root() / "spec" / "albastini" / "variants" / "base.yaml").read_bytes()


@pytest.mark.parametrize(
    "cut",
    [0, 130, 220, 350, 460, 540, len(BASE_TEXT) - 20],  # in comments, keys, values, lists, and near the end
    ids=lambda cut: f"cut-at-{cut}",
)
def test_a_truncated_base_is_named_first_and_once(kit_copy: Path, capsys: pytest.CaptureFixture[str], cut: int) -> None:
    base = kit_copy / "spec" / "albastini" / "variants" / "base.yaml"
    base.write_bytes(BASE_TEXT[:cut])
    result = run(capsys, "validate")
    assert result.code == 2
    assert result.problems[0].startswith(f"{base}:")
    assert len(result.problems) <= 15
    for line in result.problems:
        match = LOCATED.match(line)
        assert match is not None and Path(match["file"]).is_file(), line
    children = [line for line in result.problems if "cannot be checked" in line]
    assert len(children) == len({LOCATED.match(line)["file"] for line in children})  # type: ignore[index]


def test_the_children_of_a_base_that_does_not_load_say_which_file(kit_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = kit_copy / "spec" / "albastini" / "variants" / "base.yaml"
    base.write_bytes(BASE_TEXT[:260])  # inside the flow list of sources
    result = run(capsys, "validate")
    two = kit_copy / "spec" / "albastini" / "variants" / "2p.yaml"
    assert result.problems[0].startswith(f"{base}:7:34: $: invalid YAML")  # the end of the cut line
    assert (
        f"{two}:3:10: $.extends: cannot be checked: it extends 'albastini-base', declared by no variant file that loads "
        f"({base} did not)"
    ) in result.problems


def test_a_broken_variant_is_reported_once_per_scenario_file(kit_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    two = kit_copy / "spec" / "albastini" / "variants" / "2p.yaml"
    two.write_text(two.read_text(encoding="utf-8").replace("players: 2", "players: 150000000"), encoding="utf-8")
    result = run(capsys, "validate")
    assert result.problems[0] == f"{two}:6:10: $.players: expected at most 6, found integer 150000000"
    rest = result.problems[1:]
    # Each scenario file of the variant says it cannot be used; each variant extending it, that it cannot be checked.
    children = [line for line in rest if "$.extends: cannot be checked: it extends albastini-2p, which has problems" in line]
    users = [line for line in rest if "variant 'albastini-2p' cannot be used" in line]
    assert children and users and len(children) + len(users) == len(rest)
    assert len(rest) == len({LOCATED.match(line)["file"] for line in rest})  # type: ignore[index]


@pytest.mark.parametrize("name", ["sources.yaml", "refusals.yaml", "albastini/clauses.yaml", "albastini/rulings.yaml"])
def test_a_declaring_file_that_does_not_load_is_the_only_problem(kit_copy: Path, capsys: pytest.CaptureFixture[str],
                                                                  name: str) -> None:
    path = kit_copy / "spec" / name
    path.write_bytes(path.read_bytes() + b"\n  - [unclosed\n")
    result = run(capsys, "validate")
    assert result.code == 2
    assert len(result.problems) == 1 and result.problems[0].startswith(f"{path}:")


# ---------------------------------------------------------------- outputs that cannot be written


def test_a_report_folder_below_a_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = run(capsys, "verify", "--scenario", SCENARIO_ID, "--report-dir", str(blocker / "reports"))
    assert (result.code, result.problems) == (2, [f"{blocker / 'reports'}: cannot be created: Not a directory"])


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full, a device whose writes fail as a full disk")
def test_a_full_disk_names_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    full = ["/dev/full: cannot be written: No space left on device"]
    result = run(capsys, "verify", "--scenario", SCENARIO_ID, "--save-expectations", "/dev/full")
    assert (result.code, [line for line in result.problems if line.startswith("/dev/full")]) == (2, full)
    reports = tmp_path / "reports"
    assert run(capsys, "verify", "--scenario", SCENARIO_ID, "--report-dir", str(reports)).code == 0
    result = run(capsys, "report", str(reports / "run.jsonl"), "-o", "/dev/full")
    assert (result.code, result.problems) == (2, full)
    stream = outputs.open_text(Path("/dev/full"))  # the run log, written line by line as the run goes
    with pytest.raises(DataError, match=r"/dev/full: .*No space left on device"):
        stream.write("{}\n")
        stream.flush()


def test_an_error_without_a_path_is_never_shown_as_question_mark(monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    def full(*args: object, **kwargs: object) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("conformance.commands.spec_checks.validate", full)
    assert main(["validate"]) == 2
    err = capsys.readouterr().err
    assert "?" not in err and "No space left on device" in err


# ---------------------------------------------------------------- the limits, documented once


def test_the_guide_shows_every_limit_from_the_code() -> None:
    import rulesite

    guide = (Path(__file__).parents[2] / "docs" / "scenarios.md").read_text(encoding="utf-8")
    assert guide.count("<!-- generated: limits -->") == 1  # written in by rulesite/docs_blocks.py
    table = rulesite.expand_shortcodes("[[limits:]]")
    assert table.strip() in guide
    for what, _ in limits.described():
        assert f"<td>{what}</td>" in table
    values = (limits.MAX_NUMBER_TEXT, str(limits.MAX_DEPTH), str(limits.MAX_INHERITANCE), limits.mebibytes(limits.MAX_YAML_BYTES))
    assert all(value in table for value in values)


_JSON_NUMBERS = json_values(
    st.integers(-(10**18), 10**18) | st.integers() | st.floats(allow_nan=False) | st.text(alphabet="0123456789-e.", max_size=20),
    st.text(max_size=3),
    width=4,
    max_leaves=12,
)


@settings(max_examples=cases(quick=100, deep=2000), deadline=None, database=None)
@given(_JSON_NUMBERS)
def test_integers_read_without_the_hook_are_read_as_with_it(value: object) -> None:
    """jsonio leaves json's own integer reading on where no digit run can pass the bound: the value,
    or the problem said, is the same as with the hook on every integer."""
    text = json.dumps(value)

    def read(hooks: dict[str, object]) -> object:
        try:
            return ("value", json.loads(text, **hooks))
        except ValueError as err:
            return ("problem", str(err))

    assert read(jsonio.number_hooks(text)) == read(jsonio.NUMBER_HOOKS)


def test_a_problem_is_located_by_walking_the_line_no_further_than_it() -> None:
    """A line of the length limit holds tens of millions of values: the walk that locates a problem keeps no
    record of each and stops at the answer, so what follows it (here not even JSON) is never read."""
    where = json_positions.positions('[1e400, {"a": 1, "a": 2, "\\ud800": 3}, }}} not json')
    assert where.first(lambda text: isinstance(text, json_positions.Number)) == ((0,), 2)
    assert where.repeated == ((1, "a"), 18)
    assert where.column((1, "a"), at_key=True) == 10 and where.column((1, "a")) == 15
    assert json_positions.positions('[0, {"a": 1}]').column((1, "b")) == 5  # a key the line lacks: its object's


def _paths(value: object, at: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    inside = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    return [at, *(p for key, item in inside for p in _paths(item, (*at, key)))]


_JSON_LINES = json_values(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=5), st.text(max_size=3), width=4, max_leaves=20
)


@settings(max_examples=cases(quick=100, deep=1000), deadline=None, database=None)
@given(_JSON_LINES, st.lists(st.tuples(st.integers(0, 50), st.booleans(), st.booleans()), max_size=8))
def test_many_problems_of_a_line_are_located_in_one_walk_as_one_at_a_time(
    value: object, picks: list[tuple[int, bool, bool]]
) -> None:
    """check-trace locates every problem of a line: one walk for them all, each column as a walk of its own gives."""
    line = json.dumps(value)
    where = json_positions.positions(line)
    paths = _paths(value)
    wanted = [((*paths[i % len(paths)], "missing") if missing else paths[i % len(paths)], key) for i, key, missing in picks]
    assert where.columns(wanted) == [where.column(path, at_key=key) for path, key in wanted]


def test_a_long_line_s_last_key_twice_is_located_in_bounded_memory() -> None:
    line = "[" + "0," * 500_000 + '{"a": 1, "a": 2}]'
    tracemalloc.start()
    try:
        where = json_positions.positions(line).repeated
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert where == ((500_000, "a"), len(line) - 7)
    assert peak < len(line)  # a record of each of the half million values would take hundreds of times more


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (b'{"a": "\xff"}', "expected UTF-8, found byte 0xff at position 7"),
        (b"[" * 100 + b'"\xff"' + b"]" * 100, "expected UTF-8, found byte 0xff at position 101"),  # too deep too: UTF-8 first
        (b"[" * 100 + b"]" * 100, "expected at most 64 levels of nesting, found more"),
    ],
)
def test_a_line_that_is_no_utf_8_is_said_so_first(raw: bytes, said: str) -> None:
    with pytest.raises(untrusted.Unreadable, match=re.escape(said)):
        untrusted.json_line(raw)


def test_a_trace_line_is_held_once_while_it_is_judged(tmp_path: Path) -> None:
    """The line judged is its copy without the line break: the reader keeps no other while it waits for the next."""
    from conformance.traces import reading

    trace = tmp_path / "t.jsonl"
    trace.write_text(json.dumps({"variant": "x" * 2_000_000}) + "\n" + "{}\n", encoding="utf-8")
    tracemalloc.start()
    try:
        lines = reading.lines([trace])
        line = next(lines)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert isinstance(line, reading.TraceLine) and not line.raw.endswith(b"\n")
    assert held < 1.5 * len(line.raw), held


def test_check_trace_holds_no_more_lines_than_its_batch_bound_takes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each line is held until its batch is judged: past ``BATCH_BYTES``, a batch is handed over with fewer lines
    than ``BATCH``, and each batch is let go once judged, the first too."""
    from conformance.traces import checking

    monkeypatch.setattr(checking, "BATCH_BYTES", 1, raising=False)  # each line a batch of its own
    trace = tmp_path / "t.jsonl"
    trace.write_text("".join(json.dumps(["x" * 2_000_000]) + "\n" for _ in range(4)), encoding="utf-8")
    held: list[int] = []

    def progress(*_: object) -> None:
        held.append(tracemalloc.get_traced_memory()[0])

    tracemalloc.start()
    try:
        done = checking.run(checking.Plan((trace,)), progress=progress)
    finally:
        tracemalloc.stop()
    assert [problem.line for problem in done.problems] == [1, 2, 3, 4]
    assert len(held) == 4 and max(held) < 3_000_000, held  # a line at a time


def test_a_line_s_problems_are_located_walking_into_no_value_that_holds_none(monkeypatch: pytest.MonkeyPatch) -> None:
    """The values on no problem's path are passed over by json's own scanner, not walked value by value."""
    line = json.dumps([[0] * 1000, {"a": [1] * 1000, "b": 2}])
    where = json_positions.positions(line)
    walked: list[JsonPath] = []
    value = json_positions._value

    def counted(text: str, at: int, path: JsonPath, *within: Collection[JsonPath] | None) -> Generator[Found, None, int]:
        walked.append(path)
        return (yield from value(text, at, path, *within))

    monkeypatch.setattr(json_positions, "_value", counted)
    assert where.columns([((1, "b"), True), ((1, "b"), False)]) == [line.index('"b"') + 1, line.index("2}") + 1]
    assert walked == [(), (0,), (1,), (1, "a"), (1, "b")]  # into neither list
