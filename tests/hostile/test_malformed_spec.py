"""A malformed file in the kit's own spec, in spec/refusals.yaml or in a house folder is located problems and exit 2
from every command, never a traceback: nothing of the spec is read as a module is imported, and a check reads
only the well-shaped parts of what its schema refuses."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOUSE = ROOT / "examples" / "house-rules"
COMMANDS = [
    ["validate"],
    ["verify"],
    ["coverage"],
    ["smoke", "--engine-cmd", "true"],
    ["fuzz", "--deals", "2", "--variant", "albastini-2p"],
]


def appended(text: str) -> Callable[[str], str]:
    return lambda before: before + text


def emptied(key: str) -> Callable[[str], str]:
    return lambda before: before[: before.index(f"{key}:")] + f"{key}:\n"


# Each case: the file under spec/ and what is done to it.
KIT_CASES = {
    "unparsable variant": ("albastini/variants/2p.yaml", appended("zz: [\n")),
    "truncated refusals.yaml": ("refusals.yaml", lambda before: before[:300]),
    "empty refusals.yaml": ("refusals.yaml", lambda before: ""),
    "sections left empty": ("albastini/clauses.yaml", emptied("sections")),
    "a game left out of the order": ("games.yaml", lambda before: before.replace("  - bisca\n", "")),
}


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kit's packages and data, copied: each case breaks a copy of this one, never the checkout."""
    copy = tmp_path_factory.mktemp("kit")
    for name in ("specreader", "reference", "conformance", "spec", "schemas", "scenarios"):
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def trickspec(kit: Path, *args: str) -> tuple[int, str]:
    """``trickspec ARGS`` run from the kit ``kit``: the exit status and what it wrote, both streams."""
    env = {**os.environ, "PYTHONPATH": str(kit)}
    done = subprocess.run(
        [sys.executable, "-m", "conformance.cli", *args], cwd=kit, env=env, capture_output=True, text=True, timeout=300
    )
    return done.returncode, done.stdout + done.stderr


@pytest.mark.parametrize("case", sorted(KIT_CASES))
def test_a_malformed_file_of_the_kit_s_own_spec_is_located_by_every_command(
    kit: Path, tmp_path: Path, case: str
) -> None:
    broken = tmp_path / "kit"
    shutil.copytree(kit, broken)
    name, change = KIT_CASES[case]
    path = broken / "spec" / name
    path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")
    for command in COMMANDS:
        status, said = trickspec(broken, *command)
        assert "Traceback" not in said, (command, said)
        assert status == 2, (command, said)
        assert f"{path}:" in said, (command, said)


HOUSE_CASES = {
    "a clause id that is a list": ("  - id: albastini.baobab.over-90-wins-three\n", "  - id: []\n"),
    "variants a number": ("    variants: [baobab-albastini-4p]\n", "    variants: 7\n"),
    "variants holding null": ("    variants: [baobab-albastini-4p]\n", "    variants: [null]\n"),
}


@pytest.mark.parametrize("case", sorted(HOUSE_CASES))
def test_wrong_types_in_a_house_clauses_file_are_located_by_every_command(kit: Path, tmp_path: Path, case: str) -> None:
    house = tmp_path / "house"
    shutil.copytree(HOUSE, house)
    clauses = house / "spec" / "albastini" / "clauses.yaml"
    before, after = HOUSE_CASES[case]
    text = clauses.read_text(encoding="utf-8")
    assert before in text
    clauses.write_text(text.replace(before, after, 1), encoding="utf-8")
    folders = ["--spec", str(house / "spec"), "--scenarios", str(house / "scenarios")]
    for command in (["validate", *folders], ["verify", *folders], ["coverage", *folders]):
        status, said = trickspec(kit, *command)
        assert "Traceback" not in said, (command, said)
        assert status == 2 and f"{clauses}:" in said, (command, said)


def test_a_link_loop_in_a_house_scenarios_folder_is_refused(kit: Path, tmp_path: Path) -> None:
    house = tmp_path / "house"
    shutil.copytree(HOUSE, house)
    (house / "scenarios" / "loop").mkdir()
    (house / "scenarios" / "loop" / "back").symlink_to("..")
    folders = ["--spec", str(house / "spec"), "--scenarios", str(house / "scenarios")]
    for command in (["validate", *folders], ["verify", *folders]):
        status, said = trickspec(kit, *command)
        assert status == 2, said
        assert f"{house / 'scenarios' / 'loop' / 'back'}: a link to a folder read already" in said
    env = {**os.environ, "PYTHONPATH": str(kit)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--engine", "reference",
         "--trickspec-spec", str(house / "spec"), "--trickspec-scenarios", str(house / "scenarios")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
    assert "a link to a folder read already" in done.stderr
