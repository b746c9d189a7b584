"""Trace files read as untrusted data (schemas/trace.schema.json): one JSON object per line, an
optional header first, then one game per line, or a match of several deals on one line.

The files are streamed, never read whole (a game site's logs can hold millions of games): each
line is cut at the kit's line limit, read strictly, checked against the schema, and its setup
expanded as a scenario's is. A line that is no game is a located problem; the games around it
are still read.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.run.runlog import id_order
from conformance.suite import field_phases, schemas
from conformance.suite.declared_variants import with_nearest
from conformance.suite.reported import declaration_problem
from conformance.suite.scenarios import expand_setup, turned_problem, written_paths
from conformance.text import json_positions, untrusted
from conformance.traces import seats_and_sides
from conformance.traces.line_problems import Found, NoGame, Tally
from specreader import files, limits
from specreader.jsontypes import Json, JsonPath
from specreader.problems import DataError, Problem
from specreader.spec import kit_spec, variant_ids

SUFFIX = ".jsonl"  # the files a folder given to check-trace is searched for
_BOM = b"\xef\xbb\xbf"  # what Windows tools often write first in a UTF-8 file, and JSON readers may pass over
_TRACE_KEY = re.compile(rb'[{,]\s*"trace"\s*:')  # the key that makes a line a header, in any place
_VARIANT_KEY_WRITTEN = re.compile(rb'"variant"\s*:')  # the key of every game, which no header has
_VARIANT_KEY = b'"variant"'  # a key every game has


@dataclass(frozen=True)
class TraceLine:
    """A line of a trace, not yet read: its place in the whole run (``index``, over every file), its
    file and line number, and its bytes."""

    index: int
    file: str
    number: int
    raw: bytes
    reports: frozenset[str] | None = None  # the fields its file's header declares the engine reports


@dataclass(frozen=True)
class Game:
    """One game of a trace, read and checked: its setup expanded as the engine receives a scenario's."""

    index: int
    name: str  # its file and line, and the game's own name after a # where it has one
    file: str
    number: int
    variant: str
    setup: Json
    actions: tuple[Json, ...]
    observations: tuple[Json | None, ...]
    reports: frozenset[str] | None = None
    # The most true and false its line can hold: the words true and false in it, in strings too (of a match's deal,
    # the most its deals hold together).
    flags_at_most: int = 0
    dealt: Json | None = None  # the setup as the trace gives it, before it was expanded: where a problem in it is said
    deal: int = 0  # its place in the match its line holds, from 1; 0 for a line of one game


def trace_files(given: list[str]) -> tuple[list[Path], list[Problem]]:
    """The files named, with each folder's ``*.jsonl`` files (all levels), in the order their games' ids take in a
    run log: names compared with their numbers as numbers (``day-9`` before ``day-10``). A run log in id order
    is merged with other shards' as it is read (runlog.merge)."""
    found: list[Path] = []
    problems: list[Problem] = []
    for name in given:
        path = Path(name)
        if path.is_dir():
            # what is no regular file (a FIFO, a link to nowhere) is taken too, and refused with its reason as it is opened
            inside = sorted((p for p in path.rglob(f"*{SUFFIX}") if not p.is_dir()), key=lambda p: id_order(f"{p}:"))
            if not inside:
                problems.append(Problem(name, 0, 0, (), f"expected trace files ({SUFFIX}) in this folder, found none"))
            found += inside
        elif os.path.lexists(path):
            found.append(path)
        else:
            problems.append(Problem(name, 0, 0, (), "expected a trace file or a folder of them, found nothing there"))
    # a file named twice (itself and its folder, or by two paths) is read once: its games would be judged twice,
    # under two names, and the run log have each game twice
    once: dict[str, Path] = {}
    for path in found:
        once.setdefault(os.path.realpath(path), path)
    return list(once.values()), problems


