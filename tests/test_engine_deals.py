"""fuzz --deal engine: the engine shuffles and deals its own way from a seed, and the reference takes the deal
from the engine's first observation, so that an engine that deals as it likes is fuzzed past the deal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conformance.cli import main
from conformance.fuzz.deals import UnreadableDeal, dealt_setup
from reference import Engine

OWN_DEAL = "own_deal_engine:OwnDeal"


@pytest.mark.parametrize("variant", ["albastini-4p", "altbaumer-standard", "briscola-2p"])
def test_the_reference_starts_from_the_deal_an_engine_shows(variant: str) -> None:
    dealt = Engine.new(variant, {"dealer": 1, "shuffle": 77})
    shown = dealt.snapshot()
    setup = dealt_setup(shown, variant, {"dealer": 1, "shuffle": 77})
    again = Engine.new(variant, setup).snapshot()
    assert {k: again[k] for k in ("hands", "stock", "dealer", "phase", "trump")} == {
        k: shown[k] for k in ("hands", "stock", "dealer", "phase", "trump")
    }


@pytest.mark.parametrize(
    ("shown", "said"),
    [
        ({"hands": "abc"}, "$.hands: expected a mapping of seats to lists of cards, found str"),
        ({"hands": [["AC"]]}, "$.hands: expected a mapping of seats to lists of cards, found list"),
        ({"hands": {"0": ["AC", None]}}, "$.hands[\"0\"]: expected a list of card codes, found a list holding NoneType"),
        ({"hands": {"0": ["AC"]}, "turned": 5}, "$.turned: expected a list of card codes, found int"),
        ({"stock": "AC"}, "$.stock: expected a list of card codes, found str"),
        ({"hands": {"0": ["rest"]}}, "$.hands[\"0\"]: expected card codes, found 'rest'"),  # a scenario's word, not engine data
    ],
)
def test_a_deal_shown_in_another_shape_says_where(shown: dict[str, object], said: str) -> None:
    """A deal the kit cannot read as one is an UnreadableDeal, the engine's wrong deal: nothing else the kit raises."""
    with pytest.raises(UnreadableDeal) as refused:
        dealt_setup(shown, "briscola-2p", {"dealer": 1, "shuffle": 77})
    assert str(refused.value) == said


def test_an_engine_dealing_its_own_way_passes(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["fuzz", "--engine", OWN_DEAL, "--deal", "engine", "--deals", "150"])
    out = capsys.readouterr().out
    assert status == 0 and "150 passed, 0 failed" in out, out


def test_a_bug_past_an_engine_s_own_deal_is_found_and_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["fuzz", "--engine", "own_deal_engine:WrongWinner", "--deal", "engine", "--deals", "30",
                   "--variant", "briscola-2p", "--out", str(tmp_path)])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 1 and "FAIL briscola-2p last_trick.winner" in out, out
    (written,) = tmp_path.glob("*.yaml")  # written with the deal the engine showed, every card explicit
    assert "shuffle" not in written.read_text(encoding="utf-8")


def test_a_bug_of_an_engine_that_deals_only_its_own_way_fails_its_deals(capsys: pytest.CaptureFixture[str]) -> None:
    """Asked again with the deal's cards given, such an engine cannot play it: the divergence stands, unshrunk."""
    status = main(["fuzz", "--engine", "own_deal_engine:OnlyItsOwnDeal", "--deal", "engine", "--deals", "20",
                   "--variant", "briscola-2p"])  # fmt: skip
    out = capsys.readouterr().out
    assert status == 1, out
    assert "FAIL briscola-2p last_trick.winner (first at " in out and "scenario: not shrunk" in out
    assert out.strip().splitlines()[-1] == "0 passed, 20 failed"


def test_a_campaign_in_which_the_engine_deals_nothing_compares_nothing_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["fuzz", "--engine", "own_deal_engine:NeverItsOwnDeal", "--deal", "engine", "--deals", "10",
                   "--variant", "briscola-2p"])  # fmt: skip
    out, err = capsys.readouterr()
    assert status == 3 and out.strip().splitlines()[-1] == "0 passed, 0 failed, 10 unsupported", out
    assert "UNSUPPORTED briscola-2p unsupported: it takes the kit's deals only" in out
    said = "engine unusable: it answered every deal unsupported at its setup, so nothing was compared"
    assert err.strip().splitlines()[-1] == said
    # the same engine, dealt by the kit, is compared and passes
    assert main(["fuzz", "--engine", "own_deal_engine:NeverItsOwnDeal", "--deals", "10", "--variant", "briscola-2p"]) == 0


