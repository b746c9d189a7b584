"""Scenarios as pytest items, once conformance/plugin.py is given an engine.

Every scenario file under the kit's scenarios folder becomes items whose ids are the scenario
ids, marked with their game, variant and clauses. When pytest was given no path (it runs the
current folder or the ini file's testpaths) and what it runs does not reach the scenarios, the
kit's own scenarios are added: installed from a wheel, ``pytest --engine ...`` in any folder
runs every scenario. Each item is judged as ``trickspec verify`` judges it, expectation file
included.
"""

from __future__ import annotations

import contextlib
import fnmatch
import re
import warnings
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance.engines import adapter as adapters
from conformance.engines import engine_process
from conformance.run import expectations, reports, runlog, runner
from conformance.suite import difference_text, scenarios
from conformance.suite.reported import declared
from conformance.text import untrusted
from conformance.validate import spec_problems
from conformance.vocabulary import Outcome
from specreader import kitdata, roots, spec
from specreader.files import yaml_files
from specreader.problems import DataError

PLUGIN_NAME = "trickspec-scenarios"

_ENGINE_KEY = pytest.StashKey[adapters.EngineAdapter]()
_HELLO_KEY = pytest.StashKey[dict[str, Any]]()
_UNUSABLE_KEY = pytest.StashKey[str]()  # a pytest-xdist worker's engine that would not start: why
_EXPECT_KEY = pytest.StashKey[expectations.Expectations]()
_ROOTS_KEY = pytest.StashKey[contextlib.ExitStack]()
_SIGTERM_KEY = pytest.StashKey[Callable[[], None]]()  # puts pytest's own SIGTERM handling back
_BY_FILE_KEY = pytest.StashKey[dict[Path, list[scenarios.Scenario]]]()
_JUDGED = "trickspec_judged"  # the user property a scenario's report carries (pytest-xdist sends it to the controller)


def _marker(name: str) -> str:
    return re.sub(r"[^a-zA-Z0-9_]", "_", name)


def configure(config: pytest.Config) -> None:
    """Markers, the expectation file, the engine and the scenarios to collect.

    An unreadable expectation file or an unusable engine is a usage error: a reason, not a traceback;
    so are house folders that cannot be used.
    """
    config.stash[_ROOTS_KEY] = house = contextlib.ExitStack()  # left in pytest_unconfigure
    given = house.enter_context(
        roots.using(config.getoption("trickspec_spec") or (), config.getoption("trickspec_scenarios") or ())
    )
    try:
        _configure(config, given)
    except BaseException:  # this module is not registered, so its pytest_unconfigure never leaves the folders
        house.close()
        raise


