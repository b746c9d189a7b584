"""A whole deal walked through: a deal script played through the reference engine when the site is built.

A deal script (``rulesite/hand_written/play/<game>.yaml``) gives a variant, the deck in order, the dealer (or the nines
drawn for partners and dealer) and the actions, step by step, each step with an optional note written for
players. Every fact the walk-through shows (the hands, who wins each trick, what it is worth, who draws
what, the score) is what the engine answered, so the page cannot state a rule twice or drift from it. An
action the engine refuses fails the build, naming the step.

An action is written as the player to act would say it: ``pass``, ``bid 6D``, ``refuse``, ``take_tree QC``;
a bare card code plays that card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reference import Engine, Refusal, SetupError, VariantError
from specreader import yamlio
from specreader.jsontypes import Json
from specreader.notation import SUIT_LETTERS
from specreader.problems import DataError, Problem
from specreader.spec import variant as resolve_variant

SCRIPT_KEYS = {"variant", "dealer", "nines", "deck", "steps", "title"}
STEP_KEYS = {"do", "note", "title"}


@dataclass(frozen=True)
class Moment:
    """One step of the script as the engine played it."""

    actions: list[Json]  # each action with the seat that took it
    events: list[Json]  # what the engine reported, in order
    note: str | None
    after: Json  # the snapshot after the step

    def trick(self) -> Json | None:
        return next((e for e in self.events if e.get("type") == "trick_won"), None)

    def draws(self) -> list[Json]:
        return [e for e in self.events if e.get("type") == "drew"]

    def result(self) -> Json | None:
        found = next((e for e in self.events if e.get("type") == "deal_over"), None)
        return found.get("result") if found else None


@dataclass(frozen=True)
class Walkthrough:
    game: str
    variant_id: str
    variant: Json  # resolved
    start: Json  # the snapshot once the deal has been dealt and waits for its first action
    start_events: list[Json]
    moments: list[Moment] = field(default_factory=list)

    def tricks_before(self, index: int) -> int:
        return sum(1 for m in self.moments[:index] if m.trick() is not None)


def load_scripts(folder: Path) -> dict[str, Json]:
    """Every ``*.yaml`` deal script of a folder, by file stem (the game it teaches), checked for shape."""
    scripts: dict[str, Json] = {}
    problems: list[Problem] = []
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        doc = yamlio.load(path)
        data = doc.data
        if not isinstance(data, dict) or not isinstance(data.get("variant"), str) or not isinstance(data.get("steps"), list):
            problems.append(doc.problem((), "expected a deal script: variant, deck, dealer or nines, steps"))
            continue
        problems += [
            doc.problem((k,), f"unknown key {k!r}: expected {sorted(SCRIPT_KEYS)}", at_key=True)
            for k in data
            if k not in SCRIPT_KEYS
        ]
        for i, step in enumerate(data["steps"]):
            if not isinstance(step, dict) or not isinstance(step.get("do"), list):
                problems.append(doc.problem(("steps", i), "expected a step: do (a list of actions) and an optional note"))
                continue
            problems += [doc.problem(("steps", i, k), f"unknown key {k!r}", at_key=True) for k in step if k not in STEP_KEYS]
        scripts[path.stem] = {**data, "file": str(path)}
    if problems:
        raise DataError(problems)
    return scripts


def parse_action(text: str, seat: int) -> Json:
    words = text.split()
    if len(words) == 1 and len(words[0]) == 2 and words[0][0].isalnum() and words[0][1] in SUIT_LETTERS:
        return {"type": "play", "seat": seat, "card": words[0]}
    if len(words) == 2:
        return {"type": words[0], "seat": seat, "card": words[1]}
    if len(words) == 1:
        return {"type": words[0], "seat": seat}
    raise ValueError(f"cannot read the action {text!r}: expected a card, a word, or a word and a card")


def play(script: Json) -> Walkthrough:
    """Play the script through the reference engine; ValueError names the first step it refuses."""
    where = str(script.get("file", "deal script"))
    vid = str(script["variant"])
    try:
        variant = resolve_variant(vid)
    except KeyError:
        raise ValueError(f"{where}: no variant {vid!r}") from None
    setup: Json = {k: script[k] for k in ("dealer", "nines", "deck") if k in script}
    try:
        engine = Engine.new(vid, setup)
    except (SetupError, VariantError) as err:
        raise ValueError(f"{where}: the engine refuses this deal: {err}") from None
    walk = Walkthrough(str(variant.get("game")), vid, variant, engine.snapshot(), engine.setup_events)
    for i, step in enumerate(script["steps"]):
        actions: list[Json] = []
        events: list[Json] = []
        for text in step["do"]:
            seat = engine.snapshot().get("to_act")
            if not isinstance(seat, int):
                raise ValueError(f"{where}: step {i + 1}: nobody is to act for {text!r}")
            action = parse_action(str(text), seat)
            answer = engine.apply(action)
            if isinstance(answer, Refusal):
                raise ValueError(f"{where}: step {i + 1}: the engine refuses {text!r}: {answer.code} ({answer.message})")
            actions.append(action)
            events += answer.events
        note = step.get("note")
        walk.moments.append(Moment(actions, events, str(note) if note else None, engine.snapshot()))
    if engine.to_act is not None:  # over, though the winning side may still name its dealer
        raise ValueError(f"{where}: the script ends before the deal does")
    return walk
