"""`trickspec validate`: schema validation plus the cross-file checks a schema cannot express."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from conformance import scenarios, schemas, selfcheck
from specreader import kitdata
from specreader.jsontypes import Json, JsonPath
from specreader.problems import DataError, Problem
from specreader.spec import EQUIVALENTS_FILE, Spec, read
from specreader.yamlio import Document, load

# Which schema each spec file kind is checked against.
_SPEC_SCHEMAS = (
    ("sources_file", "sources"),
    ("errors_file", "errors"),
    ("equivalents_file", "selfcheck-equivalents"),
)


def check_spec(spec: Spec) -> list[Problem]:
    """Every problem in a loaded spec: schemas first, then references across files."""
    problems: list[Problem] = []
    for attr, name in _SPEC_SCHEMAS:
        doc = getattr(spec, attr)
        if doc is not None:
            problems += schemas.check(doc, name)
    for doc in spec.clause_files:
        problems += schemas.check(doc, "clauses")
    for doc in spec.ruling_files:
        problems += schemas.check(doc, "rulings")
    for doc in spec.variant_files:
        problems += schemas.check(doc, "variant")
    if spec.sources_file is None:
        problems.append(Problem("spec/sources.yaml", 0, 0, (), "missing: the bibliography is required"))
    if spec.errors_file is None:
        problems.append(Problem("spec/errors.yaml", 0, 0, (), "missing: the error-code list is required"))
    problems += _unique_ids(spec)
    problems += _clause_references(spec)
    problems += _ruling_references(spec)
    problems += _variants(spec)
    if not problems:  # mutants are made only of a valid spec
        problems += _equivalent_mutants(spec)
    return problems


def _strings(node: Any, key: str) -> Iterator[tuple[int, str]]:
    """The strings listed under ``key``, with their indexes. Cross-file checks look only at these:
    a missing list, or an item of another type, is the schema's to report."""
    items = node.get(key) if isinstance(node, dict) else None
    for i, item in enumerate(items if isinstance(items, list) else []):
        if isinstance(item, str):
            yield i, item


def _mappings(node: Json, key: str) -> Iterator[tuple[int, Json]]:
    """The mappings listed under ``key``, with their indexes (anything else is the schema's to report)."""
    items = node.get(key)
    for i, item in enumerate(items if isinstance(items, list) else []):
        if isinstance(item, dict):
            yield i, item


def _duplicates(entries: Iterable[tuple[Document, tuple[Any, ...], Any]], what: str) -> list[Problem]:
    seen: dict[str, tuple[Document, tuple[Any, ...]]] = {}
    problems = []
    for doc, path, value in entries:
        if not isinstance(value, str):  # missing or mistyped: the schema says so, once
            continue
        if value in seen:
            first_doc, first_path = seen[value]
            line, _ = first_doc.where(first_path)
            problems.append(
                doc.problem(path, f"duplicate {what} {value!r}: expected unique ids (first in {first_doc.file}:{line})")
            )
        else:
            seen[value] = (doc, path)
    return problems


def _unique_ids(spec: Spec) -> list[Problem]:
    problems = _duplicates(((d, ("clauses", i, "id"), c.get("id")) for d, i, c in spec.clauses()), "clause id")
    problems += _duplicates(((d, ("rulings", i, "id"), r.get("id")) for d, i, r in spec.rulings()), "ruling id")
    problems += _duplicates(
        ((d, ("id",), d.data.get("id")) for d in spec.variant_files if isinstance(d.data, dict)), "variant id"
    )
    if spec.sources_file is not None:
        src = spec.sources_file
        items = src.data.get("sources", []) if isinstance(src.data, dict) else []
        problems += _duplicates(
            ((src, ("sources", i, "key"), s.get("key")) for i, s in enumerate(items) if isinstance(s, dict)), "source key"
        )
    for doc in spec.clause_files:
        sections = doc.data.get("sections", []) if isinstance(doc.data, dict) else []
        problems += _duplicates(
            ((doc, ("sections", i, "id"), s.get("id")) for i, s in enumerate(sections) if isinstance(s, dict)), "section id"
        )
    return problems


def _parameter_exists(spec: Spec, game: str, dotted: str) -> bool:
    for vid, (_, raw) in spec.variants_raw().items():
        if raw.get("game", _game_of(spec, vid)) != game:
            continue
        try:
            node: Any = spec.resolved(vid)
        except (KeyError, ValueError):
            continue
        for part in dotted.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if node is not None:
            return True
    return False


def _game_of(spec: Spec, variant_id: str) -> str | None:
    try:
        game = spec.resolved(variant_id).get("game")
    except (KeyError, ValueError):
        return None
    return game if isinstance(game, str) else None


