"""The field reference: the named types (reference/fields.md), and for each game a page of its own
(reference/fields/<game>.md) with the observation and the snapshot, field by field.

Each field's type and meaning are read from ``schemas/protocol.schema.json`` and ``schemas/snapshot.schema.json``,
and what a snapshot field holds in each phase of the game from the latter's ``x-phases`` (``conformance.suite.field_phases``);
which rules decide it, from the clauses' ``observes`` entries (read as ``conformance.suite.observing`` reads them for
``trickspec fuzz``); the codes a game refuses with, from the clauses' ``refuses_with``. So the reference states nothing
of its own, and a field or a description added to a schema shows on the page at the next build.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from markupsafe import Markup

from conformance.suite import field_phases, observing
from rulesite import paths
from rulesite.escaping import code
from rulesite.links import PageLinks
from rulesite.sitedata import SiteData
from rulesite.templating import render
from specreader.jsontypes import Json, part_of

PROTOCOL = "protocol.schema.json"
SNAPSHOT = "snapshot.schema.json"
OBSERVATION = "#/$defs/observation"
LEGAL_ROW = "legal"
CODE_ROW = "rejected.code"
PHASE_ROW = "phase"  # the snapshot's phase, its type the game's own phases
_PHASE_WORDS = {field_phases.OVER: "deal over", field_phases.MATCH_OVER: "match over"}
# The kit's files a description may name: a schema (with or without its folder) or the list of refusal codes.
_FILE = re.compile(r"(?<![\w/.-])(?:schemas/)?([a-z][a-z-]*\.schema\.json)\b|(?<![\w/.-])spec/errors\.yaml\b")


@dataclass
class Row:
    """One field: its dotted path (``[]`` for an array's items), its type in a compact notation, its meaning,
    and the clauses of the game that decide it, each with the phases it speaks of."""

    path: str
    type: str
    description: str
    decided_by: dict[str, list[str]] = field(default_factory=dict)
    phases: list[tuple[str, str]] = field(default_factory=list)  # (phases, what it holds then), from x-phases

    @property
    def dotted(self) -> str:
        """The path as an ``observes`` entry names it."""
        return self.path.replace("[]", "")


@dataclass(frozen=True)
class GameFields:
    game: str
    title: str
    observation: list[Row]
    snapshot: list[Row]
    codes: list[str]  # the codes the game's clauses refuse an action with, in spec/refusals.yaml's order
    setup_codes: list[str]  # and a setup with: those come in the run's error, not in an observation
    undecided: list[str]  # snapshot fields that only other games' clauses decide
    left_empty: list[tuple[str, str]]  # fields only other games fill, each with the JSON it always holds here


# A branch chooser: given a field's path and its object branches, those to list.
Chooser = Callable[[str, list[Json]], list[Json]]


class Schemas:
    """The kit's schemas by file name, with their references followed by hand (only within schemas/)."""

    def __init__(self, data: SiteData) -> None:
        self.by_name: dict[str, Json] = dict(data.schemas)

    def target(self, ref: str, base: str) -> tuple[str, str, Json]:
        """The schema file a reference lands in, the name of what it names, and the node."""
        file, _, pointer = ref.partition("#")
        name = file or base
        if name not in self.by_name:
            raise ValueError(f"{base}: $ref {ref!r} names no schema of schemas/")
        node: Json = self.by_name[name]
        parts = [p for p in pointer.split("/") if p]
        for part in parts:
            node = node[part]
        return name, parts[-1] if parts else name.removesuffix(".schema.json"), node

    def type_of(self, node: Json, base: str) -> str:
        """``card | null``, ``card[]``, ``{seat: card[]}``, ``"cut" | "play"``, ``integer ≥ 0``..."""
        if "$ref" in node:
            name, label, target = self.target(node["$ref"], base)
            # A named list (cards) reads best as what it lists.
            return self.type_of(target, name) if target.get("type") == "array" else label
        if "const" in node:
            return json.dumps(node["const"])
        if "enum" in node:
            return " | ".join(json.dumps(v) for v in node["enum"])
        for key in ("oneOf", "anyOf"):
            if key in node:
                return _nulls_last(self.type_of(b, base) for b in node[key])
        kinds = node.get("type", [])
        return _nulls_last(self._kind(k, node, base) for k in (kinds if isinstance(kinds, list) else [kinds]))

    def _kind(self, kind: str, node: Json, base: str) -> str:
        if kind == "array":
            item = self.type_of(node.get("items", {}), base)
            return f"({item})[]" if " " in item else f"{item}[]"
        if kind == "object":
            if node.get("if") == {"type": "object"} and "then" in node:
                return self.type_of(node["then"], base)
            if isinstance(node.get("additionalProperties"), dict) and "propertyNames" in node:
                key = self.type_of(node["propertyNames"], base).removesuffix("_key")
                return f"{{{key}: {self.type_of(node['additionalProperties'], base)}}}"
            return "object"
        if kind == "integer":
            low, high = node.get("minimum"), node.get("maximum")
            if low is not None and high is not None:
                return f"integer {low}..{high}"
            return f"integer ≥ {low}" if low is not None else "integer"
        return kind

    def rows(self, node: Json, base: str, path: str, choose: Chooser) -> Iterator[Row]:
        """The field at ``path`` and, below it, every field of the object branches ``choose`` keeps."""
        branches = [b for b in _branches(node.get("items", {}) if node.get("type") == "array" else node) if "properties" in b]
        kept = choose(path.replace("[]", ""), branches) if len(branches) > 1 else branches
        told = " ".join(str(b["description"]) for b in kept if len(branches) > 1 and "description" in b)
        yield Row(path, self.type_of(node, base), " ".join(filter(None, (str(node.get("description", "")), told))))
        below = f"{path}[]" if node.get("type") == "array" else path
        seen: set[str] = set()
        for branch in kept:
            for key, child in branch["properties"].items():
                if key not in seen:
                    seen.add(key)
                    yield from self.rows(child, base, f"{below}.{key}", choose)

    def fields(self, name: str, pointer: str = "") -> tuple[str, Json]:
        """The properties of a schema (or of one of its definitions), with the file they are read in."""
        base, _, node = self.target(pointer, name) if pointer else (name, "", self.by_name[name])
        return base, node["properties"]


def _branches(node: Json) -> list[Json]:
    """The alternatives of a oneOf or anyOf, nested ones flattened; the node itself if it has none."""
    for key in ("oneOf", "anyOf"):
        if key in node:
            return [leaf for b in node[key] for leaf in _branches(b)]
    return [node]


def _nulls_last(types: Iterator[str]) -> str:
    found = list(dict.fromkeys(types))
    return " | ".join([t for t in found if t != "null"] + [t for t in found if t == "null"])


def _phase_words(phase: str | None) -> str | None:
    if phase is None:
        return None
    return "after setup" if phase == observing.SETUP else f"in the {phase} phase"


def _game_observes(data: SiteData, game: str) -> list[tuple[str, observing.Observed]]:
    return [
        (str(c["id"]), observing.parse(str(entry)))
        for c in data.game_clauses(game)
        if not c.get("informative")
        for entry in c.get("observes", []) or []
    ]


def _decide(rows: list[Row], clause: str, path: str, phase: str | None) -> None:
    """File the clause under the deepest row holding ``path``."""
    holding = [r for r in rows if part_of(path, r.dotted)]
    if holding:
        row = max(holding, key=lambda r: len(r.dotted))
        phases_said = row.decided_by.setdefault(clause, [])
        said = _phase_words(phase)
        if said and said not in phases_said:
            phases_said.append(said)


def _add_phases(rows: list[Row], game: str) -> None:
    """Give each row what its field holds in each phase of the game (``x-phases``), phases of one
    meaning together, in the order of a deal."""
    defined = field_phases.defined(game)
    for row in rows:
        grouped: dict[str, list[str]] = {}
        for phase, meaning in defined.get(row.dotted, {}).items():
            grouped.setdefault(meaning, []).append(_PHASE_WORDS.get(phase, phase))
        row.phases = [(", ".join(phases_said), meaning) for meaning, phases_said in grouped.items()]


def _own_phases(rows: list[Row], game: str) -> None:
    """The phase field's type as the game has it: the phases its deals pass through, not every game's."""
    own = [p for p in field_phases.game_phases(game) if p != field_phases.MATCH_OVER]
    for row in rows:
        if row.path == PHASE_ROW:
            row.type = " | ".join(f'"{p}"' for p in own)


def game_fields(schemas: Schemas, data: SiteData, game: str) -> GameFields:
    observed = _game_observes(data, game)
    paths_seen = [o.path for _, o in observed if o.field != observing.LEGAL]
    everyone = {o.field for g in data.games() for _, o in _game_observes(data, g)}

    def choose(path: str, branches: list[Json]) -> list[Json]:
        # The branches the schema gives the game (x-games); else those holding every part the game's clauses
        # speak of (Altbaumer's result by tricks, not the card-points one); failing that, those holding some
        # part; failing that, all.
        given = [b for b in branches if game in b.get(field_phases.GAMES, ())]
        if given:
            return given
        spoken = [p for p in paths_seen if p.startswith(path + ".")]

        def holds(branch: Json, part: str) -> bool:
            return any(part_of(part, f"{path}.{k}") for k in branch["properties"])

        whole = [b for b in branches if spoken and all(holds(b, p) for p in spoken)]
        return whole or [b for b in branches if any(holds(b, p) for p in spoken)] or branches

    base, props = schemas.fields(SNAPSHOT)
    mine = {o.field for _, o in observed}
    # A field no clause of any game decides (the dealer, the variant) belongs to every game's table, and so
    # does every field the snapshot schema defines for this game in some phase (x-phases), decided or not.
    defined = {path.split(".")[0] for path in field_phases.defined(game)}
    empty = field_phases.left_empty(game)
    listed = [k for k in props if k not in empty and (k in mine or k not in everyone or k in defined)]
    snapshot = [r for k in listed for r in schemas.rows(props[k], base, k, choose)]
    obs_base, obs_props = schemas.fields(PROTOCOL, OBSERVATION)
    observation = [r for k, v in obs_props.items() for r in schemas.rows(v, obs_base, k, choose)]
    for clause, o in observed:
        if o.field == observing.LEGAL:
            phase = o.path.removeprefix(observing.LEGAL).removeprefix(".")
            _decide(observation, clause, LEGAL_ROW, phase or None)
        else:
            _decide(snapshot, clause, o.path, o.phase)
    _add_phases(snapshot, game)
    _own_phases(snapshot, game)
    setups = data.spec.setup_codes()
    refusing = [c for c in data.game_clauses(game) if c.get("refuses_with") and not c.get("informative")]
    for c in refusing:
        if any(code not in setups for code in c["refuses_with"]):
            _decide(observation, str(c["id"]), CODE_ROW, None)
    named = {str(code) for c in refusing for code in c["refuses_with"]}
    codes = [str(e.get("code")) for e in data.refusals() if str(e.get("code")) in named]
    return GameFields(
        game,
        data.game_title(game),
        observation,
        snapshot,
        [c for c in codes if c not in setups],
        [c for c in codes if c in setups],
        [k for k in props if k not in listed and k not in empty],
        [(k, json.dumps(value)) for k, value in empty.items()],
    )


def type_names(schemas: Schemas, games: list[GameFields]) -> list[tuple[str, str, str | None]]:
    """Each named type the tables use: its name, its meaning, and the schema file it is defined in when that file
    is a schema of its own (``action``), for a link to the schemas page."""
    wanted = {
        word
        for g in games
        for r in (*g.observation, *g.snapshot)
        for word in r.type.replace("[]", " ").replace("|", " ").replace("{", " ").replace("}", " ").replace(":", " ").split()
    }
    out: list[tuple[str, str, str | None]] = []
    common = schemas.by_name.get("common.schema.json", {}).get("$defs", {})
    for name, node in common.items():
        if name in wanted and node.get("description"):
            out.append((name, str(node["description"]), None))
    for file, node in schemas.by_name.items():
        name = file.removesuffix(".schema.json")
        if name in wanted and file.endswith(".schema.json"):
            meaning = ". ".join(str(node[k]).rstrip(".") for k in ("title", "description") if node.get(k))
            out.append((name, meaning + ".", file))
    return out


class Described:
    """A description as prose, each kit file it names linked to where the site shows that file."""

    def __init__(self, links: PageLinks, schemas: Schemas) -> None:
        self.links = links
        self.schemas = schemas

    def __call__(self, text: str) -> Markup:
        out: list[Markup] = []
        pos = 0
        for m in _FILE.finditer(text):
            schema = m.group(1)
            if schema is not None and schema not in self.schemas.by_name:
                continue
            out += [self._prose(text[pos : m.start()]), self._file(m.group(0), schema)]
            pos = m.end()
        out.append(self._prose(text[pos:]))
        return Markup().join(out)

    def _prose(self, chunk: str) -> Markup:
        # prose() trims its text: keep the spaces around a link.
        inner = self.links.prose(chunk)
        return Markup(" " if chunk[:1].isspace() else "") + inner + Markup(" " if chunk[-1:].isspace() and inner else "")

    def _file(self, named: str, schema: str | None) -> Markup:
        if schema is None:
            return self.links.to(code(named), paths.REFUSALS_PAGE)
        return self.links.to(code(named), paths.SCHEMAS_PAGE, paths.schema_anchor(schema))


def fields_pages(data: SiteData) -> dict[str, str]:
    """The field reference by page path: the types and the games on the first page, then each game's fields on
    a page of its own (the protocol's page says how engine and kit talk, and links here)."""
    schemas = Schemas(data)
    games = [game_fields(schemas, data, g) for g in data.games()]
    index = PageLinks(paths.FIELDS_PAGE, data)
    out = {
        paths.FIELDS_PAGE: render(
            "fields_page.md.j2",
            games=games,
            types=type_names(schemas, games),
            links=index,
            described=Described(index, schemas),
            schemas_page=paths.SCHEMAS_PAGE,
            schema_anchor=paths.schema_anchor,
            game_page=paths.game_fields_path,
        )
    }
    for g in games:
        page = paths.game_fields_path(g.game)
        links = PageLinks(page, data)
        out[page] = render(
            "fields.md.j2",
            g=g,
            links=links,
            described=Described(links, schemas),
            code_row=CODE_ROW,
            index=paths.FIELDS_PAGE,
        )
    return out


def fields_nav(data: SiteData) -> dict[str, list[dict[str, str]]]:
    """The nav section the field reference's first page stands for: that page, then each game's."""
    entries = [{"Overview and types": paths.FIELDS_PAGE}]
    entries += [{data.game_title(g): paths.game_fields_path(g)} for g in data.games()]
    return {paths.FIELDS_PAGE: entries}
