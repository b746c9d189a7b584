"""Everything the pages are made from: the spec, the scenarios, the glossary and the schemas, read and checked."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.suite import game_order
from conformance.suite.scenarios import Scenario, load_files, scenario_files
from rulesite import rule_words, walkthrough
from rulesite.cards import is_card
from rulesite.escaping import said_plainly
from rulesite.paths import example_page_path
from specreader import kitdata, yamlio
from specreader.jsontypes import Json
from specreader.problems import DataError, Problem
from specreader.spec import Spec, read

GLOSSARY_KEYS = {"term", "id", "language", "meaning", "game", "definition", "engine_note", "clauses", "cards"}


def clause_applies(clause: Json, vid: str) -> bool:
    """A clause applies to the variants it names, or to every variant of its game when it names none."""
    only = clause.get("variants")
    return not isinstance(only, list) or vid in only


@dataclass
class SiteData:
    """The kit's data, with the indexes the pages look things up in."""

    spec: Spec
    scenarios: Sequence[Scenario]
    glossary: list[Json] = field(default_factory=list)
    schemas: list[tuple[str, Json]] = field(default_factory=list)
    scenarios_root: Path | None = None
    deals: dict[str, Json] = field(default_factory=dict)  # deal scripts for the how-to-play pages, by game

    def __post_init__(self) -> None:
        self.clauses: dict[str, Json] = self.spec.clause_index()
        self.clause_game: dict[str, str] = {}
        for doc in self.spec.clause_files:
            game = str(doc.data.get("game")) if isinstance(doc.data, dict) else ""
            for item in doc.data.get("clauses", []) if isinstance(doc.data, dict) else []:
                if isinstance(item, dict):
                    self.clause_game[str(item.get("id"))] = game
        self.rulings: dict[str, Json] = {str(r.get("id")): r for _, _, r in self.spec.rulings()}
        self.ruling_game: dict[str, str] = {
            str(r.get("id")): str(doc.data.get("game")) for doc, _, r in self.spec.rulings() if isinstance(doc.data, dict)
        }
        self.refusal_codes: set[str] = self.spec.refusal_codes()
        self.variants: dict[str, Json] = {}
        for vid in sorted(self.spec.variants_raw()):
            try:
                self.variants[vid] = self.spec.resolve(vid)
            except (KeyError, ValueError):
                continue
        self.by_clause: dict[str, list[Scenario]] = {}
        for s in self.scenarios:
            for cid in s.clauses:
                self.by_clause.setdefault(cid, []).append(s)
        # Every page asks for the example files; worked out once, as each one resolves the scenario's path.
        by_page: dict[str, list[Scenario]] = {}
        for s in self.scenarios:
            by_page.setdefault(self.example_page(s), []).append(s)
        self._example_files = dict(sorted(by_page.items()))

    def games(self) -> list[str]:
        """The games in the order the spec lists them (spec/games.yaml)."""
        return self.spec.games()

    def game_place(self, game: str) -> tuple[int, str]:
        """Where ``game`` comes in that order, as a sort key; a name no game has (a folder of scenarios named
        otherwise, a game of a run log written with another spec) comes after them all, by name."""
        games = self.games()
        return (games.index(game), "") if game in games else (len(games), game)

    def game_title(self, game: str) -> str:
        for doc in self.spec.clause_files:
            if isinstance(doc.data, dict) and doc.data.get("game") == game:
                return str(doc.data.get("title", game))
        return game.title()

    def game_clauses(self, game: str) -> list[Json]:
        return [c for cid, c in self.clauses.items() if self.clause_game.get(cid) == game]

    def playable_variants(self, game: str) -> dict[str, Json]:
        return {v: r for v, r in self.variants.items() if r.get("game") == game and not r.get("abstract")}

    def facts(self, vid: str) -> list[rule_words.Fact]:
        """What each part of the game is at the table of ``vid``, in words, with the values tables usually agree
        for its choices (the ``usual`` of the clauses that apply to it)."""
        variant = self.variants[vid]
        usual: dict[str, list[Any]] = {}
        ruled: set[str] = set()  # parameters a clause of the table's rules (text, not only an engine note) sets
        noted: set[str] = set()
        told: dict[str, tuple[str, str]] = {}  # set-up choices a clause leaves to the table, no parameter holding them
        for clause in self.game_clauses(str(variant.get("game"))):
            if not clause_applies(clause, vid):
                continue
            if isinstance(clause.get("usual"), dict):
                usual.update(clause["usual"])
            if isinstance(parameter := clause.get("parameter"), str):
                (ruled if clause.get("text") else noted).add(parameter)
            elif clause.get("text"):
                choices = [str(c) for c in clause.get("choices") or [] if str(c).startswith("setup.")]
                told.update(dict.fromkeys(choices, (str(clause.get("id")), said_plainly(clause["text"]))))
        return rule_words.facts(variant, usual, frozenset(noted - ruled), told)

    def sources(self) -> list[Json]:
        doc = self.spec.sources_file
        data = doc.data.get("sources", []) if doc is not None and isinstance(doc.data, dict) else []
        return [s for s in data if isinstance(s, dict)]

    def refusals(self) -> list[Json]:
        doc = self.spec.refusals_file
        data = doc.data.get("refusals", []) if doc is not None and isinstance(doc.data, dict) else []
        return [e for e in data if isinstance(e, dict)]

    def example_page(self, scenario: Scenario) -> str:
        return example_page_path(scenario, self.scenarios_root)

    def example_files(self) -> dict[str, list[Scenario]]:
        """Scenarios by worked-example page, pages in path order, scenarios in file order."""
        return self._example_files


