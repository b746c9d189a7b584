"""``trickspec where`` names the folders a user reads and points tools at, each there."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cli import main
from specreader import kitdata


def test_where_names_each_folder_of_the_kit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["where"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"trickspec {kitdata.kit_version()}, spec ")
    places = dict(line.split(maxsplit=1) for line in lines[1:])
    assert sorted(places) == ["docs", "examples", "scenarios", "schemas", "site", "spec"]
    for name in ("spec", "schemas", "scenarios", "docs", "examples"):
        assert Path(places[name]).is_dir(), places[name]
    assert (Path(places["docs"]) / "protocol.md").is_file()


@pytest.mark.parametrize("name", ["spec", "schemas", "scenarios", "docs", "examples"])
def test_where_names_one_folder_alone_for_a_script(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["where"]) == 0
    listed = dict(line.split(maxsplit=1) for line in capsys.readouterr().out.splitlines()[1:])
    assert main(["where", name]) == 0
    assert capsys.readouterr().out == listed[name] + "\n"