def _configure(config: pytest.Config, given: roots.Roots) -> None:
    problems = roots.folder_problems(given.scenarios, "scenarios")
    for folder in given.scenarios if not problems else ():  # a link loop pytest's own walk would go round
        problems += yaml_files(folder)[1]
    if not hasattr(config, "workerinput"):  # checked as validate checks it, once: a worker's controller did
        problems += spec_problems()
    if not problems:
        try:
            spec.kit_spec()  # the house spec, read with the kit's
        except DataError as err:
            problems += err.problems
    if problems:
        raise pytest.UsageError("bad house folders:\n" + str(DataError(problems)))
    config.addinivalue_line("markers", "scenario: a conformance scenario from scenarios/")
    config.addinivalue_line("markers", "clause(id): a clause the scenario checks")
    for vid in spec.variant_ids(playable=False):
        config.addinivalue_line("markers", f"{_marker(vid)}: scenarios of variant {vid}")
    for game in spec.kit_spec().games():
        config.addinivalue_line("markers", f"{game}: scenarios of {game}")
    expect_file = config.getoption("expect")
    try:  # read before the engine starts, so a bad file leaves no engine running
        config.stash[_EXPECT_KEY] = expectations.load(Path(expect_file)) if expect_file else expectations.Expectations()
    except DataError as err:
        raise pytest.UsageError(f"bad expectation file:\n{err}") from None
    config.stash[_SIGTERM_KEY] = engine_process.end_all_on_sigterm()  # pytest, ended by SIGTERM, would leave the engine
    try:
        engine = adapters.open_engine(
            config.getoption("engine"),
            config.getoption("engine_cmd"),
            timeout=config.getoption("engine_timeout"),
            validate=config.getoption("validate_protocol"),
            in_process=config.getoption("engine_in_process"),
        )
        config.stash[_HELLO_KEY] = untrusted.identity(engine.hello(), set(spec.variant_ids(playable=False)))
    except Exception as err:  # whatever the engine raised
        unusable = f"engine unusable: {adapters.unusable_said(err)}"
        if hasattr(config, "workerinput"):  # the controller's engine shook hands, this worker's did not: its
            config.stash[_UNUSABLE_KEY] = unusable  # scenarios fail saying so, rather than the worker being lost
            config.stash[_HELLO_KEY] = {"variants": []}
            _add_kit_scenarios(config)
            return
        config.stash[_SIGTERM_KEY]()  # this plugin is not registered, so its unconfigure will not run
        raise pytest.UsageError(unusable) from None
    if _hands_tests_to_workers(config):
        engine.close()  # each pytest-xdist worker opens an engine of its own
    else:
        config.stash[_ENGINE_KEY] = engine
    _add_kit_scenarios(config)


def _hands_tests_to_workers(config: pytest.Config) -> bool:
    """Whether this process is the controller of a pytest-xdist run, which runs no test itself."""
    if hasattr(config, "workerinput") or config.getoption("collectonly"):
        return False
    return config.getoption("dist", "no") != "no" and bool(config.getoption("tx", None))


def _add_kit_scenarios(config: pytest.Config) -> None:
    if config.args_source is pytest.Config.ArgsSource.ARGS:
        return  # the user named what to run
    given = [(config.invocation_params.dir / arg.split("::")[0]).resolve() for arg in config.args]
    for root in _scenario_folders():
        if not any(path == root or path in root.parents or root in path.parents for path in given):
            config.args.append(str(root))


def _scenario_folders() -> list[Path]:
    """The house scenario folders when given, else the kit's."""
    return [folder.resolve() for folder in roots.current().scenarios] or [kitdata.scenarios_dir().resolve()]


def pytest_report_header(config: pytest.Config) -> list[str]:
    hello = config.stash[_HELLO_KEY]
    engine = f"{hello.get('name', 'unnamed')} {hello.get('version', '(no version)')}"
    folders = ", ".join(map(str, _scenario_folders()))
    house = "".join(f", house spec {folder}" for folder in roots.current().spec)
    return [f"trickspec: engine {engine}, spec {runlog.spec_version()}{house}, scenarios in {folders}"]


