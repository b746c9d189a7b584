"""Altbaumer's cut in a trace, as docs/guide/traces.md writes it: with a ``deck``, the cutter's actions only while a
Tree shows; with ``hands``, ``trees_taken`` and no cut action."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from conformance.cli import main
from conformance.suite.scenarios import deck_of
from reference import Engine
from specreader.spec import variant

VARIANT = "altbaumer-standard"


def _pack(last: str, seed: int) -> list[str]:
    deck = [card for card in deck_of(variant(VARIANT)) if card != last]
    random.Random(seed).shuffle(deck)
    return [*deck, last]  # the last card is the one the cut shows


def _played(engine: Engine, seed: int) -> tuple[list[Any], list[Any]]:
    rng = random.Random(seed)
    actions: list[Any] = []
    observations: list[Any] = [{"snapshot": engine.snapshot()}]
    while legal := engine.legal_actions():
        actions.append(rng.choice(legal))
        engine.apply(actions[-1])
        observations.append({"snapshot": engine.snapshot()})
    return actions, observations


def _check(tmp_path: Path, capsys: pytest.CaptureFixture[str], game: dict[str, Any]) -> tuple[int, str]:
    trace = tmp_path / "t.jsonl"
    trace.write_text(json.dumps({"variant": VARIANT, **game}) + "\n", encoding="utf-8")
    return main(["check-trace", str(trace)]), capsys.readouterr().out


def test_a_decline_with_no_tree_showing_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    setup = {"dealer": 0, "deck": _pack("9S", 1)}
    actions, _ = _played(Engine.new(VARIANT, setup), 1)
    assert actions[0]["type"] == "accept" or actions[0]["type"] == "refuse"  # no cut: no Tree shows
    status, out = _check(tmp_path, capsys, {"setup": setup, "actions": [{"type": "decline", "seat": 3}, *actions]})
    assert status == 1 and "FAIL altbaumer-standard rejected.wrong_phase" in out, out


def test_hands_after_the_cut_give_the_trees_taken_and_no_cut_action(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = Engine.new(VARIANT, {"dealer": 0, "deck": _pack("QC", 2)})
    engine.apply({"type": "take_tree", "seat": 3, "card": "QC"})
    cut = engine.snapshot()
    setup = {"dealer": 0, "hands": cut["hands"], "stock": cut["stock"], "trees_taken": ["QC"]}
    actions, observations = _played(engine, 2)
    status, out = _check(tmp_path, capsys, {"setup": setup, "actions": actions, "observations": [{"snapshot": cut},
                                                                                                 *observations[1:]]})
    assert status == 0 and "1 passed, 0 failed" in out, out
