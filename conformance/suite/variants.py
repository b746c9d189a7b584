"""Variant files checked with their inheritance, each problem blamed on the variant that has it.

A variant whose own file has problems, or whose parents cannot be resolved, is not resolved;
the variants extending it are reported once each as not checkable rather than with every
problem they inherit. What every playable variant under an abstract one lacks is blamed on the
abstract one: a truncated base file is named, not each of the files built on it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from conformance.suite import schemas
from conformance.suite.references import References
from conformance.suite.shapes import mapping, strings, words
from specreader.jsontypes import Json, JsonPath
from specreader.limits import MAX_INHERITANCE
from specreader.problems import Problem
from specreader.spec import Spec, parents
from specreader.yamlio import Document

# Where a variant names a parent no variant file that loads declares, and that parent's id.
Named = tuple[JsonPath, str]


@dataclass
class VariantCheck:
    problems: list[Problem] = field(default_factory=list)
    # Variants not checked because one they extend has problems: one problem each, reported after the rest.
    unchecked: list[Problem] = field(default_factory=list)
    # Variants with problems of their own, and those not checked because one they extend has some.
    faulty: set[str] = field(default_factory=set)
    blocked: set[str] = field(default_factory=set)


def check(spec: Spec, refs: References, faulty_files: set[str]) -> VariantCheck:
    """Every variant's problems; ``faulty_files`` are the variant files with problems under the schema."""
    return _Inheritance(spec, refs, faulty_files).check()


class _Inheritance:
    """The checks in order, each on the variants whose whole line is still clean: own files,
    decks (parents first), what bases leave out, completeness, then who could not be checked."""

    def __init__(self, spec: Spec, refs: References, faulty_files: set[str]) -> None:
        self.spec = spec
        self.refs = refs
        self.raw = spec.variants_raw()
        self.lines = {vid: _ancestors(self.raw, vid) for vid in self.raw}
        self.order = sorted(self.raw, key=lambda vid: (len(self.lines[vid]), vid))  # parents have fewer ancestors
        self.faults = {vid for vid, (doc, _) in self.raw.items() if doc.file in faulty_files}
        self.missing_parent: dict[str, Named] = {}
        self.out = VariantCheck()

    def check(self) -> VariantCheck:
        for vid in sorted(self.raw):
            self._own_file(vid)
        resolved = {vid: self.spec.resolved(vid) for vid in self.order if self._clean(vid)}
        for vid in self.order:  # a base whose tables do not fit is named, not the variants built on it
            if vid in resolved and self._clean(vid):
                self._blame(vid, [self._doc(vid).problem(path, message) for path, message in deck_problems(resolved[vid])])
        complete = [(vid, data) for vid, data in resolved.items() if not data.get("abstract")]
        lacking = {vid: schemas.missing_keys("variant", data, "/$defs/complete") for vid, data in complete}
        bases = [vid for vid, data in resolved.items() if data.get("abstract")]
        for vid in sorted(bases, key=lambda base: (-sum(base in self.lines[d] for d in lacking), base)):  # widest first
            below = [lacking[d] for d in lacking if vid in self.lines[d] and self._clean(d)]
            if below and self._clean(vid):
                self._blame(vid, [self._doc(vid).problem(at, _lacked(keys)) for at, keys in _shared(below).items()])
        for vid in self.order:
            if vid in lacking and self._clean(vid):
                found = schemas.check(self._doc(vid), "variant", "/$defs/complete", data=resolved[vid])
                self._blame(vid, [replace(p, message=f"after inheritance: {p.message}") for p in found])
        for vid in self.order:
            self._file_status(vid)
        return self.out

    def _doc(self, vid: str) -> Document:
        return self.raw[vid][0]

    def _own_file(self, vid: str) -> None:
        """A variant's references: sources, and parents that are there and end."""
        doc, data = self.raw[vid]
        for j, key in strings(data, "sources"):
            if self.refs.sources.unknown(key):
                self.out.problems.append(doc.problem(("sources", j), f"unknown source {key!r}"))
        self._blame(vid, self._extends_problems(vid))

    def _extends_problems(self, vid: str) -> list[Problem]:
        """Parents that are not there, cycles and chains too long; a parent missing because a variant
        file did not load is noted in ``missing_parent`` instead."""
        doc, data = self.raw[vid]
        extends = data.get("extends")
        listed: list[Named] = [(("extends", i), p) for i, p in strings(data, "extends")]
        if isinstance(extends, str):
            listed = [(("extends",), extends)]
        unknown = [(where, parent) for where, parent in listed if parent not in self.refs.variants.known]
        if unknown and not self.refs.variants.complete:
            self.missing_parent[vid] = unknown[0]
            return []
        if unknown:
            message = "unknown variant {!r}: expected the id of another variant file"
            return [doc.problem(where, message.format(parent)) for where, parent in unknown]
        try:
            self.spec.resolved(vid)
        except ValueError as err:
            return [doc.problem(("extends",), f"{err}: expected extends that end")]
        except KeyError:  # a parent lacks its own parent: reported there
            pass
        return []

    def _blame(self, vid: str, problems: list[Problem]) -> None:
        self.out.problems += problems
        if problems:
            self.faults.add(vid)

    def _culprit(self, vid: str) -> str | None:
        """The nearest variant ``vid`` extends that has problems of its own, if any."""
        return next((a for a in self.lines[vid] if a in self.faults), None)

    def _missing(self, vid: str) -> Named | None:
        """The parent missing from ``vid`` or a variant it extends, where it is named, if any."""
        return next((self.missing_parent[v] for v in (vid, *self.lines[vid]) if v in self.missing_parent), None)

    def _clean(self, vid: str) -> bool:
        return vid not in self.faults and self._culprit(vid) is None and self._missing(vid) is None

    def _file_status(self, vid: str) -> None:
        """Faulty, or not checked (once, saying why), or fine."""
        doc, data = self.raw[vid]
        extends_at: JsonPath = ("extends",) if "extends" in data else ()
        if vid in self.faults:
            self.out.faulty.add(vid)
        elif (culprit := self._culprit(vid)) is not None:
            message = f"cannot be checked: it extends {culprit}, which has problems ({self._doc(culprit).file})"
            self.out.unchecked.append(doc.problem(extends_at, message))
            self.out.blocked.add(vid)
        elif (lost := self._missing(vid)) is not None:
            where, parent = lost
            unloaded = ", ".join(self.spec.unloaded.get("variants", []))
            message = f"cannot be checked: it extends {parent!r}, declared by no variant file that loads ({unloaded} did not)"
            self.out.unchecked.append(doc.problem(where if vid in self.missing_parent else extends_at, message))
            self.out.blocked.add(vid)


