"""`trickspec validate`: schema validation plus the cross-file checks a schema cannot express."""

from __future__ import annotations

import hashlib
import marshal
import os
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.measures import neighbours, selfcheck
from conformance.run import expectations, runlog
from conformance.suite import choices, game_order, observing, precedence_check, scenarios, schemas
from conformance.suite import variants as variant_checks
from conformance.suite.references import References
from conformance.suite.shapes import mappings, strings
from conformance.suite.situations import DEAL_ENDED, TRICK_WINNER
from reference.state import Phase
from specreader import filekinds, kitdata, roots
from specreader.files import yaml_files
from specreader.jsontypes import Json, JsonPath, value_at
from specreader.problems import DataError, Problem
from specreader.spec import EQUIVALENTS_FILE, GAMES_FILE, Spec, kind_of, read
from specreader.yamlio import Document, load

# Which schema each spec file kind is checked against.
_SPEC_SCHEMAS = (
    ("sources_file", "sources"),
    ("refusals_file", "refusals"),
    ("equivalents_file", "selfcheck-equivalents"),
)


# What a check meets in data broken past the well-shaped parts it reads (conformance/suite/shapes.py).
_BROKEN_DATA = (TypeError, AttributeError, KeyError, ValueError, IndexError)


@dataclass
class SpecCheck:
    problems: list[Problem]
    # Data not checked because what it builds on has problems: reported after the rest.
    unchecked: list[Problem]
    references: References | None  # None: the spec is too broken for its names to be read (its schema problems say why)


def check_spec(spec: Spec, *, equivalents: bool = True) -> SpecCheck:
    """Every problem in a loaded spec: schemas first, then references across files; the mutants
    of the selfcheck's equivalents file are made only with ``equivalents`` (most of the time taken)."""
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
    for doc in spec.house_sources:
        problems += schemas.check(doc, "sources")
    problems += game_order.problems(spec)
    for attr, kind, what in (("sources_file", "sources", "the bibliography"), ("refusals_file", "refusals", "the refusal codes")):
        if getattr(spec, attr) is None and kind not in spec.unloaded:  # one that did not load is reported as such
            where = spec.root / f"{kind}.yaml" if spec.root else Path(f"{kind}.yaml")
            problems.append(Problem(str(where), 0, 0, (), f"missing: {what} is required"))
    try:
        return _cross_file(spec, problems, equivalents=equivalents)
    except _BROKEN_DATA:
        # The cross-file checks read the well-shaped parts of the data (conformance/suite/shapes.py); data
        # broken past what they guard against has schema problems, which are then what is reported.
        if not problems:
            raise
        return SpecCheck(problems, [], None)


def _cross_file(spec: Spec, schema_problems: list[Problem], *, equivalents: bool) -> SpecCheck:
    problems = list(schema_problems)
    problems += precedence_check.check(spec)
    refs = References.of(spec, problems)
    variants = variant_checks.check(spec, refs, {p.file for p in problems})
    refs = refs.with_variants(variants.faulty, variants.blocked)
    problems += variants.problems
    problems += _unique_ids(spec)
    problems += _clause_references(spec, refs)
    problems += _ruling_references(spec, refs)
    if equivalents and not problems:  # mutants are made only of a valid spec
        problems += _equivalent_mutants(spec)
    return SpecCheck(problems, variants.unchecked, refs)


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
        sections = mappings(doc.data, "sections") if isinstance(doc.data, dict) else iter(())
        problems += _duplicates(((doc, ("sections", i, "id"), s.get("id")) for i, s in sections), "section id")
    return problems


def _parameter_exists(spec: Spec, game: str, dotted: str) -> bool:
    return _variant_stating(spec, game, dotted) is not None


def _variant_stating(spec: Spec, game: str, dotted: str) -> Json | None:
    """A variant of ``game``, resolved, that states the parameter at ``dotted``; None if none does."""
    for vid, (_, raw) in spec.variants_raw().items():
        if raw.get("game", _game_of(spec, vid)) != game:
            continue
        try:
            variant = spec.resolved(vid)
        except (KeyError, ValueError):
            continue
        if value_at(variant, dotted) is not None:
            return variant
    return None


