"""The match around the deals.

``open`` (Albastini's score sheet): victory points add up deal after deal with no finishing
line; every member of the winning side gets the deal's points in its own sheet column.
``vp-target``: the same, and the first side to reach the target wins the match: ``target`` unless
the table agreed another before play (setup ``match.target``, as ``open`` takes a house target).
``rounds`` (Altbaumer): deal scores add up (negatives allowed); the first side to reach
``round_target`` wins a round and both totals go back to 0; with
``lone_all_five_wins_round`` a lone player taking every trick wins the round at once;
``rounds_to_win`` rounds win the match; with ``decider: single-deal``, when every side is one
round short the deciding round is a single deal won by the side with ``decider_tricks``.
"""

from __future__ import annotations

from typing import Any

from reference.errors import SetupError
from reference.params import Kind, Param, Params, When
from reference.rules import Rule, Rules
from reference.seating import seat_key
from reference.state import Deal
from specreader.jsontypes import Json, JsonPath


def _counts(value: object, length: int, path: JsonPath, parameter: str, *, signed: bool = False) -> list[int]:
    if (
        not isinstance(value, list)
        or len(value) != length
        or any(type(x) is not int or (x < 0 and not signed) for x in value)
    ):
        kind = "integers" if signed else "non-negative integers"
        raise SetupError(f"expected a list of {length} {kind}, one per side", path, parameter=parameter)
    return list(value)


def _keys(value: dict[str, Any], allowed: tuple[str, ...], path: JsonPath, parameter: str) -> None:
    for key in value:
        if key not in allowed:
            raise SetupError(f"unknown key; expected {', '.join(allowed)}", (*path, key), parameter=parameter)


class VictoryPoints(Rule):
    """``open``: a table may agree a target as a house rule (setup ``match.target``)."""

    PARAMETERS = (Param("target", Kind.INTEGER, minimum=1, optional=True),)
    needs = "vp"

    def __init__(self, rules: Rules, params: Params) -> None:
        self.seats = rules.seats
        self.target = params.optional_integer("target")
        # What a setup breaks (SetupError.parameter): the rule, by a match it cannot read; the target, by a match
        # already won.
        self.parameter, self.reached = params.stated(), params.stated("target")

    def parse(self, value: object, path: JsonPath) -> Json:
        seats = self.seats
        nsides = len(seats.sides)
        if value is None:
            return {"vp": [0] * nsides, "sheet": [0] * seats.n, "winner": None, "target": self.target}
        parameter = self.parameter
        if not isinstance(value, dict):
            raise SetupError("expected a mapping with vp (and optionally sheet, target)", path, parameter=parameter)
        _keys(value, ("vp", "sheet", "target"), path, parameter)
        target = self.target
        chosen = (*path, "target") if "target" in value else None  # the table's own target, a choice it made
        if chosen is not None:  # the target the table agreed before play, in place of the variant's usual one
            if type(value["target"]) is not int or value["target"] < 1:
                raise SetupError("expected a positive integer", chosen, parameter=self.reached, chosen=chosen)
            target = value["target"]
        vp = _counts(value.get("vp", [0] * nsides), nsides, (*path, "vp"), parameter)
        sheet = [vp[seats.side_of[s]] for s in range(seats.n)]
        raw = value.get("sheet")
        if raw is not None:
            if not isinstance(raw, dict):
                raise SetupError("expected a mapping seat -> victory points", (*path, "sheet"), parameter=parameter)
            for key, points in raw.items():
                seat = seat_key(key, seats, (*path, "sheet", key))
                if type(points) is not int or points < 0:
                    raise SetupError("expected a non-negative integer", (*path, "sheet", key), parameter=parameter)
                sheet[seat] = points
        if target is not None and max(vp) >= target:
            raise SetupError(
                f"the match is already won (target {target})", (*path, "vp"), parameter=self.reached, chosen=chosen
            )
        return {"vp": vp, "sheet": sheet, "winner": None, "target": target}

    def record(self, st: Deal, result: Json, winner: int | None) -> None:
        if winner is None:
            return
        m = st.match
        points: int = result["vp"]
        m["vp"][winner] += points
        for seat in self.seats.sides[winner]:
            m["sheet"][seat] += points
        if m["target"] is not None and m["vp"][winner] >= m["target"]:
            m["winner"] = winner

    def snapshot(self, st: Deal) -> Json:
        m = st.match
        return {
            "vp": list(m["vp"]),
            "sheet": {str(s): v for s, v in enumerate(m["sheet"])},
            "target": m["target"],
            "winner": m["winner"],
        }

    def carried(self, st: Deal) -> Json:
        m = st.match
        sheet = {str(s): v for s, v in enumerate(m["sheet"])}
        return {"vp": list(m["vp"]), "sheet": sheet, **({"target": m["target"]} if m["target"] is not None else {})}


