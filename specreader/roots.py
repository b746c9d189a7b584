"""House rules: spec and scenario folders of a club's own, read beside the kit's.

A house spec folder holds ``<game>/variants/*.yaml`` (which may ``extends:`` the kit's variants),
and may hold ``<game>/clauses.yaml`` in sections of its own, ``<game>/rulings.yaml`` and
``sources.yaml``; a house scenarios folder holds scenario files. The roots of a run are values
this process is given (``using``), never read from the environment: a process the kit starts gets
them as arguments (``as_arguments``), as ``conformance/engines/serve.py`` does.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from specreader import kitdata
from specreader.files import yaml_files
from specreader.jsontypes import Json
from specreader.problems import Problem
from specreader.spec import Spec, load_file, parents, placed_kind
from specreader.yamlio import Document

# What a house folder may hold: the kit alone states the refusal codes, the order of the games and the selfcheck's
# equivalents.
_EXPECTED = "<game>/variants/*.yaml, <game>/clauses.yaml, <game>/rulings.yaml or sources.yaml"


@dataclass(frozen=True)
class Roots:
    """The extra folders of a run, absolute; empty when the kit runs on its own data."""

    spec: tuple[Path, ...] = ()
    scenarios: tuple[Path, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.spec or self.scenarios)

    def to_json(self) -> Json:
        return {"spec": [str(p) for p in self.spec], "scenarios": [str(p) for p in self.scenarios]}


def current() -> Roots:
    """The roots this process was given."""
    return _current


_current = Roots()


@contextlib.contextmanager
def using(spec: Iterable[str | Path] = (), scenarios: Iterable[str | Path] = ()) -> Iterator[Roots]:
    """Run with these extra folders (none given of a kind: as before), and the roots before it after."""
    global _current
    before = _current
    spec_folders = tuple(Path(os.path.abspath(f)) for f in spec) or before.spec
    scenario_folders = tuple(Path(os.path.abspath(f)) for f in scenarios) or before.scenarios
    _current = Roots(spec_folders, scenario_folders)
    try:
        yield _current
    finally:
        _current = before


def as_arguments(given: Roots) -> list[str]:
    """The house spec folders as command-line arguments of a process the kit starts (``--spec=DIR``)."""
    return [f"--spec={folder}" for folder in given.spec]


def folder_problems(folders: Iterable[Path], kind: str) -> list[Problem]:
    """A root that is not a folder, or is the kit's own ``kind`` folder, is a problem naming it."""
    own = os.path.realpath(kitdata.root() / kind)
    problems = []
    for folder in folders:
        if not folder.exists():
            problems.append(Problem(str(folder), 0, 0, (), f"no such folder: expected a {kind} folder of house rules"))
        elif not folder.is_dir():
            problems.append(Problem(str(folder), 0, 0, (), f"expected a {kind} folder of house rules, found a file"))
        elif os.path.realpath(folder) == own:
            problems.append(Problem(str(folder), 0, 0, (), f"this is the kit's own {kind} folder: expected a house one"))
    return problems


def add_house(spec: Spec, folders: Iterable[Path]) -> list[Problem]:
    """Add the files of house spec folders to the kit's spec; what they would change of the kit's is refused.

    A file declaring a name the kit (or an earlier house file) declares is reported, located, and left
    out, so nothing of the kit is ever replaced."""
    folders = list(folders)
    problems = folder_problems(folders, "spec")
    if problems:
        return problems
    taken = _declared(spec)
    games = set(spec.clause_games())  # the kit's: a house folder adds rules to its games, not games
    placed: list[tuple[Document, str]] = []  # each house variant, and the game its folder names
    for folder in folders:
        paths, missing = yaml_files(folder)
        problems += missing
        for path in paths:
            rel = path.relative_to(folder).parts
            kind = _house_kind(rel)
            if kind is None:
                problems.append(Problem(str(path), 1, 1, (), f"unexpected file in a house spec folder: expected {_EXPECTED}"))
                continue
            if kind != "sources" and rel[0] not in games:
                known = ", ".join(sorted(games))
                problems.append(Problem(str(path), 1, 1, (), f"expected a folder named for a game ({known}), found {rel[0]!r}"))
                continue
            if (doc := load_file(spec, path, rel, problems)) is None:
                continue
            if kind in ("clauses", "rulings") and isinstance(doc.data, dict) and doc.data.get("game") != rel[0]:
                problems.append(doc.problem(("game",), f"expected game {rel[0]!r}, as its folder says"))
                spec.add_unloaded(str(path), rel)
                continue
            collisions = [
                doc.problem(at, f"{what} {name!r} is already declared (in {first}): expected a name of the house's own")
                for at, what, name in _names(doc, kind)
                if (first := taken.get((what, name))) is not None
            ] + _borrowed_sections(doc, kind)
            if collisions:
                problems += collisions
                spec.add_unloaded(str(path), rel)
                continue
            taken.update({(what, name): f"{doc.file}:{doc.where(at)[0]}" for at, what, name in _names(doc, kind)})
            spec.add(doc, rel, problems)
            if kind == "variants":
                placed.append((doc, rel[0]))
    return problems + [problem for doc, game in placed if (problem := _of_another_game(spec, doc, game)) is not None]