def _parameter_value_problem(variant: Json, dotted: str, value: object) -> str | None:
    """What is wrong with ``value`` as the parameter at ``dotted`` of ``variant``, as the variant schema sees it
    there; None if the parameter may hold it."""
    path = tuple(dotted.split("."))
    given = neighbours.with_leaf(variant, dotted, value)
    found = [text for at, text, _ in schemas.explain("variant", given) if tuple(at[: len(path)]) == path]
    return found[0] if found else None


def _game_of(spec: Spec, variant_id: str) -> str | None:
    try:
        game = spec.resolved(variant_id).get("game")
    except (KeyError, ValueError):
        return None
    return game if isinstance(game, str) else None


def _parameters_checkable(refs: References) -> bool:
    """A parameter is looked for in the variants: only when every one of them is there and usable."""
    return refs.variants.complete and not refs.faulty and not refs.blocked


PLAYS = f"{observing.LEGAL}.{Phase.PLAY}"  # what a clause ruling on plays in some situations observes (tricks: TRICK_WINNER)
# Each key of a clause's when, what the clause must observe one of for it, and what that key says it rules on.
_WHEN_NEEDS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("led", (PLAYS,), "plays"), ("bound", (PLAYS,), "plays"), ("trick", (TRICK_WINNER,), "tricks"),
    ("given_to", (TRICK_WINNER,), "tricks"), ("result", DEAL_ENDED, "deals"), ("alone", DEAL_ENDED, "deals"),
    ("decider", DEAL_ENDED, "deals"),
)  # fmt: skip


def _clause_references(spec: Spec, refs: References) -> list[Problem]:
    problems = []
    sections_of: dict[str, set[str]] = {}
    settles = {str(r.get("id")): {cid for _, cid in strings(r, "clauses")} for _, _, r in spec.rulings()}
    # The clauses giving usual values for a setup choice, by game and choice: each with the variants it applies to
    # (None: every variant of its game). Two for one variant would leave the words to say either's.
    usual_from: dict[tuple[str, str], list[tuple[str, frozenset[str] | None]]] = {}
    for doc, i, clause in spec.clauses():
        at = ("clauses", i)
        game = doc.data.get("game")
        cid = clause.get("id")
        if str(game) not in sections_of:
            sections_of[str(game)] = {str(s.get("id")) for s in spec.sections(str(game))}
        sections = sections_of[str(game)]
        section = clause.get("section")
        if isinstance(section, str):
            if section not in sections:
                problems.append(
                    doc.problem((*at, "section"), f"expected a section declared under sections:, found {section!r}")
                )
            if isinstance(cid, str) and not cid.startswith(f"{game}.{section}."):
                problems.append(doc.problem((*at, "id"), f"expected the id to start with '{game}.{section}.', found {cid!r}"))
        for j, key in strings(clause, "sources"):
            if refs.sources.unknown(key):
                problems.append(doc.problem((*at, "sources", j), f"unknown source {key!r}: expected a key of spec/sources.yaml"))
        for j, rid in strings(clause, "rulings"):
            if refs.rulings.unknown(rid):
                problems.append(doc.problem((*at, "rulings", j), f"unknown ruling {rid!r}: expected an id from a rulings.yaml"))
            elif rid in settles and isinstance(cid, str) and cid not in settles[rid]:
                problems.append(
                    doc.problem((*at, "rulings", j), f"ruling {rid!r} does not list clause {cid!r}: expected it in its clauses")
                )
        for j, code in strings(clause, "refuses_with"):
            if refs.codes.unknown(code):
                problems.append(
                    doc.problem((*at, "refuses_with", j), f"unknown refusal code {code!r}: expected a code of spec/refusals.yaml")
                )
        for j, vid in strings(clause, "variants"):
            if refs.variants.unknown(vid):
                problems.append(doc.problem((*at, "variants", j), f"unknown variant {vid!r}"))
        parameter = clause.get("parameter")
        if isinstance(parameter, str) and _parameters_checkable(refs) and not _parameter_exists(spec, str(game), parameter):
            problems.append(
                doc.problem((*at, "parameter"), f"expected a parameter path present in a {game} variant, found {parameter!r}")
            )
        for j, entry in strings(clause, "observes"):
            wrong = observing.problem(entry)
            if wrong:
                problems.append(doc.problem((*at, "observes", j), wrong))
        when = clause.get("when")
        when = when if isinstance(when, dict) else {}
        observed = [entry for _, entry in strings(clause, "observes")]
        for key, needed, what in _WHEN_NEEDS:
            if key in when and not set(needed) & set(observed):
                which = needed[0] if len(needed) == 1 else f"one of {', '.join(needed)}"
                wrong = f"expected the clause to observe {which}: when.{key} says the {what} it rules on"
                problems.append(doc.problem((*at, "when", key), wrong, at_key=True))
        for j, entry in strings(clause, "choices"):
            wrong = choices.problem(entry)
            if wrong:
                problems.append(doc.problem((*at, "choices", j), wrong))
        usual = clause.get("usual")
        applies = frozenset(v for _, v in strings(clause, "variants")) if isinstance(clause.get("variants"), list) else None
        for key, values in usual.items() if isinstance(usual, dict) else ():
            given = usual_from.setdefault((str(game), key), [])
            twice = [other for other, where in given if where is None or applies is None or where & applies]
            given.append((str(cid), applies))
            if twice:
                wrong = f"expected one clause to give the usual values of {key} for a variant, found {twice[0]!r} giving them too"
                problems.append(doc.problem((*at, "usual", key), wrong, at_key=True))
            if key not in (clause.get("choices") or []):
                wrong = f"expected one of the clause's choices, found {key!r}"
                problems.append(doc.problem((*at, "usual", key), wrong, at_key=True))
            else:
                for j, value in enumerate(values if isinstance(values, list) else []):
                    wrong = _usual_value_problem(key, value)
                    if wrong:
                        problems.append(doc.problem((*at, "usual", key, j), wrong))
    return problems


