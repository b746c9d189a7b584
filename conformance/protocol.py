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

Json = dict[str, Any]

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
        answer = self._exchange({"cmd": "start", "protocol": VERSION}, "started")
        if "error" in answer or answer.get("started") is not True:
            raise EngineUnusable(f"handshake failed: {answer.get('error', answer)}{self._stderr_tail()}")
        if answer.get("protocol") != VERSION:
            raise EngineUnusable(f"expected protocol {VERSION}, the engine speaks {answer.get('protocol')!r}")
        implementation = answer.get("implementation")
        if not isinstance(implementation, dict):
            raise EngineUnusable("expected an implementation object in the handshake")
        self._hello = implementation

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
        except EngineUnusable:
            self._proc = None

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
        errors = []
        for error in schemas.validator("protocol", f"/$defs/{definition}").iter_errors(message):
            for leaf in schemas.leaves(error):
                errors.append(f"{'/'.join(map(str, leaf.absolute_path)) or '$'}: {leaf.message}")
        return "; ".join(errors[:3]) or None

    def _exchange(self, message: Json, answer_kind: str, *, outside_protocol: bool = False) -> Json:
        """Send one message and read one answer; failures come back as ``{"error": ...}``."""
        failure = self._send(message, outside_protocol=outside_protocol)
        return failure if failure is not None else self._receive(answer_kind)

    def _send(self, message: Json, *, outside_protocol: bool = False) -> Json | None:
        problem = None if outside_protocol else self._check(message, str(message.get("cmd")))
        if problem:
            raise ValueError(f"the kit built a message that breaks the protocol: {problem}")
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise EngineUnusable("the engine is not running")
        try:
            proc.stdin.write(json.dumps(message, separators=(",", ":")) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return self._failure("crash", "the engine closed its input")
        return None

    def _receive(self, answer_kind: str) -> Json:
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            return self._failure("timeout", f"no answer within {self.timeout:g} s")
        if line is _EOF:
            code = self._proc.wait(timeout=5) if self._proc is not None else None
            return self._failure("crash", f"the engine exited with status {code}")
        try:
            answer = json.loads(line)
        except json.JSONDecodeError as err:
            return self._failure("malformed", f"expected one JSON object per line, found {line[:80]!r} ({err.msg})")
        if not isinstance(answer, dict):
            return self._failure("malformed", f"expected a JSON object, found {type(answer).__name__}")
        problem = self._check(answer, "unknown_command" if "id" not in answer and "error" in answer else answer_kind)
        if problem:
            return self._failure("protocol", f"the answer breaks the protocol schema: {problem}", restart=False)
        return answer

    def _failure(self, kind: str, message: str, *, restart: bool = True) -> Json:
        error = {"error": {"kind": kind, "message": message + self._stderr_tail()}}
        if restart and self._hello:
            self._restart()
        return error

    # -- the adapter interface -----------------------------------------------------------------
    def hello(self) -> Json:
        return dict(self._hello)

    def run(self, request: Json) -> Json:
        return next(self.run_many([request], window=1))

    def run_many(self, requests: Iterable[Json], window: int = 8) -> Iterator[Json]:
        """Answers to ``requests``, in order, keeping up to ``window`` of them in flight.

        An engine reads one line and answers it before the next, so sending ahead lets it work
        while the kit judges; an engine needs nothing special for it. After a failure the
        engine is restarted and the requests it never answered are sent again.
        """
        waiting: deque[Json] = deque(requests)
        in_flight: deque[Json] = deque()
        while waiting or in_flight:
            if self._proc is None:
                self._restart()
                if self._proc is None:
                    request = (in_flight or waiting).popleft()
                    yield {"id": request.get("id"), "error": {"kind": "crash", "message": "the engine cannot be restarted"}}
                    continue
            failure = None
            while waiting and len(in_flight) < window and failure is None:
                in_flight.append(waiting.popleft())
                failure = self._send({"cmd": "run", **in_flight[-1]})
            if failure is not None:  # the engine died: the oldest request gets the blame, the rest go again
                request = in_flight.popleft()
                waiting.extendleft(reversed(in_flight))
                in_flight.clear()
                yield {"id": request.get("id"), **failure}
                continue
            request = in_flight.popleft()
            restarts = self.restarts
            answer = self._receive("result")
            if "id" not in answer and "error" in answer:
                answer = {"id": request.get("id"), **answer}
            elif answer.get("id") != request.get("id"):
                failure = self._failure("wrong_id", f"expected id {request.get('id')!r}, found {answer.get('id')!r}")
                answer = {"id": request.get("id"), **failure}
            if self.restarts != restarts or self._proc is None:
                waiting.extendleft(reversed(in_flight))  # never answered: send again to the new process
                in_flight.clear()
            yield answer

    def probe(self, message: Json) -> Json:
        """Send a message that is not a command of the protocol; the answer must be an error."""
        return self._exchange(message, "unknown_command", outside_protocol=True)

    def close(self) -> None:
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