def load_glossary(path: Path) -> list[Json]:
    """The glossary file: ``terms:`` with term, definition and optional fields, checked for shape."""
    doc = yamlio.load(path)
    terms = doc.data.get("terms") if isinstance(doc.data, dict) else None
    if not isinstance(terms, list):
        raise DataError([doc.problem(("terms",), "expected terms: a list of {term, definition}")])
    problems: list[Problem] = []
    for i, item in enumerate(terms):
        if not isinstance(item, dict) or not isinstance(item.get("term"), str) or not isinstance(item.get("definition"), str):
            problems.append(doc.problem(("terms", i), "expected a mapping with term and definition strings"))
            continue
        if "engine_note" in item and not isinstance(item["engine_note"], str):
            problems.append(doc.problem(("terms", i, "engine_note"), "expected a string"))
        for key in item:
            if key not in GLOSSARY_KEYS:
                problems.append(doc.problem(("terms", i, key), f"unknown key {key!r}: expected one of {sorted(GLOSSARY_KEYS)}"))
        for j, c in enumerate(item.get("cards", []) or []):
            if not is_card(c):
                problems.append(doc.problem(("terms", i, "cards", j), f"expected a card code such as AH, found {c!r}"))
    if problems:
        raise DataError(problems)
    return [dict(t) for t in terms]


def load_site_data(root: Path | None = None, glossary: Path | None = None, deals: Path | None = None) -> SiteData:
    """Read spec/, scenarios/ and schemas/ fresh from ``root`` (the checkout by default), with the glossary and
    the folder of deal scripts the hand-written pages use."""
    base = root or kitdata.root()
    spec, problems = read(base / "spec")
    problems += game_order.problems(spec)
    if problems:
        raise DataError(problems)
    scen_root = base / "scenarios"
    found = load_files(scenario_files(scen_root), spec)
    schemas = [(path.name, json.loads(path.read_text(encoding="utf-8"))) for path in sorted((base / "schemas").glob("*.json"))]
    terms = load_glossary(glossary) if glossary is not None else []
    scripts = walkthrough.load_scripts(deals) if deals is not None else {}
    data = SiteData(spec, found, terms, schemas, scen_root, scripts)
    problems = check_references(data)
    if problems:
        raise DataError(problems)
    return data


def check_references(data: SiteData) -> list[Problem]:
    """What the site links to from hand-written data (the glossary) must exist."""
    problems = []
    for term in data.glossary:
        for cid in term.get("clauses", []) or []:
            if cid not in data.clauses:
                problems.append(Problem("docs/glossary.yaml", 1, 1, ("terms",), f"{term['term']}: unknown clause {cid!r}"))
    return problems