def _usual_value_problem(choice: str, value: object) -> str | None:
    """What is wrong with a value a clause says tables usually agree for a setup field, as the setup schema
    sees it there; None if the field may hold it."""
    path = tuple(choice.split(".")[1:])
    given: Any = value
    for key in reversed(path):
        given = {key: given}
    found = [text for at, text, _ in schemas.explain("setup", given) if tuple(at[: len(path)]) == path]
    return found[0] if found else None


def _ruling_references(spec: Spec, refs: References) -> list[Problem]:
    problems = []
    # A ruling lists the clauses it settles, and each of them names the ruling: said twice, so held to agree.
    named = {str(c.get("id")): {rid for _, rid in strings(c, "rulings")} for _, _, c in spec.clauses()}
    for doc, i, ruling in spec.rulings():
        at = ("rulings", i)
        game = str(doc.data.get("game"))
        rid = str(ruling.get("id"))
        for j, cid in strings(ruling, "clauses"):
            if refs.clauses.unknown(cid):
                problems.append(doc.problem((*at, "clauses", j), f"unknown clause {cid!r}"))
            elif cid in named and rid not in named[cid]:
                problems.append(
                    doc.problem((*at, "clauses", j), f"clause {cid!r} does not name ruling {rid!r}: expected it in its rulings")
                )
        for j, reading in mappings(ruling, "readings"):
            for k, key in strings(reading, "sources"):
                if refs.sources.unknown(key):
                    problems.append(doc.problem((*at, "readings", j, "sources", k), f"unknown source {key!r}"))
        for j, erratum in mappings(ruling, "errata"):
            source = erratum.get("source")
            if isinstance(source, str) and refs.sources.unknown(source):
                problems.append(doc.problem((*at, "errata", j, "source"), f"unknown source {source!r}"))
            when = erratum.get("differs_when")
            for path, wanted in when.items() if isinstance(when, dict) and _parameters_checkable(refs) else ():
                where: JsonPath = (*at, "errata", j, "differs_when", path)
                stating = _variant_stating(spec, game, str(path))
                if stating is None:
                    problems.append(doc.problem(where, f"expected a parameter path present in a {game} variant, found {path!r}"))
                    continue
                # the least value a table has ({min: N}) is a value of the parameter too
                if isinstance(wanted, dict) and "min" in wanted:
                    where, wanted = (*where, "min"), wanted["min"]
                unheld = _parameter_value_problem(stating, str(path), wanted)
                if unheld:
                    problems.append(doc.problem(where, unheld))
        parameter = ruling.get("parameter")
        if isinstance(parameter, str) and _parameters_checkable(refs) and not _parameter_exists(spec, game, parameter):
            problems.append(
                doc.problem((*at, "parameter"), f"expected a parameter path present in a {game} variant, found {parameter!r}")
            )
    return problems


