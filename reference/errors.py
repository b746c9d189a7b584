"""The engine's exceptions: a setup it refuses, a variant it cannot play."""

from __future__ import annotations

from collections.abc import Callable

from reference.refusals import INVALID_SETUP
from specreader.jsontypes import JsonPath
from specreader.problems import format_path

AS_DEALT = "setup"  # the phase of an observed field before any action, the deal as set up and dealt (to_act@setup)


class SetupError(ValueError):
    """A setup that cannot start a deal; ``path`` is the JSON path inside the setup, and ``also``, where the
    message ends by naming another place (a card placed twice), that place. ``parameter``: the part of the variant
    the setup breaks, where it is one, as a dotted path of the variant (``deck``: a card twice, a card missing, or a
    code that is no card of the pack; ``deal.hand_size``; ``components.first_dealer``: the draw;
    ``components.match.round_target``), so that a report names the clauses whose ``parameter`` states it.
    ``chosen``: where the value broken is one the table chose in the setup itself (``match.target``), its path
    there, so that a report names the clauses leaving that choice (their ``choices``). ``observed``: where a deal
    begun mid-play gives a position play would never leave (whose turn it is, the trick), the snapshot field as play
    leaves it (``to_act@play``; who leads the first trick, as the last phase before play leaves it: ``to_act@bidding``,
    ``to_act@setup`` where play follows the deal), so that a report names the clauses observing it where no clause
    states a part of the variant; with a ``parameter``, of the clauses stating it, those observing the field (for makers
    or an indicator the rule never has, the field showing what makes trumps: ``trump``, ``turned``).
    ``choices_left``: where the setup breaks what one rule of the part made of the deal, the kinds of action that rule
    leaves a player to choose: accepting the turned suit (``{"accept"}``) where forehand took the card so, none where
    the rule binds the player (a stock all of one suit, taken whole after a refusal), so that, of the clauses stating
    the part, a report names those leaving exactly those choices (``choices: [action.accept]``; none).

    ``code`` is the refusal code an engine answers it with (the protocol's setup error carries it).
    """

    code = INVALID_SETUP

    def __init__(
        self,
        message: str,
        path: JsonPath = (),
        *,
        also: JsonPath | None = None,
        parameter: str | None = None,
        chosen: JsonPath | None = None,
        observed: str | None = None,
        choices_left: frozenset[str] | None = None,
    ) -> None:
        self.said, self.path, self.also, self.parameter = message, path, also, parameter
        self.chosen, self.observed, self.choices_left = chosen, observed, choices_left
        self.message = message if also is None else f"{message} {format_path(also)}"
        super().__init__(f"{format_path(path)}: {self.message}")

    def moved(self, where: Callable[[JsonPath], JsonPath]) -> SetupError:
        """The same error with its places mapped by ``where``: from a setup as the kit expanded it to the setup
        as written, say."""
        also = None if self.also is None else where(self.also)
        return SetupError(
            self.said,
            where(self.path),
            also=also,
            parameter=self.parameter,
            chosen=self.chosen,
            observed=self.observed,
            choices_left=self.choices_left,
        )


class VariantError(ValueError):
    """A variant the engine cannot play; ``path`` is the JSON path inside the variant."""

    def __init__(self, message: str, path: JsonPath = ()) -> None:
        super().__init__(f"{format_path(path)}: {message}")
        self.message = message
        self.path = path