def _of_another_game(spec: Spec, doc: Document, folder: str) -> Problem | None:
    """A house variant whose game (its own, else the first its line of ``extends`` gives) is not its folder's."""
    raw = spec.variants_raw()
    line = [str(doc.data.get("id"))] if isinstance(doc.data, dict) else []
    seen: set[str] = set()
    while line:
        vid = line.pop(0)
        if vid in seen or vid not in raw:
            continue
        seen.add(vid)
        own = raw[vid][1]
        if isinstance(own.get("game"), str):
            if own["game"] == folder:
                return None
            at = ("game",) if vid == doc.data.get("id") else ("extends",)
            return doc.problem(at, f"a variant of {own['game']!r} in the folder of {folder!r}: expected one of {folder!r}")
        line += parents(own)
    return None


def _house_kind(rel: tuple[str, ...]) -> str | None:
    """What a file of a house spec folder holds, by its place in the layout the guide gives: the kit's, less the
    files only the kit has (errors, the order of the games, the selfcheck's equivalents)."""
    kind = placed_kind(rel)
    return kind if kind in ("variants", "clauses", "rulings", "sources") else None


def _borrowed_sections(doc: Document, kind: str | None) -> list[Problem]:
    """A house clause sits in a section of its own file, so its id never enters a namespace of the kit's."""
    data = doc.data if isinstance(doc.data, dict) and kind == "clauses" else {}
    sections, clauses = data.get("sections"), data.get("clauses")
    own = {s.get("id") for s in sections if isinstance(s, dict)} if isinstance(sections, list) else set()
    return [
        doc.problem(("clauses", i, "section"), f"expected a section this file declares, found {c['section']!r}")
        for i, c in enumerate(clauses if isinstance(clauses, list) else [])
        if isinstance(c, dict) and isinstance(c.get("section"), str) and c["section"] not in own
    ]


def _declared(spec: Spec) -> dict[tuple[str, str], str]:
    """Every name the spec declares, by kind of name, with where it is."""
    taken: dict[tuple[str, str], str] = {}
    docs = [(d, "clauses") for d in spec.clause_files] + [(d, "rulings") for d in spec.ruling_files]
    docs += [(d, "variants") for d in spec.variant_files] + [(d, "sources") for d in spec.source_files()]
    for doc, kind in docs:
        for at, what, name in _names(doc, kind):
            taken.setdefault((what, name), f"{doc.file}:{doc.where(at)[0]}")
    return taken


def _names(doc: Document, kind: str) -> Iterator[tuple[tuple[str | int, ...], str, str]]:
    """The names a file declares: (its path, what it is, the name); a section is named with its game."""
    data = doc.data if isinstance(doc.data, dict) else {}
    if kind == "variants":
        if isinstance(data.get("id"), str):
            yield ("id",), "variant", data["id"]
        return
    lists = {"clauses": (("clauses", "id", "clause"), ("sections", "id", "section")), "rulings": (("rulings", "id", "ruling"),)}
    for listed, key, what in lists.get(kind, (("sources", "key", "source"),)):
        items = data.get(listed)
        for i, item in enumerate(items if isinstance(items, list) else []):
            name = item.get(key) if isinstance(item, dict) else None
            if isinstance(name, str):
                yield (listed, i, key), what, f"{data.get('game')}.{name}" if what == "section" else name


def clause_ids(spec: Spec, folders: Iterable[Path]) -> set[str]:
    """The ids of the clauses house spec folders declare."""
    inside = [os.path.realpath(folder) for folder in folders]
    return {
        str(clause.get("id"))
        for doc, _, clause in spec.clauses()
        if any(Path(os.path.realpath(doc.file)).is_relative_to(folder) for folder in inside)
    }
