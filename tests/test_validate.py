"""`trickspec validate`: schema and cross-file problems, one located line each, exit 2."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.run import runlog
from specreader.problems import Problem

ROOT = Path(__file__).resolve().parents[1]
LOCATED = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<path>\$\S*): (?P<msg>.+)$")

Write = Callable[[str, str], Path]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    code = main(["validate", *args])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, [line for line in err.splitlines() if not line.endswith("problem(s)")]


def test_the_kit_is_valid(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate"]) == 0
    assert capsys.readouterr().out.startswith("valid")


VARIANT = """\
id: {id}
title: Test variant
extends: {parent}
"""


def test_extends_cycle(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    a = write("variants/a.yaml", VARIANT.format(id="cycle-a", parent="cycle-b"))
    write("variants/b.yaml", VARIANT.format(id="cycle-b", parent="cycle-a"))
    code, lines = run(capsys, str(a.parent))
    assert code == 2
    assert any("extends cycle" in line and LOCATED.match(line) for line in lines)


def test_unknown_parent_and_incomplete_variant(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    lonely = write("variants/lonely.yaml", "id: lonely\ntitle: Alone\nextends: no-such-variant\n")
    bare = write("variants/bare.yaml", "id: bare\ntitle: Bare\ngame: albastini\n")
    code, lines = run(capsys, str(lonely), str(bare))
    assert code == 2
    assert f"{lonely}:3:10: $.extends: unknown variant 'no-such-variant'" in "\n".join(lines)
    assert any(line.startswith(f"{bare}:1:1: $: after inheritance: missing required key 'players', 'sides'") for line in lines)


def test_unknown_keys_wrong_types_and_bad_cards(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(
        "variants/typo.yaml",
        "id: typo\ntitle: Typo\nextends: albastini-4p\nplayer: 4\ndeal: {hand_size: five}\n"
        "ranking: {top_trumps: [10H, XS, no]}\n",
    )
    code, lines = run(capsys, str(path))
    assert code == 2
    text = "\n".join(lines)
    assert f"{path}:4:1: $.player: unknown key 'player'" in text
    assert f'{path}:5:19: $.deal.hand_size: expected integer, found string "five"' in text
    for column, card in ((24, "10H"), (29, "XS"), (33, "no")):
        assert f"{path}:6:{column}: $.ranking.top_trumps[" in text and f'found string "{card}"' in text
    assert all(LOCATED.match(line) for line in lines)


def test_a_scenario_file_files_its_page_under_a_section_of_its_game(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    kit = Path(__file__).resolve().parents[1] / "scenarios" / "albastini" / "trick" / "anna-boris.yaml"
    good = kit.read_text(encoding="utf-8")
    assert "\nsection: play\n" in good
    moved = good.replace("\nsection: play\n", "\nsection: trump\n").replace("/anna-boris-", "/copy-of-anna-boris-")
    path = write("scenarios/anna-boris.yaml", moved)
    code, lines = run(capsys, str(path))
    assert code == 2 and len(lines) == 1
    assert lines[0].startswith(f"{path}:5:10: $.section: expected a section of albastini's clauses: cards, players, ")
    assert lines[0].endswith("; found 'trump'")  # Altbaumer's, not Albastini's


def test_deck_tables_must_cover_the_deck(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(
        "variants/short.yaml",
        "id: short-ranks\ntitle: Short\nextends: albastini-4p\nranking: {plain_order: A 7 K J Q 6 5 4}\n"
        "deck: {ranks: A 7 K J Q T 6 5 4 3}\n",
    )
    code, lines = run(capsys, str(path))
    assert code == 2
    text = "\n".join(lines)
    assert "$.ranking.plain_order: expected an order of exactly the deck's ranks" in text
    assert "$.values: expected a value for every rank of the deck, missing T" in text


def ruling_r99(second_source: str, clause: str) -> str:
    """A rulings file of one ruling, R99: its second reading cites ``second_source``, and it settles ``clause``."""
    return (
        "game: albastini\nrulings:\n  - id: R99\n    title: T\n    question: Q\n    readings:\n"
        f"      - {{summary: one, sources: [pagat]}}\n      - {{summary: two, sources: [{second_source}]}}\n"
        f"    decision: D\n    clauses: [{clause}]\n"
    )


def test_undefined_clause_reference_in_a_ruling(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    path = write("rulings.yaml", ruling_r99("nowhere", "albastini.play.no-such-clause"))
    code, lines = run(capsys, str(path))
    assert code == 2
    text = "\n".join(lines)
    assert f"{path}:10:15: $.rulings[0].clauses[0]: unknown clause 'albastini.play.no-such-clause'" in text
    assert f"{path}:8:34: $.rulings[0].readings[1].sources[0]: unknown source 'nowhere'" in text


def test_a_ruling_and_the_clauses_it_settles_name_each_other(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    """A ruling lists the clauses it settles and each names the ruling back (the rules site shows both): one
    without the other is a problem, at the side that names."""
    rulings = write("rulings.yaml", ruling_r99("pagat", "albastini.deal.five-each"))
    code, lines = run(capsys, str(rulings))
    assert code == 2
    assert f"{rulings}:10:15: $.rulings[0].clauses[0]: clause 'albastini.deal.five-each' does not name ruling 'R99': " \
        "expected it in its rulings" in lines
    clauses = write(
        "clauses.yaml",
        "game: albastini\nclauses:\n  - id: albastini.deal.one-more\n    title: T\n    section: deal\n"
        "    text: A dealer MUST deal.\n    sources: [pagat]\n    rulings: [R3]\n",
    )
    code, lines = run(capsys, str(clauses))
    assert code == 2
    assert f"{clauses}:8:15: $.clauses[0].rulings[0]: ruling 'R3' does not list clause 'albastini.deal.one-more': " \
        "expected it in its clauses" in lines


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (b"a: [1, 2\n", "invalid YAML"),
        (b"", "found an empty file"),
        (b"\x00\x01\x02binary", "binary data"),
        (b"id: x\nid: y\n", "duplicate key 'id'"),
    ],
)
def test_malformed_files(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, fragment: str) -> None:
    path = tmp_path / "variants" / "bad.yaml"
    path.parent.mkdir()
    path.write_bytes(content)
    code, lines = run(capsys, str(path))
    assert code == 2
    assert any(fragment in line and line.startswith(str(path)) for line in lines)


def test_ten_megabyte_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("scenarios:\n" + "# padding\n" * (1024 * 1024), encoding="utf-8")
    code, lines = run(capsys, str(path))
    assert code == 2
    assert lines == [f"{path}:1:1: $: expected a YAML file of at most 2 MiB, found 10.0 MiB"]


def test_missing_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = run(capsys, str(tmp_path / "nowhere.yaml"))
    assert code == 2
    assert lines == [f"{tmp_path / 'nowhere.yaml'}: no such file or directory"]


def test_every_problem_in_one_run(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    one = write("variants/one.yaml", "id: one\ntitle: One\nextends: albastini-2p\nplayers: two\n")
    two = write("variants/two.yaml", "id: two\ntitle: Two\nextends: albastini-2p\ndirection: sideways\n")
    code, lines = run(capsys, str(one), str(two))
    assert code == 2
    assert f'{one}:4:10: $.players: expected integer, found string "two"' in lines
    assert f'{two}:4:12: $.direction: expected one of anticlockwise, clockwise, found string "sideways"' in lines


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("variants/listed.yaml", "- id: listed\n", '1:1: $: expected mapping, found array [{"id": "listed"}]'),
        ("variants/word.yaml", "albastini\n", '1:1: $: expected mapping, found string "albastini"'),
        ("scenario.yaml", "- a\n- b\n", '1:1: $: expected mapping, found array ["a", "b"]'),
        (
            "steps.yaml",
            "variant: albastini-2p\nscenarios:\n  - {id: a/b/c, title: T, clauses: [albastini.play.trick-winner],"
            " source: pagat, setup: {dealer: 0}, steps: play}\n",
            '3:109: $.scenarios[0].steps: expected array, found string "play"',
        ),
        (
            "variants/parts.yaml",
            "id: parts\ntitle: P\nextends: albastini-2p\ncomponents: [trump, score]\n",
            '4:13: $.components: expected mapping, found array ["trump", "score"]',
        ),
        ("variants/me.yaml", "id: me\ntitle: Me\nextends: me\n", "3:10: $.extends: extends cycle through me -> me"),
        (
            "clauses.yaml",
            "game: albastini\ntitle: T\nsections: []\nclauses: 7\n",
            "4:10: $.clauses: expected array, found integer 7",
        ),
        (  # a choice of keys met by neither is one problem naming both
            "clauses.yaml",
            "game: albastini\ntitle: T\nsections: [{id: deal, title: D}]\n"
            "clauses:\n  - {id: albastini.deal.x, title: X, section: deal, sources: [pagat]}\n",
            "5:5: $.clauses[0]: missing required key: expected 'text' or 'engine_note'",
        ),
        (
            "sources.yaml",
            "sources:\n  - {key: k, title: T, kind: account, games: [albastini]}\n",
            "2:5: $.sources[0]: missing required key: expected 'author' or 'publisher'",
        ),
    ],
)
def test_wrong_shapes_are_located(write: Write, capsys: pytest.CaptureFixture[str], name: str, text: str,
                                  expected: str) -> None:
    path = write(name, text)
    code, lines = run(capsys, str(path))
    assert code == 2
    assert any(line.startswith(f"{path}:{expected}") for line in lines), lines
    assert all(LOCATED.match(line) for line in lines)


def test_a_choice_between_sets_of_keys_names_each_set(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    """A setup gives a deck, or hands and a stock: the keys of each way are named together, never as three ways."""
    path = write(
        "scenarios/s.yaml",
        "variant: albastini-2p\nscenarios:\n  - id: t/t/x\n    title: T\n    clauses: [albastini.play.trick-winner]\n"
        "    source: {derived: x}\n    setup: {dealer: 0}\n    steps: [{expect: {phase: play}}]\n",
    )
    code, lines = run(capsys, str(path))
    assert code == 2
    assert f"{path}:7:12: $.scenarios[0].setup: missing required key 'deck'" in lines
    assert f"{path}:7:12: $.scenarios[0].setup: missing required key 'hands', 'stock'" in lines
    assert not [line for line in lines if "missing required key: expected" in line]


def test_every_unknown_key_is_named(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    path = write("variants/keys.yaml", "id: keys\ntitle: K\nextends: albastini-2p\nplayer: 2\ncolour: red\n")
    code, lines = run(capsys, str(path))
    assert code == 2
    assert f"{path}:4:1: $.player: unknown key 'player'" in "\n".join(lines)
    assert f"{path}:5:1: $.colour: unknown key 'colour'" in "\n".join(lines)


def test_mistyped_references_are_schema_problems_not_crashes(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    clauses = write(
        "clauses.yaml",
        "game: albastini\ntitle: T\nsections: [{id: [x], title: y}]\nclauses:\n"
        "  - {id: [a], title: T, section: {a: 1}, text: t MUST, sources: 7, rulings: [[R1]], refuses_with: 5, variants: [[v]]}\n"
        "  - {title: T, section: play, text: t MUST, sources: [pagat]}\n"
        "  - {title: T, section: play, text: t MUST, sources: [pagat]}\n",
    )
    rulings = write(
        "rulings.yaml",
        "game: albastini\nrulings:\n  - id: [R99]\n    title: T\n    question: Q\n"
        "    readings: [{summary: one, sources: 7}, {summary: two, sources: [[x]]}]\n"
        "    errata: [{source: [x], says: s, why: w}]\n    decision: D\n    clauses: [[albastini.play.x]]\n",
    )
    code, lines = run(capsys, str(clauses), str(rulings))
    assert code == 2
    text = "\n".join(lines)
    for expected in (
        f'{clauses}:5:10: $.clauses[0].id: expected string, found array ["a"]',
        f"{clauses}:5:65: $.clauses[0].sources: expected array, found integer 7",
        f"{clauses}:6:5: $.clauses[1]: missing required key 'id'",
        f'{rulings}:9:15: $.rulings[0].clauses[0]: expected string, found array ["albastini.play.x"]',
        f"{rulings}:6:40: $.rulings[0].readings[0].sources: expected array, found integer 7",
    ):
        assert expected in text
    assert "duplicate" not in text  # two clauses without an id do not share the id None
    assert all(LOCATED.match(line) for line in lines)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("deck: [a]\n", '4:7: $.deck: expected mapping, found array ["a"]'),
        ("ranking: 7\ndeal: 7\n", "4:10: $.ranking: expected mapping, found integer 7"),
        ("sides: [[0], 7]\n", "4:14: $.sides[1]: expected array, found integer 7"),
        ("sides: [[0, x], [1]]\n", '4:13: $.sides[0][1]: expected integer, found string "x"'),
        ("sources: 7\n", "4:10: $.sources: expected array, found integer 7"),
        ("values: 3\n", "4:9: $.values: expected mapping, found integer 3"),
    ],
)
def test_mistyped_deck_tables_are_located(write: Write, capsys: pytest.CaptureFixture[str], text: str, expected: str) -> None:
    path = write("variants/odd.yaml", "id: odd\ntitle: Odd\nextends: albastini-2p\n" + text)
    code, lines = run(capsys, str(path))
    assert code == 2
    assert f"{path}:{expected}" in lines
    assert not any(":1:1:" in line for line in lines)  # no cascade of complaints about a deck that is not there


def test_unknown_parent_is_located_at_its_own_item(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    path = write("variants/mixed.yaml", "id: mixed\ntitle: Mixed\nextends: [7, no-such-variant]\n")
    code, lines = run(capsys, str(path))
    assert code == 2
    assert f"{path}:3:11: $.extends[0]: expected string, found integer 7" in lines
    assert f"{path}:3:14: $.extends[1]: unknown variant 'no-such-variant': expected the id of another variant file" in lines


HOUSE_VARIANT = "id: club-2p\ntitle: Our club's two-player table\nextends: albastini-2p\n"
HOUSE_SCENARIO = """\
variant: club-2p
scenarios:
  - id: club/deal/hands-dealt
    title: Five each
    clauses: [albastini.deal.five-each]
    source: {derived: a test}
    setup: {dealer: 1, deck: [rest]}
    steps: [{expect: {phase: bidding}}]
