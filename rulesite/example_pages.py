"""The worked examples: one page per scenario file, each scenario drawn and its steps told; their index; their nav."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from conformance.suite.scenarios import Scenario
from rulesite import paths, table_words
from rulesite.links import PageLinks
from rulesite.sitedata import SiteData
from rulesite.templating import render
from specreader.jsontypes import Json


@dataclass(frozen=True)
class Example:
    """A scenario with what its drawing needs beside the scenario itself."""

    scenario: Scenario
    start: Json  # setup.start, or empty
    hands: list[tuple[str, list[str], list[str]]]  # seat key, cards, roles at the table ("North-South", "dealer")
    notes: list[object]  # each step's note as written, or None
    names: list[str]  # each seat's name at the table, seat 0 first
    sides: list[str]  # each side's name
    stock_drawn: bool  # whether the stock matters here enough to draw every card of it

    def name(self, seat: object) -> str:
        """A seat by its table name; anything that is not a seat of this table as it stands."""
        key = int(seat) if isinstance(seat, int) or (isinstance(seat, str) and seat.isdigit()) else -1
        return self.names[key] if 0 <= key < len(self.names) else f"seat {seat}"

    def side(self, index: object) -> str:
        key = int(index) if isinstance(index, int) or (isinstance(index, str) and index.isdigit()) else -1
        return self.sides[key] if 0 <= key < len(self.sides) else f"side {index}"

    def told(self, text: object) -> str:
        """An example's title, description or note with each "seat N" and "side N" said as the table names them,
        the seat kept in brackets for readers checking an engine: "Boris (seat 1)", "East-West". So are the
        dealer ("Dealer 1": "Dealer Boris (seat 1)") and a list of seats ("seats 1 and 3": "East and West (seats 1
        and 3)"). Inside brackets, or just before them, a seat is its name alone ("the dealer (West)"), so that
        brackets never nest; a name written with its seat or side ("Anna (seat 0, ...)", "North-South (side 0)"),
        or seats listed to say who a side is ("(side 1: seats 1 and 4)"), are kept as written."""

        def named(m: re.Match[str], names: str, seats: str) -> str:
            before, after = m.string[: m.start()], m.string[m.end() :]
            if _open_brackets(before) or after.lstrip(" ").startswith("("):
                return names
            return f"{names} ({seats})"

        def dealer(m: re.Match[str]) -> str:
            name = self.name(int(m[2]))
            return m[0] if name.startswith("seat ") else f"{m[1]} {named(m, name, f'seat {m[2]}')}"

        def seats(m: re.Match[str]) -> str:
            names = [self.name(int(n)) for n in re.findall(r"\d+", m[2])]
            said = (" or " if " or " in m[2] else " and ").join([", ".join(names[:-1]), names[-1]])
            before = m.string[: m.start()]
            if any(n.startswith("seat ") for n in names) or before.endswith((f"{said} (", f"{said}: ")):
                return m[0]
            if before.endswith(": ") and _open_brackets(before):
                return m[0]
            return named(m, said, f"{m[1].lower()} {m[2]}")

        def seat(m: re.Match[str]) -> str:
            name = self.name(int(m[2]))
            if name.startswith("seat ") or m.string[: m.start()].endswith(f"{name} ("):
                return m[0]
            return named(m, name, f"{m[1].lower()} {m[2]}")

        def side(m: re.Match[str]) -> str:
            name = self.side(int(m[1]))
            return m[0] if name.startswith("side ") or m.string[: m.start()].endswith(f"{name} (") else name

        text = _SEATS.sub(seats, _DEALER.sub(dealer, str(text)))
        return _SIDE.sub(side, _SEAT.sub(seat, text))

    def match_words(self, value: object) -> str | None:
        """A match's standing as the table keeps it ("victory points: North-South 3, East-West 4; target 5"),
        or None for a shape this has no words for, which is then shown as it stands."""
        if not isinstance(value, dict):
            return None
        said = []
        for key, x in value.items():
            if key in _PER_SIDE and isinstance(x, list):
                said.append(f"{_PER_SIDE[key]}: " + ", ".join(f"{self.side(i)} {n}" for i, n in enumerate(x)))
            elif key == "sheet" and isinstance(x, dict):
                said.append("score sheet: " + ", ".join(f"{self.name(k)} {n}" for k, n in x.items()))
            elif key == "target":
                said.append(f"target {x}" if x is not None else "no target")
            elif key in ("winner", "round_winner"):
                what = "the match" if key == "winner" else "the round"
                verb = "win" if table_words.has_partners(self.variant) else "wins"
                said.append(f"{self.side(x)} {verb} {what}" if isinstance(x, int) else f"nobody has won {what} yet")
            elif key == "decider" and isinstance(x, bool):
                said.append("the deciding deal" if x else "not the deciding deal")
            else:
                return None
        return "; ".join(said)

    def dealers_words(self, value: object) -> str | None:
        """The earlier dealers of the match, first to last, by their names."""
        if not isinstance(value, list) or not value:
            return None
        return "dealt before, first to last: " + ", ".join(self.name(seat) for seat in value)

    def result(self, value: object) -> str | None:
        """A deal's result as a sentence, when the example states enough of it."""
        if isinstance(value, dict) and "winner" in value and ("totals" in value or "tricks" in value):
            return table_words.result_sentence(value, self.variant)
        return None

    variant: Json = field(default_factory=dict)


