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
    assert "the account can be read three ways" in expand_shortcodes("[[ruling: R10]]", site_data, "play/altbaumer.md")
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