"""


@pytest.mark.parametrize("hint", ["", "# yaml-language-server: $schema=https://trickspec.dev/schemas/variant.schema.json\n"])
def test_a_variant_is_known_by_its_content_in_any_folder(write: Write, capsys: pytest.CaptureFixture[str],
                                                         hint: str) -> None:
    variant = write("house/club.yaml", hint + HOUSE_VARIANT)
    scenario = write("house/tests.yaml", HOUSE_SCENARIO)
    code, lines = run(capsys, str(variant.parent))
    assert code == 0, lines
    code, lines = run(capsys, str(scenario))  # without the variant file, its id is unknown
    assert code == 2 and f"{scenario}:1:10: $.variant: unknown variant 'club-2p': expected an id from spec/*/variants" in lines


def test_a_scenario_file_in_a_folder_named_variants_is_a_scenario_file(write: Write,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    write("house/variants/club.yaml", HOUSE_VARIANT)
    scenario = write("house/variants/tests.yaml", HOUSE_SCENARIO.replace("dealer: 1, deck", "dealer: 7, deck"))
    code, lines = run(capsys, str(scenario.parent))
    assert code == 2
    assert any(line.startswith(f"{scenario}:7:21: $.scenarios[0].setup.dealer: expected at most 5") for line in lines), lines


def test_the_schema_hint_names_the_kind_over_the_content(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    hinted = write("house/odd.yaml", "# yaml-language-server: $schema=../schemas/variant.schema.json\nscenarios: []\n")
    code, lines = run(capsys, str(hinted))
    assert code == 2 and any(line.startswith(f"{hinted}:2:1: $: missing required key 'id'") for line in lines), lines


def test_a_file_name_a_terminal_would_act_on_is_shown_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file's name is data too: one holding an escape, a bell or a bidi control is shown escaped in every
    problem line; a name in any script that is printable is shown as it is."""
    hostile = tmp_path / "x\x1b]0;pwned\x07\u202ey.yaml"
    hostile.write_text("scenarios:\n  - id: x\n", encoding="utf-8")
    code, lines = run(capsys, str(hostile))
    assert code == 2 and lines
    assert all(line.startswith(f"{tmp_path}/x\\x1b]0;pwned\\x07\\u202ey.yaml:") for line in lines)
    assert not any(ord(c) < 32 or c == "\u202e" for c in "".join(lines))
    # a name in a message too (a duplicate id says where it was first), and only what a terminal would act on
    assert str(Problem("a.yaml", 2, 3, (), "first at b\x1b[7m.yaml:6")) == "a.yaml:2:3: $: first at b\\x1b[7m.yaml:6"
    plain = tmp_path / "Spiel-für-vier.yaml"
    plain.write_text("scenarios:\n  - id: x\n", encoding="utf-8")
    assert all(line.startswith(f"{plain}:") for line in run(capsys, str(plain))[1])


