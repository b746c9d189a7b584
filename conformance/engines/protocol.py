"""The kit's side of the engine protocol: one engine process, JSON lines over stdin/stdout.

Every way an engine can misbehave becomes an error answer for the scenario that caused it, and
the run goes on: a timeout, an exit (with its status), output closed while the process lives on,
a line that is not UTF-8 or not JSON or too long or too deeply nested, an answer with another id,
an answer sent twice, a message that breaks the schema in validating mode. After most of these
the engine (with every process it started) is ended, and started again for the next scenario;
after a few stalls in a row (timeouts, failed restarts) the kit gives up on it (conformance/engines/breaker.py).
"""

from __future__ import annotations

import codecs
import json
import shlex
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from conformance.engines import interrupt
from conformance.engines.breaker import GIVE_UP_AFTER, Breaker
from conformance.engines.engine_process import MAX_LINE_BYTES, Closed, EngineProcess, Event, Exited, Line, Overlong, describe_exit
from conformance.engines.messages import Request
from conformance.suite import schemas
from conformance.suite.reported import declaration_problem
from conformance.text import untrusted
from conformance.vocabulary import EngineError, ErrorKind
from specreader.jsontypes import Json
from specreader.problems import format_path

if TYPE_CHECKING:
    from conformance.engines.adapter import EngineAdapter

VERSION = 1

# After these the engine's state is unknown (or it is gone): it is ended, and restarted for the next scenario.
_ENDS_THE_ENGINE = frozenset(
    {ErrorKind.TIMEOUT, ErrorKind.CRASH, ErrorKind.CLOSED_OUTPUT, ErrorKind.MALFORMED, ErrorKind.WRONG_ID}
)

# How long an answer is held back, waiting for the engine's next line, before it is released: an
# answer sent twice is blamed on its own scenario only if the second copy comes in this time.
SECOND_ANSWER_WAIT = 0.2

# How many answers already let go of are remembered, so that a copy of one coming later still is a copy, set
# aside, and not an answer with the wrong id blamed on the scenario being run: a copy later than this is.
_RELEASED_KEPT = 1024

# Seconds an engine has to exit after ``stop`` before it is ended.
_STOP_GRACE = 2.0


# A good answer held back: the request, the answer, and the hash of its line (to know a copy of it later).
_Held = tuple[Request, Json, int | None]


class EngineUnusable(Exception):
    """The engine cannot be started or does not complete the handshake."""


class BadCommand(ValueError):
    """An engine command that cannot be run as written (empty, or quoted wrong): a usage error."""


def split_command(command: str) -> list[str]:
    """``"program args"`` split as a shell would, without running a shell."""
    try:
        argv = shlex.split(command)
    except ValueError as err:  # "No closing quotation" and the like
        raise BadCommand(f"cannot split the engine command {command!r}: {err}") from None
    if not argv:
        raise BadCommand(f"expected an engine command, found {command!r}")
    return argv


