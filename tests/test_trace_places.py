"""check-trace's terminal says where in a failing game the difference is: the action refused or accepted wrongly,
or the action after which a report differs, so that an author finds it in the trace without the run log."""

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


def _game(variant_id: str, seed: int) -> dict[str, Any]:
    """A game the reference plays with random legal moves, its snapshot reported after every action."""
    rng = random.Random(seed)
    deck = deck_of(variant(variant_id))
    rng.shuffle(deck)
    engine = Engine.new(variant_id, {"dealer": 0, "deck": deck})
    observations: list[Any] = [{"snapshot": engine.snapshot()}]
    actions = []
    while legal := engine.legal_actions():
        actions.append(rng.choice(legal))
        engine.apply(actions[-1])
        observations.append({"snapshot": engine.snapshot()})
    return {"game": seed, "variant": variant_id, "setup": {"dealer": 0, "deck": deck}, "actions": actions,
            "observations": observations}


def _check(tmp_path: Path, capsys: pytest.CaptureFixture[str], game: dict[str, Any]) -> str:
    trace = tmp_path / "t.jsonl"
    trace.write_text(json.dumps(game) + "\n", encoding="utf-8")
    assert main(["check-trace", str(trace)]) == 1
    return capsys.readouterr().out


def test_a_report_that_differs_names_the_action_before_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _game("briscola-2p", 1)
    count = len(game["actions"])
    winner = next(i for i, o in enumerate(game["observations"]) if o["snapshot"].get("last_trick"))
    game["observations"][winner]["snapshot"]["last_trick"]["winner"] ^= 1
    played = game["actions"][winner - 1]
    out = _check(tmp_path, capsys, game)
    assert f"  after action {winner} of {count} ({played['seat']} play {played['card']}): last_trick.winner:" in out, out


def test_a_move_accepted_wrongly_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _game("briscola-2p", 2)
    first = game["actions"][0]
    out_of_turn = {**first, "seat": 1 - first["seat"]}
    game["actions"] = [out_of_turn, *game["actions"]]
    game["observations"] = []
    out = _check(tmp_path, capsys, game)
    named = f"  action 1 of {len(game['actions'])} ({out_of_turn['seat']} play {out_of_turn['card']}): refusal code:"
    assert named in out, out


def test_a_difference_at_the_deal_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _game("briscola-2p", 3)
    game["observations"] = [{"snapshot": {"to_act": 0}}]  # seat 1 leads: the player after the dealer
    out = _check(tmp_path, capsys, game)
    assert "  as dealt, before any action: to_act: expected 1, observed 0" in out, out
