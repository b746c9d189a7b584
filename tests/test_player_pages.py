"""What players read: the project's rulings marked where the page follows one, and the card that won each trick."""

from __future__ import annotations

import re

import pytest

import rulesite
from rulesite.shortcodes import expand_shortcodes


def test_a_ruling_note_links_the_ruling_and_gives_the_other_reading(site_data: rulesite.SiteData) -> None:
    said = expand_shortcodes("[[ruling: R6]]", site_data, "play/albastini.md")
    assert said.startswith("Our ruling [R6 Who draws the indicator](../rulings.md#R6): one account says otherwise (")
    # the erratum is the kit's paraphrase, not in quotes; the account's own words in it are
    assert "otherwise (The last card of the stock" in said and said.rstrip().endswith("{: .ruling-note }")
    assert "this page follows the ruling" in said and "seated \u201cto the right of whoever wins\u201d that" in said
    assert "the accounts read this three ways" in expand_shortcodes("[[ruling: R3]]", site_data, "play/albastini.md")
    # Altbaumer has one account: its readings are of that one text, no disagreement between accounts
    assert "the account can be read two ways" in expand_shortcodes("[[ruling: R9]]", site_data, "play/altbaumer.md")
    with pytest.raises(ValueError, match="expected a ruling id"):
        expand_shortcodes("[[ruling: R99]]", site_data, "play/albastini.md")


def test_the_how_to_play_pages_mark_the_rulings_they_follow(site_data: rulesite.SiteData) -> None:
    written = rulesite.hand_written_pages()
    for page, rulings in (("play/albastini.md", ("R3", "R6")), ("play/altbaumer.md", ("R9", "R10"))):
        shown = expand_shortcodes(written[page], site_data, page)
        for rid in rulings:
            assert f"Our ruling [{rid} " in shown, (page, rid)


@pytest.mark.parametrize("game", ["albastini", "altbaumer", "briscola", "bisca"])
def test_each_trick_of_a_walkthrough_marks_its_winning_card(site_data: rulesite.SiteData, game: str) -> None:
    shown = expand_shortcodes(f"[[walkthrough: {game}]]", site_data, f"play/{game}.md")
    tricks = shown.split("### Trick ")[1:]
    assert tricks
    for trick in tricks:
        played = trick.split("wins the trick")[0]
        winner = played.rsplit("\n", 1)[-1].strip()  # "South wins the trick": the name before it
        assert played.count("labelled--won") == 1, trick[:200]
        assert f">{winner}, wins</span>" in played, (winner, trick[:300])


def test_example_headings_say_cards_as_players_write_them(site_pages: dict[str, str]) -> None:
    from rulesite.cards import in_symbols

    assert in_symbols("AC beats the led 7C, TD stays; AS high, ASK no card") == (
        "A♣\ufe0e beats the led 7♣\ufe0e, 10♦\ufe0e stays; A♠\ufe0e high, ASK no card"
    )
    headings = [line for page, text in site_pages.items() if page.startswith("examples/")
                for line in text.splitlines() if line.startswith("## ")]  # fmt: skip
    assert len(headings) > 300
    coded = [h for h in headings if re.search(r"\b[AKQJT2-9][CDHS]\b", h.split(" {:")[0].split(" {#")[0])]
    assert not coded, coded[:5]


def test_the_first_dealer_and_the_shuffle_are_said_where_players_read_in_the_clauses_words(
    site_data: rulesite.SiteData,
) -> None:
    """Albastini leaves the first dealer to the table and has the dealer shuffle: the how-to-play page and every
    print sheet say so, in the words of the clause (changed in the clause, changed on the pages)."""
    import copy

    from rulesite import paths, summary_pages
    from rulesite.escaping import md, said_plainly

    said = md(said_plainly(site_data.clauses["albastini.deal.first-dealer"]["text"]))
    assert "in any way the table likes" in said and "shuffles" in said
    written = rulesite.hand_written_pages()["play/albastini.md"]
    play = expand_shortcodes(written, site_data, "play/albastini.md")
    assert said in play and play.index(said) > play.index("## The deal")
    assert "six play as three pairs, partners again sitting opposite" in " ".join(written.split())
    sheets = summary_pages.summary_pages("albastini", site_data)
    for sheet in summary_pages.sheets("albastini", site_data):
        assert f"- **First dealer:** {said}" in sheets[sheet.path], sheet.path
    changed = copy.copy(site_data)
    changed.clauses = {**site_data.clauses}
    changed.clauses["albastini.deal.first-dealer"] = {**site_data.clauses["albastini.deal.first-dealer"], "text": "Cut for it."}
    four = summary_pages.summary_pages("albastini", changed)[paths.table_summary_path("albastini", 4)]
    assert "- **First dealer:** Cut for it\\." in four
    assert expand_shortcodes("[[rule: albastini.deal.first-dealer]]", changed, "play/albastini.md") == "Cut for it\\."
    with pytest.raises(ValueError, match="expected the id of a clause with text"):
        expand_shortcodes("[[rule: albastini.deal.deck-order]]", site_data, "play/albastini.md")