class SubprocessAdapter:
    """Drives an engine process that speaks protocol version 1."""

    def __init__(
        self,
        argv: list[str],
        *,
        timeout: float = 10.0,
        validate: bool = False,
        startup_timeout: float | None = None,
        give_up_after: int = GIVE_UP_AFTER,
        max_line_bytes: int = MAX_LINE_BYTES,
    ) -> None:
        self.argv = argv
        self.timeout = timeout
        self.startup_timeout = timeout if startup_timeout is None else startup_timeout
        self.validate = validate
        self.max_line_bytes = max_line_bytes
        self.restarts = 0
        self._breaker = Breaker(give_up_after)
        # The ids of the last answers let go of (in order, oldest first), at most _RELEASED_KEPT.
        self._released: dict[str, int | None] = {}  # id: the hash of its line
        # The ids of the answers a copy of which came only after they were let go of (the engine's fault, not that of
        # the scenario being run), until taken (take_late_copies): each answer let go of is set aside once at most,
        # so the list holds no more than the requests the kit sent, whatever the engine sends.
        self._late_copies: list[str] = []
        self._process: EngineProcess | None = None  # None while there is none running (a failure ends it)
        self._process, self._hello = self._start()

    # -- the process ---------------------------------------------------------------------------
    def _start(self) -> tuple[EngineProcess, Json]:
        """A new engine process that completed the handshake, and its implementation; EngineUnusable if none."""
        try:
            process = EngineProcess(self.argv, max_line_bytes=self.max_line_bytes)
        except OSError as err:
            said = f"cannot start {shlex.join(self.argv)}: {err.strerror or err}"
            if "=" in self.argv[0] or self.argv[0] in _SHELL_WORDS:  # FOO=1 node engine.js, cd x && ...
                said += "; the command is run without a shell: set a variable with env (env FOO=1 node engine.js)"
            raise EngineUnusable(untrusted.text(said, 600)) from None
        try:
            answer = self._exchange(process, {"cmd": "start", "protocol": VERSION}, "started", self.startup_timeout)
        except BaseException:
            process.end()
            raise
        problem = _handshake_problem(answer)
        if problem:
            process.end()
            # an EngineError already carries the stderr tail; an engine's own error speaks for itself
            told = isinstance(answer, EngineError) or "error" in answer
            raise EngineUnusable(untrusted.text(problem if told else problem + _tail(process, ended=True)))
        assert not isinstance(answer, EngineError)
        return process, answer["implementation"]

    def _running(self) -> EngineProcess | EngineError:
        """The engine, restarted if it was ended; the breaker's error once it has been given up on.
        A restart that fails is a stall and is tried again, so one slow restart costs no scenario."""
        while self._process is None:
            unavailable = self._breaker.open
            if unavailable is not None:
                return unavailable
            self.restarts += 1
            try:
                self._process, _ = self._start()
                self._released.clear()  # a new engine sends no copy of the old one's answers
            except EngineUnusable as err:
                self._breaker.stall(f"the engine could not be restarted: {err}")
        return self._process

    def _end(self, process: EngineProcess) -> None:
        process.end()
        if self._process is process:
            self._process = None

    # -- messages ----------------------------------------------------------------------------
    def _check(self, message: Json, definition: str) -> str | None:
        return _schema_problem(message, definition) if self.validate else None

    def _send(self, process: EngineProcess, message: Json, *, outside_protocol: bool = False) -> None:
        problem = None if outside_protocol else self._check(message, str(message.get("cmd")))
        if problem:
            raise ValueError(f"the kit built a message that breaks the protocol: {problem}")
        process.send(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    def _exchange(
        self, process: EngineProcess, message: Json, answer_kind: str, seconds: float, *, outside_protocol: bool = False
    ) -> Json | EngineError:
        """Send one message and read one answer; what goes wrong comes back as an EngineError."""
        self._send(process, message, outside_protocol=outside_protocol)
        deadline = time.monotonic() + seconds
        return self._answer(process, process.next_event(deadline), answer_kind, deadline, seconds)

    def _answer(
        self, process: EngineProcess, event: Event | None, answer_kind: str, deadline: float, seconds: float
    ) -> Json | EngineError:
        """What the engine's next event means as an answer: the JSON object, or why there is none.
        After a failure that leaves the engine's state unknown, the engine is ended."""
        answer: Json | EngineError
        if event is None:
            answer = EngineError(ErrorKind.TIMEOUT, f"no answer within {seconds:g} s{_why_no_line(process, answer_kind)}")
        elif isinstance(event, Overlong):
            answer = EngineError(ErrorKind.MALFORMED, f"expected lines of at most {_size(event.limit)}, found a longer one")
        elif isinstance(event, Exited):
            answer = EngineError(ErrorKind.CRASH, _exit_said(event.status))
        elif isinstance(event, Closed):
            status = process.wait(deadline)  # an engine closing its output may still be exiting
            if status is None:
                answer = EngineError(ErrorKind.CLOSED_OUTPUT, "the engine closed its output and kept running")
            else:
                answer = EngineError(ErrorKind.CRASH, _exit_said(status))
        else:
            answer = self._parsed(event.raw, answer_kind)
            if isinstance(answer, EngineError) and answer.kind is ErrorKind.MALFORMED and not event.ended:
                answer = _cut_short(process.wait(deadline), answer)
        if isinstance(answer, EngineError):
            if answer.kind in _ENDS_THE_ENGINE:
                self._end(process)
            answer = EngineError(answer.kind, answer.message + _tail(process, ended=answer.kind in _ENDS_THE_ENGINE))
        return answer

    def _parsed(self, raw: bytes, answer_kind: str) -> Json | EngineError:
        try:
            answer = untrusted.json_line(raw)
        except untrusted.Unreadable as err:
            return EngineError(ErrorKind.MALFORMED, str(err) + _unreadable_hint(raw))
        if not isinstance(answer, dict):
            return EngineError(ErrorKind.MALFORMED, f"expected a JSON object, found {type(answer).__name__}")
        if answer_kind != "started" and _answers_nothing(answer):
            return answer  # a wrong id, whatever its shape: never a scenario's answer, nor the answer to a probe
        problem = self._check(answer, _definition_of(answer, answer_kind))
        if problem:
            return EngineError(ErrorKind.PROTOCOL, f"the answer breaks the protocol schema: {problem}")
        return answer

    # -- the adapter interface -----------------------------------------------------------------
    def hello(self) -> Json:
        return dict(self._hello)

    def run(self, request: Request) -> Json | EngineError:
        return next(self.run_many([request], window=1))

    def run_many(self, requests: Iterable[Request], window: int = 16) -> Iterator[Json | EngineError]:
        """Answers to ``requests``, in order, keeping up to ``window`` of them in flight.

        An engine reads one line and answers it before the next, so sending ahead lets it work
        while the kit judges; an engine needs nothing special for it. After a failure that ends
        the engine, the requests it never answered are sent again to the next one. Each good
        answer is held until the engine's next line (or briefly), so that an answer sent twice
        is blamed on its own scenario.
        """
        waiting: deque[Request] = deque(requests)
        in_flight: deque[Request] = deque()
        held: _Held | None = None  # a good answer not yet released
        while waiting or in_flight:
            if not in_flight:
                running = self._running()
                if isinstance(running, EngineError):  # given up on: every request left says why, unsent
                    if held is not None:
                        yield self._release(held)
                    for _ in range(len(waiting)):
                        waiting.popleft()
                        yield running
                    return
                process = running
            while waiting and len(in_flight) < window:
                in_flight.append(waiting.popleft())
                self._send(process, {"cmd": "run", **in_flight[-1]})
            head = in_flight[0]
            deadline = time.monotonic() + self.timeout
            while True:
                event = process.next_event(min(deadline, time.monotonic() + SECOND_ANSWER_WAIT) if held else deadline)
                if event is None and held is not None:
                    yield self._release(held)  # no second copy in time: released, and the wait for the head goes on
                    held = None
                    continue
                answer = self._answer(process, event, "result", deadline, self.timeout)
                if held is not None and isinstance(answer, dict) and "id" in answer and answer["id"] == held[0]["id"]:
                    self._release(held)  # blamed on its own scenario; any copy after this one is set aside
                    yield answered_twice(str(held[0]["id"]))
                    held = None
                    continue
                if self._is_late_copy(event, answer.get("id") if isinstance(answer, dict) else None, head["id"], deadline):
                    continue
                break
            if held is not None:
                yield self._release(held)
                held = None
            in_flight.popleft()
            if isinstance(event, (Line, Overlong)):
                self._breaker.answered()
            elif isinstance(answer, EngineError) and answer.kind is ErrorKind.TIMEOUT:
                self._breaker.stall(str(answer))
            if isinstance(answer, dict) and _not_an_answer_to(head, answer):
                answer = self._answer_with_wrong_id(process, head, answer)
            if self._process is not process:  # the engine was ended: what it never answered goes to the next one
                waiting.extendleft(reversed(in_flight))
                in_flight.clear()
            if isinstance(answer, dict) and "id" in answer:
                held = (head, answer, hash(event.raw) if isinstance(event, Line) else None)
            else:
                yield answer  # an error, or an error answer without an id (it answers the request it came after)
        if held is not None:
            copy, released = self._second_copy_of(held), self._release(held)
            yield copy or released

    def _release(self, held: _Held) -> Json:
        """A held answer let go of: its id and line are remembered, so that a copy coming later is known for one."""
        rid = str(held[0]["id"])
        self._released.pop(rid, None)
        self._released[rid] = held[2]
        if len(self._released) > _RELEASED_KEPT:
            del self._released[next(iter(self._released))]
        return held[1]

    def _answer_with_wrong_id(self, process: EngineProcess, head: Request, answer: Json) -> EngineError:
        self._end(process)
        message = f"expected id {head['id']!r}, found {_shown_id(answer)}"
        return EngineError(ErrorKind.WRONG_ID, message + _tail(process, ended=True))

    def _is_late_copy(self, event: Event | None, late: object, awaited: object, deadline: float) -> bool:
        """Whether ``event``, an answer to ``late``, is a copy, byte for byte, of an answer let go of already, come in
        time while the kit awaits the answer to ``awaited``: then it is set aside, once for each answer (a further copy
        is an answer with the wrong id, so no engine keeps the kit reading copies), and taken by ``take_late_copies`` for
        whoever reports them (verify, the pytest plugin, fuzz, smoke)."""
        if not isinstance(late, str) or late == awaited or not isinstance(event, Line) or time.monotonic() >= deadline:
            return False
        if late not in self._released or self._released[late] != hash(event.raw):
            return False
        del self._released[late]
        self._late_copies.append(late)
        return True

    def take_late_copies(self) -> list[str]:
        """The ids of the answers set aside as late copies since this was last asked, oldest first."""
        taken, self._late_copies = self._late_copies, []
        return taken

    def _second_copy_of(self, held: _Held) -> EngineError | None:
        """The last answer of a batch: a second copy already waiting blames it; anything else waits its turn."""
        process = self._process
        if process is None:
            return None
        event = process.next_event(time.monotonic())
        if isinstance(event, Line) and _id_of(event) == held[0]["id"]:
            return answered_twice(str(held[0]["id"]))
        if event is not None:
            process.put_back(event)
        return None

    def probe(self, message: Json) -> Json | EngineError:
        """Send a message that is not a command of the protocol; the answer must be an error."""
        running = self._running()
        if isinstance(running, EngineError):
            return running
        self._send(running, message, outside_protocol=True)
        deadline = time.monotonic() + self.timeout
        while True:  # a late copy of a scenario's answer is set aside here too, not taken for this answer
            event = running.next_event(deadline)
            if not self._is_late_copy(event, _id_of(event), None, deadline):
                break
        answer = self._answer(running, event, "unknown_command", deadline, self.timeout)
        return self._unasked_line(running, answer) if isinstance(answer, dict) and _answers_nothing(answer) else answer

    def _unasked_line(self, process: EngineProcess, answer: Json) -> EngineError:
        """A line without an id that is no error, come where a probe's answer (an error) is awaited: a line nobody
        asked for, never that answer. The engine is ended, as after any answer with the wrong id."""
        self._end(process)
        message = f"expected an error, found a line nobody asked for (no id, and no error): {untrusted.json_text(answer, 200)}"
        return EngineError(ErrorKind.WRONG_ID, message + _tail(process, ended=True))

    def unasked(self, seconds: float) -> str | None:
        """A line the engine sends within ``seconds`` while nothing is asked of it, as safe text (smoke's last look
        for an answer sent twice); None if none comes."""
        process = self._process
        if process is None:
            return None
        event = process.next_event(time.monotonic() + seconds)
        if isinstance(event, Line):
            return untrusted.text(event.raw[:800].decode("utf-8", "replace").rstrip("\r\n"), 200)  # a line may be long
        if event is not None:
            process.put_back(event)  # an exit or a closed output: for close() to meet
        return None

    def close(self) -> None:
        """Ask the engine to stop; end it (and what it started) if it has not within a short grace. A run a signal is
        stopping ends it at once: the engine may be in the middle of a request it would finish first."""
        process, self._process = self._process, None
        if process is None:
            return
        if interrupt.stopping():
            process.end()
        else:
            process.stop(json.dumps({"cmd": "stop"}).encode() + b"\n", min(self.timeout, _STOP_GRACE))


class InProcessChecked:
    """An engine the kit did not write, loaded into the kit's process (``--in-process``), its every answer held to
    what a served engine's line is held to (``checked_answer``): a value no JSON line can carry, or one beyond the
    kit's limits, is an error of its scenario as it would be served, never a traceback, nor a run log or an
    expectation file the kit then refuses to read back. The kit's own engines (the reference, selfcheck's
    mutants of it) are not wrapped: their answers are JSON by construction, and reading each again would slow
    every run of the kit."""

    def __init__(self, engine: EngineAdapter, *, validate: bool = False) -> None:
        self._engine = engine
        self.validate = validate
        try:  # its handshake too: what a served engine could not send makes it unusable, as served
            self._hello: Json = untrusted.as_json(engine.hello())
        except untrusted.Unreadable as err:
            raise EngineUnusable(f"the engine's hello() is not JSON the protocol carries: {err}{_at(err.path)}") from None

    def hello(self) -> Json:
        return self._hello

    def run(self, request: Request) -> Json | EngineError:
        answer = self._engine.run(request)
        return answer if isinstance(answer, EngineError) else checked_answer(answer, request, validate=self.validate)

    def close(self) -> None:
        """Close the engine: what its close raises (its own code) is said as a warning, and its verdicts stand."""
        try:
            self._engine.close()
        except Exception as err:  # a misbehaving engine is reported, never a traceback
            from conformance.engines.adapter import describe_error

            print(f"warning: the engine's close() raised {describe_error(err)}", file=sys.stderr)


def checked_answer(
    answer: object, request: Request, *, validate: bool = False, max_line_bytes: int = MAX_LINE_BYTES
) -> Json | EngineError:
    """An in-process engine's answer to ``request`` as the kit would have it over the protocol: encoded as the
    server encodes it (what cannot be is a crash, as it is served: conformance/engines/serve.py), then read as a
    line of the engine's output is read (too long, a number beyond the kit's limits, a key twice, too deep: malformed;
    breaking the schema with ``validate``: a protocol error; another id: a wrong id). Each error names where in the
    answer the value is, as a JSON path, when it is known."""
    try:
        read = untrusted.as_json(answer, max_line_bytes)
    except untrusted.Unencodable as err:
        return EngineError(ErrorKind.CRASH, f"the engine's answer is not JSON: {err}{_at(err.path)}")
    except untrusted.Unreadable as err:
        return EngineError(ErrorKind.MALFORMED, f"{err}{_at(err.path)}")
    if not isinstance(read, dict):
        return EngineError(ErrorKind.MALFORMED, f"expected a JSON object, found {type(read).__name__}")
    if validate and (problem := _schema_problem(read, _definition_of(read, "result"))):
        return EngineError(ErrorKind.PROTOCOL, f"the answer breaks the protocol schema: {problem}")
    if _not_an_answer_to(request, read):
        return EngineError(ErrorKind.WRONG_ID, f"expected id {request['id']!r}, found {_shown_id(read)}")
    return read


def _at(path: tuple[str | int, ...]) -> str:
    return f" at {untrusted.text(format_path(path), 400)}" if path else ""


def _definition_of(answer: Json, answer_kind: str) -> str:
    """The schema definition an answer is checked against: an error without an id answers no request."""
    return "unknown_command" if "id" not in answer and "error" in answer else answer_kind


def _schema_problem(message: Json, definition: str) -> str | None:
    found = schemas.explain("protocol", message, f"/$defs/{definition}", most=3)
    return "; ".join(f"{format_path(path)}: {text}" for path, text, _ in found) or None


_SHELL_WORDS = frozenset({"cd", "export", "source", ".", "set", "exec"})  # what only a shell runs


def _id_of(event: Event | None) -> object:
    """The ``id`` a line of the engine's answers, if it is a JSON object that has one."""
    if not isinstance(event, Line):
        return None
    try:
        answer = untrusted.json_line(event.raw)
    except untrusted.Unreadable:
        return None
    return answer.get("id") if isinstance(answer, dict) else None


def answered_twice(rid: str) -> EngineError:
    """The error of a scenario (or a fuzz deal) its engine answered twice."""
    return EngineError(ErrorKind.EXTRA_ANSWER, f"the engine answered {rid!r} twice")


def _not_an_answer_to(head: Request, answer: Json) -> bool:
    """Whether ``answer`` is not the head request's: it has another id, or none though it is no error. Only an error
    may come without an id (an engine that could not read the request's); anything else without one is a line
    nobody asked for (a copy with its id taken out, a second handshake), never another scenario's answer to judge."""
    return answer["id"] != head["id"] if "id" in answer else "error" not in answer


def _answers_nothing(answer: Json) -> bool:
    """Whether ``answer`` has neither an id nor an error: a line nobody asked for (_not_an_answer_to)."""
    return "id" not in answer and "error" not in answer


def _shown_id(answer: Json) -> str:
    """The id an answer gave, for a message: a string as the kit writes ids, anything else as JSON, said to be so
    (its first 200 characters written, however large the engine made it)."""
    if "id" not in answer:
        return "no id"
    given = answer["id"]
    if isinstance(given, str):
        return repr(untrusted.text(given, 200))
    return f"{untrusted.json_text(given, 200)}, not a string"


def _tail(process: EngineProcess, *, ended: bool = False) -> str:
    """The last lines of the engine's standard error, for a message (waiting a moment for them once it is ended)."""
    return untrusted.tail("stderr", process.stderr_lines(settle=0.2 if ended else 0.0))


def _exit_said(status: int) -> str:
    """How the engine ended, awaited for an answer. Exiting with status 0 is its own choice, made before the kit asked it
    to stop (the kit asks once it needs no more answers): an engine that reads one request and exits makes it."""
    if status:
        return describe_exit(status)
    return f"{describe_exit(status)} before it was asked to stop (an engine answers request after request until it reads stop)"


def _cut_short(status: int | None, unreadable: EngineError) -> EngineError:
    """The error of a last line the engine's output closed after, with no newline, that is no JSON: the engine's
    exit (``status``, None if it runs on) cut it short, which is what went wrong, and what the line held follows."""
    if status is None:
        said = f"the engine closed its output in the middle of a line and kept running ({unreadable.message})"
        return EngineError(ErrorKind.CLOSED_OUTPUT, said)
    return EngineError(ErrorKind.CRASH, f"{describe_exit(status)} in the middle of a line ({unreadable.message})")


def _unreadable_hint(raw: bytes) -> str:
    """What a line the kit cannot read as JSON likely is, where its start tells: a byte order mark before the JSON
    (which some runtimes write first by default), or text written for people. An empty line or JSON wrong further
    on needs no more than the message says."""
    if raw.startswith(codecs.BOM_UTF8):
        return "; an engine writes UTF-8 without a byte order mark"
    if not raw.strip() or raw.lstrip()[:1] in (b"{", b"["):
        return ""
    return "; what the engine prints for people goes to standard error"


def _why_no_line(process: EngineProcess, answer_kind: str) -> str:
    """What a timeout is likeliest to come from, where the kit can tell: a line begun and never ended (the answer
    written without its newline) or, for the handshake, the start message never read (an engine slow to start, or one
    that reads no input), else a line never flushed, which the kit never sees."""
    unended = process.unended_bytes()
    if unended:
        return f" (the engine had written {_size(unended)} of a line without ending it: an engine ends each line with a newline)"
    if answer_kind != "started":
        return ""
    if process.unread_input():
        return " (the engine had not read the start message from its standard input: it was slow to start, or reads none)"
    return " (an engine must flush its standard output after each line)"


def _size(count: int) -> str:
    return f"{count // (1024 * 1024)} MiB" if count % (1024 * 1024) == 0 else f"{count} bytes"


def _handshake_problem(answer: Json | EngineError) -> str:
    """What is wrong with an answer to ``start``, or "" when it is a good one."""
    if isinstance(answer, EngineError):
        return f"handshake failed: {answer}"
    error = answer.get("error")
    if error is not None:
        if isinstance(error, dict):
            return f"handshake failed: {error.get('kind', 'error')}: {error.get('message', '')}"
        return f"handshake failed: {error}"
    if answer.get("started") is not True:
        return f'handshake failed: expected {{"started": true, ...}}, found {json.dumps(answer)[:120]}'
    protocol = answer.get("protocol")
    if type(protocol) is not int or protocol != VERSION:  # not true, nor 1.0: each equals 1 in Python
        return f"expected protocol {VERSION}, the engine speaks {untrusted.text(json.dumps(protocol), 80)}"
    implementation = answer.get("implementation")
    if not isinstance(implementation, dict):
        return "expected an implementation object in the handshake"
    # a declaration beside implementation, not in it, would be passed over: every field judged, say, in silence
    if misplaced := [key for key in ("variants", "reports") if key in answer]:
        return f"expected {misplaced[0]} inside implementation, found it beside implementation in the handshake"
    variants = implementation.get("variants")
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        return f"expected implementation.variants to list variant ids, found {json.dumps(variants)[:120]}"
    return untrusted.text(declaration_problem(implementation.get("reports"), "implementation.reports") or "", 300)
