"""Misbehaving engines for the hostile battery, and the means to check that none outlives its run.

``engine(tmp_path, mode, hostile)`` writes a small protocol engine to ``tmp_path`` and returns the
command that runs it. It answers every scenario with a harmless setup error ("benign"), except the
scenarios named in ``hostile`` (``"*"``: all of them), on which it misbehaves as ``mode`` says. Every engine process
starts a child that ignores SIGTERM (so only a SIGKILL to the group ends it) and records both
pids in ``tmp_path / "pids"``, so a test can check that nothing is left running. With ``ESCAPES`` set in
its environment it also starts a process in a session of its own that holds its three pipes open, its pid
recorded in ``tmp_path / "escaped"`` (``end_escaped``).
"""

from __future__ import annotations

import _thread
import contextlib
import enum
import os
import signal
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conformance.suite import scenarios
from conformance.suite.scenarios import Scenario

ENGINE = r'''
import json, os, signal, subprocess, sys, time

MODE, HOSTILE, PIDS = sys.argv[1], set(sys.argv[2].split(",")), sys.argv[3]
out = sys.stdout.buffer


def record(kind, pid):
    with open(os.path.join(PIDS, f"{kind}-{pid}"), "w"):
        pass


def send(message, times=1):
    out.write((json.dumps(message) + "\n").encode() * times)
    out.flush()


record("engine", os.getpid())
# A child that ignores SIGTERM; in one mode it also holds the engine's standard output open.
child = subprocess.Popen(
    ["sh", "-c", "trap '' TERM; exec sleep 120"],
    stdin=subprocess.DEVNULL,
    stdout=None if MODE == "crash-child-holds-output" else subprocess.DEVNULL,
    stderr=subprocess.DEVNULL,
)
record("child", child.pid)
if os.environ.get("ESCAPES"):  # a process in a session of its own holding the engine's pipes: out of the kit's reach
    escaped = subprocess.Popen(["sh", "-c", "trap '' TERM; exec sleep 120"], start_new_session=True)
    with open(os.path.join(PIDS, os.pardir, "escaped"), "a") as escapes:
        escapes.write(f"{escaped.pid}\n")
sys.stderr.write(f"engine {os.getpid()} started\n")
if MODE == "stderr-not-utf8":  # enough to fill the pipe, were nobody reading it
    sys.stderr.buffer.write(b"\xff\xfe\xc3\x28 not UTF-8\n" * 20000)
sys.stderr.flush()
if MODE == "slow-handshake":
    time.sleep(float(os.environ.get("HANDSHAKE_SECONDS", "0")))
if MODE == "second-start-slow":
    starts = os.path.join(PIDS, "starts")
    with open(starts, "a") as count:
        count.write("x")
    if os.path.getsize(starts) == 2:
        time.sleep(10)

if MODE == "reads-nothing":  # its input never read: not even the start message
    time.sleep(120)
HELLO = {"started": True, "protocol": 1, "implementation":
         {"name": "hostile", "version": "0", "language": "python", "variants": ["albastini-2p"]}}
runs = 0
copy = None  # copy-after-next: an answer sent again after the next one
for raw in sys.stdin.buffer:
    message = json.loads(raw)
    if message["cmd"] == "start":
        if MODE == "unflushed-handshake":  # its line written to a buffer never flushed: the kit never sees it
            unflushed = os.fdopen(os.dup(1), "wb", buffering=65536)
            unflushed.write((json.dumps(HELLO) + "\n").encode())
            continue
        if MODE == "unended-handshake":  # flushed, but with no newline: never a line
            out.write(json.dumps(HELLO).encode())
            out.flush()
            continue
        send(HELLO)
        continue
    if message["cmd"] == "stop":
        record("stopped", os.getpid())
        if MODE == "ignores-stop":  # and SIGTERM, and the end of its input: only SIGKILL ends it
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            time.sleep(120)
        break
    if message["cmd"] != "run":
        if MODE == "unknown-copy-without-id":  # first, a line of observations with no id: it answers nothing
            send({"observations": [{"phase": "play"}]})
        elif MODE == "unknown-second-handshake":
            send(HELLO)
        send({"error": {"kind": "unknown_command", "message": "unknown"}})
        if MODE == "unknown-twice":  # the answer to a message that is not a command, twice
            send({"error": {"kind": "unknown_command", "message": "unknown"}})
        continue
    rid, previous = message["id"], locals().get("rid")
    benign = {"id": rid, "error": {"kind": "setup", "message": "benign"}}
    runs += 1
    if MODE == "two-then-hang" and runs > 2:
        time.sleep(600)
    if MODE == "signals-the-kit" and runs == 1:  # SIGTERM to the kit as it waits for the answer, which comes after
        os.kill(os.getppid(), signal.SIGTERM)
        time.sleep(0.3)
    if MODE == "hang-all" or (rid not in HOSTILE and "*" not in HOSTILE and MODE != "stderr-not-utf8"):
        if MODE == "hang-all":
            time.sleep(120)
        send(benign)
        if copy is not None:
            send(copy)
            while MODE == "copies-forever":
                send(copy)
            copy = None
        continue
    if MODE == "stderr-not-utf8":
        sys.stderr.buffer.write(b"\xff\xfe more bytes that are not UTF-8\n")
        sys.stderr.flush()
        send(benign)
    elif MODE in ("crash", "crash-child-holds-output", "second-start-slow"):
        sys.stderr.write(f"engine {os.getpid()} falls over\n")
        sys.stderr.flush()
        sys.exit(7)
    elif MODE == "crash-quietly":
        sys.exit(9)
    elif MODE == "one-request":  # its answer, and then it exits, as if each run of it answered one request
        send(benign)
        sys.exit(0)
    elif MODE == "hang":
        time.sleep(120)
    elif MODE == "byte-order-mark":  # as some runtimes begin what they write in UTF-8
        out.write(b"\xef\xbb\xbf" + json.dumps(benign).encode() + b"\n")
        out.flush()
    elif MODE == "empty-line":  # a line with nothing on it, before the answer
        out.write(b"\n")
        send(benign)
    elif MODE in ("cut-then-exit", "cut-then-close"):  # half its answer, with no newline, and then its output ends
        out.write(json.dumps(benign).encode()[:20])
        out.flush()
        if MODE == "cut-then-exit":
            sys.exit(5)
        os.close(1)
        time.sleep(120)
    elif MODE == "unended":  # its answer, flushed, with no newline: never a line
        out.write(json.dumps(benign).encode())
        out.flush()
        time.sleep(120)
    elif MODE == "closed-output":
        os.close(1)
        time.sleep(120)
    elif MODE == "stdout-not-utf8":
        out.write(b'{"id": "\xff\xfe"}\n')
        out.flush()
    elif MODE == "deep":
        out.write(b"[" * 100000 + b"]" * 100000 + b"\n")
        out.flush()
    elif MODE == "deep-ish":
        send({"id": rid, "observations": json.loads("[" * 150 + "]" * 150)})
    elif MODE == "overlong":
        send({"id": rid, "padding": "x" * int(os.environ["PADDING"])})
    elif MODE == "wrong-id":
        send({"id": "someone-else", "error": {"kind": "setup", "message": "benign"}})
    elif MODE == "number-id":
        send({"id": 12345, "error": {"kind": "setup", "message": "benign"}})
    elif MODE == "copy-without-id":  # its answer, then a line of observations with no id, which answers nothing
        send(benign)
        send({"observations": [{"phase": "play"}]})
    elif MODE == "flood":  # its answer, then lines without end
        send(benign)
        while True:
            out.write(b"{}\n" * 65536)
    elif MODE == "stderr-flood":  # standard error without end, and no answer
        while True:
            sys.stderr.buffer.write(b"x" * 65535 + b"\n")
    elif MODE == "twice":
        send(benign, times=2)
    elif MODE == "stale-id":  # the id of the answer before, on an answer of its own
        send({"id": previous, "error": {"kind": "setup", "message": "stale"}})
    elif MODE in ("copy-after-next", "copies-forever"):
        send(benign)
        copy = benign
    elif MODE == "lone-surrogate":  # json.dumps writes it as the escape \ud800
        send({"id": rid, "error": {"kind": "setup", "message": "half a pair: \ud800"}})
    elif MODE == "key-twice":  # which error counts? readers disagree
        out.write(('{"id": "%s", "error": {"kind": "setup", "message": "benign"}, "error": null}\n' % rid).encode())
        out.flush()
'''


