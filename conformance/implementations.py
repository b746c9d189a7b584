"""The engines the rules site's Implementations page reports on, and their committed run logs.

Each engine is run over the scenarios of the variants it declares, with its expectation file,
and its run log is committed under ``docs/implementations/``. The log's header records a
digest of every scenario it ran, so a log older than its scenarios is told apart without file
times (which a clone resets): ``stale`` names what changed since.

Refresh every log from a checkout: ``.venv/bin/python -m conformance.implementations`` (the
JavaScript example needs ``node``; briscola-gym its install step, examples/briscola-gym/README.md).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from conformance.engines.adapter import EngineAdapter, open_engine
from conformance.run import expectations
from conformance.run.runlog import Log
from conformance.run.verify import verify
from conformance.suite import scenarios
from conformance.suite.scenarios import Scenario
from specreader import kitdata

LOGS_DIR = Path("docs") / "implementations"  # under the checkout's root


@dataclass(frozen=True)
class Implementation:
    """An engine on the page: how to open it (an in-process ``engine`` or an ``engine_cmd``, run from the
    checkout's root), the folder its adapter module is imported from, and its expectation file."""

    key: str  # the run log's name: docs/implementations/<key>.jsonl
    engine: str | None = None
    engine_cmd: str | None = None
    path: str | None = None
    expect: str | None = None

    def log_path(self, root: Path) -> Path:
        return root / LOGS_DIR / f"{self.key}.jsonl"


IMPLEMENTATIONS = (
    Implementation("reference", engine="reference"),
    Implementation("js-albastini-2p", engine_cmd="node examples/js-albastini-2p/engine.js"),
    Implementation(
        "libbisca", engine="libbisca_adapter:adapter", path="examples/libbisca", expect="examples/libbisca/expectations.yaml"
    ),
    Implementation(
        "naipes", engine="naipes_adapter:adapter", path="examples/naipes", expect="examples/naipes/expectations.yaml"
    ),
    Implementation(
        "briscola-gym",
        engine="briscola_gym_adapter:adapter",
        path="examples/briscola-gym",
        expect="examples/briscola-gym/expectations.yaml",
    ),
)


def digest(scenario: Scenario) -> str:
    """What a run of the scenario depends on in its file: its variant and its text, as data."""
    text = json.dumps({"variant": scenario.variant, "scenario": scenario.raw}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def declared(chosen: Iterable[Scenario], variants: Iterable[str]) -> list[Scenario]:
    """The scenarios of the variants an engine declares: those a log of it covers."""
    wanted = set(variants)
    return [s for s in chosen if s.variant in wanted]


@contextmanager
def _importable(root: Path, folder: str | None) -> Iterator[None]:
    if folder is None:
        yield
        return
    where = str(root / folder)
    sys.path.insert(0, where)
    try:
        yield
    finally:
        sys.path.remove(where)


def open_implementation(item: Implementation, root: Path) -> EngineAdapter:
    """The engine, opened as ``trickspec verify`` opens it."""
    with _importable(root, item.path):
        if item.engine_cmd is not None:
            cmd = " ".join(str(root / part) if (root / part).is_file() else part for part in item.engine_cmd.split())
            return open_engine(engine_cmd=cmd)
        return open_engine(engine=item.engine)


def run(item: Implementation, root: Path) -> Log:
    """One engine over the scenarios of its variants, with its expectation file; the header records what ran."""
    engine = open_implementation(item, root)
    try:
        chosen = declared(scenarios.kit_scenarios(), engine.hello().get("variants", []))
        known = expectations.load(root / item.expect) if item.expect else None
        options = {"engine": item.engine, "engine_cmd": item.engine_cmd, "expect": item.expect}
        log = verify(engine, chosen, expectations=known, options={k: v for k, v in options.items() if v})
    finally:
        engine.close()
    log.header["scenario_digests"] = {s.id: digest(s) for s in chosen}
    return log


def write(log: Log, path: Path) -> None:
    """The log as ``verify`` writes it, one JSON object a line, in scenario order."""
    lines = [log.header, *log.scenarios, *([log.footer] if log.footer else [])]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in lines), "utf-8")


def stale(log: Log, current: Iterable[Scenario]) -> list[str]:
    """Why a committed log no longer describes its engine on the current scenarios, one reason a scenario: one of
    its variants added, removed, changed or moved in its file since it ran (the site links each failure to its
    file and line). Empty when it is up to date."""
    recorded = log.header.get("scenario_digests", {})
    chosen = {s.id: s for s in declared(current, log.header["engine"].get("variants", []))}
    now = {sid: digest(s) for sid, s in chosen.items()}
    reasons = [f"{sid}: added since the run" for sid in sorted(set(now) - set(recorded))]
    reasons += [f"{sid}: no longer a scenario of its variants" for sid in sorted(set(recorded) - set(now))]
    changed = {sid for sid in set(now) & set(recorded) if now[sid] != recorded[sid]}
    reasons += [f"{sid}: changed since the run" for sid in sorted(changed)]
    logged = {line["id"]: f"{line['file']}:{line['line']}" for line in log.scenarios}
    reasons += [  # one reason a scenario: a changed one has likely moved too
        f"{sid}: moved to {chosen[sid].location} since the run, which logged {logged[sid]}"
        for sid in sorted(set(logged) & set(chosen) - changed)
        if logged[sid] != chosen[sid].location
    ]
    return reasons


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m conformance.implementations",
        description="Run every engine of the Implementations page and rewrite its committed run log.",
    )
    parser.add_argument("keys", nargs="*", help="only these engines (default: all): " + ", ".join(i.key for i in IMPLEMENTATIONS))
    args = parser.parse_args(argv)
    root = kitdata.root()
    unknown = set(args.keys) - {i.key for i in IMPLEMENTATIONS}
    if unknown:
        parser.error(f"no engine {', '.join(sorted(unknown))}")
    for item in IMPLEMENTATIONS:
        if args.keys and item.key not in args.keys:
            continue
        log = run(item, root)
        write(log, item.log_path(root))
        counts = ", ".join(f"{n} {k}" for k, n in sorted(log.counts().items()))
        print(f"{item.key}: {counts} -> {item.log_path(root).relative_to(root)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
