"""trickspec's commands: ``parser()`` is built from the public description (``cli.COMMANDS``) that the rules
site's guide reads, and the two agree on every command and argument."""

from __future__ import annotations

import argparse

import pytest

from conformance import cli


def built_subparsers() -> dict[str, argparse.ArgumentParser]:
    """The subcommands argparse built. argparse offers no public view of them; this test reads its private one
    precisely to check that what was built matches the description."""
    (action,) = [a for a in cli.parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def test_the_parser_has_exactly_the_described_commands() -> None:
    assert list(built_subparsers()) == [c.name for c in cli.COMMANDS]
    shown = " ".join(cli.parser().format_help().split())
    assert all(c.help in shown for c in cli.COMMANDS)


@pytest.mark.parametrize("command", cli.COMMANDS, ids=lambda c: c.name)
def test_each_command_has_exactly_the_described_arguments(command: cli.Command) -> None:
    sub = built_subparsers()[command.name]
    actions = [a for a in sub._actions if not isinstance(a, argparse._HelpAction)]
    assert [tuple(a.option_strings) or (a.dest,) for a in actions] == [o.flags for o in command.options]
    for action, option in zip(actions, command.options, strict=True):
        assert action.dest == option.dest
        assert (action.help or "") == option.help
        assert action.choices == option.choices
        assert action.type is option.type
        if action.option_strings:
            assert action.required == option.required
            assert action.default == (False if option.action == "store_true" else option.default)
            value_name = (action.metavar or action.dest.upper()) if action.nargs != 0 else None
            assert option.value_name == value_name
        else:
            assert option.value_name is None
    assert sub.get_default("run") is command.run


@pytest.mark.parametrize("command", cli.COMMANDS, ids=lambda c: c.name)
def test_each_command_parses_into_the_described_names(command: cli.Command) -> None:
    argv = [command.name]
    for option in command.options:
        if option.positional and option.nargs in (None, "+"):
            argv.append("value")
        elif option.required:
            argv += [option.flags[0], "value"]
    args = cli.parser().parse_args(argv)
    assert args.command == command.name and args.run is command.run
    assert set(vars(args)) == {"command", "run"} | {o.dest for o in command.options}


def test_an_option_is_derived_as_argparse_derives_it() -> None:
    option = cli.Option(("--output", "-o"), "write here")
    assert (option.dest, option.value_name, option.positional) == ("output", "OUTPUT", False)
    assert cli.Option(("-x", "--fail-under"), metavar="PERCENT").value_name == "PERCENT"
    assert cli.Option(("--validate-protocol",), action="store_true").value_name is None
    assert cli.Option(("paths",), nargs="*").positional
    assert cli.Option(("--game",), action="append").argparse_kwargs() == {"action": "append"}