def pytest_unconfigure(config: pytest.Config) -> None:
    engine = config.stash.get(_ENGINE_KEY, None)
    if engine is not None:
        engine.close()
    house = config.stash.get(_ROOTS_KEY, None)
    if house is not None:
        house.close()
    config.stash.get(_SIGTERM_KEY, lambda: None)()


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The way to the run's scenario folders is never passed over: the kit installed in a virtual environment
    inside the project (``.venv``, ``venv``) is below a folder pytest passes over, and its scenarios would not be
    collected at all. Whatever else is in such a folder stays passed over (the tests of the packages installed
    there are not the user's)."""
    path = collection_path.resolve()
    for folder in _scenario_folders():
        on_the_way = path == folder or folder in path.parents or path in folder.parents
        if on_the_way and collection_path.is_symlink():
            return True  # a link to the way (a venv's lib64): its scenarios are read once, by their own path
        if on_the_way:
            return False  # inside a scenario folder, or on the way to one
        if any(_passed_over(config, above) for above in folder.parents if above in path.parents):
            return True
    return None


def _passed_over(config: pytest.Config, folder: Path) -> bool:
    """Whether pytest's own rules pass over ``folder``: ``norecursedirs``, or a virtual environment."""
    patterns = config.getini("norecursedirs")
    return (folder / "pyvenv.cfg").is_file() or any(fnmatch.fnmatch(folder.name, pattern) for pattern in patterns)


def pytest_collection_finish(session: pytest.Session) -> None:
    """An engine named and no scenario collected: said, rather than a run that ends with no test in silence."""
    if any(isinstance(item, ScenarioItem) for item in session.items) or hasattr(session.config, "workerinput"):
        return
    folders = ", ".join(map(str, _scenario_folders()))
    why = "the paths given hold none of them" if session.config.args_source is pytest.Config.ArgsSource.ARGS else (
        "-k, -m or --deselect left none of them")
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"trickspec: no scenario collected from {folders}: {why}", yellow=True)


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    folders = {kitdata.scenarios_dir().resolve(), *_scenario_folders()}
    if file_path.suffix != ".yaml" or not folders.intersection(file_path.resolve().parents):
        return None
    return ScenarioFile.from_parent(parent, path=file_path)


def _collected_by_file(config: pytest.Config) -> dict[Path, list[scenarios.Scenario]]:
    """The scenarios of every file of the run's folders that this session collects, read together
    once (so each variant is resolved once; the whole suite is scenarios.run_scenarios, read once per
    process), by the file they are written in; empty when they do not all load, so that each file is
    then read alone and its own problems are reported at it."""
    if _BY_FILE_KEY not in config.stash:
        by_file: dict[Path, list[scenarios.Scenario]] = {}
        with contextlib.suppress(DataError):
            targets = [(config.invocation_params.dir / arg.split("::")[0]).resolve() for arg in config.args]
            every = [file.resolve() for folder in _scenario_folders() for file in scenarios.scenario_files(folder)]
            chosen = [file for file in every if any(t == file or t in file.parents for t in targets)]
            loaded = scenarios.run_scenarios() if len(chosen) == len(every) else scenarios.load_to_run(chosen)
            for scenario in loaded:
                by_file.setdefault((kitdata.root() / scenario.file).resolve(), []).append(scenario)
        config.stash[_BY_FILE_KEY] = by_file
    return config.stash[_BY_FILE_KEY]


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        loaded = _collected_by_file(self.config).get(self.path.resolve())
        if loaded is None:  # a file outside the run's folders, or one of those collected does not load
            try:
                loaded = scenarios.load_to_run([self.path])
            except DataError as err:
                raise self.CollectError(str(err)) from None
        expected = self.config.stash[_EXPECT_KEY]
        for scenario in loaded:
            item = ScenarioItem.from_parent(self, name=scenario.id, scenario=scenario)
            entry = expected.get(scenario.id)
            if entry is not None and entry.outcome is Outcome.SKIPPED:
                item.add_marker(pytest.mark.skip(reason=entry.reason))  # reported at the scenario's line
            item.add_marker(pytest.mark.scenario)
            item.add_marker(getattr(pytest.mark, scenario.game))
            item.add_marker(getattr(pytest.mark, _marker(scenario.variant)))
            for cid in scenario.clauses:
                item.add_marker(pytest.mark.clause(cid))
                item.extra_keyword_matches.add(cid)
            yield item


