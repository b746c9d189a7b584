"""The pytest plugin's entry point: inert until an engine is named.

pytest loads this module in every project where the kit is installed, so it imports
nothing of the kit and registers nothing. Given ``--engine`` or ``--engine-cmd``, it hands
over to conformance/pytest_scenarios.py, which opens the engine, registers the game, variant
and clause markers, and turns scenario files into test items.
"""

from __future__ import annotations

TYPE_CHECKING = False  # type checkers read it as True; unlike typing's, it costs no import
if TYPE_CHECKING:
    import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    from conformance.run.durations import timeout  # argparse's alone: still nothing of the kit

    group = parser.getgroup("trickspec", "trickspec conformance scenarios")
    group.addoption(
        "--engine",
        help="engine to run scenarios against: 'reference' (in pytest's process) or module:name (served in a process of its own)",
    )
    group.addoption(
        "--engine-in-process",
        action="store_true",
        help="load the --engine module:name into pytest's process instead, with no isolation and no timeout (for a debugger)",
    )
    group.addoption("--engine-cmd", help="an engine program speaking the protocol, e.g. 'python -m conformance.engines.serve'")
    group.addoption("--engine-timeout", type=timeout, default=10.0, help="seconds an engine may take per scenario")
    group.addoption("--validate-protocol", action="store_true", help="check every protocol message against its schema")
    group.addoption("--expect", help="expectation file listing scenarios to skip or xfail for this engine")
    # prefixed, unlike the command's --spec and --scenarios: pytest-spec has a --spec of its own
    group.addoption("--trickspec-spec", action="append", metavar="DIR", help="a house spec folder, read with the kit's")
    group.addoption(
        "--trickspec-scenarios", action="append", metavar="DIR", help="a house scenarios folder, run instead of the kit's"
    )


def pytest_configure(config: pytest.Config) -> None:
    # `is None`, not falsiness: an empty --engine-cmd is a mistake to report, not a reason to stay inert
    if config.getoption("engine") is None and config.getoption("engine_cmd") is None:
        return
    from conformance import pytest_scenarios

    pytest_scenarios.configure(config)
    config.pluginmanager.register(pytest_scenarios, pytest_scenarios.PLUGIN_NAME)