def lines(paths: list[Path]) -> Iterator[TraceLine | Json | Problem]:
    """Every game line of the files, numbered across them; a file's header (a mapping) where it has one;
    a problem for a line too long to read or a file that cannot be opened."""
    index = 0
    for path in paths:
        name = str(path)
        try:
            handle = files.open_bytes(path, "trace file")
        except DataError as err:
            yield from err.problems
            continue
        with handle:  # closed after the file's last line is taken
            first = True
            reports: frozenset[str] | None = None
            passed_over = 0  # the games of a file whose header is wrong
            game_lines = 0  # read, or too long to read
            games_seen = False  # a line naming a variant, as every game does
            number = 0  # counted here: enumerate would keep the line it gave last, with its break, in its result
            for raw in files.bounded_lines(handle, limits.MAX_LINE_BYTES):
                number += 1
                if raw is None:
                    yield Problem(name, number, 1, (), f"expected a line of at most {limits.MAX_LINE_BYTES:,} bytes")
                    game_lines += 1  # a line meant for a game, said wrong already
                    continue
                if number == 1 and raw.startswith(_BOM):
                    raw = raw[len(_BOM) :]
                if not raw.strip():
                    continue
                if first:
                    first = False
                    header = _header(name, number, raw)
                    if isinstance(header, Problem):
                        passed_over = 1
                    if header is not None:
                        if isinstance(header, dict) and "reports" in header:
                            reports = frozenset(header["reports"])
                        yield header
                        continue
                if passed_over:  # judged on every field, or under no name, its games would be judged wrongly
                    passed_over += 1
                    continue
                raw = raw.rstrip(b"\r\n")  # the copy judged, and the only one held while it is
                yield TraceLine(index, name, number, raw, reports)
                index += 1
                game_lines += 1
                games_seen = games_seen or _may_be_a_game(raw)
                if not games_seen and game_lines >= limits.MAX_LINES_WITHOUT_GAME:  # a file given by mistake
                    yield Problem(name, number, 1, (), f"expected games: {game_lines:,} lines of this file, up to this "
                                  "one, name no variant, as every game does; the rest of the file is not read")
                    break
            if not game_lines and not passed_over:  # a file an engine wrote no game to is no trace that passes
                yield Problem(name, 0, 0, (), "expected a game on each line after the header, found no game in this file")
            if passed_over > 1:
                games = passed_over - 1
                yield Problem(name, 1, 1, (), f"{games:,} {'game' if games == 1 else 'games'} of this file not judged: "
                              "expected a header the kit can read (its problem is on this line), or none")


def _may_be_a_game(raw: bytes) -> bool:
    """Whether a line may be a game, as the bytes tell without reading it: every game has the key ``variant``,
    written as it is or, in a line with an escape, perhaps escaped."""
    return _VARIANT_KEY in raw or b"\\u" in raw


def _header(name: str, number: int, raw: bytes) -> Json | Problem | None:
    """The file's header, if its first line is one (a mapping with ``trace``); a problem if it is a bad one."""
    try:
        value = untrusted.json_line(raw, limits.MAX_DEPTH)
    except untrusted.Unreadable as err:
        # A header meant (its key written, and no game's): its games, judged on every field or under no engine's
        # name, would be judged wrongly. Anything else is read again, and reported, as a game.
        if _TRACE_KEY.search(raw) and not _VARIANT_KEY_WRITTEN.search(raw):
            return Problem(name, number, err.column, err.path, f"{err} (the file's header)")
        return None
    if not isinstance(value, dict) or "trace" not in value:
        return None
    found = schemas.explain("trace", value, "/$defs/header", most=1)  # a header's problem is said alone
    if found:
        path, message, about_key = found[0]
        return _problem(name, number, raw, path, message, about_key)
    if problem := declaration_problem(value.get("reports"), "reports"):
        return _problem(name, number, raw, ("reports",), problem)
    return value


def _problem(name: str, number: int, raw: bytes, path: JsonPath, message: str, about_key: bool = False) -> Problem:
    return _located(TraceLine(0, name, number, raw, None), Tally(kept=[(path, message, about_key)])).problems[0]


def _located(line: TraceLine, tally: Tally) -> NoGame:
    """The problems kept of a line, each at its column, the line walked once for them all."""
    found = tally.kept
    columns = json_positions.positions(line.raw.decode("utf-8")).columns([(path, key) for path, _, key in found])
    placed = zip(found, columns, strict=True)
    located = [Problem(line.file, line.number, column, path, message) for (path, message, _), column in placed]
    return NoGame(located, tally.more, tally.counted)


