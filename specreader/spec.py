"""The rules as data: reads spec/ into one object and resolves variant inheritance."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import NoReturn

from specreader import kitdata
from specreader.files import yaml_files
from specreader.jsontypes import Json
from specreader.limits import MAX_INHERITANCE
from specreader.problems import DataError, Problem
from specreader.yamlio import Document, load

# Keys a variant file uses for bookkeeping; they are not inherited.
_OWN_KEYS = ("id", "extends", "abstract", "title", "sources")

EQUIVALENTS_FILE = "selfcheck-equivalents.yaml"
GAMES_FILE = "games.yaml"


@dataclass
class Spec:
    """Every spec file of the kit, loaded strictly, with documents kept for locations."""

    clause_files: list[Document] = field(default_factory=list)
    variant_files: list[Document] = field(default_factory=list)
    ruling_files: list[Document] = field(default_factory=list)
    sources_file: Document | None = None
    house_sources: list[Document] = field(default_factory=list)  # sources.yaml of house spec folders
    refusals_file: Document | None = None
    root: Path | None = None
    # Files that did not load, by kind: an id they declare is unknown, without being wrong.
    unloaded: dict[str, list[str]] = field(default_factory=dict)
    equivalents_file: Document | None = None  # mutants `trickspec selfcheck` reports as equivalent
    games_file: Document | None = None  # the games in the order the rules site lists them
    # Each variant resolved, with its longest extends chain (itself first): a chain through a variant resolved
    # already is as long as one through a variant resolved on the way, whatever the order they are asked for in.
    _resolved: dict[str, tuple[Json, tuple[str, ...]]] = field(default_factory=dict, repr=False)
    _variants: dict[str, tuple[Document, Json]] | None = field(default=None, repr=False)

    def add(self, doc: Document, rel: tuple[str, ...], problems: list[Problem]) -> None:
        """File a document by its place under spec/."""
        self._resolved.clear()
        self._variants = None
        kind = kind_of(rel)
        if kind == "sources" and self.sources_file is not None:
            self.house_sources.append(doc)
        elif kind == "sources":
            self.sources_file = doc
        elif kind == "refusals":
            self.refusals_file = doc
        elif kind == "equivalents":
            self.equivalents_file = doc
        elif kind == "games":
            self.games_file = doc
        elif kind == "variants":
            self.variant_files.append(doc)
        elif kind == "clauses":
            self.clause_files.append(doc)
        elif kind == "rulings":
            self.ruling_files.append(doc)
        else:
            problems.append(unexpected_file(doc.file))

    def add_unloaded(self, file: str, rel: tuple[str, ...]) -> None:
        """Note a file that did not load (its problems are reported where it was read)."""
        kind = kind_of(rel)
        if kind is not None:
            self.unloaded.setdefault(kind, []).append(file)

    def clauses(self) -> Iterator[tuple[Document, int, Json]]:
        for doc in self.clause_files:
            yield from _items(doc, "clauses")

    def clause_index(self) -> dict[str, Json]:
        return {str(c.get("id")): c for _, _, c in self.clauses()}

    def sections(self, game: str) -> list[Json]:
        """The game's sections in reading order: the kit's, then those of house clause files."""
        return [
            s for doc in self.clause_files if isinstance(doc.data, dict) and doc.data.get("game") == game
            for _, _, s in _items(doc, "sections")
        ]

    def variants_raw(self) -> dict[str, tuple[Document, Json]]:
        """Each variant file by its id, as written (built once per spec: the caller must not change it)."""
        if self._variants is None:
            self._variants = {
                str(d.data.get("id")): (d, d.data)
                for d in self.variant_files
                if isinstance(d.data, dict) and isinstance(d.data.get("id"), str)
            }
        return self._variants

    def rulings(self) -> Iterator[tuple[Document, int, Json]]:
        for doc in self.ruling_files:
            yield from _items(doc, "rulings")

    def ruling_ids(self) -> set[str]:
        return {str(r.get("id")) for _, _, r in self.rulings()}

    def source_files(self) -> list[Document]:
        """The bibliography, then the sources of house spec folders."""
        return ([self.sources_file] if self.sources_file is not None else []) + self.house_sources

    def source_keys(self) -> set[str]:
        return {str(s.get("key")) for doc in self.source_files() for _, _, s in _items(doc, "sources")}

    def refusal_codes(self) -> set[str]:
        if self.refusals_file is None:
            return set()
        return {str(e.get("code")) for _, _, e in _items(self.refusals_file, "refusals")}

    def action_codes(self) -> list[str]:
        """The codes that refuse an action (``refuses: action``, the default), in the errors list's
        order: those the refusal precedence orders."""
        if self.refusals_file is None:
            return []
        return [
            e["code"]
            for _, _, e in _items(self.refusals_file, "refusals")
            if isinstance(e.get("code"), str) and e.get("refuses", "action") == "action"
        ]

    def setup_codes(self) -> set[str]:
        """The codes that refuse a setup (``refuses: setup``), never an action: every other code."""
        if self.refusals_file is None:
            return set()
        actions = set(self.action_codes())
        codes = (e.get("code") for _, _, e in _items(self.refusals_file, "refusals"))
        return {code for code in codes if isinstance(code, str) and code not in actions}

    def precedence(self, game: str) -> list[str]:
        """The order refusal codes apply in for ``game``: its own order under ``games``, else the
        common one ([] if the errors file states none; validate reports that)."""
        data = self.refusals_file.data if self.refusals_file is not None else None
        stated = data.get("precedence") if isinstance(data, dict) else None
        if not isinstance(stated, dict):
            return []
        games = stated.get("games")
        own = games.get(game) if isinstance(games, dict) else None
        order = own.get("order") if isinstance(own, dict) else stated.get("order")
        return [str(code) for code in order] if isinstance(order, list) else []

    def clause_games(self) -> list[str]:
        """The games the clause files state, by name: what the spec's checks hold its other files to."""
        return sorted({g for d in self.clause_files if isinstance(d.data, dict) and isinstance(g := d.data.get("game"), str)})

    def games(self) -> list[str]:
        """The games in the order spec/games.yaml lists them, as the kit shows them (validate holds the list to
        ``clause_games``)."""
        data = self.games_file.data if self.games_file is not None else None
        listed = data.get("games") if isinstance(data, dict) else None
        return [game for game in listed if isinstance(game, str)] if isinstance(listed, list) else []

    def resolve(self, variant_id: str) -> Json:
        """The variant with everything it inherits, as the engine reads it (a fresh copy to keep or change)."""
        return copy.deepcopy(self.resolved(variant_id))

    def resolved(self, variant_id: str) -> Json:
        """The same, resolved once per spec and shared: for readers, who must not change it."""
        return self._resolve(variant_id, ())[0]

    def _resolve(self, variant_id: str, stack: tuple[str, ...]) -> tuple[Json, tuple[str, ...]]:
        """The variant resolved, and its longest extends chain, itself first; ``stack`` is the chain of the
        variants being resolved that extend it, all of whose chains are then at most MAX_INHERITANCE long."""
        if variant_id in stack:
            raise ValueError(f"extends cycle through {' -> '.join((*stack, variant_id))}")
        cached = self._resolved.get(variant_id)
        if cached is not None:
            if len(stack) + len(cached[1]) > MAX_INHERITANCE:
                _too_long((*stack, *cached[1]))
            return cached
        if len(stack) >= MAX_INHERITANCE:
            _too_long((*stack, variant_id))
        raw = self.variants_raw()
        if variant_id not in raw:
            raise KeyError(variant_id)
        own = raw[variant_id][1]
        merged: Json = {}
        sources: list[str] = []
        longest: tuple[str, ...] = ()
        for parent_id in parents(own):  # later parents override earlier ones
            parent, chain = self._resolve(parent_id, (*stack, variant_id))
            longest = max(longest, chain, key=len)
            sources += [key for key in parent.get("sources", []) if key not in sources]
            # merge_into copies what it takes, so the parent stays as cached
            merge_into(merged, {k: v for k, v in parent.items() if k != "abstract"})
        merge_into(merged, {k: v for k, v in own.items() if k not in _OWN_KEYS})
        merged["id"] = variant_id
        merged["title"] = own.get("title", variant_id)
        own_sources = own.get("sources")  # anything but a list is the schema's to report
        merged["sources"] = list(own_sources) if isinstance(own_sources, list) else sources
        if own.get("abstract"):
            merged["abstract"] = True
        self._resolved[variant_id] = merged, (variant_id, *longest)
        return self._resolved[variant_id]


