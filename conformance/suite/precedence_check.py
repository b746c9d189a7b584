"""The refusal precedence of spec/refusals.yaml held to the code list and to the reference engine:
each order names every code refusing an action exactly once, beginning with the codes the engine
reads first (reference.precedence.READ_FIRST), and a game with its own order is a game of the spec."""

from __future__ import annotations

from reference.precedence import order_faults
from specreader.jsontypes import JsonPath
from specreader.problems import Problem
from specreader.spec import Spec
from specreader.yamlio import Document


def check(spec: Spec) -> list[Problem]:
    doc = spec.refusals_file
    stated = doc.data.get("precedence") if doc is not None and isinstance(doc.data, dict) else None
    if doc is None or not isinstance(stated, dict):  # missing or mistyped: the schema says so
        return []
    codes = spec.action_codes()
    problems = _order(doc, ("precedence", "order"), stated.get("order"), codes)
    games = stated.get("games")
    known = spec.clause_games()
    for game, own in (games.items() if isinstance(games, dict) else ()):
        if game not in known:
            where = ("precedence", "games", game)
            problems.append(doc.problem(where, f"unknown game {game!r}: expected one of {', '.join(known)}", at_key=True))
        if isinstance(own, dict):
            problems += _order(doc, ("precedence", "games", game, "order"), own.get("order"), codes)
    return problems


def _order(doc: Document, at: JsonPath, order: object, codes: list[str]) -> list[Problem]:
    if not isinstance(order, list):
        return []
    return [
        doc.problem(at if fault.at is None else (*at, fault.at), fault.message)
        for fault in order_faults(order, codes)
        if not fault.repeat  # a code ordered twice is the schema's to report (uniqueItems)
    ]