def _lacked(keys: list[str]) -> str:
    listed = ", ".join(repr(key) for key in keys)
    return f"after inheritance, every playable variant extending it lacks {listed}: expected here or in each of them"


def _shared(lacking: list[set[JsonPath]]) -> dict[JsonPath, list[str]]:
    """The keys every one of the variants lacks (lacking a mapping, it lacks what the mapping needs),
    grouped by the mapping they belong in."""

    def lacks(missing: set[JsonPath], path: JsonPath) -> bool:
        return any(path[:n] in missing for n in range(1, len(path) + 1))

    shared = {path for missing in lacking for path in missing if all(lacks(other, path) for other in lacking)}
    grouped: dict[JsonPath, list[str]] = {}
    for path in sorted(shared, key=lambda p: tuple(map(str, p))):
        if not any(path[:n] in shared for n in range(1, len(path))):  # 'components' says enough: not also each of its keys
            grouped.setdefault(path[:-1], []).append(str(path[-1]))
    return grouped


def _ancestors(raw: dict[str, tuple[Document, Json]], vid: str) -> list[str]:
    """Every variant ``vid`` extends, nearest first, each once, up to MAX_INHERITANCE levels (a longer
    chain is a problem of ``vid`` itself; a cycle ends where it closes)."""
    seen: dict[str, None] = {}
    level = [vid]
    for _ in range(MAX_INHERITANCE):
        level = list(dict.fromkeys(p for v in level for p in parents(raw[v][1]) if p in raw and p not in seen and p != vid))
        seen.update(dict.fromkeys(level))
        if not level:
            break
    return list(seen)


def deck_problems(variant: Json) -> list[tuple[JsonPath, str]]:
    """A variant's deck, rank tables and seating must fit together (for a variant the schema accepted)."""
    out: list[tuple[JsonPath, str]] = []
    players = variant.get("players")
    sides = variant.get("sides")
    listed = [side for side in (sides if isinstance(sides, list) else []) if isinstance(side, list)]
    seated = sorted(seat for side in listed for seat in side if isinstance(seat, int))
    # Compared with the seats as listed, never with a range built from a number read from the file.
    if isinstance(players, int) and sides is not None and (len(seated) != players or seated != list(range(len(seated)))):
        out.append((("sides",), f"expected the sides to hold each seat 0..{players - 1} exactly once, found {sides}"))
    deck = mapping(variant, "deck")
    ranks, suits = words(deck, "ranks"), words(deck, "suits")
    if not ranks or not suits:  # nothing to fit the tables to: the schema or the completeness check says why
        return out
    for name, seq in (("ranks", ranks), ("suits", suits)):
        doubled = [x for x, n in Counter(seq).items() if n > 1]
        if doubled:
            out.append((("deck", name), f"expected each {name[:-1]} once, found {', '.join(doubled)} more than once"))
    ranking = mapping(variant, "ranking")
    for key in ("plain_order", "trump_order"):
        if key in ranking and sorted(words(ranking, key)) != sorted(ranks):
            out.append(
                (("ranking", key), f"expected an order of exactly the deck's ranks {' '.join(ranks)}, found {ranking[key]}")
            )
    pair = words(ranking, "ndoa")
    if "ndoa" in ranking and (len(set(pair)) != 2 or not set(pair) <= set(ranks)):
        wanted = f"expected two different ranks of the deck's {' '.join(ranks)}"
        out.append((("ranking", "ndoa"), f"{wanted}, found {ranking['ndoa']}"))
    cards = {r + s for r in ranks for s in suits}
    for j, card in strings(ranking, "top_trumps"):
        if card not in cards:
            out.append((("ranking", "top_trumps", j), f"expected a card of the deck, found {card!r}"))
    values = variant.get("values")
    if isinstance(values, dict):
        missing = [r for r in ranks if r not in values]
        extra = [r for r in values if r not in ranks]
        if missing:
            out.append((("values",), f"expected a value for every rank of the deck, missing {', '.join(missing)}"))
        if extra:
            out.append((("values",), f"expected only the deck's ranks, found {', '.join(extra)}"))
    deal = mapping(variant, "deal")
    hand, stock = deal.get("hand_size"), deal.get("stock")
    stock = stock if isinstance(stock, int) else 0
    if isinstance(players, int) and isinstance(hand, int) and players * hand + stock > len(cards):
        out.append(
            (("deal",), f"expected at most {len(cards)} cards dealt, found {players} hands of {hand} and a stock of {stock}")
        )
    return out
