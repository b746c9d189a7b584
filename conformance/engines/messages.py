"""The protocol's messages as typed records (docs/protocol.md, schemas/protocol.schema.json).

What the kit sends is built to these shapes. What an engine sends back is untrusted until judged:
the runner reads answers as plain JSON and never assumes they have these shapes.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class Implementation(TypedDict):
    """Who an engine is, from its handshake: ``variants`` lists the variant ids it plays."""

    name: str
    version: str
    language: str
    variants: list[str]
    homepage: NotRequired[str]


class Request(TypedDict):
    """One scenario for an engine: never what the scenario expects.

    ``observe`` names the observations the kit reads in full (0 is the one after setup).
    """

    id: str
    variant: str
    setup: dict[str, Any]
    actions: list[dict[str, Any]]
    observe: list[int]


class RefusalReport(TypedDict):
    code: str
    message: str


class Observation(TypedDict):
    """What an engine reports after setup and after each action; snapshot and legal may be
    null where the request's ``observe`` does not list the observation."""

    rejected: RefusalReport | None
    snapshot: dict[str, Any] | None
    legal: list[dict[str, Any]] | None


class ErrorReport(TypedDict):
    """Why an engine gave no (or no whole) answer; ``code``, a refusal code of spec/refusals.yaml,
    says why a setup was refused."""

    kind: str
    message: str
    code: NotRequired[str]


class Answer(TypedDict):
    """An engine's answer to one request: observations, an error, or both (it failed part-way)."""

    id: str | None
    observations: NotRequired[list[Observation]]
    error: NotRequired[ErrorReport]
