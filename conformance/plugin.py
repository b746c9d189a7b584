"""The pytest plugin: scenarios become test items once an engine is named.

``pytest --engine reference`` (or ``--engine module:name``) collects every
scenario file under scenarios/ as items whose ids are the scenario ids. Without
``--engine`` the plugin collects nothing, so it is inert in other projects.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance import adapter as adapters
from conformance import expectations, runner, scenarios
from conformance.vocabulary import Outcome
from specreader import kitdata, spec
from specreader.problems import DataError

_ENGINE_KEY = pytest.StashKey[adapters.EngineAdapter]()
_SUPPORTED_KEY = pytest.StashKey[set[str]]()
_EXPECT_KEY = pytest.StashKey[expectations.Expectations]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("trickspec", "trickspec conformance scenarios")
    group.addoption("--engine", help="engine to run scenarios against: 'reference' or module:name")
    group.addoption("--engine-cmd", help="an engine program speaking the protocol, e.g. 'python -m conformance.serve'")
    group.addoption("--engine-timeout", type=float, default=10.0, help="seconds an engine may take per scenario")
    group.addoption("--validate-protocol", action="store_true", help="check every protocol message against its schema")
    group.addoption("--expect", help="expectation file listing scenarios to skip or xfail for this engine")


def _marker(name: str) -> str:
    return re.sub(r"[^a-zA-Z0-9_]", "_", name)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "scenario: a conformance scenario from scenarios/")
    config.addinivalue_line("markers", "clause(id): a clause the scenario checks")
    for vid in spec.variant_ids(playable=False):
        config.addinivalue_line("markers", f"{_marker(vid)}: scenarios of variant {vid}")
    for game in spec.kit_spec().games():
        config.addinivalue_line("markers", f"{game}: scenarios of {game}")
    engine, engine_cmd = config.getoption("engine"), config.getoption("engine_cmd")
    if not engine and not engine_cmd:
        return
    expect_file = config.getoption("expect")
    try:  # read before the engine starts, so a bad file leaves no engine running
        config.stash[_EXPECT_KEY] = expectations.load(Path(expect_file)) if expect_file else expectations.Expectations()
    except DataError as err:
        raise pytest.UsageError(f"bad expectation file:\n{err}") from None
    try:
        config.stash[_ENGINE_KEY] = adapters.open_engine(
            engine,
            engine_cmd,
            timeout=config.getoption("engine_timeout"),
            validate=config.getoption("validate_protocol"),
        )
    except Exception as err:  # an unusable engine stops the run with a reason, not a traceback
        raise pytest.UsageError(f"engine unusable: {adapters.describe_error(err)}") from None
    config.stash[_SUPPORTED_KEY] = set(config.stash[_ENGINE_KEY].hello().get("variants", []))


def pytest_unconfigure(config: pytest.Config) -> None:
    engine = config.stash.get(_ENGINE_KEY, None)
    if engine is not None:
        engine.close()


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if _ENGINE_KEY not in parent.config.stash or file_path.suffix != ".yaml":
        return None
    root = kitdata.scenarios_dir().resolve()
    if root not in file_path.resolve().parents:
        return None
    return ScenarioFile.from_parent(parent, path=file_path)


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        try:
            loaded = scenarios.load_files([self.path])
        except DataError as err:
            raise self.CollectError(str(err)) from None
        for scenario in loaded:
            item = ScenarioItem.from_parent(self, name=scenario.id, scenario=scenario)
            item.add_marker(pytest.mark.scenario)
            item.add_marker(getattr(pytest.mark, scenario.game))
            item.add_marker(getattr(pytest.mark, _marker(scenario.variant)))
            for cid in scenario.clauses:
                item.add_marker(pytest.mark.clause(cid))
                item.extra_keyword_matches.add(cid)
            yield item


class ScenarioFailure(Exception):
    def __init__(self, verdict: runner.Verdict) -> None:
        super().__init__(verdict.scenario.id)
        self.verdict = verdict


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: scenarios.Scenario, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario

    def setup(self) -> None:
        entry = self.config.stash[_EXPECT_KEY].get(self.scenario.id)
        if entry is None:
            return
        if entry.outcome is Outcome.SKIPPED:
            pytest.skip(entry.reason)
        self.add_marker(pytest.mark.xfail(reason=entry.reason, strict=True))

    def runtest(self) -> None:
        engine = self.config.stash[_ENGINE_KEY]
        verdict = runner.run(engine, self.scenario, self.config.stash[_SUPPORTED_KEY])
        if verdict.outcome is Outcome.UNSUPPORTED:
            pytest.skip(f"unsupported: {verdict.reason}")
        if verdict.outcome is not Outcome.PASS:
            raise ScenarioFailure(verdict)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ScenarioFailure):
            return describe(excinfo.value.verdict)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.scenario.line - 1, f"scenario {self.scenario.id}"


def describe(verdict: runner.Verdict) -> str:
    """A failure as a reader wants it: where, which clauses say what, and expected against observed."""
    s = verdict.scenario
    clauses = spec.kit_spec().clause_index()
    lines = [f"scenario {s.id} ({s.location}) on {s.variant}: {verdict.outcome}", f"  {s.title}"]
    for cid in s.clauses:
        text = " ".join(str(clauses.get(cid, {}).get("text", "")).split())
        lines.append(f"  clause {cid}: {text}")
    if verdict.error:
        lines.append(f"  engine error: {verdict.error}")
    for m in verdict.mismatches:
        lines.append(f"  step {m.step} ({s.file}:{m.line}): {m.what}")
        lines.append(f"    - expected: {m.expected!r}")
        lines.append(f"    + observed: {m.observed!r}")
    return "\n".join(lines)
