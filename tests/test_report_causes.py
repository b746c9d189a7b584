"""Reports show every difference of a failure, and a run of deals or games each cause once."""

from __future__ import annotations

from typing import Any

from conformance.run import fields_differing, reports, runlog
from conformance.run.runlog import Log
from conformance.suite import field_phases, observing, schemas
from conformance.suite.comparisons import COMPARISONS
from specreader.jsontypes import overlap
from specreader.spec import variant, variant_ids


def _line(rid: str, what: str, n: int = 1, **more: Any) -> dict[str, Any]:
    mismatches = [{"step": 1, "line": 0, "what": f"{what}" if i == 0 else f"x{i}", "expected": 1, "observed": 2}
                  for i in range(n)]  # fmt: skip
    return {"type": "scenario", "id": rid, "outcome": "fail", "game": "albastini", "variant": "albastini-2p",
            "clauses": ["albastini.score.tie"], "file": "", "line": 0, "seconds": 0.0, "mismatch": mismatches[0],
            "mismatches": mismatches, "error": None, "expected": None, "note": None, **more}  # fmt: skip


def _log(command: str, *lines: dict[str, Any]) -> Log:
    header = runlog.header({"name": "e", "version": "1", "variants": []}, {"command": command}, len(lines))
    return Log(header, list(lines))  # type: ignore[arg-type]


def test_every_difference_up_to_the_cap_and_the_rest_counted() -> None:
    data = reports.summary(_log("verify", _line("a/b/c", "to_act", n=14)))
    (failure,) = data["failures"]
    assert len(failure["differences"]) == reports.DIFFERENCES_SHOWN + 1
    assert failure["differences"][-1] == "and 4 more differences (the run log holds every one)"
    assert reports.beyond_detail(failure)[0] == "step 1: x1: expected 1, observed 2"
    md = reports.render_md(data)
    assert "## Failures" in md and "    - step 1: x9: expected 1, observed 2" in md


def test_deals_of_one_cause_are_one_group_whatever_the_seat() -> None:
    log = _log("fuzz", _line("fuzz/0/1", "hands.1 (as a set)"), _line("fuzz/0/7", "hands.0 (as a set)"),
               _line("fuzz/0/9", "result.tie"))  # fmt: skip
    data = reports.summary(log)
    causes = [(c["cause"], c["count"], c["first"]) for c in data["causes"]]
    assert causes == [("hands (as a set)", 2, "fuzz/0/1"), ("result.tie", 1, "fuzz/0/9")]
    md = reports.render_md(data)
    assert "## Divergences" in md and "## Failures" not in md
    assert "albastini-2p hands (as a set); 2 failed, the first fuzz/0/1" in md


def test_unsupported_answers_are_grouped_by_their_reason() -> None:
    def said(rid: str, reason: str) -> dict[str, Any]:
        return {**_line(rid, ""), "mismatch": None, "mismatches": [], "outcome": "error", "error": f"unsupported: {reason}"}

    log = _log("check-trace", said("g:1", "no mid-deal start"), said("g:2", "no mid-deal start"), said("g:3", "no refusals"))
    assert [(c["cause"], c["count"]) for c in reports.summary(log)["causes"]] == [
        ("unsupported: no mid-deal start", 2), ("unsupported: no refusals", 1)]  # fmt: skip


def test_cards_compared_as_a_set_are_told_apart_by_what_one_lacks() -> None:
    line = {"mismatches": [{"step": 2, "line": 9, "what": "hands.0 (as a set)", "expected": ["AC", "KC", "7D"],
                            "observed": ["7D", "AC", "QC"]}]}  # fmt: skip
    assert reports.differences(line) == [  # type: ignore[arg-type]
        'step 2: hands.0 (as a set): expected ["AC", "KC", "7D"], observed ["7D", "AC", "QC"] (missing KC; extra QC)'
    ]


def test_values_are_said_as_json_whatever_the_engine_s_language() -> None:
    """null, true and "7H", as the protocol and the traces write them; not Python's None, True and '7H'."""
    tie = {"step": 1, "line": 3, "what": "result.tie", "expected": True, "observed": None}
    trick = {"step": 1, "line": 3, "what": "trick", "expected": [{"seat": 0, "card": "7H"}], "observed": []}
    line = {"mismatches": [tie, trick]}
    assert reports.differences(line) == [  # type: ignore[arg-type]
        "step 1: result.tie: expected true, observed null",
        'step 1: trick: expected [{"seat": 0, "card": "7H"}], observed []',
    ]


