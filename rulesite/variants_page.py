"""The variants page: every playable variant of each game, resolved, in one comparison table per game."""

from __future__ import annotations

from dataclasses import dataclass

from rulesite.sitedata import SiteData
from rulesite.templating import render
from specreader.jsontypes import Json

# Column heading, and the variant key it shows: the sides, a top-level field, or else a rule component.
COLUMNS = (
    ("Players", "players"),
    ("Sides", "sides"),
    ("Direction", "direction"),
    ("Trump procedure", "trump"),
    ("Legality", "legality"),
    ("Drawing", "draw"),
    ("Scoring", "score"),
    ("Dealer", "dealer"),
    ("Match", "match"),
)
FIELDS = ("players", "direction")  # shown as they stand


@dataclass(frozen=True)
class Row:
    id: str
    variant: Json  # resolved, with everything it inherits

    def components(self) -> Json:
        found = self.variant.get("components")
        return found if isinstance(found, dict) else {}

    def everyone_alone(self) -> bool:
        sides = self.variant.get("sides")
        return isinstance(sides, list) and all(isinstance(s, list) and len(s) == 1 for s in sides)


def variants_page(data: SiteData) -> str:
    games = []
    for game in data.games():
        rows = [Row(vid, v) for vid, v in data.playable_variants(game).items()]
        if rows:
            games.append((game, data.game_title(game), rows))
    return render("variants.md.j2", games=games, columns=COLUMNS, fields=FIELDS)