def _too_long(chain: tuple[str, ...]) -> NoReturn:
    """Refuse a chain longer than the limit, named up to the first variant past it."""
    shown = " -> ".join(chain[: MAX_INHERITANCE + 1])
    raise ValueError(f"extends chain {shown} longer than {MAX_INHERITANCE} variants")


def unexpected_file(file: str) -> Problem:
    expected = (
        f"sources.yaml, refusals.yaml, {GAMES_FILE}, {EQUIVALENTS_FILE}, <game>/clauses.yaml, <game>/rulings.yaml"
        " or <game>/variants/*.yaml"
    )
    return Problem(file, 1, 1, (), f"unexpected file in spec/: expected {expected}")


def placed_kind(rel: tuple[str, ...]) -> str | None:
    """What a file of a spec folder holds by its place, the layout read exactly: a variant deeper than
    ``<game>/variants/``, or a clauses file anywhere but ``<game>/``, is no file of the spec (None)."""
    kind = kind_of(rel)
    deep = {"variants": len(rel) == 3 and rel[1] == "variants", "clauses": len(rel) == 2, "rulings": len(rel) == 2}
    return kind if deep.get(str(kind), True) else None


def kind_of(rel: tuple[str, ...]) -> str | None:
    """What a file holds, by its place under spec/: sources, errors, games, equivalents, variants, clauses or
    rulings."""
    if rel in (("sources.yaml",), ("refusals.yaml",), (GAMES_FILE,)):
        return rel[0].removesuffix(".yaml")
    if rel == (EQUIVALENTS_FILE,):
        return "equivalents"
    if len(rel) >= 2 and rel[-2] == "variants":
        return "variants"
    if rel[-1] in ("clauses.yaml", "rulings.yaml"):
        return rel[-1].removesuffix(".yaml")
    return None


