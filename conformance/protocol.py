"""The kit's side of the engine protocol: one engine process, JSON lines over stdin/stdout.

Every way an engine can misbehave (a timeout, an exit, a line that is not JSON, a wrong id,
a message that breaks the schema in validating mode) becomes an error answer for that one
scenario, the engine is restarted, and the run goes on.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from typing import IO, Any

from conformance import schemas
from conformance.messages import Request
from conformance.vocabulary import EngineError, ErrorKind
from specreader.jsontypes import Json
from specreader.problems import format_path

VERSION = 1
_EOF = object()


class EngineUnusable(Exception):
    """The engine cannot be started or does not complete the handshake."""


def split_command(command: str) -> list[str]:
    """``"program args"`` split as a shell would, without running a shell."""
    argv = shlex.split(command)
    if not argv:
        raise EngineUnusable("expected a command, found an empty string")
    return argv


def _pump(stream: IO[str], sink: Any) -> None:
    for line in stream:
        sink(line)
    sink(_EOF)


class SubprocessAdapter:
    """Drives an engine process that speaks protocol version 1."""

    def __init__(self, argv: list[str], *, timeout: float = 10.0, validate: bool = False) -> None:
        self.argv = argv
        self.timeout = timeout
        self.validate = validate
        self.stderr: deque[str] = deque(maxlen=50)
        self.restarts = 0
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[Any] = queue.Queue()
        self._hello: Json = {}
        self._unusable = ""  # why a restart failed: from then on every request is answered with it, unsent
        self._spawn()

    # -- process ---------------------------------------------------------------------------
    def _spawn(self) -> None:
        try:
            proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                bufsize=1,
            )
        except OSError as err:
            raise EngineUnusable(f"cannot start {shlex.join(self.argv)}: {err.strerror or err}") from None
        self._proc = proc
        self._lines = queue.Queue()
        assert proc.stdout is not None and proc.stderr is not None
        threading.Thread(target=_pump, args=(proc.stdout, self._lines.put), daemon=True).start()
        threading.Thread(target=_pump, args=(proc.stderr, self._keep_stderr), daemon=True).start()
        # A failed handshake must not restart the engine: that would start another handshake, and so on.
        answer = self._exchange({"cmd": "start", "protocol": VERSION}, "started", restart=False)
        problem = _handshake_problem(answer)
        if problem:
            self._kill()
            # an EngineError already carries the stderr tail; an engine's own error speaks for itself
            told = isinstance(answer, EngineError) or "error" in answer
            raise EngineUnusable(problem if told else problem + self._stderr_tail())
        assert not isinstance(answer, EngineError)
        self._hello = answer["implementation"]

    def _keep_stderr(self, line: Any) -> None:
        if line is not _EOF:
            self.stderr.append(str(line).rstrip("\n"))

    def _stderr_tail(self) -> str:
        return ("; stderr: " + " | ".join(list(self.stderr)[-5:])) if self.stderr else ""

    def _restart(self) -> None:
        self._kill()
        self.restarts += 1
        try:
            self._spawn()
        except EngineUnusable as err:
            self._unusable = str(err)

    def _kill(self) -> None:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait(timeout=5)
        self._proc = None

    # -- messages ----------------------------------------------------------------------------
    def _check(self, message: Json, definition: str) -> str | None:
        if not self.validate:
            return None
        found = schemas.explain(schemas.validator("protocol", f"/$defs/{definition}"), message)
        return "; ".join(f"{format_path(path)}: {text}" for path, text, _ in found[:3]) or None

    def _exchange(
        self, message: Json, answer_kind: str, *, outside_protocol: bool = False, restart: bool = True
    ) -> Json | EngineError:
        """Send one message and read one answer; what goes wrong comes back as an EngineError."""
        failure = self._send(message, outside_protocol=outside_protocol, restart=restart)
        return failure if failure is not None else self._receive(answer_kind, restart=restart)

    def _send(self, message: Json, *, outside_protocol: bool = False, restart: bool = True) -> EngineError | None:
        problem = None if outside_protocol else self._check(message, str(message.get("cmd")))
        if problem:
            raise ValueError(f"the kit built a message that breaks the protocol: {problem}")
        proc = self._proc
        if proc is None or proc.stdin is None:
            return self._failure(ErrorKind.CRASH, self._unusable or "the engine is not running", restart=False)
        try:
            proc.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return self._failure(ErrorKind.CRASH, "the engine closed its input", restart=restart)
        return None

    def _receive(self, answer_kind: str, *, restart: bool = True) -> Json | EngineError:
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            return self._failure(ErrorKind.TIMEOUT, f"no answer within {self.timeout:g} s", restart=restart)
        if line is _EOF:
            return self._failure(ErrorKind.CRASH, self._how_it_ended(), restart=restart)
        try:
            answer = json.loads(line)
        except json.JSONDecodeError as err:
            return self._failure(
                ErrorKind.MALFORMED, f"expected one JSON object per line, found {line[:80]!r} ({err.msg})", restart=restart
            )
        if not isinstance(answer, dict):
            return self._failure(ErrorKind.MALFORMED, f"expected a JSON object, found {type(answer).__name__}", restart=restart)
        problem = self._check(answer, "unknown_command" if "id" not in answer and "error" in answer else answer_kind)
        if problem:
            return self._failure(ErrorKind.PROTOCOL, f"the answer breaks the protocol schema: {problem}", restart=False)
        return answer

    def _how_it_ended(self) -> str:
        """Why the engine's output ended: it exited (with what status), or it closed its output and lives on."""
        proc = self._proc
        try:
            code = proc.wait(timeout=5) if proc is not None else None
        except subprocess.TimeoutExpired:
            return "the engine closed its output"
        return f"the engine exited with status {code}"

    def _failure(self, kind: ErrorKind, message: str, *, restart: bool) -> EngineError:
        error = EngineError(kind, message + self._stderr_tail())
        if restart:
            self._restart()
        return error

    # -- the adapter interface -----------------------------------------------------------------
    def hello(self) -> Json:
        return dict(self._hello)

    def run(self, request: Request) -> Json | EngineError:
        return next(self.run_many([request], window=1))

    def run_many(self, requests: Iterable[Request], window: int = 16) -> Iterator[Json | EngineError]:
        """Answers to ``requests``, in order, keeping up to ``window`` of them in flight.

        An engine reads one line and answers it before the next, so sending ahead lets it work
        while the kit judges; an engine needs nothing special for it. After a failure the
        engine is restarted and the requests it never answered are sent again.
        """
        waiting: deque[Request] = deque(requests)
        in_flight: deque[Request] = deque()
        while waiting or in_flight:
            if self._proc is None:  # a restart failed: say why for each request left, and send nothing more
                request = (in_flight or waiting).popleft()
                yield EngineError(ErrorKind.CRASH, f"the engine cannot be restarted: {self._unusable or 'it is not running'}")
                continue
            failure = None
            while waiting and len(in_flight) < window and failure is None:
                in_flight.append(waiting.popleft())
                failure = self._send({"cmd": "run", **in_flight[-1]})
            if failure is not None:  # the engine died: the oldest request gets the blame, the rest go again
                request = in_flight.popleft()
                waiting.extendleft(reversed(in_flight))
                in_flight.clear()
                yield failure
                continue
            request = in_flight.popleft()
            restarts = self.restarts
            answer = self._receive("result")
            if isinstance(answer, EngineError) or ("id" not in answer and "error" in answer):
                pass  # an error without an id answers the request it came after
            elif answer.get("id") != request.get("id"):
                answer = self._failure(
                    ErrorKind.WRONG_ID, f"expected id {request.get('id')!r}, found {answer.get('id')!r}", restart=True
                )
            if self.restarts != restarts or self._proc is None:
                waiting.extendleft(reversed(in_flight))  # never answered: send again to the new process
                in_flight.clear()
            yield answer

    def probe(self, message: Json) -> Json | EngineError:
        """Send a message that is not a command of the protocol; the answer must be an error."""
        return self._exchange(message, "unknown_command", outside_protocol=True)

    def close(self) -> None:
        """Ask the engine to stop, and kill it if it does not within the timeout."""
        proc = self._proc
        if proc is None:
            return
        try:
            if proc.stdin is not None and proc.poll() is None:
                proc.stdin.write(json.dumps({"cmd": "stop"}) + "\n")
                proc.stdin.close()
            proc.wait(timeout=self.timeout)
        except (BrokenPipeError, OSError, subprocess.TimeoutExpired):
            pass
        self._kill()


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
    if answer.get("protocol") != VERSION:
        return f"expected protocol {VERSION}, the engine speaks {answer.get('protocol')!r}"
    implementation = answer.get("implementation")
    if not isinstance(implementation, dict):
        return "expected an implementation object in the handshake"
    variants = implementation.get("variants")
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        return f"expected implementation.variants to list variant ids, found {json.dumps(variants)[:120]}"
    return ""