SERVED = r'''
import os, subprocess, sys

PIDS = sys.argv[1]
child = subprocess.Popen(["sh", "-c", "trap '' TERM; exec sleep 120"], stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
for kind, pid in (("engine", os.getpid()), ("child", child.pid)):
    with open(os.path.join(PIDS, f"{kind}-{pid}"), "w"):
        pass
from conformance.engines.serve import main

raise SystemExit(main([]))
'''


def served_reference(tmp_path: Path) -> list[str]:
    """The command of the reference engine served over the protocol, which plays every deal right, starting a child
    that ignores SIGTERM and recording both pids as ``engine`` does: for a run that must judge many deals, and end
    its engines with all they started."""
    script = tmp_path / "served.py"
    script.write_text(SERVED, encoding="utf-8")
    pids = tmp_path / "pids"
    pids.mkdir(exist_ok=True)
    return [sys.executable, str(script), str(pids)]


def engine(tmp_path: Path, mode: str, hostile: list[Scenario] | str | None = None) -> list[str]:
    """The command of an engine misbehaving as ``mode`` on the ``hostile`` scenarios (``"*"``: on all)."""
    script = tmp_path / "engine.py"
    script.write_text(textwrap.dedent(ENGINE), encoding="utf-8")
    pids = tmp_path / "pids"
    pids.mkdir(exist_ok=True)
    named = hostile if isinstance(hostile, str) else ",".join(s.id for s in hostile or [])
    return [sys.executable, str(script), mode, named or "-", str(pids)]


