"""A shrunk divergence written as a scenario file of the kit's format (docs/scenarios.md), and
checked as any scenario is: it must validate, pass on the reference engine and fail on the
engine it was found on, or it is not written.

The expectations are the reference engine's; nothing the engine under test reported goes
into the file.
"""

from __future__ import annotations

import hashlib
import json
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from conformance.engines.adapter import reference_adapter
from conformance.fuzz.compare import REFUSAL, REPORT, merged
from conformance.fuzz.deals import Case
from conformance.fuzz.shrink import Finding
from conformance.run import runner
from conformance.suite.scenarios import SEAT_CARD_STEPS, SEAT_STEPS, load_files
from conformance.vocabulary import Outcome
from specreader.jsontypes import Json
from specreader.notation import SCENARIO_FORMAT
from specreader.problems import DataError
from specreader.spec import kit_spec

SCHEMA_COMMENT = "# yaml-language-server: $schema=https://trickspec.dev/schemas/scenario.schema.json\n"


@dataclass(frozen=True)
class Written:
    """A scenario ready to file: its id, a file name, its text, and how long it is."""

    id: str
    file_name: str
    text: str
    actions: int
    line: int  # where the scenario starts in its file


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _game(variant_id: str) -> str:
    return str(kit_spec().resolved(variant_id).get("game", ""))


@dataclass(frozen=True)
class Origin:
    """Where a finding comes from, as its scenario names it: its id, its file's name, its description and
    its source."""

    id: str
    file_name: str
    description: str
    derived: str


def origin(finding: Finding, seed: int, index: int) -> Origin:
    """A fuzz campaign's finding: named after the variant, the field, the seed and the deal."""
    variant, game = finding.case.variant, _game(finding.case.variant)
    short = variant.removeprefix(game + "-")
    actions = len(finding.case.actions)
    start = " from a mid-deal position" if finding.mid_deal else ""
    return Origin(
        f"{game}/fuzz/{slug(short)}-{slug(finding.field)}-{seed}-{index}",
        f"{variant}-{slug(finding.field)}-{seed}-{index}.yaml",
        f"Found by trickspec fuzz (seed {seed}, deal {index}) and shrunk to {actions} "
        f"action{'s' if actions != 1 else ''}{start}. What it expects is what the reference engine reports.",
        f"found by trickspec fuzz, seed {seed}",
    )


def digest(case: Case) -> str:
    """A short name for a case, the same wherever and whenever it is found."""
    played = json.dumps([case.variant, case.setup, list(case.actions)], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(played.encode()).hexdigest()[:10]


def scenario_id(finding: Finding, seed: int, index: int) -> str:
    return origin(finding, seed, index).id


def _step(action: Json) -> Json:
    kind, seat = action["type"], action["seat"]
    if kind in SEAT_CARD_STEPS:
        return {kind: {seat: action["card"]}}
    if kind in SEAT_STEPS:
        return {kind: [seat]}
    return {"do": dict(action)}


def _joinable(step: Json, action: Json) -> bool:
    """Accepted plays (or bids) in a row share a step, written in order, one per seat."""
    kind = action["type"]
    return set(step) == {kind} and kind in SEAT_CARD_STEPS and action["seat"] not in step[kind]


def steps(finding: Finding) -> list[Json]:
    case, divergence = finding.case, finding.divergence
    out: list[Json] = []
    for action, refusal in zip(case.actions, case.refusals, strict=True):
        if refusal is None and out and _joinable(out[-1], action):
            out[-1][action["type"]][action["seat"]] = action["card"]
            continue
        step = _step(action)
        if refusal is not None:
            step["refusal"] = list(refusal)
        out.append(step)
    if divergence.kind == REPORT:  # the field it is filed under; what follows from it is left out
        expect = merged([e for e in divergence.missed if e.field == divergence.missed[0].field])
    elif divergence.kind == REFUSAL or out:
        expect = {}
    else:  # the engine failed at the setup: check what the reference has at once
        expect = {"phase": finding.reports[0][0].get("phase")}
    if expect:
        if out and "expect" not in out[-1]:
            out[-1]["expect"] = expect
        else:
            out.append({"expect": expect})
    return out


def _title(finding: Finding) -> str:
    divergence = finding.divergence
    last = _said(finding.case.actions[-1]) if finding.case.actions else "the setup"
    if divergence.kind == REPORT:
        return f"{finding.field} after {last}, as the reference engine reports it"
    if divergence.kind == REFUSAL:
        refused = ", ".join(divergence.allowed or ())
        happens = f"is refused ({refused})" if refused else "is accepted"
        return f"{last[:1].upper()}{last[1:]} {happens}"
    return f"The engine's answer to {last}" if finding.case.actions else "The engine sets the deal up"


def _said(action: Json) -> str:
    """An action in a title's words: seat 1's play 3H."""
    card = action.get("card")
    return f"seat {action.get('seat')}'s {action.get('type')}" + (f" {card}" if card else "")


def document(finding: Finding, made: Origin) -> Json:
    return {
        "format": SCENARIO_FORMAT,
        "variant": finding.case.variant,
        "scenarios": [
            {
                "id": made.id,
                "title": _title(finding),
                "description": made.description,
                "clauses": list(finding.clauses),
                "source": {"derived": made.derived},
                "setup": finding.case.setup,
                "steps": steps(finding),
            }
        ],
    }


def _seat_keys(node: Any) -> Any:
    """Seat and side keys written as numbers, as scenario files write them (they load as strings)."""
    if isinstance(node, dict):
        return {(int(k) if isinstance(k, str) and k.isdigit() else k): _seat_keys(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_seat_keys(v) for v in node]
    return node


def dump(data: Json) -> str:
    body = yaml.safe_dump(_seat_keys(data), sort_keys=False, default_flow_style=None, width=120, allow_unicode=True)
    return SCHEMA_COMMENT + body


EngineRun = Callable[[Any], object]


def written(finding: Finding, made: Origin, engine_run: EngineRun) -> tuple[Written | None, str | None]:
    """The scenario file for a finding, checked; or None and why it could not be written."""
    text = dump(document(finding, made))
    name = made.file_name
    with tempfile.TemporaryDirectory(prefix="trickspec-fuzz-") as folder:
        path = Path(folder) / name
        path.write_text(text, encoding="utf-8")
        try:
            (scenario,) = load_files([path])
        except DataError as err:
            return None, f"the scenario does not validate: {err.problems[0].message}"
    on_reference = runner.run(reference_adapter(), scenario)
    if on_reference.outcome is not Outcome.PASS:
        return None, f"the scenario does not pass on the reference engine ({on_reference.outcome})"
    on_engine = runner.judge(scenario, engine_run(runner.request_for(scenario)))
    if on_engine.outcome is Outcome.PASS:
        return None, "the scenario passes on the engine"
    if on_engine.outcome in (Outcome.TIMEOUT, Outcome.ENGINE_UNAVAILABLE):  # it did not answer: no failure is shown
        return None, f"the engine did not answer it ({on_engine.outcome})"
    return Written(scenario.id, name, text, len(finding.case.actions), scenario.line), None