def test_a_spec_file_off_the_layout_is_reported_not_taken_in(kit_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """spec/'s layout says what each file is: a variant deeper than <game>/variants/ or a clauses file deeper than
    <game>/ is reported, and what it declares is not in the spec."""
    spec = kit_copy / "spec"
    deeper = spec / "albastini" / "old" / "variants" / "kept.yaml"
    deeper.parent.mkdir(parents=True)
    deeper.write_text("id: albastini-kept\ntitle: Kept\nextends: albastini-4p\n", encoding="utf-8")
    clauses = spec / "albastini" / "old" / "clauses.yaml"
    clauses.write_text((spec / "bisca" / "clauses.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    code, lines = run(capsys)
    assert code == 2
    for path in (deeper, clauses):
        assert f"{path}:1:1: $: unexpected file in spec/: expected sources.yaml, refusals.yaml, " in "\n".join(lines)
    assert len(lines) == 2  # nothing they declare is taken in (no clause or variant twice)


def test_an_expectation_file_is_checked_by_its_schema_and_against_the_scenarios(
    write: Write, capsys: pytest.CaptureFixture[str]
) -> None:
    """An engine's expectation file is validated as --expect reads it, known by its hint or its keys wherever it is,
    and each entry must name a scenario a run takes."""
    good = write("mine/known.yaml", "engine: mine\nspec_version: '0.0.1'\nexpectations:\n"
                 "- id: briscola/play/sixty-one-wins\n  outcome: fail\n  reason: no points scored\n")
    assert run(capsys, str(good)) == (0, [])
    bad = write("mine/failures.yaml", "# yaml-language-server: $schema=../../schemas/expectations.schema.json\n"
                "engine: mine\nspec_version: '0.0.1'\nexpectations:\n"
                "- id: briscola/play/sixty-one-wins\n  outcome: fial\n  reason: r\n")
    assert run(capsys, str(bad)) == (2, [f"{bad}:6:12: $.expectations[0].outcome: expected one of skipped, fail, error,"
                                         " timeout, found string \"fial\""])
    unknown = write("mine/unknown.yaml", "engine: mine\nspec_version: '0.0.1'\nexpectations:\n"
                    "- id: briscola/play/sixty-one-wins\n  outcome: fail\n  reason: r\n"
                    "- id: briscola/play/sixty-two\n  outcome: skipped\n  reason: r\n")
    assert run(capsys, str(unknown)) == (2, [
        f"{unknown}:7:7: $.expectations[1].id: expected the id of a scenario a run takes; found 'briscola/play/sixty-two',"
        f" which no scenario has (the file was written for spec '0.0.1', this is {runlog.spec_version()!r})"
    ])
    current = write("mine/current.yaml", f"engine: mine\nspec_version: '{runlog.spec_version()}'\nexpectations:\n"
                    "- id: briscola/play/sixty-two\n  outcome: skipped\n  reason: r\n")
    assert run(capsys, str(current)) == (2, [  # written for this spec: no version to blame
        f"{current}:4:7: $.expectations[0].id: expected the id of a scenario a run takes; found 'briscola/play/sixty-two',"
        " which no scenario has"
    ])
    known_only = write("mine/known-only.yaml", "known:\n- {variant: briscola-2p, field: dealer, reason: kept nowhere}\n")
    assert run(capsys, str(known_only)) == (2, [  # known by its key: no scenario file missing its scenarios
        f"{known_only}:1:1: $: missing required key 'engine', 'spec_version', 'expectations'"
    ])
    misspelt = write("mine/misspelt.yaml", "engine: mine\nspec_version: '0.0.1'\nexpectations: []\nknown:\n"
                     "- {variant: briscola-2p, field: trumps, reason: r}\n- {variant: nosuch-9p, field: dealer, reason: r}\n")
    assert run(capsys, str(misspelt)) == (2, [  # a name misspelt would leave the field compared
        f"{misspelt}:5:33: $.known[0].field: expected a snapshot field (or legal), found 'trumps'",
        f"{misspelt}:6:13: $.known[1].variant: expected a variant id, found 'nosuch-9p'",
    ])
    twice = write("mine/twice.yaml", "engine: mine\nspec_version: '0.0.1'\nexpectations:\n"
                  + "- id: briscola/play/sixty-one-wins\n  outcome: fail\n  reason: r\n" * 2)
    code, lines = run(capsys, str(twice))
    assert code == 2 and lines == [f"{twice}:7:7: $.expectations[1].id: duplicate id 'briscola/play/sixty-one-wins':"
                                   " expected one entry per scenario (first at line 4)"]


@pytest.mark.parametrize("engine", ["libbisca", "naipes", "briscola-gym"])
def test_the_published_engines_expectation_files_are_valid(engine: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, str(ROOT / "examples" / engine / "expectations.yaml")) == (0, [])


def test_an_expectation_file_names_the_house_scenarios_a_run_takes_and_in_a_scenarios_folder_is_a_scenario_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With house scenario folders a run takes their scenarios, not the kit's, so an expectation file names those;
    and as verify reads every YAML file of a scenarios folder as scenarios, one lying there is checked as one."""
    import shutil

    club = tmp_path / "club"
    shutil.copytree(ROOT / "examples" / "house-rules", club)
    folders = ("--spec", str(club / "spec"), "--scenarios", str(club / "scenarios"))
    entry = "engine: mine\nspec_version: '0.0.1'\nexpectations:\n- id: {}\n  outcome: fail\n  reason: r\n"
    house = tmp_path / "house.yaml"
    house.write_text(entry.format("baobab/over-90/ninety-one-wins-three"), encoding="utf-8")
    assert run(capsys, *folders, str(house)) == (0, [])
    kit = tmp_path / "kit.yaml"
    kit.write_text(entry.format("briscola/play/sixty-one-wins"), encoding="utf-8")
    code, lines = run(capsys, *folders, str(kit))
    assert code == 2 and len(lines) == 1  # the kit's scenario is none a run with house scenarios takes
    assert lines[0].startswith(f"{kit}:4:7: $.expectations[0].id: expected the id of a scenario a run takes; found"
                               " 'briscola/play/sixty-one-wins', which no scenario has (the file was written for spec")
    inside = club / "scenarios" / "expectations.yaml"
    shutil.copy(house, inside)
    code, lines = run(capsys, *folders)
    assert code == 2 and lines and all(line.startswith(f"{inside}:") for line in lines)
    assert any("missing required key 'scenarios'" in line for line in lines)


def test_a_trace_or_run_log_given_to_validate_is_pointed_at_its_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = tmp_path / "games.jsonl"
    trace.write_text('{"variant": "briscola-2p"}\n', encoding="utf-8")
    code, lines = run(capsys, str(trace))
    assert code == 2
    assert lines == [f"{trace}: expected a YAML file of the kit (spec, scenarios, expectations); a trace of an engine's"
                     " games is read by trickspec check-trace, a run log by trickspec report"]  # fmt: skip


def test_a_folder_with_nothing_to_check_is_no_valid_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An empty --out folder of fuzz or check-trace is said to be empty, as verify says no scenario matches."""
    empty = tmp_path / "found"
    empty.mkdir()
    for args in ([str(empty)], ["--scenarios", str(empty)]):
        assert main(["validate", *args]) == 2
        assert f"{empty}: expected YAML files in this folder, found none" in capsys.readouterr().err


def test_an_erratums_tables_are_named_by_parameters_of_the_game(kit_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rulings = kit_copy / "spec" / "albastini" / "rulings.yaml"
    text = rulings.read_text(encoding="utf-8")
    condition = "          direction: anticlockwise\n"
    assert condition in text
    rulings.write_text(text.replace(condition, condition.replace("direction", "directoin")), encoding="utf-8")
    code, lines = run(capsys)
    assert code == 2
    assert len(lines) == 1 and lines[0].endswith(
        "differs_when.directoin: expected a parameter path present in a albastini variant, found 'directoin'"
    ), lines


def test_an_erratums_tables_are_named_by_values_the_parameters_take(
    kit_copy: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A value misspelt in ``differs_when`` matches no table, and the erratum's mark would vanish from every page
    unseen: validate names the values the variant schema allows there, at the value's line."""
    rulings = kit_copy / "spec" / "albastini" / "rulings.yaml"
    text = rulings.read_text(encoding="utf-8")
    direction, players = "          direction: anticlockwise\n", "          players: {min: 3}\n"
    assert direction in text and players in text
    line = text[: text.index(direction)].count("\n") + 1
    wrong = text.replace(direction, "          direction: clockwize\n").replace(players, "          players: {min: 30}\n")
    rulings.write_text(wrong, encoding="utf-8")
    code, lines = run(capsys)
    assert code == 2
    assert lines == [
        f"{rulings}:{line}:22: $.rulings[5].errata[0].differs_when.direction: expected one of anticlockwise, clockwise,"
        ' found string "clockwize"',
        f"{rulings}:{line + 1}:26: $.rulings[5].errata[0].differs_when.players.min: expected at most 6, found integer 30",
    ], lines


def test_the_order_of_the_games_names_each_game_of_the_spec_once(kit_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = kit_copy / "spec" / "games.yaml"
    listed = ["albastini", "altbaumer", "briscola", "basta", "Bisca", "altbaumer"]
    games.write_text("games:\n" + "".join(f"  - {game}\n" for game in listed), encoding="utf-8")
    code, lines = run(capsys)
    assert code == 2
    assert lines == [
        f'{games}:2:3: $.games: expected each item once, found more than once: "altbaumer"',
        f"{games}:2:3: $.games: expected every game of the spec, found 'bisca' left out",
        f"{games}:5:5: $.games[3]: unknown game 'basta': expected one of albastini, altbaumer, bisca, briscola",
        f'{games}:6:5: $.games[4]: expected a string matching ^[a-z][a-z0-9]*$, found string "Bisca"',
    ], lines


def test_the_order_of_the_games_is_required(kit_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = kit_copy / "spec" / "games.yaml"
    games.unlink()
    code, lines = run(capsys)
    assert code == 2
    assert lines == [f"{games}: missing: the order of the games is required"], lines


def test_an_order_of_the_games_is_known_by_its_content_in_any_folder(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    path = write("site/order.yaml", "games: [albastini, altbaumer, bisca]\n")
    code, lines = run(capsys, str(path))
    assert code == 2
    assert lines == [f"{path}:1:8: $.games: expected every game of the spec, found 'briscola' left out"], lines


def test_an_ndoa_names_two_ranks_of_the_deck(write: Write, capsys: pytest.CaptureFixture[str]) -> None:
    path = write("variants/ndoa.yaml", "id: ndoa\ntitle: Ndoa\nextends: albastini-4p\nranking: {ndoa: A 2}\n")
    code, lines = run(capsys, str(path))
    assert code == 2
    assert f"{path}:4:17: $.ranking.ndoa: expected two different ranks of the deck's A 7 K J Q 6 5 4 3, found A 2" in lines