def test_failures_are_counted_by_the_field_they_differ_in_with_the_clauses_deciding_it() -> None:
    """A wrong card value fails scenarios about the over-60 score through their totals: the report names the clause
    that decides the totals, whatever clauses the failing scenarios are about."""

    def failing(rid: str, *whats: str) -> dict[str, Any]:
        found = [{"step": 1, "line": 0, "what": w, "expected": 1, "observed": 2} for w in whats]
        return {**_line(rid, ""), "variant": "briscola-2p", "game": "briscola", "clauses": ["briscola.score.over-sixty"],
                "mismatch": found[0], "mismatches": found}  # fmt: skip

    log = _log(
        "verify",
        failing("a", "totals", "last_trick.points", "totals"),  # counted once a field, however many of its differences
        failing("b", "totals"),
        failing("c", "hands.1 (as a set)", "refusal code"),  # a seat's number left out; a refusal code is no field
        {**failing("d", "result.winner"), "variant": "a-house-variant"},  # a variant this kit has not: no clause named
    )
    data = reports.summary(log)
    assert data["by_field"] == [
        {"field": "totals", "failed": 2, "clauses": ["briscola.cards.values"]},
        {"field": "hands", "failed": 1, "clauses": list(observing.clauses_of("briscola-2p").for_field("hands", ""))},
        {"field": "last_trick.points", "failed": 1, "clauses": ["briscola.cards.values"]},
        {"field": "result.winner", "failed": 1, "clauses": []},
    ]
    assert data["by_field"][1]["clauses"]  # some clause decides the hands
    assert not list(schemas.validator("summary").iter_errors(data))
    text = reports.render_text(data).splitlines()
    assert text[-5].split() == ["field", "differing", "failed", "decided", "by"]
    assert text[-4].split() == ["totals", "2", "briscola.cards.values"] and text[-1].split() == ["result.winner", "1", "-"]
    md = reports.render_md(data)
    assert "## Fields that differ" in md and "| `totals` | 2 | briscola.cards.values |" in md
    passing = reports.summary(_log("verify", {**_line("e", ""), "outcome": "pass", "mismatch": None, "mismatches": []}))
    assert passing["by_field"] == [] and "field differing" not in reports.render_text(passing)
    assert "## Fields that differ" not in reports.render_md(passing)


def test_the_legal_actions_are_put_on_the_clauses_of_the_scenarios_failing_in_them() -> None:
    """Every phase has clauses deciding what is legal in it, and a run log keeps no phase: of them, those the
    failing scenarios are about are named; where the scenarios name none, all of them."""

    def failing(rid: str, clauses: list[str]) -> dict[str, Any]:
        found = {"step": 1, "line": 0, "what": "legal actions (exactly)", "expected": ["0 play 7C"], "observed": []}
        return {**_line(rid, ""), "variant": "altbaumer-standard", "game": "altbaumer", "clauses": clauses,
                "mismatch": found, "mismatches": [found]}  # fmt: skip

    log = _log(
        "verify",
        failing("a", ["altbaumer.play.free-discard", "altbaumer.play.trick-winner"]),
        failing("b", ["altbaumer.trees.club-lead-choice"]),
    )
    every = observing.clauses_of("altbaumer-standard").for_field("legal", "")
    assert len(every) > 10
    assert reports.summary(log)["by_field"] == [
        {"field": "legal", "failed": 2, "clauses": ["altbaumer.play.free-discard", "altbaumer.trees.club-lead-choice"]}
    ]
    named_none = _log("verify", failing("c", ["altbaumer.score.tricks"]))
    assert reports.summary(named_none)["by_field"][0]["clauses"] == list(every)


def test_a_difference_is_in_the_field_its_path_names() -> None:
    """Each difference as the scenarios' comparisons say it, its seat or place left out."""
    snapshot = {"hands": {"1": ["AH"]}, "dead": ["2C"], "stock": ["7H"], "result": {"vp": [0, 1]}}
    said = [
        what
        for key, expected in (
            ("hands", {"1": ["KH"]}), ("holds", {"1": ["KH"]}), ("lacks", {"1": ["AH"]}), ("dead", {"holds": ["3C"]}),
            ("dead", {"lacks": ["2C"]}), ("dead", ["3C"]), ("legal", {"exactly": ["0 play AH"]}),
            ("legal", {"includes": ["0 play AH"]}), ("legal", {"excludes": ["1 play AH"]}), ("snapshot", {"stock.0": "8H"}),
            ("result", {"vp": [1, 0]}),
        )
        for what, _, _ in COMPARISONS[key](expected, snapshot, [{"type": "play", "seat": 1, "card": "AH"}])
    ]
    fields = [fields_differing.field_of(what) for what in said]
    assert fields == ["hands", "hands", "hands", "dead", "dead", "dead", "legal", "legal", "legal", "stock", "result.vp"], said
    assert fields_differing.field_of("refusal code") is None and fields_differing.field_of("setup refused with") is None


def test_every_field_a_game_fills_is_decided_by_a_clause_naming_it_as_its_fields_page_shows() -> None:
    """The fields pages name the clauses whose ``observes`` name a field; a report names, failing those, the clauses
    observing any part of its field. So that both say the same, each field a variant's snapshot fills and some
    clause decides is named by one (Briscola's ``match.sheet`` holds the running tally, and its clause says so)."""
    for variant_id in variant_ids():
        if variant(variant_id).get("abstract"):
            continue
        game, clauses = variant(variant_id)["game"], observing.clauses_of(variant_id)
        for found in field_phases.fields():
            if found.games is not None and game not in found.games:
                continue
            naming = [c.id for c in clauses.clauses if any(overlap(found.path, o.path) for o in c.observes)]
            assert list(clauses.for_field(found.path, "")) == naming, (variant_id, found.path)
