"""Scenario files: loaded strictly, checked against the spec, compiled into runnable steps."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any

from conformance.suite import schemas
from conformance.suite.references import References
from conformance.suite.setup_check import SetupCheck
from conformance.suite.shapes import mappings
from specreader import kitdata, roots
from specreader.files import yaml_files
from specreader.jsontypes import Json, JsonPath
from specreader.notation import CARD_CODE
from specreader.problems import DataError, Problem
from specreader.spec import Spec, kit_spec
from specreader.yamlio import Document, load, load_bytes
from specreader.yamlio import read_bytes as yaml_bytes

# Step shorthands, named after the action type each expands to: seat -> card, or a list of seats.
SEAT_CARD_STEPS = ("play", "bid")
SEAT_STEPS = ("pass",)


@dataclass(frozen=True)
class Step:
    """Actions to apply, then what must be observed; ``refuse`` holds the codes one action must be refused with."""

    actions: tuple[Json, ...]
    refuse: tuple[str, ...] = ()  # one code, unless refuse_because says why several are right
    expect: Json | None = None
    refuse_because: str | None = None
    line: int = 0


@dataclass
class Scenario:
    id: str
    title: str
    clauses: tuple[str, ...]
    source: str | Json
    variant: str
    game: str
    setup: Json
    steps: tuple[Step, ...]
    file: str
    line: int
    description: str = ""
    raw: Json = field(default_factory=dict, repr=False)
    refuse_setup: str | None = None  # the code the setup must be refused with; such a scenario has no steps
    refuse_setup_line: int = 0
    file_title: str = ""  # the title of the file it is in, if it has one: what its page of examples is named
    file_section: str = ""  # the spec section the file's page is filed under, if it names one

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"

    def actions(self) -> list[Json]:
        """Every action of the scenario, in order: what an engine is sent."""
        return [action for step in self.steps for action in step.actions]

    def action_refusals(self) -> set[str]:
        """The codes its actions may be refused with."""
        return {code for step in self.steps for code in step.refuse}

    def refusals(self) -> set[str]:
        """Every code it expects a refusal with: its actions', and its setup's."""
        return self.action_refusals() | ({self.refuse_setup} if self.refuse_setup else set())


def refusal_key(step: Json) -> str | None:
    """The key a step writes its refusal under: ``refusal``, or ``reject`` in a file of format 1, read alike."""
    return next((key for key in ("refusal", "reject") if key in step), None)


def refusal_codes(step: Json) -> list[tuple[JsonPath, str]]:
    """The codes a step's refusal may carry, each with its path in the step: the one of ``[code]``,
    or ``codes`` of the form that says ``because`` several are right."""
    key = refusal_key(step)
    written = step.get(key) if key else None
    at: JsonPath = (key, "codes") if key and isinstance(written, dict) else (key,) if key else ()
    codes = written.get("codes") if isinstance(written, dict) else written
    return [((*at, k), code) for k, code in enumerate(codes if isinstance(codes, list) else ()) if isinstance(code, str)]


def _because(step: Json) -> str | None:
    written = step.get(refusal_key(step) or "")
    return written.get("because") if isinstance(written, dict) else None


def expand_actions(step: Json) -> list[Json]:
    """The actions a step stands for, in the order written: key by key as the step lists them
    (the loader keeps a mapping's order), and in order within each key."""
    actions: list[Json] = []
    for kind, value in step.items():
        if kind == "do":
            actions += [dict(a) for a in (value if isinstance(value, list) else [value])]
        elif kind in SEAT_CARD_STEPS:
            actions += [{"type": kind, "seat": int(seat), "card": card} for seat, card in (value or {}).items()]
        elif kind in SEAT_STEPS:
            actions += [{"type": kind, "seat": seat} for seat in value or []]
    return actions


REST = "rest"
TURNED = "turned"  # a setup key the kit expands: the card the deal turns up, put where it will be
_CARD = CARD_CODE


def deck_of(variant: Json) -> list[str]:
    """The variant's cards in deck order: suits as listed, ranks as listed.

    Raises ValueError for a variant without a well-formed deck (its own validation says why).
    """
    deck = variant.get("deck")
    suits, ranks = (deck.get("suits"), deck.get("ranks")) if isinstance(deck, dict) else (None, None)
    if not isinstance(suits, str) or not isinstance(ranks, str):
        raise ValueError("no deck with suits and ranks")
    return [r + s for s in suits.split() for r in ranks.split()]


def card_lists(setup: Json) -> Iterator[tuple[JsonPath, list[Any]]]:
    """Every list of cards a setup places, with its path: the deck, the stock, each hand, each
    pile and the dead cards of a deal begun mid-play."""
    for key in ("deck", "stock"):
        if isinstance(setup.get(key), list):
            yield (key,), setup[key]
    start = setup.get("start")
    start = start if isinstance(start, dict) else {}
    for path, node in ((("hands",), setup.get("hands")), (("start", "piles"), start.get("piles"))):
        for key, cards in (node.items() if isinstance(node, dict) else ()):
            if isinstance(cards, list):
                yield (*path, key), cards
    if isinstance(start.get("dead"), list):
        yield ("start", "dead"), start["dead"]


def rests(setup: Json) -> list[tuple[JsonPath, int]]:
    """Where ``rest`` is written in a setup: the list's path and the index in it, in the order of card_lists."""
    return [(path, i) for path, cards in card_lists(setup) for i, card in enumerate(cards) if card == REST]


def expand_setup(setup: Json, variant: Json) -> Json:
    """Replace ``rest``, in any list of cards the setup places, by every card of the deck placed
    nowhere else, in deck order (a setup has at most one: validate reports any other, left as
    written); then put the cards a setup names rather than places where the deal looks for them.

    Scenarios stay short; engines always receive every card explicitly.
    """
    return _place_named(_expand_rest(setup, variant), variant)[0]


# A card put in a list of the setup: the list's key, its index there, and the key that named it.
Placing = tuple[str, int, JsonPath]


def _place_named(setup: Json, variant: Json) -> tuple[Json, list[Placing]]:
    """``turned`` where the deal turns a card up, the stock's top: in a deck, the first card after
    the hands are dealt; ``start.indicator``, when placed nowhere, where it lies: under the stock."""
    out = dict(setup)
    placings: list[Placing] = []
    turned = out.pop(TURNED, None)
    if isinstance(turned, str) and isinstance(out.get("stock"), list):
        out["stock"] = [turned, *out["stock"]]
        placings.append(("stock", 0, (TURNED,)))
    elif isinstance(turned, str) and isinstance(out.get("deck"), list):
        at = dealt(variant)
        out["deck"] = [*out["deck"][:at], turned, *out["deck"][at:]]
        placings.append(("deck", at, (TURNED,)))
    start = out.get("start")
    indicator = start.get("indicator") if isinstance(start, dict) else None
    stock = out.get("stock")
    if isinstance(indicator, str) and isinstance(stock, list) and stock and indicator not in _codes(out, placed=True):
        out["stock"] = [*stock, indicator]
        placings.append(("stock", len(stock), ("start", "indicator")))
    return out, placings


def as_written(path: JsonPath, written: Json, variant: Json) -> JsonPath:
    """A path into the setup ``expand_setup`` made of ``written``, as a path into ``written``: a card it placed is
    the key that named it (``turned``), and the cards ``rest`` stood for are ``rest``."""
    return written_paths(written, variant)(path)


def written_paths(written: Json, variant: Json) -> Callable[[JsonPath], JsonPath]:
    """``as_written`` for any number of paths into one setup: the setup expanded once, not once a path (a setup
    of an engine's trace may have a problem at each of thousands of keys)."""
    rested = _expand_rest(written, variant)
    placings = _place_named(rested, variant)[1]
    back = _rest_back(written, rested)
    return lambda path: back(_before_placing(path, placings))


def _before_placing(path: JsonPath, placings: list[Placing]) -> JsonPath:
    """A path into a setup with its named cards placed, as a path before they were: a placed
    card is the key that named it."""
    if len(path) < 2 or not isinstance(path[1], int):
        return path
    index = path[1]
    for key, at, named in placings:
        if key == path[0] and at == index:
            return named
    shift = sum(1 for key, at, _ in placings if key == path[0] and at < index)
    return (path[0], index - shift, *path[2:])


def dealt(variant: Json) -> int:
    """How many cards the deal gives out before the stock: a hand for every player."""
    deal = variant.get("deal")
    hand = deal.get("hand_size") if isinstance(deal, dict) else None
    players = variant.get("players")
    return players * hand if isinstance(players, int) and isinstance(hand, int) else 0


def _expand_rest(setup: Json, variant: Json) -> Json:
    found = rests(setup)
    if not found:
        return setup
    # Every card named counts, the indicator too: one named there but placed nowhere is left out,
    # rather than dropped somewhere by rest, and validate reports it missing. The cards a start records as
    # turned do not: they lie where the position puts them, rest among its places.
    placed = set(_codes(_records_left_out(setup)))
    path, at = found[0]
    out = dict(setup)
    node: Any = out
    for key in path[:-1]:  # copied on the way down: the setup as written stays as it was
        node[key] = dict(node[key])
        node = node[key]
    cards = node[path[-1]]
    node[path[-1]] = cards[:at] + [c for c in deck_of(variant) if c not in placed] + cards[at + 1 :]
    return out


def _compile(doc: Document, shown: str, index: int, raw: Json, default_variant: str | None, spec: Spec) -> Scenario:
    at = ("scenarios", index)
    steps = []
    for j, step in enumerate(raw.get("steps", ())):
        steps.append(
            Step(
                actions=tuple(expand_actions(step)),
                refuse=tuple(code for _, code in refusal_codes(step)),
                expect=step.get("expect"),
                refuse_because=_because(step),
                line=doc.where((*at, "steps", j))[0],
            )
        )
    variant = raw.get("variant") or default_variant or ""
    resolved = spec.resolved(variant)  # the file was checked: the variant resolves
    return Scenario(
        id=raw["id"],
        title=raw["title"],
        clauses=tuple(raw["clauses"]),
        source=raw["source"],
        variant=variant,
        game=str(resolved.get("game", "")),
        setup=expand_setup(raw["setup"], resolved),
        steps=tuple(steps),
        file=shown,
        line=doc.where(at)[0],
        description=raw.get("description", ""),
        raw=raw,
        refuse_setup=raw.get("refuse_setup"),
        refuse_setup_line=doc.where((*at, "refuse_setup"))[0] if "refuse_setup" in raw else 0,
        file_title=str(doc.data.get("title", "")),
        file_section=str(doc.data.get("section", "")),
    )


def _cross_checks(
    doc: Document, spec: Spec, refs: References, unchecked: list[Problem], setups: SetupCheck | None, clauses: dict[str, Json]
) -> list[Problem]:
    """What the schema cannot say: references resolve, cards exist in the variant's deck, a deal
    can start from each setup (but one that must be refused).

    A scenario whose variant has problems is not checked against it: that is added to ``unchecked``,
    once per file and variant, and the variant's file says the rest. So is a variant the reference
    engine cannot play (SetupCheck.unplayable), whose setups go unchecked: with the problems unless
    what keeps it from playing is reported elsewhere (a refusal precedence with problems), and
    then once in all."""
    problems = []
    refused: set[str] = set()
    section_checked = False  # a file's section is checked once, against the game of its first scenario checked
    default_variant = doc.data.get("variant")
    if default_variant is not None and refs.variants.unknown(default_variant):
        problems.append(doc.problem(("variant",), _unknown_variant(default_variant)))
    for i, raw in enumerate(doc.data.get("scenarios", [])):
        at: JsonPath = ("scenarios", i)
        vid = raw.get("variant") or default_variant
        if vid is None:
            problems.append(doc.problem(at, "missing variant: expected variant: on the scenario or the file"))
            continue
        named_at = (*at, "variant") if "variant" in raw else ("variant",)  # the scenario's own, else the file's
        if refs.variants.unknown(vid):
            if "variant" in raw:  # the file's own is reported once, above
                problems.append(doc.problem(named_at, _unknown_variant(vid)))
            continue
        # Declared by a variant file that does not load, or built on a variant with problems: reported there, once.
        if vid not in refs.variants.known or vid in refs.blocked:
            continue
        why = _unusable_because(spec, refs, vid)
        if why is not None:
            if vid not in refused:
                unchecked.append(doc.problem(named_at, f"variant {vid!r} cannot be used ({why}): expected a valid variant"))
            refused.add(vid)
            continue
        variant = spec.resolved(vid)
        deck_order = deck_of(variant)
        deck = set(deck_order)
        if variant.get("abstract"):
            problems.append(doc.problem(named_at, f"variant {vid!r} is abstract: expected a playable variant"))
        game = variant.get("game")
        if "section" in doc.data and not section_checked and refs.clauses.complete:
            section_checked = True
            problems += _section_problems(doc, spec, str(game))
        for j, cid in enumerate(raw.get("clauses", [])):
            if cid not in clauses:
                if not refs.clauses.complete:
                    continue
                problems.append(
                    doc.problem((*at, "clauses", j), f"unknown clause {cid!r}: expected an id from spec/*/clauses.yaml")
                )
            elif not cid.startswith(f"{game}."):
                problems.append(doc.problem((*at, "clauses", j), f"clause {cid!r} is not a {game} clause"))
            elif clauses[cid].get("variants") and vid not in clauses[cid]["variants"]:
                allowed = ", ".join(clauses[cid]["variants"])
                problems.append(doc.problem((*at, "clauses", j), f"clause {cid!r} applies only to {allowed}, not {vid}"))
        source = raw.get("source")
        if isinstance(source, str) and refs.sources.unknown(source):
            problems.append(doc.problem((*at, "source"), f"unknown source {source!r}: expected a key of spec/sources.yaml"))
        if isinstance(source, dict) and "ruling" in source and refs.rulings.unknown(source["ruling"]):
            problems.append(doc.problem((*at, "source", "ruling"), f"unknown ruling {source['ruling']!r}"))
        written = raw.get("setup", {})
        if isinstance(written, dict) and "shuffle" in written:  # what each engine deals from it is its own
            wanted = "the cards of a deal, never a shuffle seed: what an engine deals from a seed is its own"
            problems.append(doc.problem((*at, "setup", "shuffle"), f"expected {wanted}", at_key=True))
            continue
        turned = turned_problem(written, variant)
        if turned is not None:
            problems.append(doc.problem((*at, "setup", TURNED), turned))
            continue
        found = rests(written)
        if len(found) > 1:
            first = _dotted((*found[0][0], found[0][1]))
            once = f"rest stands for the cards placed nowhere else: once a setup (first at setup.{first})"
            problems += [doc.problem((*at, "setup", *path, i), once) for path, i in found[1:]]
            continue
        rested = _expand_rest(written, variant)
        setup, placings = _place_named(rested, variant)
        before_setup = len(problems)
        problems += [
            doc.problem((*at, "setup", *_as_written(_before_placing(p.path, placings), written, rested)), p.message)
            for p in schemas.check(doc, "setup", data=setup)
        ]
        if "refuse_setup" in raw:
            # The setup is meant to break the deal's invariants (a card twice, one not of the deck):
            # only its shape is checked, and the code.
            problems += _refusal_code_problems(doc, spec, refs, (*at, "refuse_setup"), raw["refuse_setup"])
            continue
        written_cards = [card for card in _codes(written, placed=True) if card != REST]
        if len(set(written_cards)) < len(written_cards):  # some card is placed twice: say where
            seen_cards: dict[str, JsonPath] = {}
            for path, card in _placed(written):
                if card in seen_cards and card != REST:
                    first = _dotted(seen_cards[card])
                    problems.append(doc.problem((*at, "setup", *path), f"{card} is placed twice (also at setup.{first})"))
                seen_cards.setdefault(card, path)
        placed = set(_codes(setup, placed=True))
        unplaced = [card for card in deck_order if card not in placed]
        if unplaced:
            problems.append(
                doc.problem(
                    (*at, "setup"),
                    f"expected every card of {vid} placed, missing {' '.join(unplaced)}: "
                    "place them, or put rest where they go",
                )
            )
        if any(card not in deck and _CARD.match(card) for card in _codes(raw)):
            problems += [
                doc.problem((*at, *path), f"expected a card of {vid}, found {card!r}")
                for path, card in _cards(raw)
                if card not in deck and _CARD.match(card)
            ]
        unplayable = setups.unplayable(vid, doc.file) if setups else None
        if unplayable is not None:
            why = unplayable.reason
            message = f"the setups of variant {vid!r} cannot be checked ({why}): expected a variant the reference engine plays"
            (unchecked if unplayable.reported else problems).append(doc.problem(named_at, message))
        refusal = setups.refusal(vid, setup) if setups and len(problems) == before_setup else None
        if refusal is not None:  # the cards are right, and yet a deal cannot start here
            refusal = refusal.moved(partial(as_written, written=written, variant=variant))
            problems.append(doc.problem((*at, "setup", *refusal.path), f"a deal cannot start from this setup: {refusal.message}"))
        for j, step in enumerate(raw.get("steps", [])):
            for where, code in refusal_codes(step):
                if refs.codes.unknown(code):
                    problems.append(
                        doc.problem(
                            (*at, "steps", j, *where), f"unknown refusal code {code!r}: expected a code of spec/refusals.yaml"
                        )
                    )
                elif code in spec.setup_codes():
                    problems.append(
                        doc.problem((*at, "steps", j, *where), f"{code!r} refuses a setup, not an action: see refuse_setup")
                    )
            if refusal_key(step) and len(expand_actions(step)) != 1:
                problems.append(doc.problem((*at, "steps", j), "a step with refusal: must hold exactly one action"))
    return problems


def _section_problems(doc: Document, spec: Spec, game: str) -> list[Problem]:
    """A file's ``section`` (where the rules site files its page) must be one of its game's sections."""
    ids = [str(sec.get("id")) for sec in spec.sections(game)]
    if doc.data["section"] in ids:
        return []
    found = doc.data["section"]  # the schema let through only a word of letters, digits and hyphens
    return [doc.problem(("section",), f"expected a section of {game}'s clauses: {', '.join(ids)}; found {found!r}")]


def _refusal_code_problems(doc: Document, spec: Spec, refs: References, at: JsonPath, code: str) -> list[Problem]:
    if refs.codes.unknown(code):
        return [doc.problem(at, f"unknown refusal code {code!r}: expected a code of spec/refusals.yaml")]
    if refs.codes.complete and code not in spec.setup_codes():
        setup_codes = ", ".join(sorted(spec.setup_codes())) or "none"
        message = f"{code!r} refuses an action, not a setup: expected a code marked refuses: setup ({setup_codes})"
        return [doc.problem(at, message)]
    return []


def _unusable_because(spec: Spec, refs: References, vid: str) -> str | None:
    """Why scenarios cannot be checked against a variant, if they cannot."""
    try:
        deck_of(spec.resolved(vid))
    except KeyError as err:
        return f"it extends unknown variant {err.args[0]!r}"
    except ValueError as err:  # a cycle, no deck
        return str(err)
    if vid in refs.faulty:
        return f"{spec.variants_raw()[vid][0].file} has problems"
    return None


def _unknown_variant(vid: Any) -> str:
    return f"unknown variant {vid!r}: expected an id from spec/*/variants"


def turned_problem(setup: Json, variant: Json) -> str | None:
    """What is wrong with a setup's ``turned``, if anything: it names one card, of a stock or of a
    deck dealt without a cut (the cut decides which card a deck turns up)."""
    if TURNED not in setup:
        return None
    turned = setup[TURNED]
    if not isinstance(turned, str) or not _CARD.match(turned):
        return f"expected a card code, found {turned!r}"
    if "deck" in setup and isinstance(variant.get("components"), dict) and "cut" in variant["components"]:
        return "a deck is cut before it is dealt, so the card it turns up is not known: give hands and stock"
    return None


def _dotted(path: JsonPath) -> str:
    return ".".join(map(str, path))


def _as_written(path: JsonPath, written: Json, expanded: Json) -> JsonPath:
    """A path into the expanded setup, as a path into the setup as written: ``rest`` there stands
    for all the cards it was replaced by."""
    return _rest_back(written, expanded)(path)


def _rest_back(written: Json, expanded: Json) -> Callable[[JsonPath], JsonPath]:
    """``_as_written`` for any number of paths into one setup, where ``rest`` stands found once."""
    found = rests(written)
    if not found:
        return _same
    where, at = found[0]
    n = len(where)
    grown = len(dict(card_lists(expanded))[where]) - len(dict(card_lists(written))[where])  # rest became grown + 1 cards

    def back(path: JsonPath) -> JsonPath:
        index = path[n] if len(path) > n else None
        if path[:n] != where or not isinstance(index, int):
            return path
        if index > at + grown:
            index -= grown
        elif index >= at:
            index = at
        return (*where, index, *path[n + 1 :])

    return back


def _same(path: JsonPath) -> JsonPath:
    return path


# Setup keys that name a card placed elsewhere in the setup rather than placing it.
_CARD_REFERENCES = {"indicator", "trees_taken"}

_CARD_KEYS = {
    "card",
    "cards",
    "deck",
    "stock",
    "hands",
    "holds",
    "lacks",
    "piles",
    "dead",
    "trick",
    "top_trumps",
    "play",
    "bid",
    "indicator",
    "trees_taken",
    "turned",
}


def _cards(node: Any, path: JsonPath = (), inside: bool = False) -> list[tuple[JsonPath, str]]:
    """Every card code in a scenario (strings under card-bearing keys), with its path."""
    if isinstance(node, (dict, list)):
        found: list[tuple[JsonPath, str]] = []
        _collect(node, path, inside, False, found)
        return found
    return [(path, node)] if inside and isinstance(node, str) and (len(node) == 2 or node == REST) else []


def _placed(setup: Json) -> list[tuple[JsonPath, str]]:
    """Every card a setup puts somewhere (a hand, the stock, a pile, the table...), with its path."""
    found: list[tuple[JsonPath, str]] = []
    _collect(_records_left_out(setup), (), False, True, found)
    return found


def _codes(node: Json, *, placed: bool = False) -> list[str]:
    """The card codes of ``_cards`` (of ``_placed`` with ``placed``) without their paths: most
    checks need the codes alone, and the paths only to locate a problem."""
    found: list[str] = []
    _collect(_records_left_out(node) if placed else node, None, False, placed, found)
    return found


def _records_left_out(node: Json) -> Json:
    """A setup without what its start records of the deal before it: the cards turned (``start.turned``) name
    cards placed elsewhere, as the indicator does, where a setup's own ``turned`` places one."""
    start = node.get("start") if isinstance(node, dict) else None
    if isinstance(start, dict) and "turned" in start:
        return {**node, "start": {key: value for key, value in start.items() if key != "turned"}}
    return node


def _collect(node: dict[str, Any] | list[Any], path: JsonPath | None, inside: bool, placed: bool, found: list[Any]) -> None:
    """Fill ``found`` with the codes under ``node``, each with its path unless ``path`` is None;
    with ``placed``, none under a key that names a card placed elsewhere. (One walk filling one
    list: a generator per node took four times as long.)"""
    is_dict = isinstance(node, dict)
    for key, value in node.items() if isinstance(node, dict) else enumerate(node):
        within = inside
        if is_dict:
            if placed and key in _CARD_REFERENCES:
                continue
            within = inside or key in _CARD_KEYS
        at = None if path is None else (*path, key)
        if isinstance(value, str):
            if within and (len(value) == 2 or value == REST):
                found.append(value if at is None else (at, value))
        elif isinstance(value, (dict, list)):
            _collect(value, at, within, placed, found)


def _read(paths: Iterable[Path]) -> tuple[list[Document], list[Problem]]:
    """Every file parsed, once; those that do not parse are problems."""
    docs: list[Document] = []
    problems: list[Problem] = []
    for path in paths:
        try:
            docs.append(load(path))
        except DataError as err:
            problems += err.problems
    return docs, problems


def check_files(
    paths: Iterable[Path], spec: Spec, refs: References, against: Iterable[Path] = ()
) -> tuple[list[Problem], list[Problem]]:
    """Schema and cross-file problems of scenario files, ids unique across all of them and the
    scenarios of ``against`` (the kit's, when only some files are checked); and, apart, the
    scenarios not checked because their variant has problems."""
    docs, problems = _read(paths)
    found, unchecked = _check_documents(docs, spec, refs, lambda: ids_of(against))
    return problems + found, unchecked


def ids_of(paths: Iterable[Path]) -> dict[str, str]:
    """The scenario ids written in files, each with where; a file that does not read is left out
    (it is reported where it is checked)."""
    ids: dict[str, str] = {}
    for path in paths:
        name = str(path)
        try:
            raw = yaml_bytes(path)
        except DataError:
            continue
        written = _ids_in(raw, name)
        shown = _shown(name) if written else ""
        for sid, line in written:
            ids.setdefault(sid, f"{shown}:{line}")
    return ids


def _ids_in(raw: bytes, name: str) -> tuple[tuple[str, int], ...]:
    """The scenario ids the bytes of a file write, in order, each with the line of its scenario
    (none when the file does not parse)."""
    try:
        doc = load_bytes(raw, name)
    except DataError:
        return ()
    return tuple(
        (raw_scenario["id"], doc.where(("scenarios", i))[0])
        for i, raw_scenario in mappings(doc.data if isinstance(doc.data, dict) else {}, "scenarios")
        if isinstance(raw_scenario.get("id"), str)
    )


def _check_documents(
    docs: list[Document],
    spec: Spec,
    refs: References,
    taken: Callable[[], dict[str, str]] | None = None,
    *,
    playable: bool = True,
) -> tuple[list[Problem], list[Problem]]:
    """``taken``: the ids the scenarios may not repeat, asked for once a scenario needs them. ``playable``:
    each setup is also started on the reference engine (validation), which loading the kit's own scenarios
    to run them leaves out: they are validated when the kit is built and tested."""
    problems: list[Problem] = []
    unchecked: list[Problem] = []
    seen: dict[str, str] | None = None
    setups = SetupCheck(spec) if playable else None
    clauses = spec.clause_index()  # once for all the files
    for doc in docs:
        found = schemas.check(doc, "scenario")
        problems += found
        if found:
            continue
        if seen is None:
            seen = dict(taken() if taken else {})
        problems += _cross_checks(doc, spec, refs, unchecked, setups, clauses)
        for i, raw in enumerate(doc.data["scenarios"]):
            sid = raw["id"]
            here = f"{doc.file}:{doc.where(('scenarios', i))[0]}"
            if sid in seen:
                problems.append(
                    doc.problem(
                        ("scenarios", i, "id"), f"duplicate scenario id {sid!r}: expected unique ids (first at {seen[sid]})"
                    )
                )
            else:
                seen[sid] = here
    return problems, unchecked


def load_files(paths: Iterable[Path], spec: Spec | None = None, *, playable: bool = True) -> list[Scenario]:
    """Load scenario files; raise DataError with every located problem if any is wrong. ``playable=False``
    leaves out starting each setup on the reference engine: for files validated already (the kit's own)."""
    spec = spec or kit_spec()
    docs, problems = _read(paths)
    found, unchecked = _check_documents(docs, spec, References.of(spec), playable=playable)
    problems += found + unchecked
    if problems:
        raise DataError(problems)
    out = []
    for doc in docs:
        default_variant, shown = doc.data.get("variant"), _shown(doc.file)
        out += [_compile(doc, shown, i, raw, default_variant, spec) for i, raw in enumerate(doc.data["scenarios"])]
    return out


def load_to_run(paths: Iterable[Path]) -> list[Scenario]:
    """Scenario files loaded to run: the kit's own as ``kit_scenarios`` loads them, validated already; any
    other file validated whole first, its setups started on the reference, so that a bad scenario is never
    blamed on the engine."""
    paths = list(paths)
    kit = kitdata.scenarios_dir().resolve()
    inside_kit = all(kit in path.resolve().parents for path in paths)
    return load_files(paths, playable=not inside_kit)


def _shown(file: str) -> str:
    """A scenario file as reports show it: relative to the kit (scenarios/...) when inside it."""
    path = Path(file)
    try:
        return path.resolve().relative_to(kitdata.root().resolve()).as_posix()
    except ValueError:
        return file


def scenario_files(root: Path | None = None) -> list[Path]:
    files, problems = yaml_files(root or kitdata.scenarios_dir())
    if problems:
        raise DataError(problems)
    return files


@cache  # read once a process: a command, the plugin and its workers ask for them more than once
def kit_scenarios() -> tuple[Scenario, ...]:
    """Every scenario of the kit, loaded to run: schema and spec checked, their setups not started on the
    reference engine (``trickspec validate`` does that, in CI and in tests/test_validate.py)."""
    return tuple(load_files(scenario_files(), playable=False))


def run_scenarios() -> tuple[Scenario, ...]:
    """The scenarios a run takes: those of the house scenario folders when it was given some
    (specreader/roots.py), instead of the kit's; else the kit's."""
    folders = roots.current().scenarios
    return _house_scenarios(folders) if folders else kit_scenarios()


def run_scenario_ids() -> set[str]:
    """The ids of the scenarios a run takes, which an expectation file names."""
    return {s.id for s in run_scenarios()}


@cache  # read once a process, as the kit's are
def _house_scenarios(folders: tuple[Path, ...]) -> tuple[Scenario, ...]:
    """A house folder's scenarios, validated whole (their setups started on the reference) before they run, so
    that a bad scenario is never blamed on the engine."""
    problems = roots.folder_problems(folders, "scenarios")
    if problems:
        raise DataError(problems)
    return tuple(load_files([file for folder in folders for file in scenario_files(folder)]))