def end_escaped(tmp_path: Path) -> list[int]:
    """Kill the processes the engines of ``tmp_path`` started in sessions of their own (``ESCAPES``), which the kit
    does not reach (docs/protocol.md); their pids, each still running until then."""
    escapes = tmp_path / "escaped"
    pids = [int(line) for line in escapes.read_text(encoding="utf-8").split()] if escapes.exists() else []
    running = [pid for pid in pids if alive(pid)]
    for pid in running:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return running


def threads_left(before: set[threading.Thread]) -> list[str]:
    """The threads running now that did not run at ``before`` (a ``set(threading.enumerate())``), by their names."""
    return [thread.name for thread in threading.enumerate() if thread not in before]


def two_player(count: int) -> list[Scenario]:
    """The first ``count`` two-player Albastini scenarios: the only variant the engines declare."""
    return [s for s in scenarios.kit_scenarios() if s.variant == "albastini-2p"][:count]


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie, ended and waiting to be reaped, does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            return stat.read().rsplit(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def started(tmp_path: Path) -> dict[str, list[int]]:
    """The pids of every engine process and child the engines of ``tmp_path`` started, and (``stopped``) of each
    engine that read the kit's ``stop``."""
    found: dict[str, list[int]] = {"engine": [], "child": [], "stopped": []}
    for path in (tmp_path / "pids").glob("*-*"):
        kind, pid = path.name.split("-")
        found[kind].append(int(pid))
    return found


def end_started(tmp_path: Path) -> None:
    """Kill every engine process and child the engines of ``tmp_path`` recorded that still runs: what a test failing
    midway leaves, for they run in sessions of their own, which ending the kit's process group does not reach."""
    pids = started(tmp_path)
    for pid in pids["engine"] + pids["child"]:
        if alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def assert_nothing_left(tmp_path: Path, wait: float = 2.0, *, each_started_its_child: bool = True) -> None:
    """Every engine process and every child it started has ended (within ``wait`` seconds: a
    process killed a moment ago may take that long to be reaped). Each engine starts its child as
    it starts, unless the kit ended it before (``each_started_its_child`` false: one ended during
    its first moments, which a loaded machine may make longer than the kit waited)."""
    pids = started(tmp_path)
    assert pids["engine"] and pids["child"], pids
    assert len(pids["child"]) == len(pids["engine"]) or not each_started_its_child, pids
    deadline = time.monotonic() + wait
    while (left := [pid for pid in pids["engine"] + pids["child"] if alive(pid)]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"still running: {left}"


class HangsOnThreePlayers:
    """An in-process engine (the reference's API): the reference engine, except that setting up a
    three-player deal never returns."""

    @classmethod
    def new(cls, variant_id: str, setup: dict[str, object]) -> object:
        from reference import Engine

        if variant_id == "albastini-3p":
            time.sleep(3600)
        return Engine.new(variant_id, setup)


class LeavesAThread:
    """An in-process engine: the reference engine, except that each deal it sets up starts a thread,
    no daemon, that sleeps for an hour (Python's exit would wait for it)."""

    @classmethod
    def new(cls, variant_id: str, setup: dict[str, object]) -> object:
        from reference import Engine

        threading.Thread(target=time.sleep, args=(3600,), daemon=False).start()  # a daemon by default on a daemon thread
        return Engine.new(variant_id, setup)


class StartsAChild:
    """The reference engine, except that each deal it sets up starts a child process that sleeps for an hour
    with the engine's output streams: a process the kit must end with the engine's."""

    @classmethod
    def new(cls, variant_id: str, setup: dict[str, object]) -> object:
        import subprocess

        from reference import Engine

        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
        return Engine.new(variant_id, setup)


class HangsAlways:
    """An in-process engine that never returns from setting up a deal."""

    @classmethod
    def new(cls, variant_id: str, setup: dict[str, object]) -> object:
        time.sleep(3600)
        raise AssertionError("unreachable")


class ExitsOnSetup:
    """An in-process engine that calls sys.exit while setting up a deal."""

    @classmethod
    def new(cls, variant_id: str, setup: dict[str, object]) -> object:
        sys.exit(5)


class ExitsOnPlay:
    """An in-process engine (the reference's) that calls sys.exit when asked to apply an action."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    @classmethod
    def new(cls, variant_id: str, setup: dict[str, object]) -> ExitsOnPlay:
        from reference import Engine

        return cls(Engine.new(variant_id, setup))

    def legal_actions(self) -> list[dict[str, object]]:
        return self.engine.legal_actions()  # type: ignore[no-any-return]

    def snapshot(self) -> dict[str, object]:
        return self.engine.snapshot()  # type: ignore[no-any-return]

    def apply(self, action: dict[str, object]) -> object:
        sys.exit(6)


class _Unreadable(Exception):
    def __str__(self) -> str:
        raise _Unreadable()


class _RaisingEq:
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("an engine's __eq__")

    __hash__ = None  # type: ignore[assignment]


class _RaisingItems(dict):  # type: ignore[type-arg]
    def items(self):  # type: ignore[no-untyped-def]
        raise RuntimeError("an engine's items()")


def _cycle() -> list[object]:
    loop: list[object] = []
    loop.append(loop)
    return loop


def _nested(depth: int) -> list[object]:
    value: list[object] = []
    for _ in range(depth):
        value = [value]
    return value


# What an in-process engine's snapshot may hold in place of to_act that no JSON line can carry.
NOT_JSON: dict[str, Callable[[], object]] = {
    "a set": lambda: {1},
    "bytes": lambda: b"1",
    "an object": object,
    "an Enum member": lambda: enum.Enum("Seat", "ONE").ONE,
    "NaN": lambda: float("nan"),
    "an int too long for str()": lambda: 10**5000,
    "an int beyond the kit's limit": lambda: 10**16,
    "an __eq__ that raises": _RaisingEq,
    "a cycle": _cycle,
    "a nesting deeper than any line's": lambda: _nested(200),
    "a nesting deeper than the recursion limit": lambda: _nested(200_000),
    "a mapping whose items() raises": lambda: _RaisingItems(seat=1),
}


class ReportsOddly:
    """The reference engine, except that its snapshot's to_act is ``ReportsOddly.value()`` (NOT_JSON)."""

    value: Callable[[], object] = staticmethod(lambda: 1)

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    @classmethod
    def new(cls, variant_id: str, setup: dict[str, object]) -> ReportsOddly:
        from reference import Engine

        return cls(Engine.new(variant_id, setup))

    def legal_actions(self) -> list[dict[str, object]]:
        return list(self.engine.legal_actions())

    def apply(self, action: dict[str, object]) -> object:
        return self.engine.apply(action)

    def snapshot(self) -> dict[str, object]:
        return {**self.engine.snapshot(), "to_act": type(self).value()}


class HelloOddly:
    """An adapter over the reference whose handshake names its version as a set: no protocol line carries it."""

    def __init__(self) -> None:
        from conformance.engines.adapter import reference_adapter

        self.inner = reference_adapter()

    def hello(self) -> dict[str, object]:
        return {**self.inner.hello(), "version": {1, 2}}

    def run(self, request: Any) -> Any:
        return self.inner.run(request)

    def close(self) -> None:
        self.inner.close()


class ClosesBadly(HelloOddly):
    """An adapter over the reference whose close raises, its message holding a terminal control sequence."""

    def hello(self) -> dict[str, object]:
        return dict(self.inner.hello())

    def close(self) -> None:
        self.inner.close()
        raise RuntimeError("cannot close \x1b[31mred")


class RaisesUnreadably:
    """An in-process engine whose apply raises an exception whose message itself raises."""

    @classmethod
    def new(cls, variant_id: str, setup: dict[str, object]) -> RaisesUnreadably:
        return cls()

    def legal_actions(self) -> list[dict[str, object]]:
        return []

    def snapshot(self) -> dict[str, object]:
        return {}

    def apply(self, action: dict[str, object]) -> object:
        raise _Unreadable()


LOUD = "\x1b[2J\x1b]0;pwned\x07loud"  # what Loud prints: it would clear a terminal and retitle it


class Loud:
    """The reference engine, printing ``LOUD`` to both streams at every call; at its first action it
    closes ``sys.stdout``, puts something else in ``sys.stderr``'s place, prints again and raises.
    With ``hang_after`` set it sleeps that many seconds at its first action instead, then raises."""

    hang_after: float = 0.0

    def __init__(self, engine: Any) -> None:
        self.engine = engine

    @classmethod
    def new(cls, variant_id: str, setup: dict[str, object]) -> Loud:
        from reference import Engine

        print(LOUD, "in new")
        sys.stderr.write(f"{LOUD} on stderr\n")
        return cls(Engine.new(variant_id, setup))

    def legal_actions(self) -> list[dict[str, object]]:
        print(LOUD, "in legal_actions")
        return self.engine.legal_actions()  # type: ignore[no-any-return]

    def snapshot(self) -> dict[str, object]:
        print(LOUD, "in snapshot", flush=True)
        return self.engine.snapshot()  # type: ignore[no-any-return]

    def apply(self, action: dict[str, object]) -> object:
        print(f"{LOUD} about to apply")
        if self.hang_after:  # and then fail quietly: the kit waits no more, and its streams may be pytest's again
            time.sleep(self.hang_after)
            raise RuntimeError("too late")
        sys.stdout.close()
        sys.stderr = None
        print("last words")  # print() with sys.stdout closed: what the kit must survive
        raise RuntimeError("loud and broken")


class _Raiser:
    """A stream whose every use fails."""

    def write(self, text: str) -> int:
        raise OSError("the engine's stream is broken")

    def flush(self) -> None:
        raise OSError("the engine's stream is broken")


class Replaces(Loud):
    """Loud, but at its first action it puts ``Replaces.stream()`` in place of both of the kit's
    streams and then stalls for ``hang_after`` seconds: the kit waits no more, and must still speak."""

    stream: Callable[[], object] = staticmethod(_Raiser)
    hang_after = 2.0

    def apply(self, action: dict[str, object]) -> object:
        sys.stdout = sys.stderr = self.stream()  # type: ignore[assignment]
        time.sleep(self.hang_after)
        raise RuntimeError("too late")


class Chatty(Loud):
    """Loud, with a thread of its own that prints ``LOUD`` every hundredth of a second until
    ``wait_for_chatters`` is called, once the kit has returned: so it prints both while its engine is
    open and after the kit has closed it, however slow the machine. ``Chatty.chatters`` counts the
    threads still printing."""

    start_thread: Callable[[Callable[[], None]], object] = staticmethod(
        lambda chatter: threading.Thread(target=chatter, daemon=True).start())
    chatters = 0
    _chatters_changed = threading.Condition()
    _stop = threading.Event()

    @classmethod
    def new(cls, variant_id: str, setup: dict[str, object]) -> Loud:
        def chatter() -> None:
            try:
                for _ in range(3000):  # thirty seconds at most, should no test stop it
                    print(LOUD, "from the engine's own thread")
                    if Chatty._stop.wait(0.01):
                        break
            finally:
                with Chatty._chatters_changed:
                    Chatty.chatters -= 1
                    Chatty._chatters_changed.notify_all()

        with Chatty._chatters_changed:
            Chatty.chatters += 1
        cls.start_thread(chatter)
        return super().new(variant_id, setup)

    @staticmethod
    def wait_for_chatters(timeout: float = 30.0) -> None:
        """Stops every chatter thread and waits until each has printed all it will."""
        Chatty._stop.set()
        with Chatty._chatters_changed:
            assert Chatty._chatters_changed.wait_for(lambda: Chatty.chatters == 0, timeout), "a chatter still prints"
        Chatty._stop.clear()

    def apply(self, action: dict[str, object]) -> object:
        time.sleep(0.1)
        raise RuntimeError("chatty and broken")


class Reconfigures(Loud):
    """Loud, at its first action re-encoding ``sys.stdout`` as ASCII (a common way to force an
    encoding), then writing bytes to its buffer and to what ``detach`` gives: all of which would act
    on the kit's own stream."""

    def apply(self, action: dict[str, object]) -> object:
        sys.stdout.reconfigure(encoding="ascii")  # type: ignore[attr-defined]
        print("é, after reconfigure")
        sys.stdout.buffer.write("é, to the buffer\n".encode())  # type: ignore[attr-defined]
        sys.stdout.detach().write("é, detached\n".encode())  # type: ignore[attr-defined]
        raise RuntimeError("re-encoded")


class RawChatty(Chatty):
    """Chatty, its thread started with ``_thread``, which ``threading`` does not list."""

    start_thread = staticmethod(lambda chatter: _thread.start_new_thread(chatter, ()))


class ReadsInput(Loud):
    """Loud, reading a line of its standard input at each action: served, that is the protocol's channel."""

    def apply(self, action: dict[str, object]) -> object:
        print(f"read {sys.stdin.readline()!r}")
        return self.engine.apply(action)


class ExitsWithText:
    """An in-process engine that calls ``sys.exit`` with a message in ``new``: the message is no refusal code."""

    @classmethod
    def new(cls, variant_id: str, setup: dict[str, object]) -> object:
        sys.exit("invalid_setup")


class _Code(enum.Enum):
    NOT_YOUR_TURN = "not_your_turn"


class _Refusal:
    def __init__(self, code: object, message: str) -> None:
        self.code = code
        self.message = message


class RefusesWithEnum(ReportsOddly):
    """The reference engine, except that it refuses every action with an Enum for its code: no JSON."""

    def apply(self, action: dict[str, object]) -> object:
        return _Refusal(_Code.NOT_YOUR_TURN, "refused with an Enum")


class ChangesDirectory(ReportsOddly):
    """The reference engine, except that it moves the process to ``ChangesDirectory.to`` as each deal
    starts: a path the kit was given relative to where it started then points elsewhere."""

    to = Path("/")

    @classmethod
    def new(cls, variant_id: str, setup: dict[str, object]) -> ReportsOddly:
        os.chdir(cls.to)
        return super().new(variant_id, setup)


class _BeyondException(BaseException):
    """What some libraries raise to unwind (gevent's GreenletExit, say): no Exception, no exit either."""


class RaisesBeyondException(ReportsOddly):
    """The reference engine, except that each action prints a line and raises a BaseException that is
    no Exception."""

    def apply(self, action: dict[str, object]) -> object:
        print("unwinding")
        raise _BeyondException("unwound")