def read_games(line: TraceLine, room: int | None = None) -> tuple[Game, ...] | NoGame:
    """One line read strictly and checked: its game, or a match's deals as games in the order played; or the
    problems of the line (of each deal that has any, for a match), the first ``room`` of them located."""
    try:
        value = untrusted.json_line(line.raw, limits.MAX_DEPTH)
    except untrusted.Unreadable as err:
        return NoGame([Problem(line.file, line.number, err.column, err.path, str(err))])
    if isinstance(value, dict) and "trace" in value and "variant" not in value:  # a header where a game should be
        later = "expected a game or a match, found a header: a trace's header comes first, before its games"
        return NoGame([_problem(line.file, line.number, line.raw, ("trace",), later, True)])
    match = isinstance(value, dict) and "deals" in value and "setup" not in value
    tally = Tally() if room is None else Tally(room)
    most = tally.wanted()
    found = schemas.explain("trace", value, "/$defs/match" if match else "/$defs/game", most=most)
    tally.looked_for([_snapshot_field_named(problem) for problem in found], most)
    if len(tally):
        return _located(line, tally)
    variant_id = value["variant"]
    raw_variants = kit_spec().variants_raw()
    if variant_id not in raw_variants or raw_variants[variant_id][1].get("abstract"):
        named = with_nearest(variant_id, variant_ids())  # the kit's id a newcomer likely meant: altbaumer-standard
        said = f"expected a playable variant of spec/*/variants, found {named}"
        return NoGame([_problem(line.file, line.number, line.raw, ("variant",), said)])
    place = place_of(line.file, line.number)  # unique over the run, as a run log's ids must be
    name = f"{place}#{value['game']}" if "game" in value else place
    # the words true and false in the line: the most flags it can hold (Game.flags_at_most), a match's deals together
    flags = line.raw.count(b"true") + line.raw.count(b"false")
    if not match:
        game = _game(line, variant_id, name, value, (), flags, tally)
        return (game,) if game is not None else _located(line, tally)
    games = [_game(line, variant_id, name, deal, ("deals", n), flags, tally, n + 1) for n, deal in enumerate(value["deals"])]
    return _located(line, tally) if len(tally) else tuple(game for game in games if game is not None)


def _snapshot_field_named(found: Found) -> Found:
    """A key unknown to an observation that is a snapshot field (written beside ``legal``, not in ``snapshot``),
    said so: the schema alone names the keys an observation has."""
    path, message, about_key = found
    if about_key and len(path) >= 3 and path[-3] == "observations" and path[-1] in field_phases.field_keys():
        return path, f"{message} ({path[-1]!r} is a snapshot field: it goes under snapshot)", about_key
    return found


def _game(
    line: TraceLine, variant_id: str, name: str, value: Json, at: JsonPath, flags: int, tally: Tally, deal: int = 0
) -> Game | None:
    """A game line's game, or a match's deal (at ``at`` in the line), checked and its setup expanded; None where it
    has problems, which are added to ``tally``."""
    # 1.0 and 1 are one JSON number, as the schema holds (1.0 is an integer there): the reference takes seats and
    # counts as integers, so a deal or an action written 1.0 is read as written 1
    value["setup"], value["actions"] = _whole_numbers(value["setup"]), _whole_numbers(value["actions"])
    resolved = kit_spec().resolved(variant_id)
    if isinstance(value["setup"], dict) and (turned := turned_problem(value["setup"], resolved)):
        tally.add(((*at, "setup", "turned"), turned, False))
        return None
    setup = expand_setup(value["setup"], resolved)
    most = tally.wanted()
    found = schemas.explain("setup", setup, most=most)
    if found:
        written = written_paths(value["setup"], resolved)
        tally.looked_for([((*at, "setup", *written(p)), m, k) for p, m, k in found], most)
        return None
    observations = tuple(value.get("observations", ()))
    if len(observations) > len(value["actions"]) + 1:
        wanted = f"at most {len(value['actions']) + 1} observations (one after the deal, one per action)"
        tally.add(((*at, "observations"), f"expected {wanted}, found {len(observations)}", False))
        return None
    snapshots = [s for o in observations if type(o) is dict and type(s := o.get("snapshot")) is dict]
    # of each field of named keys (match...), its values that are mappings: gathered once for both checks
    objects = {
        key: [v for s in snapshots if type(v := s.get(key)) is dict] for key, keys in field_phases.field_keys().items()
        if keys is not None
    }  # fmt: skip
    game_of = str(resolved.get("game", ""))
    before = len(tally)
    tally.count(_unknown_fields(game_of, observations, snapshots, objects), lambda key: _unknown_said(game_of, at, key))
    tally.count(seats_and_sides.problems(variant_id, observations, snapshots, objects), lambda f: ((*at, *f[0]), f[1], f[2]))
    if len(tally) > before:
        return None
    actions = tuple(value["actions"])
    return Game(
        line.index, name, line.file, line.number, variant_id, setup, actions, observations, line.reports, flags,
        value["setup"], deal,
    )  # fmt: skip