def _equivalent_mutants(spec: Spec) -> list[Problem]:
    """Each mutant listed as equivalent is one selfcheck makes, of a playable variant, listed once."""
    doc = spec.equivalents_file
    if doc is None:
        return []
    problems = []
    raw = spec.variants_raw()
    variants = _variants_digest(raw)
    seen: set[tuple[str, str, str, str]] = set()
    for i, entry in mappings(doc.data if isinstance(doc.data, dict) else {}, "equivalents"):
        parameter, change, neighbour = entry.get("parameter"), entry.get("change"), entry.get("neighbour", "")
        named = f"{parameter} {change}" + (f" from {neighbour}" if neighbour else "")
        for j, vid in strings(entry, "variants"):
            at = ("equivalents", i, "variants", j)
            if vid not in raw or raw[vid][1].get("abstract"):
                problems.append(doc.problem(at, f"expected a playable variant, found {vid!r}"))
                continue
            made = _mutant_keys(vid, spec, variants)
            if made is None:  # it extends a variant that did not load: reported where it was read
                continue
            key = (vid, str(parameter), str(change), str(neighbour))
            if key not in made:
                problems.append(doc.problem(at, f"selfcheck makes no mutant {named} of {vid}"))
            elif key in seen:
                problems.append(doc.problem(at, f"{vid}: {named} is listed twice"))
            seen.add(key)
    return problems


MutantKey = tuple[str, str, str, str]

# The keys of the mutants selfcheck makes of a variant, by the content of every variant file (what
# they are made of): a variant several entries list is mutated once, and validate run again in one
# process (the suite) on another copy of the same kit makes none again.
_MUTANT_KEYS: OrderedDict[tuple[str, bytes], frozenset[MutantKey] | None] = OrderedDict()
_MUTANT_KEYS_KEPT = 256


def _variants_digest(raw: dict[str, tuple[Document, Json]]) -> bytes:
    """A digest of the variants as written, by id: everything a variant's mutants are made of."""
    return hashlib.blake2b(marshal.dumps([(vid, data) for vid, (_, data) in raw.items()], 2)).digest()


def _mutant_keys(vid: str, spec: Spec, variants: bytes) -> frozenset[MutantKey] | None:
    """The keys of every mutant selfcheck makes of a variant; None when it cannot make them."""
    key = (vid, variants)
    if key not in _MUTANT_KEYS:
        try:
            _MUTANT_KEYS[key] = frozenset(m.key for m in selfcheck.mutants(vid, spec))
        except (KeyError, ValueError):
            _MUTANT_KEYS[key] = None
        while len(_MUTANT_KEYS) > _MUTANT_KEYS_KEPT:
            _MUTANT_KEYS.popitem(last=False)
    _MUTANT_KEYS.move_to_end(key)
    return _MUTANT_KEYS[key]


_JSON_LINES = (  # what a .jsonl file given to validate is told
    "expected a YAML file of the kit (spec, scenarios, expectations); a trace of an engine's games is read by"
    " trickspec check-trace, a run log by trickspec report"
)


def validate(paths: list[Path] | None = None) -> list[Problem]:
    """Problems in the kit (default) or in the given files and folders, checked with the kit's spec;
    with house folders (specreader/roots.py), the house spec with the kit's, and by default the house
    scenarios.

    Problems of the data itself come first, sorted; then what could not be checked because of them."""
    spec_root = kitdata.spec_dir()
    house = roots.current()
    spec_folders = [os.path.realpath(folder) for folder in (spec_root, *house.spec)]
    # verify reads every YAML file of a scenarios folder as scenarios: one there is checked as one, whatever it holds
    scenario_folders = [os.path.realpath(folder) for folder in (kitdata.scenarios_dir(), *house.scenarios)]
    spec, problems = read(spec_root)
    problems += roots.add_house(spec, house.spec) + roots.folder_problems(house.scenarios, "scenarios")
    targets = paths or ([*house.scenarios] if house else [spec_root, kitdata.scenarios_dir()])
    scenario_files: list[Path] = []
    expectation_files: list[Path] = []
    extra_spec: list[tuple[Path, str]] = []
    real_folders: dict[Path, str] = {}
    for target in targets:
        if target.suffix == ".jsonl":  # named alone: another command reads it
            problems.append(Problem(str(target), 0, 0, (), _JSON_LINES))
            continue
        files, missing = yaml_files(target)
        problems += missing
        if (paths or house) and not files and not missing and target.is_dir():  # "valid" would say nothing was checked
            problems.append(Problem(str(target), 0, 0, (), "expected YAML files in this folder, found none"))
        for file in files:
            if _in_any(_realpath(file, real_folders), spec_folders):
                continue  # already read with the spec
            kind = _file_kind(file)
            if kind == "expectations" and _in_any(_realpath(file, real_folders), scenario_folders):
                kind = None  # read there as verify reads it: as scenarios
            if kind is None:
                scenario_files.append(file)
            elif kind == "expectations":
                expectation_files.append(file)
            else:
                extra_spec.append((file, kind))
    for file, kind in extra_spec:
        problems += _add_spec_file(spec, file, kind)
    checked = check_spec(spec)
    if checked.references is None:  # no scenario can be checked against a spec whose names cannot be read
        return sorted(set(problems + checked.problems))
    try:
        found, unchecked = scenarios.check_files(
            scenario_files, spec, checked.references, _kit_scenarios_besides(scenario_files)
        )
    except _BROKEN_DATA:
        if not checked.problems:
            raise
        found, unchecked = [], []  # the scenarios read a spec broken past its well-shaped parts: its problems are said
    problems += checked.problems + found
    if expectation_files:
        ids = _run_scenario_ids()
        for file in expectation_files:
            problems += expectations.check(file, ids, runlog.spec_version())
    return sorted(set(problems)) + sorted(set(checked.unchecked + unchecked))