def test_a_scenario_may_not_start_from_a_shuffle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "briscola"
    folder.mkdir()
    (folder / "s.yaml").write_text(
        "format: 2\nvariant: briscola-2p\nscenarios:\n  - id: briscola/house/shuffled\n    title: t\n"
        "    clauses: [briscola.play.free]\n    source: briscola\n    setup: {dealer: 0, shuffle: 3}\n"
        "    steps:\n      - expect: {phase: play}\n",
        encoding="utf-8",
    )
    assert main(["validate", "--scenarios", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{folder / 's.yaml'}:8:24: $.scenarios[0].setup.shuffle: expected the cards of a deal, never a shuffle seed" in err


def test_a_legal_actions_divergence_names_the_clauses_refusing_what_the_engine_offers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Thirteen Altbaumer clauses say what is legal in play; a divergence names those whose refusal the engine
    offers anyway (tests/free_play_engine.py offers every card held), one divergence per duty."""
    main(["fuzz", "--engine", "free_play_engine:FreePlay", "--variant", "altbaumer-standard", "--deals", "60"])
    out = capsys.readouterr().out
    named = [line.removeprefix("  clauses: ").split(", ") for line in out.splitlines() if line.startswith("  clauses: ")]
    assert len(named) >= 2 and all(len(clauses) <= 4 for clauses in named), named
    assert any("altbaumer.play.follow-suit" in clauses for clauses in named)
    assert any("altbaumer.play.trump-when-void" in clauses for clauses in named)


def test_a_legal_actions_divergence_names_the_clauses_leaving_the_choice_the_engine_takes_away(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An engine that offers fewer plays than the rules leave open breaks a clause leaving that choice
    (``choices: [action.play]``), not the duties that refuse: those clauses alone are named."""
    from specreader.spec import kit_spec

    main(["fuzz", "--engine", "first_play_engine:FirstPlayOnly", "--variant", "altbaumer-standard", "--deals", "40"])
    out = capsys.readouterr().out
    named = [line.removeprefix("  clauses: ").split(", ") for line in out.splitlines() if line.startswith("  clauses: ")]
    granting = {str(c["id"]) for _, _, c in kit_spec().clauses() if "action.play" in c.get("choices", [])}
    assert named and all(set(clauses) <= granting for clauses in named), named
    assert any("altbaumer.play.free-discard" in clauses for clauses in named), named


@pytest.mark.parametrize(
    ("raised", "said"),
    [
        (AttributeError("no such place"), "AttributeError: no such place"),
        (KeyError("components"), "KeyError: 'components'"),  # a ValueError, KeyError or TypeError of the kit's own code
        (TypeError("no such place"), "TypeError: no such place"),
        (ValueError("no such place"), "ValueError: no such place"),
    ],
)
def test_an_engine_s_deal_the_kit_fails_to_read_is_an_error_of_the_kit_s(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, raised: Exception, said: str
) -> None:
    """Reading the deal an engine shows raises (a bug of the kit's, not a deal the rules refuse, nor one the kit cannot
    read as a deal): that deal is an error saying so, never the engine's failure, and the campaign goes on and exits 4."""
    from conformance.fuzz import worker
    from conformance.fuzz.deals import engine_dealt

    _, sent = engine_dealt(0, 3, ("briscola-2p",))  # what deal 3 asks the engine to deal
    read = worker.dealt_setup

    def raising(shown: Any, variant: str, asked: Any) -> Any:
        if asked == sent:
            raise raised
        return read(shown, variant, asked)

    monkeypatch.setattr(worker, "dealt_setup", raising)
    status = main(["fuzz", "--engine", OWN_DEAL, "--deal", "engine", "--deals", "10", "--variant", "briscola-2p"])
    out, err = capsys.readouterr()
    assert status == 4, out + err
    fault = (f"kit fault: the kit raised {said} while reading the engine's deal, a fault of the kit's, not the engine's: "
             "please report it with this command and the deal's id, fuzz/0/3")  # fmt: skip
    assert f"KIT FAULT 1 deal not judged (first at fuzz/0/3)\n  {fault}\n" in out, out
    assert out.strip().splitlines()[-1] == "9 passed, 1 failed (1 error)", out
    assert err.count("Traceback (most recent call last):") == 1, err