def _whole_numbers(value: Any) -> Any:
    """The value with each float that is a whole number made an int."""
    if type(value) is float:
        return int(value) if value.is_integer() else value
    if type(value) is dict:
        return {key: _whole_numbers(item) for key, item in value.items()}
    if type(value) is list:
        return [_whole_numbers(item) for item in value]
    return value


# A key that names no field: its path, the key, and the field of named keys it is in (None: the snapshot's own).
Unknown = tuple[JsonPath, str, str | None]


def _unknown_fields(
    game: str, observations: tuple[Json | None, ...], snapshots: list[Json], objects: dict[str, list[Json]]
) -> Iterator[Unknown]:
    """Keys of the observations' snapshots (``snapshots``: those that are mappings; ``objects``: the values of each
    field of named keys that are mappings) that name no snapshot field of ``game`` (``trumps``, ``last_trick.winer``,
    Albastini's ``match.vp`` in Altbaumer): a field misspelt, or another game's, would be compared nowhere, and every
    game pass. Found as they are asked for; what is wrong with each is said by ``_unknown_said``."""
    known = field_phases.field_keys(game)
    # every key of the game at once (the games that name none unknown, nearly all, are read once so), then where
    if set().union(*snapshots) <= known.keys() and all(set().union(*objects[key]) <= keys for key, keys in known.items()
                                                       if keys is not None):  # fmt: skip
        return
    for i, observation in enumerate(observations):
        snapshot = observation.get("snapshot") if isinstance(observation, dict) else None
        if not isinstance(snapshot, dict):
            continue
        for key, value in snapshot.items():
            at: JsonPath = ("observations", i, "snapshot", key)
            if key not in known:
                yield at, str(key), None
                continue
            keys = known[key]
            if keys is not None and isinstance(value, dict):
                yield from (((*at, part), str(part), key) for part in value if part not in keys)


def _unknown_said(game: str, at: JsonPath, unknown: Unknown) -> Found:
    """An unknown key as a problem of its line (``at``: where its game is in the line): its "did you mean" is what
    costs, so only the problems kept are said."""
    path, key, field = unknown
    known = field_phases.field_keys(game)
    keys = known.get(field) if field is not None else None
    message = _unknown(key, known, "a snapshot field") if keys is None else _unknown_part(game, str(field), key, keys)
    return (*at, *path), message, True


def _unknown_part(game: str, field: str, part: str, keys: frozenset[str]) -> str:
    """What is wrong with a key of a field of named keys: a key of another game's (``match.vp`` in Altbaumer), or none."""
    if part in (field_phases.field_keys()[field] or ()):
        return f"expected a key of {field} in {game}, found {part!r}, a key of another game's {field}"
    return _unknown(part, keys, f"a key of {field}")


def _unknown(key: str, known: Iterable[str], what: str) -> str:
    close = difflib.get_close_matches(key, list(known), n=1)
    return f"expected {what}, found {key!r}" + (f" (did you mean {close[0]!r}?)" if close else "")


def place_of(file: str, number: int) -> str:
    """A game's place: its file and line, which a game's name starts with."""
    return f"{file}:{number}"


def own_name(name: str, file: str, number: int) -> str | None:
    """The game's own name, given after its place and a # in its name (``Game.name``), if it has one."""
    rest = name[len(place_of(file, number)):]
    return rest[1:] if rest.startswith("#") else None