def _open_brackets(text: str) -> int:
    """How many brackets are open at the end of ``text``; a closing one with none open counts for nothing ("1)")."""
    depth = 0
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
    return depth


_PER_SIDE = {"vp": "victory points", "scores": "running totals", "rounds": "rounds won"}
_SEAT = re.compile(r"\b([Ss]eat) (\d+)\b")
_DEALER = re.compile(r"\b([Dd]ealer) (\d+)\b")
# "seats 1 and 3", "seats 3, 4, 0, 1"; after a game, variant or table, "seats" is the verb ("the game seats 0 and 1"),
# and after "at" the places themselves ("two players sit at seats 0 and 1")
_SEATS = re.compile(r"(?<!game )(?<!variant )(?<!table )(?<!at )\b([Ss]eats) (\d+(?:, \d+)*(?:,? (?:and|or) \d+|(?:, \d+)))\b")
_SIDE = re.compile(r"\b[Ss]ide (\d+)\b")

# A stock longer than this is drawn as a count unless a step of the example looks at it.
STOCK_DRAWN_UP_TO = 6


def example(scenario: Scenario, variant: Json | None) -> Example:
    setup = scenario.setup
    table = variant or {}
    start = setup["start"] if isinstance(setup.get("start"), dict) else {}
    roles = seat_roles(scenario, variant)
    hands: Json = setup["hands"] if isinstance(setup.get("hands"), dict) else {}
    seats = sorted(hands, key=lambda k: int(k) if str(k).isdigit() else 99)
    drawn = [(k, hands[k], roles.get(int(k) if str(k).isdigit() else -1, [])) for k in seats]
    raw_steps = scenario.raw.get("steps")
    notes = [raw.get("note") if isinstance(raw, dict) else None for raw in raw_steps] if isinstance(raw_steps, list) else []
    notes += [None] * (len(scenario.steps) - len(notes))
    stock = setup.get("stock")
    looked_at = any("stock" in step.expect for step in scenario.steps if step.expect)
    stock_drawn = looked_at or not isinstance(stock, list) or len(stock) <= STOCK_DRAWN_UP_TO
    names = table_words.seat_names(table)
    return Example(scenario, start, drawn, notes, names, table_words.side_names(table), stock_drawn, table)


def seat_roles(scenario: Scenario, variant: Json | None) -> dict[int, list[str]]:
    """Each seat's side (when sides have partners) and the dealer."""
    roles: dict[int, list[str]] = {}
    if variant and table_words.has_partners(variant):
        names = table_words.side_names(variant)
        for i, side in enumerate(table_words.sides_of(variant)):
            for seat in side:
                roles.setdefault(seat, []).append(names[i])
    dealer = scenario.setup.get("dealer")
    if isinstance(dealer, int):
        roles.setdefault(dealer, []).append("dealer")
    return roles


@dataclass(frozen=True)
class PageLabel:
    """How a page of examples is named for readers: its topic (the spec's section where there is one) and
    what its examples are about (the rule most of them check), never the file's name alone."""

    game: str
    topic: str
    label: str
    told_apart: str = ""  # among the pages of the same label: the table it keeps to, else what its file is about

    @property
    def title(self) -> str:
        return f"{self.label} ({self.told_apart})" if self.told_apart else self.label


def _words(name: str) -> str:
    return name.replace("-", " ").capitalize()


def _same_words(a: str, b: str) -> bool:
    return re.sub(r"\W+", " ", a).strip().lower() == re.sub(r"\W+", " ", b).strip().lower()


# The topic of the pages filed under no section: those that check the whole game (every field of a deal).
_WHOLE_GAME = "Across the game"


@dataclass(frozen=True)
class _Filed:
    """Where a page of examples is filed: the section of its game's specification that its folder is, else the one
    its file names (``section:``), else none (the whole game, after every section); and its place in that order."""

    game: str
    folder: str
    stem: str
    section: str  # its id, "" for the whole game
    topic: str
    place: tuple[tuple[int, str], tuple[int, int], str]


def _filed(path: str, data: SiteData) -> _Filed:
    parts = path.removeprefix("examples/").removesuffix(".md").split("/")
    game, folder, stem = parts[0], "/".join(parts[1:-1]), parts[-1]
    sections = data.spec.sections(game)
    ids = [str(sec.get("id")) for sec in sections]
    named = data.example_files()[path][0].file_section
    if folder in ids:
        at, after = ids.index(folder), 0
    elif named in ids:
        at, after = ids.index(named), 1  # after the section's own pages
    else:
        return _Filed(game, folder, stem, "", _WHOLE_GAME, (data.game_place(game), (len(ids), 1), path))
    topic = str(sections[at].get("title", ids[at]))
    return _Filed(game, folder, stem, ids[at], topic, (data.game_place(game), (at, after), path))


