"""The JSON Lines run log: the primary record of a conformance run, written as the run goes.

One header line (kit, spec version, engine handshake, options), one line per scenario with
its outcome and first mismatch, one footer line with the counts. Every report is rendered
from this log (conformance/reports.py), so nothing finished is lost if a run stops early.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from conformance import schemas
from specreader import kitdata
from specreader.jsontypes import Json
from specreader.problems import DataError, Problem

# Every outcome a scenario can have in a run, and which of them break the run.
OUTCOMES = ("pass", "fail", "error", "timeout", "unsupported", "skipped", "xfail", "xpass")
FAILING = frozenset({"fail", "error", "timeout", "xpass"})


def kit_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("trickspec")
    except PackageNotFoundError:
        return "0+checkout"


def spec_version() -> str:
    """The kit version plus a digest of spec/ and scenarios/: what an expectation file pins."""
    digest = hashlib.sha256()
    root = kitdata.root()
    for folder in ("spec", "scenarios"):
        for path in sorted((root / folder).rglob("*.yaml")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return f"{kit_version()}+{digest.hexdigest()[:12]}"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Writer:
    """Appends log lines and flushes each, so a crash loses nothing already judged."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream

    def write(self, line: Json) -> None:
        self.stream.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
        self.stream.flush()


@dataclass
class Log:
    """A run log read back: header, scenario lines, footer (None if the run stopped early)."""

    header: Json
    scenarios: list[Json] = field(default_factory=list)
    footer: Json | None = None

    def counts(self) -> Counter[str]:
        return Counter(line["outcome"] for line in self.scenarios)


def read(path: Path) -> Log:
    """Read and check a run log; bad lines are located problems."""
    problems: list[Problem] = []
    header: Json | None = None
    log = Log(header={})
    name = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise DataError([Problem(name, 0, 0, (), f"cannot read the run log: {err}")]) from None
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except json.JSONDecodeError as err:
            problems.append(Problem(name, number, err.colno, (), f"expected a JSON object per line: {err.msg}"))
            continue
        kind = line.get("type") if isinstance(line, dict) else None
        if kind not in ("header", "scenario", "footer"):
            problems.append(Problem(name, number, 1, ("type",), f"expected type header, scenario or footer, found {kind!r}"))
            continue
        for at, message, _ in schemas.explain(schemas.validator("run-log", f"/$defs/{kind}"), line):
            problems.append(Problem(name, number, 1, at, message))
        if kind == "header":
            header = line
        elif kind == "scenario":
            log.scenarios.append(line)
        elif kind == "footer":
            log.footer = line
    if header is None:
        found = "" if text.strip() else ", found an empty file"
        problems.append(Problem(name, 1, 1, (), f"expected a header line first{found}"))
    if problems:
        raise DataError(problems)
    assert header is not None
    log.header = header
    return log
