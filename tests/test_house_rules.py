"""House rules: a club's variant and scenarios in folders of its own, read beside the kit's.

The worked example (examples/house-rules/) is copied outside the checkout and run exactly as its
README says; the rest checks what the kit refuses of house folders, located.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import cli
from conformance.commands import exits
from specreader import kitdata, roots
from specreader.limits import MAX_INHERITANCE

pytest_plugins = ["pytester"]  # a broken house under pytest, run in this process

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "house-rules"
BIN = Path(sys.executable).parent  # the venv's trickspec and pytest
HOUSE_VARIANT = "baobab-albastini-4p"


def readme_commands() -> list[str]:
    """The command lines of the example README's sh block."""
    text = (EXAMPLE / "README.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```sh\n(.*?)```", text, re.S)
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


@pytest.fixture
def house(tmp_path: Path) -> Path:
    """The example, copied to a folder outside the checkout."""
    copy = tmp_path / "club"
    shutil.copytree(EXAMPLE, copy)
    assert not copy.resolve().is_relative_to(ROOT)
    return copy


def run_line(line: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A README line as a user runs it, with the venv's commands first on PATH."""
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    return subprocess.run(line, shell=True, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_the_example_runs_outside_the_checkout_as_its_readme_says(house: Path) -> None:
    lines = readme_commands()
    assert [line.split()[:2] for line in lines] == [
        ["trickspec", "validate"],
        ["trickspec", "verify"],
        ["trickspec", "coverage"],
        ["trickspec", "fuzz"],
        ["pytest", "--engine"],
    ]
    done = {line.split()[1] if line.startswith("trickspec") else "pytest": run_line(line, house) for line in lines}
    for name, result in done.items():
        assert result.returncode == 0, f"{name}:\n{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
    assert done["validate"].stdout.startswith("valid (")
    assert done["verify"].stdout.rstrip().endswith("3 passed, 0 failed")
    assert "baobab-albastini-4p        3" in done["verify"].stdout
    assert done["coverage"].stdout.splitlines()[1:] == [
        "albastini.baobab.over-90-wins-three          3         -  ok",
        "clause coverage: 1/1 clauses (100.0%)",
    ]
    assert "200 passed, 0 failed" in done["fuzz"].stdout
    assert re.search(r"\b3 passed in ", done["pytest"].stdout.splitlines()[-1]), done["pytest"].stdout
    assert "failed" not in done["pytest"].stdout.splitlines()[-1]
    assert f"house spec {house / 'spec'}" in done["pytest"].stdout


@pytest.fixture
def in_house(house: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The copied example as the current folder: a command line is then run in this process as run_line runs it
    in a shell."""
    assert roots.current() == roots.Roots()
    monkeypatch.chdir(house)
    return house


def run_here(line: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """A ``trickspec`` command line run in this process: its exit status, stdout and stderr."""
    command, *args = shlex.split(line)
    assert command == "trickspec"
    status = cli.main(args)
    out, err = capsys.readouterr()
    return status, out, err


def test_the_reference_plays_the_house_rule_from_the_data(house: Path) -> None:
    """Without the house's one parameter the club's variant is the kit's over-60 game: verify and pytest fail.

    Run in processes of their own: a process reads a spec folder once, and this test changes a file
    in one, which a later run of the same process would not see."""
    variant = house / "spec" / "albastini" / "variants" / "baobab-4p.yaml"
    variant.write_text(variant.read_text(encoding="utf-8").replace("    double: 3\n", "    double: 2\n"), encoding="utf-8")
    verify, pytest_line = (line for line in readme_commands() if " verify " in line or line.startswith("pytest"))
    failed = run_line(verify, house)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "FAIL baobab/over-90/ninety-one-wins-three" in failed.stdout
    assert run_line(pytest_line, house).returncode == 1


def test_one_process_plays_each_club_s_variant_of_one_id(in_house: Path, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Two clubs' folders give one id two variants: verify in one process plays each as its folder
    says, before and after the other (the suite's in-process runs meet many house folders)."""
    other = tmp_path / "other-club"
    shutil.copytree(in_house, other)
    variant = other / "spec" / "albastini" / "variants" / "baobab-4p.yaml"
    variant.write_text(variant.read_text(encoding="utf-8").replace("    double: 3\n", "    double: 2\n"), encoding="utf-8")
    lasts = []
    for club in (in_house, other, in_house):
        status, out, _ = run_here(f"trickspec verify --spec {club / 'spec'} --scenarios {club / 'scenarios'}", capsys)
        lasts.append((status, out.rstrip().splitlines()[-1]))
    assert lasts == [(0, "3 passed, 0 failed"), (1, "1 passed, 2 failed"), (0, "3 passed, 0 failed")]


def test_the_run_log_records_the_house_folders_and_pins_their_data(in_house: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    house = in_house
    line = "trickspec verify --spec spec --scenarios scenarios --report-dir reports"
    status, out, err = run_here(line, capsys)
    assert status == 0, out + err
    header = json.loads((house / "reports" / "run.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert header["roots"] == {"spec": [str(house / "spec")], "scenarios": [str(house / "scenarios")]}
    assert run_here("trickspec report reports/run.jsonl --format json", capsys)[0] == 0  # the schema admits it
    (house / "scenarios" / "albastini" / "baobab" / "over-90.yaml").write_text(
        (house / "scenarios" / "albastini" / "baobab" / "over-90.yaml").read_text(encoding="utf-8") + "\n# edited\n",
        encoding="utf-8",
    )
    assert run_here(line, capsys)[0] == 0
    again = json.loads((house / "reports" / "run.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert again["spec_version"] != header["spec_version"]  # the house's scenarios are in the digest


def test_an_engine_the_run_starts_reads_the_house_folders_too(in_house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reference served over the protocol, in a process of its own, plays the house variant: given the house
    folder as an argument, as the kit gives it to a Python engine it serves (never through the environment)."""
    served = f'--engine-cmd "{sys.executable} -m conformance.engines.serve --spec=spec"'
    status, out, err = run_here(f"trickspec verify --spec spec --scenarios scenarios {served}", capsys)
    assert status == 0, out + err
    assert out.rstrip().endswith("3 passed, 0 failed")


def validate_house(house: Path, capsys: pytest.CaptureFixture[str], *more: str) -> tuple[int, list[str]]:
    status = cli.main(["validate", "--spec", str(house / "spec"), "--scenarios", str(house / "scenarios"), *more])
    return status, capsys.readouterr().err.splitlines()


def test_a_house_variant_may_not_take_a_kit_variant_s_id(house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    variant = house / "spec" / "albastini" / "variants" / "baobab-4p.yaml"
    variant.write_text(variant.read_text(encoding="utf-8").replace(f"id: {HOUSE_VARIANT}", "id: albastini-4p"), encoding="utf-8")
    status, err = validate_house(house, capsys)
    kit_file = kitdata.spec_dir() / "albastini" / "variants" / "4p.yaml"
    assert status == exits.EXIT_BAD_DATA
    taken = f"variant 'albastini-4p' is already declared (in {kit_file}:2): expected a name of the house's own"
    assert f"{variant}:2:5: $.id: {taken}" in err


def test_a_parameter_of_another_rule_than_the_inherited_one_is_located(
    house: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The club's score block states a parameter and inherits its rule (over-threshold), which has no such
    parameter: validate names the line, and fuzz stops before it runs, as for any house problem."""
    variant = house / "spec" / "albastini" / "variants" / "baobab-4p.yaml"
    variant.write_text(variant.read_text(encoding="utf-8") + "    line_per_member: 20\n", encoding="utf-8")
    line = len(variant.read_text(encoding="utf-8").splitlines())
    status, err = validate_house(house, capsys)
    assert status == exits.EXIT_BAD_DATA
    assert f"{variant}:{line}:5: $.components.score.line_per_member: after inheritance: unknown key 'line_per_member'" in err[0]
    fuzz = cli.main(["fuzz", "--spec", str(house / "spec"), "--variant", HOUSE_VARIANT, "--deals", "5"])
    assert fuzz == exits.EXIT_BAD_DATA and f"{variant}:{line}:5:" in capsys.readouterr().err


def test_house_clauses_and_sections_may_not_repeat_the_kit_s(house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clauses = house / "spec" / "albastini" / "clauses.yaml"
    text = clauses.read_text(encoding="utf-8").replace("  - id: baobab\n", "  - id: score\n")
    clauses.write_text(text.replace("albastini.baobab.over-90-wins-three", "albastini.play.in-turn"), encoding="utf-8")
    status, err = validate_house(house, capsys)
    assert status == exits.EXIT_BAD_DATA
    mine = [line for line in err if line.startswith(str(clauses))]
    # the clause still names the section baobab, which the file no longer declares
    assert [line.split(": ")[1] for line in mine] == ["$.sections[0].id", "$.clauses[0].id", "$.clauses[0].section"]
    assert "section 'albastini.score' is already declared (in " in mine[0]
    assert "clause 'albastini.play.in-turn' is already declared (in " in mine[1]


def test_a_house_clause_may_not_sit_in_a_kit_section(house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    clauses = house / "spec" / "albastini" / "clauses.yaml"
    text = clauses.read_text(encoding="utf-8").replace("    section: baobab\n", "    section: over-60\n")
    clauses.write_text(text.replace("albastini.baobab.over-90-wins-three", "albastini.over-60.wins-three"), encoding="utf-8")
    status, err = validate_house(house, capsys)
    assert status == exits.EXIT_BAD_DATA
    assert f"{clauses}:10:14: $.clauses[0].section: expected a section this file declares, found 'over-60'" in err


def test_a_house_scenario_may_not_take_a_kit_scenario_s_id(house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = house / "scenarios" / "albastini" / "baobab" / "over-90.yaml"
    file.write_text(
        file.read_text(encoding="utf-8").replace("baobab/over-90/exactly-ninety-wins-one", "albastini/over-60/sixty-one-wins"),
        encoding="utf-8",
    )
    status, err = validate_house(house, capsys)
    assert status == exits.EXIT_BAD_DATA
    assert any(line.startswith(f"{file}:") and "duplicate scenario id 'albastini/over-60/sixty-one-wins'" in line for line in err)


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("nowhere", "no such folder: expected a spec folder of house rules"),
        ("README.md", "expected a spec folder of house rules, found a file"),
        ("KIT", "this is the kit's own spec folder: expected a house one"),
    ],
)
def test_a_spec_folder_that_cannot_be_used_is_named(
    house: Path, capsys: pytest.CaptureFixture[str], where: str, message: str
) -> None:
    folder = kitdata.spec_dir() if where == "KIT" else house / where
    assert cli.main(["validate", "--spec", str(folder)]) == exits.EXIT_BAD_DATA
    assert f"{folder}: {message}" in capsys.readouterr().err.splitlines()


@pytest.mark.parametrize(
    ("written", "shown"), [('"x\\u202e\\e[31m"', 'found string "x\\u202e\\u001b[31m"'), ("null", "found null")]
)
def test_a_refused_value_is_shown_escaped_and_once(
    house: Path, capsys: pytest.CaptureFixture[str], written: str, shown: str
) -> None:
    """A bidi override or an escape in a value would reorder or recolour the problem's line."""
    variant = house / "spec" / "albastini" / "variants" / "baobab-4p.yaml"
    text = variant.read_text(encoding="utf-8")
    variant.write_text(text.replace("    double: 3\n", f"    double: {written}\n"), encoding="utf-8")
    status, err = validate_house(house, capsys)
    assert status == exits.EXIT_BAD_DATA
    assert any(line.endswith(f"$.components.score.double: expected integer, {shown}") for line in err), err
    assert "\u202e" not in "\n".join(err) and "\x1b" not in "\n".join(err)


def test_a_house_spec_folder_holds_no_error_codes(house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    errors = house / "spec" / "refusals.yaml"
    shutil.copy(kitdata.spec_dir() / "refusals.yaml", errors)
    status, err = validate_house(house, capsys)
    assert status == exits.EXIT_BAD_DATA
    assert err[0].startswith(f"{errors}:1:1: $: unexpected file in a house spec folder: expected ")


def test_a_house_spec_folder_is_laid_out_as_the_guide_says(house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The layout says what each file is: a file off it, a folder named for no game, or a clauses file of another
    game than its folder's is reported, never taken in."""
    spec = house / "spec"
    variant = spec / "albastini" / "variants" / "baobab-4p.yaml"
    text = variant.read_text(encoding="utf-8")
    deeper = spec / "albastini" / "old" / "variants" / "kept.yaml"
    nogame = spec / "notagame" / "variants" / "kept.yaml"
    for path in (deeper, nogame):
        path.parent.mkdir(parents=True)
        path.write_text(text.replace(f"id: {HOUSE_VARIANT}", f"id: {path.parent.parent.name}-kept"), encoding="utf-8")
    elsewhere = spec / "docs" / "clauses.yaml"
    elsewhere.parent.mkdir()
    shutil.copy(spec / "albastini" / "clauses.yaml", elsewhere)
    (spec / "briscola").mkdir()
    other = spec / "briscola" / "clauses.yaml"
    other.write_text((spec / "albastini" / "clauses.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    status, err = validate_house(house, capsys)
    assert status == exits.EXIT_BAD_DATA
    assert any(line.startswith(f"{deeper}:1:1: $: unexpected file in a house spec folder: expected <game>/") for line in err)
    assert any(line.startswith(f"{nogame}:1:1: $: expected a folder named for a game (albastini, ") for line in err)
    assert any(line.startswith(f"{elsewhere}:1:1: $: expected a folder named for a game") for line in err)
    assert f"{other}:2:7: $.game: expected game 'briscola', as its folder says" in err


def test_a_house_variant_of_another_game_than_its_folder_s_is_located(
    house: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = house / "spec" / "albastini" / "variants" / "baobab-4p.yaml"
    text = variant.read_text(encoding="utf-8")
    variant.write_text(re.sub(r"(?m)^extends: .*$", "extends: briscola-2p", text, count=1), encoding="utf-8")
    line = next(i for i, row in enumerate(variant.read_text(encoding="utf-8").splitlines(), 1) if row.startswith("extends:"))
    status, err = validate_house(house, capsys)
    assert status == exits.EXIT_BAD_DATA
    said = "a variant of 'briscola' in the folder of 'albastini': expected one of 'albastini'"
    assert f"{variant}:{line}:10: $.extends: {said}" in err


def test_a_link_to_a_file_outside_a_house_folder_is_reported_and_never_read(
    house: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As a link to a folder outside: a scenario file elsewhere, or any file (/etc/passwd), linked into a house
    folder is neither read (its content never quoted) nor taken as the house's own; a link inside it is read."""
    scenario = house / "scenarios" / "albastini" / "baobab" / "over-90.yaml"
    kept = scenario.with_suffix(".txt")  # no .yaml: read only through the link beside it
    scenario.rename(kept)
    scenario.symlink_to(kept.name)
    assert validate_house(house, capsys) == (exits.EXIT_OK, [])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    theirs = elsewhere / "theirs.yaml"
    theirs.write_text(kept.read_text(encoding="utf-8").replace("baobab/over-90/", "baobab/elsewhere/"), encoding="utf-8")
    secret = elsewhere / "secret.yaml"
    secret.write_text("root:x:0:0:secret-word\n", encoding="utf-8")
    links = {
        house / "scenarios" / "albastini" / "theirs.yaml": theirs,
        house / "scenarios" / "albastini" / "baobab" / "secret.yaml": secret,
        house / "spec" / "albastini" / "variants" / "kit.yaml": kitdata.spec_dir() / "albastini" / "variants" / "4p.yaml",
    }
    for link, target in links.items():
        link.symlink_to(target)
    expected = sorted(f"{link}: a link out of the folder: expected a file inside it" for link in links)
    status, err = validate_house(house, capsys)
    assert (status, err) == (exits.EXIT_BAD_DATA, [*expected, "3 problem(s)"])
    spec_link = house / "spec" / "albastini" / "variants" / "kit.yaml"
    spec_link.unlink()  # verify stops at a spec problem before it reads the scenarios
    status = cli.main(["verify", "--spec", str(house / "spec"), "--scenarios", str(house / "scenarios")])
    out, err_text = capsys.readouterr()
    assert (status, out) == (exits.EXIT_BAD_DATA, "")  # nothing run, theirs.yaml's scenarios included
    assert err_text.splitlines() == [line for line in expected if str(spec_link) not in line] + ["2 problem(s)"]


@pytest.mark.parametrize("order", ["parents-first", "children-first"])
def test_an_extends_chain_is_as_long_whatever_order_its_ids_sort_in(
    house: Path, capsys: pytest.CaptureFixture[str], order: str
) -> None:
    """albastini-over60 ends a chain of 3 (albastini-4p, albastini-base): 13 house levels on it make 16, the
    limit; the 14th is one over it, whether its ids sort so that its parents are resolved first or last. fuzz on
    the deepest stops before it plays, located as validate locates it."""
    levels = 14
    variants = house / "spec" / "albastini" / "variants"
    names = [f"deep-{n if order == 'children-first' else levels + 1 - n:02d}" for n in range(levels, 0, -1)]
    parent = "albastini-over60"
    for name in names:  # the nearest albastini-over60 first
        (variants / f"{name}.yaml").write_text(
            f"id: {name}\nextends: {parent}\ntitle: T\nsources: [baobab-house-sheet]\ncomponents: {{}}\n", encoding="utf-8"
        )
        parent = name
    chain = " -> ".join([*reversed(names), "albastini-over60", "albastini-4p", "albastini-base"])
    assert len(chain.split(" -> ")) == MAX_INHERITANCE + 1
    said = f"extends chain {chain} longer than {MAX_INHERITANCE} variants: expected extends that end"
    problem = f"{variants / names[-1]}.yaml:2:10: $.extends: {said}"
    status, err = validate_house(house, capsys)
    assert (status, err) == (exits.EXIT_BAD_DATA, [problem, "1 problem(s)"])
    status = cli.main(["fuzz", "--spec", str(house / "spec"), "--variant", names[-1], "--deals", "3"])
    out, err_text = capsys.readouterr()
    assert (status, err_text.splitlines(), out) == (exits.EXIT_BAD_DATA, [problem, "1 problem(s)"], "")


def test_a_missing_scenarios_folder_is_named(house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = house / "tests"
    status = cli.main(["verify", "--spec", str(house / "spec"), "--scenarios", str(missing)])
    assert status == exits.EXIT_BAD_DATA
    assert f"{missing}: no such folder: expected a scenarios folder of house rules" in capsys.readouterr().err


def test_a_command_leaves_the_environment_as_it_found_it(house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert validate_house(house, capsys)[0] == exits.EXIT_OK
    assert roots.current() == roots.Roots()


# A house spec file its schema refuses, and the one problem validate reports of it.
BROKEN_HOUSE = {
    "variant": (
        ("albastini", "variants", "baobab-4p.yaml"),
        ("    double: 3\n", '    double: "x"\n'),
        ':8:13: $.components.score.double: expected integer, found string "x"',
    ),
    "rulings": (
        ("albastini", "rulings.yaml"),
        ("", "game: albastini\nrulings: 5\n"),
        ":2:10: $.rulings: expected array, found integer 5",
    ),
}


@pytest.fixture(params=sorted(BROKEN_HOUSE))
def broken_house(house: Path, request: pytest.FixtureRequest) -> tuple[Path, str]:
    """The example with one house spec file broken, and the located line validate prints of it."""
    where, (old, new), problem = BROKEN_HOUSE[request.param]
    file = house.joinpath("spec", *where)
    text = file.read_text(encoding="utf-8") if file.exists() else ""
    assert old in text
    file.write_text(text.replace(old, new, 1) if old else new, encoding="utf-8")
    return house, f"{file}{problem}"


@pytest.mark.parametrize(
    "command",
    [
        ["verify", "--scenarios", "{scenarios}"],
        ["fuzz", "--variant", HOUSE_VARIANT, "--deals", "5"],
        ["coverage", "--scenarios", "{scenarios}"],
    ],
    ids=lambda command: command[0],
)
def test_a_broken_house_spec_stops_a_command_before_it_runs(
    broken_house: tuple[Path, str], capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    """Located as validate locates it, exit 2: no verdict, no worker's failure, no table."""
    house, problem = broken_house
    args = [arg.format(scenarios=house / "scenarios") for arg in command]
    status = cli.main([*args, "--spec", str(house / "spec")])
    out, err = capsys.readouterr()
    assert (status, err.splitlines(), out) == (exits.EXIT_BAD_DATA, [problem, "1 problem(s)"], "")
    assert problem in validate_house(house, capsys)[1]  # validate's words (it also checks the scenarios)


@pytest.mark.parametrize("folders", [["--spec", "spec"], ["--scenarios", "scenarios"]])
def test_field_coverage_takes_no_house_folders(house: Path, capsys: pytest.CaptureFixture[str], folders: list[str]) -> None:
    status = cli.main(["coverage", "--fields", folders[0], str(house / folders[1])])
    out, err = capsys.readouterr()
    assert (status, out) == (exits.EXIT_BAD_DATA, "")
    assert err == "usage error: --fields measures the kit's own scenarios: give it no --spec or --scenarios\n"


def test_a_broken_house_spec_is_a_usage_error_under_pytest(pytester: pytest.Pytester, broken_house: tuple[Path, str]) -> None:
    house, problem = broken_house
    folders = ("--trickspec-spec", str(house / "spec"), "--trickspec-scenarios", str(house / "scenarios"))
    done = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-q", "--engine", "reference", *folders)
    both = str(done.stdout) + str(done.stderr)
    assert done.ret == pytest.ExitCode.USAGE_ERROR, both
    assert done.stderr.lines[:2] == ["ERROR: bad house folders:", problem], both
    assert "Traceback" not in both and "INTERNALERROR" not in both and "passed" not in both
    assert roots.current() == roots.Roots()  # the folders are left though the plugin stopped before its unconfigure


def test_a_python_engine_the_kit_serves_is_given_the_house_folders(in_house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--engine module:name`` starts the engine's process with the house spec folders as its arguments."""
    status, out, err = run_here("trickspec verify --spec spec --scenarios scenarios --engine reference:Engine", capsys)
    assert status == 0, out + err
    assert out.rstrip().endswith("3 passed, 0 failed")