def _clause_references(spec: Spec) -> list[Problem]:
    problems = []
    sources = spec.source_keys()
    codes = spec.error_codes()
    rulings = spec.ruling_ids()
    variants = spec.variants_raw()
    for doc, i, clause in spec.clauses():
        at = ("clauses", i)
        game = doc.data.get("game")
        cid = clause.get("id")
        sections = {str(s.get("id")) for s in spec.sections(str(game))}
        section = clause.get("section")
        if isinstance(section, str):
            if section not in sections:
                problems.append(
                    doc.problem((*at, "section"), f"expected a section declared under sections:, found {section!r}")
                )
            if isinstance(cid, str) and not cid.startswith(f"{game}.{section}."):
                problems.append(doc.problem((*at, "id"), f"expected the id to start with '{game}.{section}.', found {cid!r}"))
        for j, key in _strings(clause, "sources"):
            if key not in sources:
                problems.append(doc.problem((*at, "sources", j), f"unknown source {key!r}: expected a key of spec/sources.yaml"))
        for j, rid in _strings(clause, "rulings"):
            if rid not in rulings:
                problems.append(doc.problem((*at, "rulings", j), f"unknown ruling {rid!r}: expected an id from a rulings.yaml"))
        for j, code in _strings(clause, "rejects"):
            if code not in codes:
                problems.append(
                    doc.problem((*at, "rejects", j), f"unknown error code {code!r}: expected a code of spec/errors.yaml")
                )
        for j, vid in _strings(clause, "variants"):
            if vid not in variants:
                problems.append(doc.problem((*at, "variants", j), f"unknown variant {vid!r}"))
        parameter = clause.get("parameter")
        if isinstance(parameter, str) and not _parameter_exists(spec, str(game), parameter):
            problems.append(
                doc.problem((*at, "parameter"), f"expected a parameter path present in a {game} variant, found {parameter!r}")
            )
    return problems


def _ruling_references(spec: Spec) -> list[Problem]:
    problems = []
    clauses = spec.clause_index()
    sources = spec.source_keys()
    for doc, i, ruling in spec.rulings():
        at = ("rulings", i)
        game = str(doc.data.get("game"))
        for j, cid in _strings(ruling, "clauses"):
            if cid not in clauses:
                problems.append(doc.problem((*at, "clauses", j), f"unknown clause {cid!r}"))
        for j, reading in _mappings(ruling, "readings"):
            for k, key in _strings(reading, "sources"):
                if key not in sources:
                    problems.append(doc.problem((*at, "readings", j, "sources", k), f"unknown source {key!r}"))
        for j, erratum in _mappings(ruling, "errata"):
            source = erratum.get("source")
            if isinstance(source, str) and source not in sources:
                problems.append(doc.problem((*at, "errata", j, "source"), f"unknown source {source!r}"))
        parameter = ruling.get("parameter")
        if isinstance(parameter, str) and not _parameter_exists(spec, game, parameter):
            problems.append(
                doc.problem((*at, "parameter"), f"expected a parameter path present in a {game} variant, found {parameter!r}")
            )
    return problems


def _variants(spec: Spec) -> list[Problem]:
    problems = []
    raw = spec.variants_raw()
    sources = spec.source_keys()
    for vid, (doc, data) in raw.items():
        extends = data.get("extends")
        listed: list[tuple[JsonPath, str]] = [(("extends", i), p) for i, p in _strings(data, "extends")]
        if isinstance(extends, str):
            listed = [(("extends",), extends)]
        unknown = [(where, parent) for where, parent in listed if parent not in raw]
        if unknown:
            for where, parent in unknown:
                problems.append(doc.problem(where, f"unknown variant {parent!r}: expected the id of another variant file"))
            continue
        try:
            resolved = spec.resolved(vid)
        except ValueError as err:
            problems.append(doc.problem(("extends",), f"{err}: expected extends that end"))
            continue
        except KeyError:
            continue
        for j, key in _strings(data, "sources"):
            if key not in sources:
                problems.append(doc.problem(("sources", j), f"unknown source {key!r}"))
        if resolved.get("abstract"):
            continue
        for problem in schemas.check(doc, "variant", "/$defs/complete", data=resolved):
            problems.append(
                Problem(problem.file, problem.line, problem.column, problem.path, f"after inheritance: {problem.message}")
            )
        problems += [doc.problem(path, msg) for path, msg in _deck_problems(resolved)]
    return problems


