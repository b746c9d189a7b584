"""Rule component parameters: declared once per rule, as data, and read from the variant against
the declaration, with the JSON path of every complaint.

Each rule class states its parameters in ``PARAMETERS``; the engine reads a component's block
of the variant through them, and the component blocks of schemas/variant.schema.json are
generated from the same declarations (reference/component_schema.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from reference.errors import VariantError
from specreader.jsontypes import Json, JsonPath

Value = str | int | bool | dict[int, int]


class Kind(StrEnum):
    TEXT = "text"  # one of the declared choices
    INTEGER = "integer"
    FLAG = "flag"  # true or false
    CARD = "card"  # a card code; the rule checks it against the variant's deck
    POINTS_TABLE = "points table"  # trick count -> points


@dataclass(frozen=True)
class When:
    """A condition on another parameter of the same rule: stated at all, or stated as ``value``."""

    param: str
    value: str | None = None

    def holds(self, data: Json) -> bool:
        return self.param in data and (self.value is None or data[self.param] == self.value)

    def __str__(self) -> str:
        return f"{self.param} is {self.value}" if self.value is not None else f"{self.param} is given"


@dataclass(frozen=True)
class Param:
    """One parameter of a rule. Unless it has a ``default``, is ``optional`` or is
    ``required_when`` something holds, every variant using the rule must state it."""

    name: str
    kind: Kind
    choices: tuple[str, ...] = ()  # TEXT: the values the rule knows
    # INTEGER: the least value that makes sense, for `trickspec validate`. The engine plays any
    # integer, so that `trickspec selfcheck` can move a line below it.
    minimum: int | None = None
    default: Value | None = None  # the value when the variant leaves it out
    optional: bool = False  # may be left out, with no default: the rule reads None
    required_when: When | None = None  # may be left out unless this holds

    def __post_init__(self) -> None:
        if self.kind is Kind.TEXT and not self.choices:
            raise ValueError(f"{self.name}: a text parameter lists its choices")
        ways_to_leave_out = (self.default is not None) + self.optional + (self.required_when is not None)
        if ways_to_leave_out > 1:
            raise ValueError(f"{self.name}: at most one of default, optional and required_when")

    @property
    def always_present(self) -> bool:
        """Whether the rule always reads a value (stated, or the default)."""
        return self.default is not None or not (self.optional or self.required_when)

    def read(self, data: Json, path: JsonPath) -> Value | None:
        """This parameter's value in a component's block ``data`` (at ``path``), checked."""
        at = (*path, self.name)
        if self.name not in data:
            if self.required_when is not None:
                if self.required_when.holds(data):
                    raise VariantError(f"missing parameter {self.name!r}, required when {self.required_when}", at)
            elif self.default is None and not self.optional:
                raise VariantError(f"missing required parameter {self.name!r}", at)
            return self.default
        return _checked(self, data[self.name], at)


def _checked(param: Param, value: object, path: JsonPath) -> Value:
    """``value`` if it is of the parameter's kind (and one of its choices)."""
    if param.kind is Kind.TEXT:
        if not isinstance(value, str):
            raise VariantError(f"expected a string for {param.name!r}", path)
        if value not in param.choices:
            raise VariantError(f"expected one of {', '.join(param.choices)}; found {value!r}", path)
        return value
    if param.kind is Kind.INTEGER:
        if type(value) is not int:
            raise VariantError(f"expected an integer for {param.name!r}", path)
        return value
    if param.kind is Kind.FLAG:
        if not isinstance(value, bool):
            raise VariantError(f"expected true or false for {param.name!r}", path)
        return value
    if param.kind is Kind.CARD:
        if not isinstance(value, str):
            raise VariantError(f"expected a card code for {param.name!r}", path)
        return value
    return _points_table(value, path)


def _points_table(value: object, path: JsonPath) -> dict[int, int]:
    if not isinstance(value, dict) or not value:
        raise VariantError("expected a mapping tricks -> points", path)
    table: dict[int, int] = {}
    for key, points in value.items():
        if not str(key).isdigit() or type(points) is not int:
            raise VariantError("expected a trick count mapped to an integer", (*path, str(key)))
        table[int(key)] = points
    return table


class Params:
    """The parameters of one rule as the variant states them, checked against its declarations.

    Everything is checked when the block is read; a rule then reads each value by name and
    type. Reading a parameter the rule does not declare is a programming error, and so is
    declaring one it never reads (see ``unread``).
    """

    def __init__(self, path: JsonPath, rule: str, data: Json, declared: tuple[Param, ...]) -> None:
        self.path = path
        self.rule = rule
        self._declared = {p.name: p for p in declared}
        for key in data:
            if key != "rule" and key not in self._declared:
                raise VariantError(f"unknown parameter {key!r} for rule {rule!r}", (*path, key))
        self._values = {p.name: p.read(data, path) for p in declared}
        self._unread = set(self._declared)

    def stated(self, name: str | None = None) -> str:
        """Where the variant states this rule (or its parameter ``name``), as a dotted path (``components.match``,
        ``components.match.round_target``): the part of the variant a setup the rule refuses breaks, by which a
        report names the clauses stating it (``SetupError.parameter``)."""
        return ".".join(str(key) for key in (*self.path, *((name,) if name else ())))

    def text(self, name: str) -> str:
        value = self._get(name, Kind.TEXT, present=True)
        assert isinstance(value, str)
        return value

    def card(self, name: str) -> str:
        value = self._get(name, Kind.CARD, present=True)
        assert isinstance(value, str)
        return value

    def integer(self, name: str) -> int:
        value = self._get(name, Kind.INTEGER, present=True)
        assert isinstance(value, int)
        return value

    def optional_integer(self, name: str) -> int | None:
        value = self._get(name, Kind.INTEGER, present=False)
        assert value is None or isinstance(value, int)
        return value

    def flag(self, name: str) -> bool:
        value = self._get(name, Kind.FLAG, present=True)
        assert isinstance(value, bool)
        return value

    def points_table(self, name: str) -> dict[int, int]:
        value = self._get(name, Kind.POINTS_TABLE, present=True)
        assert isinstance(value, dict)
        return value

    def unread(self) -> list[str]:
        """Declared parameters the rule has not read."""
        return sorted(self._unread)

    def _get(self, name: str, kind: Kind, *, present: bool) -> Value | None:
        param = self._declared.get(name)
        if param is None:
            raise LookupError(f"rule {self.rule!r} reads {name!r} but does not declare it")
        if param.kind is not kind:
            raise TypeError(f"rule {self.rule!r} declares {name!r} as {param.kind}, not {kind}")
        if present and not param.always_present:
            raise TypeError(f"rule {self.rule!r} may be given no {name!r}: read it as optional")
        self._unread.discard(name)
        return self._values[name]