class ScenarioFailure(Exception):
    def __init__(self, verdict: runner.Verdict, note: str | None) -> None:
        super().__init__(verdict.scenario.id)
        self.verdict = verdict
        self.note = note


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A scenario skipped (unsupported) is reported at its own file and line, as a skip the expectation file
    makes is, not at the line of this module that skipped it (pytest merges skips by location and reason)."""
    report = yield
    if isinstance(item, ScenarioItem) and report.skipped and isinstance(report.longrepr, tuple):
        report.longrepr = (str(item.path), item.scenario.line, report.longrepr[2])
    if isinstance(item, ScenarioItem) and (report.when == "call" or report.skipped):
        # judged: passed, failed, or failed as the expectation file says; not: unsupported or skipped
        report.user_properties.append((_JUDGED, not report.skipped or hasattr(report, "wasxfail")))
    return report


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Scenarios run and none judged (each unsupported or skipped): no pass, as verify says (exit 3 there). The
    terminal reporter holds every report, a pytest-xdist worker's too."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or hasattr(session.config, "workerinput"):
        return
    judged = [bool(value) for reports in reporter.stats.values() for report in reports
              for key, value in getattr(report, "user_properties", ()) if key == _JUDGED]  # fmt: skip
    if not judged or any(judged):
        return
    said = f"trickspec: every scenario run ({len(judged)}) was unsupported or skipped, so nothing was judged"
    reporter.write_line(said, red=True)
    if exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


class EngineWarning(UserWarning):
    """What an engine did wrong that no scenario's verdict can carry any more."""


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: scenarios.Scenario, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario

    def runtest(self) -> None:
        unusable = self.config.stash.get(_UNUSABLE_KEY, None)
        if unusable is not None:
            worker = getattr(self.config, "workerinput", {}).get("workerid", "?")
            pytest.fail(f"{unusable} (in pytest-xdist worker {worker})", pytrace=False)
        engine = self.config.stash[_ENGINE_KEY]
        hello = self.config.stash[_HELLO_KEY]
        verdict = runner.run(engine, self.scenario, set(hello["variants"]), declared(hello.get("reports")))
        for late in adapters.take_late_copies(engine):  # a scenario before was judged already (pytest runs one at a time): said
            warnings.warn(EngineWarning(reports.late_copy_warning(late)), stacklevel=1)
        expected = self.config.stash[_EXPECT_KEY]
        reported, note = expected.reported(  # as verify reports it
            self.scenario.id, verdict.outcome, (m.to_json() for m in verdict.mismatches)
        )
        if reported is Outcome.PASS:
            return
        entry = expected.get(self.scenario.id)
        if reported is Outcome.XFAIL and entry is not None:
            pytest.xfail(entry.reason)
        if reported is Outcome.UNSUPPORTED:
            why = str(verdict.error) if verdict.error is not None else f"unsupported: {verdict.not_run}"  # one prefix
            pytest.skip(why + (f"; {note}" if note else ""))
        raise ScenarioFailure(verdict, note)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, ScenarioFailure):
            return describe(excinfo.value.verdict, excinfo.value.note)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.scenario.line - 1, f"scenario {self.scenario.id}"


def describe(verdict: runner.Verdict, note: str | None = None) -> str:
    """A failure as a reader wants it: where, which clauses say what, how it differs from the
    expectation file (``note``), and expected against observed."""
    s = verdict.scenario
    clauses = spec.kit_spec().clause_index()
    lines = [f"scenario {s.id} ({s.location}) on {s.variant}: {verdict.outcome}", f"  {s.title}"]
    if note:
        lines.append(f"  expectation file: {note}")
    for cid in s.clauses:
        clause = clauses.get(cid, {})
        text = " ".join(" ".join(str(clause.get(field, "")) for field in ("text", "engine_note")).split())
        lines.append(f"  clause {cid}: {text}")
    if verdict.error:
        lines.append(f"  engine error: {verdict.error}")
    for m in verdict.mismatches:
        lines.append(f"  step {m.step} ({s.file}:{m.line}): {m.what}")
        lines.append(f"    - expected: {untrusted.expected_text(m.expected)}")
        lines.append(f"    + observed: {untrusted.observed_text(m.observed)}")
        if hint := difference_text.hint(m.what, m.expected, m.observed):  # where two lists part, as the reports say
            lines.append(f"      {hint.strip()}")
    return "\n".join(untrusted.text(line) for line in lines)  # house titles and clause texts are data too
