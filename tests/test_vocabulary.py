"""The kit's words are defined once (conformance/vocabulary.py); the schemas list the same values."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.suite import schemas
from conformance.vocabulary import (
    ENGINE_REPORTED,
    EXPECTABLE,
    FAILING,
    RAN,
    EngineError,
    ErrorKind,
    Outcome,
    engine_error,
)


def _enum(schema: str, pointer: str) -> set[str]:
    node: Any = schemas.validator(schema).schema
    for part in pointer.strip("/").split("/"):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return set(node["enum"])


def test_the_run_log_schema_lists_every_outcome() -> None:
    assert _enum("run-log", "/$defs/outcome") == set(Outcome)


def test_an_expectation_file_names_the_outcomes_it_may_expect() -> None:
    assert _enum("expectations", "/properties/expectations/items/properties/outcome") == set(EXPECTABLE)


def test_the_protocol_schema_lists_the_error_kinds_an_engine_may_report() -> None:
    assert _enum("protocol", "/$defs/error/properties/kind") == set(ENGINE_REPORTED)


def test_the_outcome_groups_hold_together() -> None:
    assert set(RAN) >= FAILING
    assert Outcome.PASS not in FAILING and Outcome.XFAIL not in FAILING
    assert set(Outcome) - set(RAN) == {Outcome.SKIPPED, Outcome.UNSUPPORTED}


def test_only_a_timeout_a_given_up_engine_and_an_unsupported_scenario_have_outcomes_of_their_own() -> None:
    own = {
        ErrorKind.TIMEOUT: Outcome.TIMEOUT,
        ErrorKind.UNAVAILABLE: Outcome.ENGINE_UNAVAILABLE,
        ErrorKind.UNSUPPORTED: Outcome.UNSUPPORTED,
    }
    assert {kind: EngineError(kind, "m").outcome for kind in ErrorKind} == {
        kind: own.get(kind, Outcome.ERROR) for kind in ErrorKind
    }


def test_the_summary_schema_lists_every_outcome() -> None:
    assert _enum("summary", "/$defs/counts/propertyNames") == set(Outcome)


@pytest.mark.parametrize(
    ("sent", "kind", "text"),
    [
        ({"kind": "setup", "message": "no such seat"}, ErrorKind.SETUP, "setup: no such seat"),
        ({"kind": "timeout", "message": "I gave up"}, ErrorKind.MALFORMED, "found 'timeout': I gave up"),
        ({"kind": "crash", "message": 7}, ErrorKind.CRASH, "crash: 7"),
        ("boom", ErrorKind.MALFORMED, "expected an error object with kind and message, found 'boom'"),
    ],
)
def test_an_engine_error_is_read_as_untrusted_data(sent: object, kind: ErrorKind, text: str) -> None:
    error = engine_error(sent)
    assert error.kind is kind
    assert str(error).endswith(text)
