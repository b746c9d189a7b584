"""The command-line reference of the guide: trickspec's commands and options, and the pytest plugin's options,
read from their public descriptions so the guide cannot drift from the code."""

from __future__ import annotations

from typing import Any

from conformance import cli, plugin
from rulesite.templating import render


def commands_table() -> str:
    return render("commands_table.html.j2", prog=cli.PROG, commands=cli.COMMANDS)


def options_table(command: str) -> str:
    """One trickspec command's arguments."""
    found = next((c for c in cli.COMMANDS if c.name == command), None)
    if found is None:
        known = ", ".join(c.name for c in cli.COMMANDS)
        raise ValueError(f"[[cli: {command}]]: no such {cli.PROG} command (known: {known})")
    return render("options_table.html.j2", options=found.options)


class _OptionRecorder:
    """Stands in for pytest's parser: keeps what the plugin's ``pytest_addoption`` adds, as options."""

    def __init__(self) -> None:
        self.options: list[cli.Option] = []

    def getgroup(self, *args: Any, **kwargs: Any) -> _OptionRecorder:
        return self

    def addoption(self, *names: str, **settings: Any) -> None:
        self.options.append(cli.Option(names, **settings))

    def addini(self, *args: Any, **kwargs: Any) -> None:
        pass


def pytest_options() -> list[cli.Option]:
    recorder = _OptionRecorder()
    plugin.pytest_addoption(recorder)  # type: ignore[arg-type]
    return recorder.options


def pytest_options_table() -> str:
    return render("options_table.html.j2", options=pytest_options())