def _in_any(real_path: str, folders: list[str]) -> bool:
    return any(Path(real_path).is_relative_to(folder) for folder in folders)


def _run_scenario_ids() -> set[str] | None:
    """The ids of the scenarios a run takes (the house's, or the kit's), which expectation files name; None when
    they do not load."""
    try:
        return scenarios.run_scenario_ids()
    except DataError:
        return None


def _realpath(file: Path, folders: dict[Path, str]) -> str:
    """The real path of a file, its folder's found once for all the files in it (in ``folders``).

    realpath, unlike Path.resolve, ends a link loop without raising; the reader reports it."""
    if os.path.islink(file):
        return os.path.realpath(file)
    if file.parent not in folders:
        folders[file.parent] = os.path.realpath(file.parent)
    return os.path.join(folders[file.parent], file.name)


def spec_problems() -> list[Problem]:
    """What ``validate`` reports of the kit's spec and the house spec folders of the run (specreader/roots.py):
    for every other command, before it runs anything, so that a spec that does not load or check is located
    problems, never a traceback. Scenarios are checked as they load; the selfcheck's equivalents, the kit's
    alone, are left to ``validate``."""
    house = roots.current().spec
    spec, problems = read(kitdata.spec_dir())
    problems += roots.add_house(spec, house)
    checked = check_spec(spec, equivalents=False)
    return sorted(set(problems + checked.problems)) + sorted(set(checked.unchecked))


def _kit_scenarios_besides(checked: list[Path]) -> Iterator[Path]:
    """The kit's scenario files not among those checked: ids checked alone must not repeat theirs.
    Found as they are taken, so only when a scenario is checked."""
    mine = {os.path.realpath(file) for file in checked}
    files, _ = yaml_files(kitdata.scenarios_dir())
    yield from (file for file in files if os.path.realpath(file) not in mine)


# Where each spec kind is filed under spec/, whatever the file given is called.
_PLACE_OF_KIND = {
    "clauses": ("clauses.yaml",),
    "rulings": ("rulings.yaml",),
    "sources": ("sources.yaml",),
    "refusals": ("refusals.yaml",),
    "games": (GAMES_FILE,),
    "equivalents": (EQUIVALENTS_FILE,),
}


def _file_kind(path: Path) -> str | None:
    """The kind of a file given outside spec/: a spec kind, ``expectations`` (an engine's known failures), or
    None for a scenario file; by its schema hint or content, never its folder; by its name only when neither says."""
    kind = filekinds.kind_of_file(path) or kind_of((path.name,))
    return None if kind == "scenario" else kind


def _add_spec_file(spec: Spec, path: Path, kind: str) -> list[Problem]:
    rel = ("variants", path.name) if kind == "variants" else _PLACE_OF_KIND[kind]
    try:
        doc = load(path)
    except DataError as err:
        spec.add_unloaded(str(path), rel)
        return list(err.problems)
    problems: list[Problem] = []
    spec.add(doc, rel, problems)
    return problems