def parents(variant: Json) -> list[str]:
    """The ids a variant extends, in order: ``extends`` is one id or a list of them."""
    value = variant.get("extends")
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def _items(doc: Document, key: str) -> Iterator[tuple[Document, int, Json]]:
    """The well-shaped entries of a top-level list (schema checks report the rest)."""
    data = doc.data.get(key) if isinstance(doc.data, dict) else None
    for i, item in enumerate(data if isinstance(data, list) else []):
        if isinstance(item, dict):
            yield doc, i, item


def merge_into(out: Json, over: Json) -> None:
    """Deep-merge a copy of ``over`` into ``out``, in place; a component naming another rule replaces the old
    one. Each value is copied once, however deep: copying each level again before merging into it made
    resolving every variant a third slower."""
    for key, value in over.items():
        old = out.get(key)
        if isinstance(old, dict) and isinstance(value, dict) and ("rule" not in value or value.get("rule") == old.get("rule")):
            merge_into(old, value)
        else:
            out[key] = copy.deepcopy(value)


def read(root: Path | None = None) -> tuple[Spec, list[Problem]]:
    """Load every file under spec/; files that do not parse are left out and reported."""
    base = root or kitdata.spec_dir()
    spec = Spec(root=base)
    paths, problems = yaml_files(base)
    for path in paths:
        rel = path.relative_to(base).parts
        if kind_of(rel) is not None and placed_kind(rel) is None:
            problems.append(unexpected_file(str(path)))
        elif (doc := load_file(spec, path, rel, problems)) is not None:
            spec.add(doc, rel, problems)
    return spec, problems


def load_file(spec: Spec, path: Path, rel: tuple[str, ...], problems: list[Problem]) -> Document | None:
    """The spec file at ``path`` (``rel`` under its folder), loaded; None when it does not load: its
    problems are then added to ``problems`` and the file noted as unloaded, so what it declares is
    unknown without being wrong."""
    try:
        return load(path)
    except DataError as err:
        problems += err.problems
        spec.add_unloaded(str(path), rel)
        return None


def kit_spec() -> Spec:
    """The kit's own spec with the house spec folders of the run, if any (specreader/roots.py),
    read once per process and set of folders; it must load cleanly."""
    from specreader import roots  # it builds on this module

    return _spec_with(roots.current().spec)


@cache
def _spec_with(house: tuple[Path, ...]) -> Spec:
    from specreader import roots

    spec, problems = read()
    problems += roots.add_house(spec, house)
    if problems:
        raise DataError(problems)
    return spec


def variant(variant_id: str) -> Json:
    """A resolved variant of the kit's spec (a fresh copy the caller may keep)."""
    return kit_spec().resolve(variant_id)


def variant_ids(*, playable: bool = True) -> list[str]:
    raw = kit_spec().variants_raw()
    return sorted(v for v, (_, d) in raw.items() if not (playable and d.get("abstract")))


def load_spec_precedence(game: str) -> list[str]:
    """The order refusal codes of spec/refusals.yaml apply in for ``game``."""
    return kit_spec().precedence(game)


def own_spec() -> Spec:
    """The kit's own spec, without house spec folders: for what they cannot add to (spec/refusals.yaml's closed list
    of codes), read when the engine's modules are imported, so that a house folder that does not load is
    reported where it is used, as a located problem, never as a failed import."""
    return _spec_with(())


def load_refusal_codes() -> list[Json]:
    """The closed list of refusal codes of spec/refusals.yaml (the kit's own: house folders add none)."""
    errors = own_spec().refusals_file
    return [e for _, _, e in _items(errors, "refusals")] if errors is not None else []
