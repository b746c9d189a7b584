"""The refusal precedence of spec/errors.yaml held to the code list: each order names every code
refusing an action exactly once, and a game with its own order is a game of the spec."""

from __future__ import annotations

from specreader.jsontypes import JsonPath
from specreader.problems import Problem
from specreader.spec import Spec
from specreader.yamlio import Document


def check(spec: Spec) -> list[Problem]:
    doc = spec.errors_file
    stated = doc.data.get("precedence") if doc is not None and isinstance(doc.data, dict) else None
    if doc is None or not isinstance(stated, dict):  # missing or mistyped: the schema says so
        return []
    codes = _codes(doc)
    problems = _order(doc, ("precedence", "order"), stated.get("order"), codes)
    games = stated.get("games")
    known = spec.games()
    for game, own in (games.items() if isinstance(games, dict) else ()):
        if game not in known:
            where = ("precedence", "games", game)
            problems.append(doc.problem(where, f"unknown game {game!r}: expected one of {', '.join(known)}", at_key=True))
        if isinstance(own, dict):
            problems += _order(doc, ("precedence", "games", game, "order"), own.get("order"), codes)
    return problems


def _codes(doc: Document) -> list[str]:
    """The codes refusing actions: a setup's refusal comes before any action, so it is not ordered."""
    entries = doc.data.get("errors") if isinstance(doc.data, dict) else None
    return [
        e["code"]
        for e in entries or ()
        if isinstance(e, dict) and isinstance(e.get("code"), str) and e.get("refuses", "action") == "action"
    ]


def _order(doc: Document, at: JsonPath, order: object, codes: list[str]) -> list[Problem]:
    if not isinstance(order, list):
        return []
    problems = []  # a code ordered twice is the schema's to report (uniqueItems)
    for i, code in enumerate(order):
        if isinstance(code, str) and code not in codes:
            message = f"{code!r} is not a code refusing an action: expected one of the errors list's action codes"
            problems.append(doc.problem((*at, i), message))
    missing = [code for code in codes if code not in order]
    if missing:
        problems.append(doc.problem(at, f"expected every code exactly once; missing: {', '.join(missing)}"))
    return problems