def _equivalent_mutants(spec: Spec) -> list[Problem]:
    """Each mutant listed as equivalent is one selfcheck makes, of a playable variant, listed once."""
    doc = spec.equivalents_file
    if doc is None:
        return []
    problems = []
    raw = spec.variants_raw()
    seen: set[tuple[str, str, str]] = set()
    for i, entry in _mappings(doc.data if isinstance(doc.data, dict) else {}, "equivalents"):
        parameter, change = entry.get("parameter"), entry.get("change")
        for j, vid in _strings(entry, "variants"):
            at = ("equivalents", i, "variants", j)
            if vid not in raw or raw[vid][1].get("abstract"):
                problems.append(doc.problem(at, f"expected a playable variant, found {vid!r}"))
                continue
            made = {(m.parameter, m.change) for m in selfcheck.mutants(vid, spec)}
            if (parameter, change) not in made:
                problems.append(doc.problem(at, f"selfcheck makes no mutant {parameter} {change} of {vid}"))
            elif (vid, parameter, change) in seen:
                problems.append(doc.problem(at, f"{vid}: {parameter} {change} is listed twice"))
            seen.add((vid, str(parameter), str(change)))
    return problems


def _deck_problems(variant: Json) -> list[tuple[tuple[Any, ...], str]]:
    """A playable variant's deck, rank tables and seating must fit together."""
    out: list[tuple[tuple[Any, ...], str]] = []
    players = variant.get("players")
    sides = variant.get("sides")
    seated = [seat for side in (sides if isinstance(sides, list) else []) if isinstance(side, list) for seat in side]
    if isinstance(players, int) and sorted(s for s in seated if isinstance(s, int)) != list(range(players)):
        out.append((("sides",), f"expected the sides to hold each seat 0..{players - 1} exactly once, found {sides}"))
    deck = _mapping(variant, "deck")
    ranks, suits = _words(deck, "ranks"), _words(deck, "suits")
    if not ranks or not suits:  # nothing to fit the tables to: the schema or the completeness check says why
        return out
    for name, seq in (("ranks", ranks), ("suits", suits)):
        doubled = [x for x, n in Counter(seq).items() if n > 1]
        if doubled:
            out.append((("deck", name), f"expected each {name[:-1]} once, found {', '.join(doubled)} more than once"))
    ranking = _mapping(variant, "ranking")
    for key in ("plain_order", "trump_order"):
        if key in ranking and sorted(_words(ranking, key)) != sorted(ranks):
            out.append(
                (("ranking", key), f"expected an order of exactly the deck's ranks {' '.join(ranks)}, found {ranking[key]}")
            )
    cards = {r + s for r in ranks for s in suits}
    for j, card in _strings(ranking, "top_trumps"):
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
    deal = _mapping(variant, "deal")
    hand, stock = deal.get("hand_size"), deal.get("stock")
    stock = stock if isinstance(stock, int) else 0
    if isinstance(players, int) and isinstance(hand, int) and players * hand + stock > len(cards):
        out.append(
            (("deal",), f"expected at most {len(cards)} cards dealt, found {players} hands of {hand} and a stock of {stock}")
        )
    return out


def _mapping(node: Json, key: str) -> Json:
    """``node[key]`` when it is a mapping, else an empty one (a wrong type is the schema's to report)."""
    value = node.get(key)
    return value if isinstance(value, dict) else {}


def _words(node: Json, key: str) -> list[str]:
    """A space-separated sequence such as ``ranks: A 7 K``, split; empty when it is not a string."""
    value = node.get(key)
    return value.split() if isinstance(value, str) else []


def validate(paths: list[Path] | None = None) -> list[Problem]:
    """Problems in the kit (default) or in the given files and folders, checked with the kit's spec."""
    spec_root = kitdata.spec_dir()
    spec, problems = read(spec_root)
    targets = paths or [spec_root, kitdata.scenarios_dir()]
    scenario_files: list[Path] = []
    extra_spec: list[Path] = []
    for target in targets:
        if not target.exists():
            problems.append(Problem(str(target), 0, 0, (), "no such file or directory"))
            continue
        files = sorted(target.rglob("*.yaml")) if target.is_dir() else [target]
        for file in files:
            resolved = file.resolve()
            if spec_root.resolve() in resolved.parents:
                if paths:  # already read with the kit's spec
                    continue
            elif _is_spec_file(resolved):
                extra_spec.append(file)
            else:
                scenario_files.append(file)
    for file in extra_spec:
        problems += _add_spec_file(spec, file)
    problems += check_spec(spec)
    problems += scenarios.check_files(scenario_files, spec)
    return sorted(set(problems))


def _is_spec_file(path: Path) -> bool:
    return path.name in ("clauses.yaml", "rulings.yaml", "sources.yaml", "errors.yaml", EQUIVALENTS_FILE) or (
        path.parent.name == "variants"
    )


def _add_spec_file(spec: Spec, path: Path) -> list[Problem]:
    try:
        doc = load(path)
    except DataError as err:
        return list(err.problems)
    rel = ("variants", path.name) if path.parent.name == "variants" else (path.name,)
    problems: list[Problem] = []
    spec.add(doc, rel, problems)
    return problems
