"""The kit's words for what happened: a scenario's outcome, and the kind of an engine error.

Defined here once; the runner, the run log, the reports, expectation files and the pytest plugin
all use these (schemas/run-log.schema.json and schemas/expectations.schema.json list the same
values, and tests/test_vocabulary.py holds them together).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum

from conformance.text import untrusted
from specreader import limits


class Outcome(StrEnum):
    """What a scenario's line in the run log says happened to it."""

    PASS = "pass"  # every expectation met
    FAIL = "fail"  # an expectation not met
    # the engine crashed, answered malformed, or could not set up the deal; or judging its answer raised, a fault of the
    # kit's and not the engine's (its error starts "kit fault": run/kit_faults.py)
    ERROR = "error"
    TIMEOUT = "timeout"  # no answer in time
    ENGINE_UNAVAILABLE = "engine-unavailable"  # not run: the kit gave up on the engine (it kept stalling)
    UNSUPPORTED = "unsupported"  # the engine does not declare the scenario's variant, or says its API cannot play it
    SKIPPED = "skipped"  # the expectation file says not to run it
    XFAIL = "xfail"  # a failure the expectation file lists, of the kind it lists
    XPASS = "xpass"  # a pass where the expectation file lists a failure


# The outcomes that fail a run.
FAILING = frozenset({Outcome.FAIL, Outcome.ERROR, Outcome.TIMEOUT, Outcome.ENGINE_UNAVAILABLE, Outcome.XPASS})

# The outcomes of scenarios meant for the engine (the badge's denominator): those it ran, and those it
# was too unwell to run. The others were left out by the kit or the expectation file.
RAN = (
    Outcome.PASS,
    Outcome.FAIL,
    Outcome.ERROR,
    Outcome.TIMEOUT,
    Outcome.ENGINE_UNAVAILABLE,
    Outcome.XFAIL,
    Outcome.XPASS,
)

# What an expectation file may say of a scenario: not to run it, or how it is known to fail.
EXPECTABLE = (Outcome.SKIPPED, Outcome.FAIL, Outcome.ERROR, Outcome.TIMEOUT)


class ErrorKind(StrEnum):
    """Why an engine gave no usable answer to a scenario."""

    # What an engine may say of itself (schemas/protocol.schema.json).
    SETUP = "setup"  # it could not set up the deal
    CRASH = "crash"  # it failed part-way, or exited
    BAD_REQUEST = "bad_request"  # it could not read the request
    UNKNOWN_COMMAND = "unknown_command"  # the command is not one it knows
    UNSUPPORTED = "unsupported"  # its API cannot express what the scenario needs (a mid-deal start, a refusal code)
    # What the kit observes.
    TIMEOUT = "timeout"  # no answer in time
    CLOSED_OUTPUT = "closed_output"  # the engine closed its standard output and kept running
    MALFORMED = "malformed"  # an answer that is not what the protocol says
    PROTOCOL = "protocol"  # an answer that breaks the protocol schema (--validate-protocol)
    WRONG_ID = "wrong_id"  # an answer to another request
    EXTRA_ANSWER = "extra_answer"  # a second answer to one request
    UNAVAILABLE = "unavailable"  # not run: the engine stalled too often in a row (the circuit breaker)
    ADAPTER = "adapter"  # the adapter itself raised


# The kinds an engine may report in an error answer; any other is itself malformed.
ENGINE_REPORTED = frozenset(
    {ErrorKind.SETUP, ErrorKind.CRASH, ErrorKind.BAD_REQUEST, ErrorKind.UNKNOWN_COMMAND, ErrorKind.UNSUPPORTED}
)

CODE_CAP = limits.CODE_CAP


@dataclass(frozen=True)
class EngineError:
    """An engine's failure on one scenario: its kind travels as data, the message is for people."""

    kind: ErrorKind
    message: str
    code: str | None = None  # the refusal code of a setup error (spec/refusals.yaml), when the engine gave one

    def __post_init__(self) -> None:
        # Messages carry engine text (its own words, its stderr): made safe here, once.
        object.__setattr__(self, "message", untrusted.text(self.message))
        if self.code is not None:
            object.__setattr__(self, "code", untrusted.text(self.code, CODE_CAP))

    def __str__(self) -> str:
        return f"{self.kind}: {self.message}"

    @property
    def outcome(self) -> Outcome:
        return _OUTCOME_OF_KIND.get(self.kind, Outcome.ERROR)


# Error kinds with an outcome of their own; every other kind is an error.
_OUTCOME_OF_KIND = {
    ErrorKind.TIMEOUT: Outcome.TIMEOUT,
    ErrorKind.UNAVAILABLE: Outcome.ENGINE_UNAVAILABLE,
    ErrorKind.UNSUPPORTED: Outcome.UNSUPPORTED,
}


def engine_error(reported: object) -> EngineError:
    """The error part of an engine's answer, as the kit reads it: untrusted, so any shape is handled."""
    if isinstance(reported, dict):
        kind, message, code = reported.get("kind"), reported.get("message", ""), reported.get("code")
        text = message if isinstance(message, str) else repr(message)
        if code is not None and not isinstance(code, str):
            return EngineError(ErrorKind.MALFORMED, f"expected the error's code to be a string, found {code!r}: {text}")
        if isinstance(kind, str) and kind in ENGINE_REPORTED:  # a list or a mapping is no kind, and unhashable
            return EngineError(ErrorKind(kind), text, code)
        expected = ", ".join(sorted(ENGINE_REPORTED))
        return EngineError(ErrorKind.MALFORMED, f"expected an error kind among {expected}, found {kind!r}: {text}")
    return EngineError(ErrorKind.MALFORMED, f"expected an error object with kind and message, found {reported!r}")


def refusal_code(rejected: object) -> str | None:
    """The code an observation's ``rejected`` gives (None: the action was accepted), as the kit reads it: untrusted,
    so anything but null or an object with a code string is a ``ValueError`` saying what was found."""
    if rejected is None:
        return None
    code = rejected.get("code") if isinstance(rejected, dict) else None
    if isinstance(code, str) and code:
        return code
    found = "an object with no code string" if isinstance(rejected, dict) else untrusted.text(_json_or_repr(rejected), 80)
    raise ValueError(f"expected rejected to be null or an object with a refusal code, found {found}")


def _json_or_repr(value: object) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError, RecursionError):  # an in-process engine's value may be no JSON at all
        return repr(value)