def test_a_ruleset_page_says_the_first_dealer_and_the_shuffle_once_in_its_rules(
    site_data: rulesite.SiteData, site_pages: dict[str, str]
) -> None:
    """The clause leaving the first dealer to the table is a rule of every Albastini ruleset, said whole in the
    page's list of rules under its title: "At this table", which says what the table's parameters make of the
    game, does not say it again. A sheet, which has no list of rules, keeps it (the test above)."""
    from rulesite import paths
    from rulesite.escaping import md, said_plainly

    said = md(said_plainly(site_data.clauses["albastini.deal.first-dealer"]["text"]))
    for vid in site_data.playable_variants("albastini"):
        page = site_pages[paths.variant_rules_path(vid)]
        assert page.count("the dealer shuffles the pack") == 1, vid
        rules = page.index("## Every rule")
        assert page.index(said) > rules and "| First dealer |" not in page[:rules], vid


def test_a_clause_is_said_to_players_one_way_stated_once(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    """The ruleset pages and ``[[rule: ID]]`` say a clause's text as players read it through one helper, so the
    two cannot drift apart."""
    from pathlib import Path

    from rulesite import paths
    from rulesite.links import PageLinks

    site = Path(rulesite.__file__).parent
    files = (*site.glob("*.py"), *site.glob("templates/*.j2"))
    stated = [p.name for p in files for _ in range(p.read_text("utf-8").count("prose(said_plainly("))]
    assert stated == ["links.py"], "say a clause to players with PageLinks.rule_text"
    clause = site_data.clauses["albastini.deal.first-dealer"]
    page = paths.variant_rules_path("albastini-4p")
    said = PageLinks(page, site_data).rule_text(clause)
    assert said in site_pages[page] and said == expand_shortcodes(f"[[rule: {clause['id']}]]", site_data, page)


_CODE = re.compile(r"\b[AKQJT2-9][CDHS]\b")


def test_a_table_drawing_names_its_cards_in_words(site_data: rulesite.SiteData) -> None:
    """A screen reader hears the table as players say it ("indicator six of diamonds"), never an engine's code."""
    labels = {}
    for game in site_data.deals:
        drawn = expand_shortcodes(f"[[table: {game}]] [[walkthrough: {game}]]", site_data, f"play/{game}.md")
        labels[game] = re.findall(r'<figure class="table-drawing[^"]*" role="group" aria-label="([^"]*)"', drawn)
    assert all(labels.values())
    assert any(label.endswith("stock of 16, indicator six of diamonds.") for label in labels["albastini"])
    assert any(label.endswith(", indicator seven of clubs.") for label in labels["briscola"])
    coded = [label for said in labels.values() for label in said if _CODE.search(label)]
    assert not coded


def test_a_card_s_tooltip_gives_its_code_only_where_engines_read(
    site_data: rulesite.SiteData, site_pages: dict[str, str]
) -> None:
    """Players see a card's name in its tooltip; the pages for engine authors, who write cards as codes (the
    worked examples, the reference, the guides, a game's specification), add the code."""
    for page in ("play/albastini.md", "index.md", "rules/albastini-4p.md"):
        assert 'title="ten of spades"' in expand_shortcodes("[[cards: TS]] [[show: Anna:TS]]", site_data, page)
    for page in ("guide/adapter.md", "examples/index.md", "reference/fields.md", "rules/albastini.md"):
        shown = expand_shortcodes("[[cards: TS]] [[show: Anna:TS]]", site_data, page)
        assert shown.count('title="ten of spades (TS)"') == 2
    titles = re.compile(r'class="card card--[^"]*" role="img" aria-label="[^"]*" title="([^"]*)"')
    specifications = {f"rules/{game}.md" for game in ("albastini", "altbaumer", "briscola", "bisca")}
    assert any(_CODE.search(t) for page in specifications for t in titles.findall(site_pages[page]))
    written = rulesite.hand_written_pages()
    for page in ("play/albastini.md", "play/briscola.md"):
        shown = titles.findall(expand_shortcodes(written[page], site_data, page))
        assert shown and not [t for t in shown if _CODE.search(t)], page
    for page, text in site_pages.items():
        shown = titles.findall(text)
        if not shown:
            continue
        with_code = [t for t in shown if _CODE.search(t)]
        if page.startswith("examples/"):
            assert len(with_code) == len(shown), page
        else:
            assert not with_code or page.startswith("reference/") or page in specifications, (page, with_code[:3])


def test_a_ruling_note_counts_rival_readings_of_one_question_only(
    site_data: rulesite.SiteData, site_pages: dict[str, str]
) -> None:
    """R10's readings answer two questions (who is dealt first, two rival readings; the cut, one), R11's six
    answer four: questions left open, not ways of reading one rule. R5's third reading is an account's silence,
    no way of reading it: the full and French accounts read the look two ways."""
    import copy

    def said(rid: str, data: rulesite.SiteData = site_data) -> str:
        return expand_shortcodes(f"[[ruling: {rid}]]", data, "play/altbaumer.md")

    assert ": the account leaves two questions open; this page" in said("R10")
    assert ": the account leaves four questions open; this page" in said("R11")
    assert ": the accounts read this two ways; this page" in said("R5")
    assert ": the accounts read this two ways; this page" in said("R2")
    # the rulings page says which question each reading answers
    assert "1. *Who is dealt first.* The deal starts with forehand" in site_pages["rulings.md"]
    assert "3. *The cut.* For the cut itself" in site_pages["rulings.md"]
    # the counts follow the readings' parts and silences, whatever they are
    changed = copy.copy(site_data)
    r10 = site_data.rulings["R10"]
    one_part = [{k: v for k, v in r.items() if k != "part"} for r in r10["readings"]]
    one_silent = [{**one_part[0], "silent": True}, *one_part[1:]]
    two_silent = [{**r, "silent": True} for r in one_part[:2]] + one_part[2:]
    changed.rulings = {
        **site_data.rulings,
        "R10": {**r10, "readings": one_part},
        "R11": {**r10, "id": "R11", "readings": one_silent},
        "R12": {**r10, "id": "R12", "readings": two_silent},
    }
    assert ": the account can be read three ways; this page" in said("R10", changed)
    assert ": the account can be read two ways; this page" in said("R11", changed)
    assert ": the account leaves this open; this page" in said("R12", changed)


def test_a_reading_without_a_part_answers_the_whole_question_and_is_no_question_of_its_own() -> None:
    """A reading names its part when the question asks several things; one that names none answers the
    question whole, a rival reading of each part: it is counted among the readings, never as a question."""
    from rulesite.ruling_marks import readings_words

    def reading(part: str = "") -> dict[str, object]:
        return {"summary": "...", "sources": ["altbaumer-account"], **({"part": part} if part else {})}

    assert readings_words({"readings": [reading("The cut"), reading("The cut"), reading(), reading("The deal")]}) == (
        "the account leaves two questions open"
    )
    assert readings_words({"readings": [reading(), reading("The cut")]}) == "the account can be read two ways"
    assert readings_words({"readings": [reading(), reading("The cut"), reading("The cut")]}) == (
        "the account can be read three ways"
    )


def test_a_ruling_note_counts_the_ways_a_player_counts_on_the_rulings_page(
    site_data: rulesite.SiteData, site_pages: dict[str, str]
) -> None:
    """R8's third reading says where the French account's scoring comes from, a relative game's rule: background to
    the first reading, no third way of playing Albastini. R12 and R13 ask several things, and their readings answer
    each apart: questions left open, not two ways of reading one rule."""
    import copy

    def said(rid: str, data: rulesite.SiteData = site_data) -> str:
        return expand_shortcodes(f"[[ruling: {rid}]]", data, "play/altbaumer.md")

    assert ": the accounts read this two ways; this page" in said("R8")
    assert ": the account leaves three questions open; this page" in said("R12")
    assert ": the account leaves two questions open; this page" in said("R13")
    rulings = site_pages["rulings.md"]
    assert "3. *Background.* Winning with more than half of the 120 points" in rulings
    r12 = rulings[rulings.index("### R12"):rulings.index("### R13")]
    assert "*When to declare.*" in r12 and "*Who leads when forehand sits out.*" in r12 and "*The makers' order.*" in r12
    # a background reading is never counted, whatever ruling it is in
    changed = copy.copy(site_data)
    r14 = site_data.rulings["R14"]
    background = [r14["readings"][0], {**r14["readings"][1], "background": True}]
    changed.rulings = {**site_data.rulings, "R14": {**r14, "readings": background}}
    assert ": the account leaves this open; this page" in said("R14", changed)


def test_a_ruling_s_erratum_is_said_only_at_a_table_where_it_says_otherwise(site_data: rulesite.SiteData) -> None:
    """At a table where the erratum's sentence names what the ruling names (R6's, at a table of two), no account
    says otherwise there: the note tells the readings, never the erratum. No page asks for that note: a ruling
    whose every erratum agrees at a table stands behind none of its facts, and is marked nowhere on its page."""
    from rulesite import paths, ruling_marks
    from rulesite.links import PageLinks

    links = PageLinks(paths.variant_rules_path("albastini-2p"), site_data)
    r6 = site_data.rulings["R6"]
    assert "one account says otherwise" in ruling_marks.ruling_words(r6, links, site_data.variants["albastini-3p"])
    agreeing = ruling_marks.ruling_words(r6, links, site_data.variants["albastini-2p"])
    assert "one account says otherwise" not in agreeing and "the accounts read this three ways" in agreeing
    def behind(vid: str) -> set[str]:
        return {rid for fact in site_data.facts(vid) for rid in ruling_marks.rulings_behind(fact, vid, site_data)}

    errata = {rid: r for rid, r in site_data.rulings.items() if r.get("errata")}
    for game in site_data.games():
        for vid, variant in site_data.playable_variants(game).items():
            agree = {rid for rid, r in errata.items() if not ruling_marks.disagreeing_errata(r, variant)}
            assert not behind(vid) & agree, vid
    assert "R6" in behind("albastini-3p") and "R6" not in behind("albastini-2p")


def test_a_rule_players_read_counts_in_words_not_by_a_letter(site_data: rulesite.SiteData) -> None:
    """A clause's text is the rule as players read it on the ruleset pages: a count there is said ("a multiple of the
    number of players"), never left to a letter, as an engine note may number seats 0 to N-1."""
    lettered = [cid for cid, clause in site_data.clauses.items() if re.search(r"\bN\b", str(clause.get("text", "")))]
    assert not lettered
    assert any(re.search(r"\bN\b", str(clause.get("engine_note", ""))) for clause in site_data.clauses.values())


def test_a_choice_a_clause_leaves_to_the_table_is_said_where_players_read(site_data: rulesite.SiteData) -> None:
    """A clause leaving the table a choice of its set-up (the first dealer, a target) says it in its text, the words
    the ruleset pages show players, and not in its engine note alone."""
    for cid, clause in site_data.clauses.items():
        for choice in clause.get("choices") or []:
            if str(choice).startswith("setup."):
                assert str(choice).rsplit(".", 1)[-1] in str(clause.get("text", "")), (cid, choice)


@pytest.mark.parametrize("game", ["briscola", "bisca"])
def test_the_how_to_play_page_says_how_the_match_runs_in_the_clause_s_words(site_data: rulesite.SiteData, game: str) -> None:
    """Briscola and Bisca fix no match: their how-to-play pages say so, and that a table may agree a target, in the
    words of the clause (changed in the clause, changed on the page)."""
    from rulesite.escaping import md, said_plainly

    said = md(said_plainly(site_data.clauses[f"{game}.score.running-tally"]["text"]))
    assert "target" in said
    page = f"play/{game}.md"
    play = expand_shortcodes(rulesite.hand_written_pages()[page], site_data, page)
    assert said in play and play.index(said) > play.index("## Scoring and the match")


@pytest.mark.parametrize("game", ["briscola", "bisca"])
def test_the_match_rule_a_how_to_play_page_shows_names_no_side_where_two_play_alone(
    site_data: rulesite.SiteData, game: str
) -> None:
    """Two play Bisca, and two may play Briscola, each alone: the running tally the page takes from the clause is
    the winner's, and the target is reached by a player (or a pair), not by a "side" those players never see."""
    from rulesite.escaping import md, said_plainly
    from rulesite.table_words import has_partners

    alone = [v for v in site_data.variants.values() if v.get("game") == game and v.get("players") == 2]
    assert alone and not any(has_partners(v) for v in alone)
    said = md(said_plainly(site_data.clauses[f"{game}.score.running-tally"]["text"]))
    assert "the winner's running tally" in said and "target" in said
    assert re.findall(r"\bsides?\b", said) == []
    page = f"play/{game}.md"
    assert said in expand_shortcodes(rulesite.hand_written_pages()[page], site_data, page)


def test_the_briscola_page_says_the_direction_and_where_partners_sit(site_data: rulesite.SiteData) -> None:
    """Four play Briscola, so who is next matters: the how-to-play page says it as its rulesets do."""
    from rulesite import rule_words

    play = " ".join(rulesite.hand_written_pages()["play/briscola.md"].split())
    assert all(v["direction"] == "anticlockwise" for v in site_data.playable_variants("briscola").values())
    assert "Everything goes anticlockwise: the deal, the play and the drawing pass to the right-hand neighbour." in play
    assert "partners sitting opposite" in play and "partners sitting opposite" in rule_words.players(
        site_data.variants["briscola-4p"]
    )


def test_the_albastini_page_says_what_becomes_of_the_five_player_indicator(site_data: rulesite.SiteData) -> None:
    """At five the indicator stays under the stock: the page gives the stock, the rounds of drawing and the tricks
    its variant makes, and that the piles come to 120 less the indicator's value."""
    from rulesite.table_words import number

    five = site_data.variants["albastini-5p"]
    assert five["components"]["draw"]["indicator"] == "dead"
    players, hand = five["players"], five["deal"]["hand_size"]
    stock = len(five["deck"]["ranks"].split()) * len(five["deck"]["suits"].split()) - players * hand
    rounds = (stock - 1) // players  # the stock but the indicator, one card to each player a round
    play = " ".join(rulesite.hand_written_pages()["play/albastini.md"].split())
    said = (
        f"With five players the stock of {stock} cards does not share out: after {number(rounds)} rounds of drawing"
        f" only the indicator is left, and it stays there, drawn by nobody, for the {number(hand + rounds)} tricks of"
        " the deal."
    )
    assert said in play
    assert "so the piles then add up to 120 less its value" in play
    assert "120 minus that value" in site_data.clauses["albastini.five-players.dead-value"]["text"]
    assert "the pack holds 120 points (at five players, less the indicator's)" in play


def test_a_card_shown_to_players_is_captioned_with_the_names_the_text_gives() -> None:
    # The home page tells the last draw with Anna, Boris and Carla: the cards under it are theirs, not seat numbers.
    shown = [caption for page in rulesite.hand_written_pages().values()
             for caption in re.findall(r"\[\[show: ([^\]]*)\]\]", page)]  # fmt: skip
    assert shown
    assert [c for c in shown if re.search(r"\bseat_\d", c)] == []


# "it" doing what only a player does, or "its" before what only a player has: on an example page a seat is a name,
# so players would read "Boris (seat 1) predicts with its ace". A card, trick or side never bids, holds or has a
# partner, so these never stand for one.
_PLAYER_AS_IT = re.compile(
    r"\b[Ii]t (?:must (?:play|follow|trump|exchange)|may (?:not |only )?(?:play|bid|lead|pass|discard)|bids|plays(?! as)"
    r"|leads|holds|throws|draws|discards|accepts|declines|under-trumps|has had|has passed|does not hold|did not take"
    r"|has just taken|deals|dealt|trumped)\b"
    r"|\b[Ii]ts (?:partners?|side|hand|turn|Otea turn|one turn|discard|decision|bid|only trump|only legal card"
    r"|only heart|own trick|own column)\b"
    r"|\b(?:with|up|bid|play|lead|throws|for) its (?:own )?(?:[AKQJT2-9][CDHS]|ace|king|queen|jack|seven|six"
    r"|five|four|three|one)\b"
)


# Nor "he" or "she": the examples' players are they, whatever their names.
_GENDERED = re.compile(r"\b(?:[Hh]e|[Hh]is|[Hh]im|[Hh]imself|[Ss]he|[Hh]er|[Hh]ers|[Hh]erself)\b")


def test_what_players_read_calls_a_player_they_never_it_or_he(site_data: rulesite.SiteData, site_pages: dict[str, str]) -> None:
    """The worked examples, every ruleset's rules and the how-to-play pages."""
    read = {page: text for page, text in site_pages.items() if page.startswith(("examples/", "rules/"))}
    assert len([page for page in read if page.startswith("examples/")]) > 90
    read.update({page: expand_shortcodes(text, site_data, page)
                 for page, text in rulesite.hand_written_pages().items() if page.endswith(".md")})  # fmt: skip
    for fault in ("Boris (seat 1) predicts with its ace", "It bids 4C", "its partner passes", "TC is its only legal card"):
        assert _PLAYER_AS_IT.search(fault), fault
    assert not _PLAYER_AS_IT.search("The led seven beats its king, the ace of its suit; JC plays as a Tree, and it wins")
    said = [f"{page}: ...{text[max(0, m.start() - 60) : m.end()]}" for page, text in read.items()
            for pattern in (_PLAYER_AS_IT, _GENDERED) for m in pattern.finditer(text)]  # fmt: skip
    assert said == []
