"""A trace line naming a game instead of one of its variants (``altbaumer``) is a located problem that names the
kit's variant meant, as the protocol's handshake does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.cli import main


def test_a_game_named_for_its_variant_gets_the_variant_meant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "t.jsonl"
    game = {"variant": "altbaumer", "setup": {"dealer": 0}, "actions": []}
    trace.write_text(json.dumps(game) + "\n", encoding="utf-8")
    assert main(["check-trace", str(trace)]) == 2
    out = capsys.readouterr().out
    said = "$.variant: expected a playable variant of spec/*/variants, found 'altbaumer' (did you mean 'altbaumer-standard'?)"
    assert said in out, out


def test_a_name_near_no_variant_gets_no_guess(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "t.jsonl"
    trace.write_text(json.dumps({"variant": "skat", "setup": {"dealer": 0}, "actions": []}) + "\n", encoding="utf-8")
    assert main(["check-trace", str(trace)]) == 2
    out = capsys.readouterr().out
    assert "found 'skat'\n" in out, out