def _rule_of(group: Sequence[Scenario], filed: _Filed, data: SiteData) -> str:
    """What a page is about: its file's title, else the rule it checks most (of its section's own, where it checks
    any), else its file's name."""
    if group[0].file_title:
        return group[0].file_title
    counts: dict[str, int] = {}
    for s in group:
        for cid in s.clauses:
            if data.clause_game.get(cid) == filed.game:
                counts[cid] = counts.get(cid, 0) + 1
    own = {cid: n for cid, n in counts.items() if data.clauses[cid].get("section") == filed.section}
    counts = own or counts
    if not counts:
        return _words(filed.stem)
    order = list(data.clauses)
    top = max(counts, key=lambda c: (counts[c], -order.index(c)))
    return str(data.clauses[top].get("title", top))


def _told_apart(same: list[str], label: str, filed: dict[str, _Filed], data: SiteData) -> dict[str, str]:
    """How each page of one label is told from the others: by its table where it keeps to one that no other of
    them keeps to alone, else by its file's name (unless that is the label again); and, where two are still told
    the same, by their folder too, then by their whole path, which no two pages share."""
    files = data.example_files()
    tables = [{s.variant for s in files[path]} for path in same]
    alone = [min(t) for t in tables if len(t) == 1]
    told: dict[str, str] = {}
    for path, table in zip(same, tables, strict=True):
        vid, stem = min(table), _words(filed[path].stem).lower()
        if len(table) == 1 and alone.count(vid) == 1:
            told[path] = str(data.variants.get(vid, {}).get("title", vid))
        elif not _same_words(stem, label):
            told[path] = stem
        elif len(table) > 1:  # "Rank order (rank order)" would say nothing
            told[path] = "several tables"
        else:
            told[path] = str(data.variants.get(vid, {}).get("title", vid))
    for widened in ("folder", "path"):
        twice = [p for p in same if list(told.values()).count(told[p]) > 1]
        told.update({p: f"{told[p]}, {_words(filed[p].folder).lower() if widened == 'folder' else p}" for p in twice})
    return told


def page_labels(data: SiteData) -> dict[str, PageLabel]:
    """Every page of examples with its label, in the order of play (the order of the index and the nav), the pages
    of one label together, no two with the same title in a topic."""
    groups = data.example_files()
    filed = {path: _filed(path, data) for path in groups}
    by_label: dict[tuple[str, str, str], list[str]] = {}
    for path in sorted(groups, key=lambda p: filed[p].place):
        by_label.setdefault((filed[path].game, filed[path].topic, _rule_of(groups[path], filed[path], data)), []).append(path)
    out: dict[str, PageLabel] = {}
    for (game, topic, label), same in by_label.items():  # a label's pages where its first is
        told = _told_apart(same, label, filed, data) if len(same) > 1 else {}
        out.update({path: PageLabel(game, topic, label, told.get(path, "")) for path in same})
    return out


def example_page(page: str, scenarios: Sequence[Scenario], data: SiteData, labels: dict[str, PageLabel]) -> str:
    """One scenario file as a page of worked examples, each anchored by its scenario id; ``labels`` are
    ``page_labels(data)``, worked out once for all the pages."""
    first = scenarios[0]
    parts = page.removeprefix("examples/").removesuffix(".md").split("/")
    named = labels.get(page)
    return render(
        "example.md.j2",
        game_title=data.game_title(first.game) if first.game else first.game,
        topic=f"{named.topic}: {named.title}" if named else page,
        source_file="scenarios/" + "/".join(parts) + ".yaml",
        examples=[example(s, data.variants.get(s.variant)) for s in scenarios],
        links=PageLinks(page, data),
    )


def examples_index(data: SiteData) -> str:
    """Every page of examples, by game and then by topic."""
    labels = page_labels(data)
    # game: topic: label: its pages (what tells each apart from the others of its label, path, examples)
    by_game: dict[str, dict[str, dict[str, list[tuple[str, str, int]]]]] = {}
    files = data.example_files()
    for path, named in labels.items():
        pages = by_game.setdefault(named.game, {}).setdefault(named.topic, {}).setdefault(named.label, [])
        pages.append((named.told_apart, path, len(files[path])))
    games = [
        (game, data.game_title(game), [(topic, list(labelled.items())) for topic, labelled in by_game[game].items()])
        for game in sorted(by_game, key=data.game_place)
    ]
    return render(
        "examples_index.md.j2",
        count=len(data.scenarios),
        games=games,
        format_page=paths.SCENARIO_FORMAT_PAGE,
        links=PageLinks(paths.EXAMPLES_INDEX, data),
    )


def example_nav(data: SiteData) -> list[Any]:
    """The nav entries for the worked examples: game, then topic, then file."""
    nav: list[Any] = [{"Overview": paths.EXAMPLES_INDEX}]
    games: dict[str, dict[str, list[Any]]] = {}
    for path, named in page_labels(data).items():
        games.setdefault(named.game, {}).setdefault(named.topic, []).append({named.title: path})
    for game in sorted(games, key=data.game_place):
        topics = [{topic: entries} for topic, entries in games[game].items()]
        nav.append({data.game_title(game): topics})
    return nav
