"""The order of the games, spec/games.yaml, which the rules site lists them in: a file every spec has, of its
schema, held to the games of the spec. Each game it lists has its ``<game>/clauses.yaml``, and each game that
has one is listed (once: the schema says so)."""

from __future__ import annotations

from pathlib import Path

from conformance.suite import schemas
from specreader.jsontypes import JsonPath
from specreader.problems import Problem
from specreader.spec import GAMES_FILE, Spec
from specreader.yamlio import Document


def problems(spec: Spec) -> list[Problem]:
    """What is wrong with the order of the games: validate's, and the rules site's before it lists them."""
    doc = spec.games_file
    if doc is None:
        if "games" in spec.unloaded:  # reported where it was read
            return []
        where = spec.root / GAMES_FILE if spec.root else Path(GAMES_FILE)
        return [Problem(str(where), 0, 0, (), "missing: the order of the games is required")]
    shapes = schemas.check(doc, "games")
    return shapes + _held_to_the_spec(spec, doc, {problem.path for problem in shapes})


def _held_to_the_spec(spec: Spec, doc: Document, misshapen: set[JsonPath]) -> list[Problem]:
    listed = doc.data.get("games") if isinstance(doc.data, dict) else None
    if not isinstance(listed, list):  # the schema says so
        return []
    games = spec.clause_games()
    out = [
        doc.problem(("games", i), f"unknown game {game!r}: expected one of {', '.join(games)}")
        for i, game in enumerate(listed)
        # a clauses file that did not load may be this game's: it is reported where it was read
        if isinstance(game, str) and game not in games and ("games", i) not in misshapen and "clauses" not in spec.unloaded
    ]
    if left_out := [game for game in games if game not in listed]:
        out.append(doc.problem(("games",), f"expected every game of the spec, found {', '.join(map(repr, left_out))} left out"))
    return out