class TargetVictoryPoints(VictoryPoints):
    """``vp-target``: the match is played to a target, the variant's usual one unless the table agrees another
    before play (setup ``match.target``)."""

    PARAMETERS = (Param("target", Kind.INTEGER, minimum=1),)


class Rounds(Rule):
    PARAMETERS = (
        Param("round_target", Kind.INTEGER, minimum=1),
        Param("rounds_to_win", Kind.INTEGER, minimum=1),
        Param("decider", Kind.TEXT, choices=("single-deal", "none"), default="none"),
        Param("decider_tricks", Kind.INTEGER, minimum=1, required_when=When("decider", "single-deal")),
        Param("lone_all_five_wins_round", Kind.FLAG, default=False),
    )
    needs = "deal_score"

    def __init__(self, rules: Rules, params: Params) -> None:
        self.seats = rules.seats
        self.round_target = params.integer("round_target")
        self.rounds_to_win = params.integer("rounds_to_win")
        self.decider = params.text("decider")
        self.decider_tricks = params.optional_integer("decider_tricks")
        self.lone_sweep = params.flag("lone_all_five_wins_round")
        # What a setup breaks (SetupError.parameter): the rule, by a match it cannot read; a round already won, the
        # match already won.
        self.parameter = params.stated()
        self.round_won, self.match_won = params.stated("round_target"), params.stated("rounds_to_win")

    def parse(self, value: object, path: JsonPath) -> Json:
        nsides = len(self.seats.sides)
        scores, rounds = [0] * nsides, [0] * nsides
        if value is not None:
            if not isinstance(value, dict):
                raise SetupError("expected a mapping with scores and rounds", path, parameter=self.parameter)
            _keys(value, ("scores", "rounds"), path, self.parameter)
            scores = _counts(value.get("scores", scores), nsides, (*path, "scores"), self.parameter, signed=True)
            rounds = _counts(value.get("rounds", rounds), nsides, (*path, "rounds"), self.parameter)
            if max(scores) >= self.round_target:
                raise SetupError(
                    f"a round is already won (target {self.round_target})", (*path, "scores"), parameter=self.round_won
                )
            if max(rounds) >= self.rounds_to_win:
                raise SetupError("the match is already won", (*path, "rounds"), parameter=self.match_won)
        decider = self.decider == "single-deal" and all(r == self.rounds_to_win - 1 for r in rounds)
        return {"scores": scores, "rounds": rounds, "round_winner": None, "decider": decider, "winner": None}

    def record(self, st: Deal, result: Json, winner: int | None) -> None:
        m = st.match
        tricks: list[int] = result["tricks"]
        round_winner: int | None = None
        if m["decider"]:
            assert self.decider_tricks is not None
            won = [i for i, t in enumerate(tricks) if t >= self.decider_tricks]
            round_winner = won[0] if len(won) == 1 else None
        elif self.lone_sweep and st.lone is not None and tricks[self.seats.side_of[st.lone]] == sum(tricks):
            round_winner = self.seats.side_of[st.lone]
        else:
            scores = [s + d for s, d in zip(m["scores"], result["deal_score"], strict=True)]
            m["scores"] = scores
            reached = [i for i, s in enumerate(scores) if s >= self.round_target]
            if reached:
                best = max(scores[i] for i in reached)
                top = [i for i in reached if scores[i] == best]
                round_winner = top[0] if len(top) == 1 else None
        m["round_winner"] = round_winner
        if round_winner is not None:
            m["rounds"][round_winner] += 1
            m["scores"] = [0] * len(m["scores"])
            if m["rounds"][round_winner] >= self.rounds_to_win:
                m["winner"] = round_winner

    def snapshot(self, st: Deal) -> Json:
        m = st.match
        return {
            "scores": list(m["scores"]),
            "rounds": list(m["rounds"]),
            "round_winner": m["round_winner"],
            "decider": m["decider"],
            "winner": m["winner"],
        }

    def carried(self, st: Deal) -> Json:
        return {"scores": list(st.match["scores"]), "rounds": list(st.match["rounds"])}
