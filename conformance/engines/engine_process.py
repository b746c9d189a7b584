"""One engine process, held at arm's length: its own process group, bytes in, bounded lines out.

The engine and every process it starts share a process group and a session of their own, so the kit
ends them together (SIGTERM, then SIGKILL; on Linux also those of the session that moved into a group
of their own) whenever it lets go of an engine, and ``end_all`` ends whatever is
left when the kit exits or is interrupted. Standard output is read in bounded chunks and cut into
lines of at most ``max_line_bytes``; standard error is kept as a short tail of text decoded with
replacement. Reading and writing happen on threads of their own, so nothing an engine does or
fails to do (never reading its input, writing without a newline, bytes that are not UTF-8) can
block the kit or end a reader; and each of them has ended once ``end`` returns, even where a process
the engine started in a session of its own holds its pipes open (the kit waits on a pipe a moment at a
time, and lets go of it when it ends the engine).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import FrameType
from typing import IO

from conformance.engines import interrupt
from specreader import limits

MAX_LINE_BYTES = limits.MAX_LINE_BYTES

_CHUNK = 64 * 1024
_STDERR_LINE_BYTES = limits.STDERR_LINE_BYTES
_STDERR_LINES = limits.STDERR_LINES
_TERM_GRACE = 0.5  # seconds between SIGTERM and SIGKILL
_POLL = 0.05  # how often a wait for output also checks whether the engine is still alive
# What the kit has read of an engine's output and not yet taken, at most about this much: its lines' bytes, and
# _LINE_COST for each line's own keeping (a flood of short lines costs its objects). Past it the reader waits, so
# an engine that writes without end waits on its own output instead of filling the kit's memory.
_BACKLOG_BYTES = limits.MAX_BACKLOG_BYTES
_LINE_COST = 128
# Once the engine has exited, how long output it wrote just before may take to arrive: where pipes cannot be polled
# (elsewhere the kit knows when its reader has given all of it), and when the kit ends the engine, for its threads.
_DRAIN = 0.1
_THREAD_END = 2.0  # how long ``end`` waits for a thread of the engine's it has let go of (each wakes every _POLL)


@dataclass(frozen=True)
class Line:
    """One line of the engine's standard output, without its newline; not ``ended`` when the output closed after
    it with no newline (an engine that exited as it wrote, say)."""

    raw: bytes
    ended: bool = True


class _Unended(bytes):
    """The bytes of a last line its stream closed after, with no newline."""


@dataclass(frozen=True)
class Overlong:
    """A line longer than the limit: refused as soon as it passed it, the rest of it skipped."""

    limit: int


@dataclass(frozen=True)
class Closed:
    """The engine's standard output ended."""


@dataclass(frozen=True)
class Exited:
    """The engine exited while its standard output stays open (a process it started holds it)."""

    status: int


Event = Line | Overlong | Closed | Exited


class _Backlog:
    """The bytes read from an engine's output and not yet taken by the kit, held under a budget."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.held = 0
        self.closed = False
        self._changed = threading.Condition()

    def admit(self, size: int) -> None:
        """Wait until ``size`` more fits, or nothing is held (a line as long as the limit still passes), or the
        kit has let go of the engine."""
        with self._changed:
            while self.held and self.held + size > self.budget and not self.closed:
                self._changed.wait(_POLL)
            self.held += size

    def taken(self, size: int) -> None:
        with self._changed:
            self.held -= size
            self._changed.notify_all()

    def close(self) -> None:
        with self._changed:
            self.closed = True
            self._changed.notify_all()


def describe_exit(status: int) -> str:
    """How a process ended, for a report: ``exited with status 3`` or ``was killed by SIGSEGV``."""
    if status >= 0:
        return f"the engine exited with status {status}"
    try:
        name = signal.Signals(-status).name
    except ValueError:
        name = f"signal {-status}"
    return f"the engine was killed by {name}"


class EngineProcess:
    """An engine program running in its own process group."""

    def __init__(self, argv: list[str], *, max_line_bytes: int = MAX_LINE_BYTES) -> None:
        self._events: queue.Queue[tuple[list[Event], int]] = queue.Queue()  # what each read brought, and its cost
        self._backlog = _Backlog(_BACKLOG_BYTES)
        self._pending: deque[Event] = deque()  # taken from the queue, not yet given
        self._outbox: queue.Queue[bytes | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=_STDERR_LINES)
        self._unended = 0  # bytes of a line the engine began and has not ended (set by the reader alone)
        self._ended = False
        self._let_go = threading.Event()  # set by ``end``: the engine's threads stop waiting on its pipes
        # Set while the output's reader has given all it read and found nothing more waiting in the pipe.
        self._output_idle = threading.Event()
        self._exit_seen: float | None = None  # when ``next_event`` first found the engine exited
        self._threads: tuple[threading.Thread, ...] = ()  # reading and writing its pipes, once it has started
        # A process started is a process registered, with its threads, or none at all: a signal coming meanwhile is
        # raised after, and ``end_all`` ends the engine whole.
        with interrupt.deferred():
            self._proc: subprocess.Popen[bytes] = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,
            )
            _register(self)
            stdin, stdout, stderr = self._proc.stdin, self._proc.stdout, self._proc.stderr
            assert stdin is not None and stdout is not None and stderr is not None
            try:
                self._stderr_reader = _daemon(self._read_stderr, stderr)
                self._threads = (self._stderr_reader, _daemon(self._read_stdout, stdout, max_line_bytes))
                self._threads += (_daemon(self._write, stdin),)
            except BaseException:  # no thread to be had: an engine nobody reads is no engine
                self.end()
                raise

    # -- input ---------------------------------------------------------------------------------
    def send(self, data: bytes) -> None:
        """Queue bytes for the engine's input; never blocks (an engine that stops reading costs a timeout)."""
        self._outbox.put(data)

    def unread_input(self) -> int | None:
        """How many bytes written to the engine's input it has not read yet, where the system says (Linux, which
        counts what a pipe holds from either end); None where it does not, or once the input is closed."""
        stdin = self._proc.stdin
        try:
            import fcntl
            import termios

            held = fcntl.ioctl(stdin.fileno() if stdin else -1, termios.FIONREAD, b"\0" * 4)
        except (ImportError, OSError, ValueError):  # Windows; or the input closed, which nothing then reads
            return None
        return int.from_bytes(held, sys.byteorder, signed=True)

    def close_input(self) -> None:
        """Close the engine's input once what is queued is written."""
        self._outbox.put(None)

    def _write(self, stdin: IO[bytes]) -> None:
        try:
            write = _writer(stdin, self._let_go)
            while (data := self._outbox.get()) is not None:
                view = memoryview(data)
                while view:
                    view = view[write(view) :]
        except (OSError, ValueError):  # the engine closed its input or was ended: what is left goes nowhere
            pass
        finally:
            with contextlib.suppress(OSError):
                stdin.close()

    # -- output --------------------------------------------------------------------------------
    def _read_stdout(self, stdout: IO[bytes], limit: int) -> None:
        try:
            for lines in _lines(_reader(stdout, self._let_go, self._output_idle), limit, self._began):
                cost = sum((len(line) if isinstance(line, bytes) else 0) + _LINE_COST for line in lines)
                self._backlog.admit(cost)
                if self._backlog.closed:  # let go of: nobody reads on, whatever is still writing
                    break
                self._events.put(([_event(line, limit) for line in lines], cost))
        finally:
            self._events.put(([Closed()], 0))
            with contextlib.suppress(OSError):
                stdout.close()

    def _began(self, unended: int) -> None:
        self._unended = unended

    def unended_bytes(self) -> int:
        """How many bytes of a line the engine has written without ending it yet: a line it never ends with a
        newline (an answer written with ``print(..., end="")``, or ``process.stdout.write``) is never an answer."""
        return self._unended

    def _read_stderr(self, stderr: IO[bytes]) -> None:
        try:
            for lines in _lines(_reader(stderr, self._let_go), _STDERR_LINE_BYTES):
                for line in lines:
                    if isinstance(line, bytes):
                        self._stderr.append(line.decode("utf-8", errors="replace").rstrip("\r"))
                    else:
                        self._stderr.append(f"[a line of more than {line} bytes]")
        finally:
            with contextlib.suppress(OSError):
                stderr.close()

    def next_event(self, deadline: float) -> Event | None:
        """What the engine does next (a line, a line too long, its output closing, its exit), or None
        if nothing happens before ``deadline`` (a ``time.monotonic()`` value)."""
        while not self._pending:
            remaining = deadline - time.monotonic()
            try:
                self._take(self._events.get(timeout=max(0.0, min(remaining, _POLL))))
                continue
            except queue.Empty:
                pass
            status = self._proc.poll()
            if status is not None and self._output_taken():  # exited with its output still open: what it wrote is
                try:  # taken first, then its exit
                    self._take(self._events.get_nowait())
                    continue
                except queue.Empty:
                    return Exited(status)
            if remaining <= 0:
                return None
        return self._pending.popleft()

    def _output_taken(self) -> bool:
        """Whether, the engine having exited, the reader has given all it wrote: nothing waits in the pipe, nor in the
        reader's hands (however long a busy machine keeps the reader from it). Where pipes cannot be polled, once
        ``_DRAIN`` seconds have passed since the exit was seen."""
        if not hasattr(select, "poll"):
            self._exit_seen = self._exit_seen or time.monotonic()
            return time.monotonic() - self._exit_seen >= _DRAIN
        stdout = self._proc.stdout
        assert stdout is not None
        waiting = select.poll()  # this thread's own: a poll object is not to be shared with the reader's
        with contextlib.suppress(OSError, ValueError):  # closed by the reader, once it has read the end: not idle
            waiting.register(stdout.fileno(), select.POLLIN)
        return not waiting.poll(0) and self._output_idle.is_set()  # the pipe first: the reader may take what it held

    def _take(self, read: tuple[list[Event], int]) -> None:
        events, cost = read
        self._pending.extend(events)
        self._backlog.taken(cost)

    def put_back(self, event: Event) -> None:
        """Return an event ``next_event`` gave, to be given again first."""
        self._pending.appendleft(event)

    def wait(self, deadline: float) -> int | None:
        """The exit status, waiting until ``deadline`` for it; None if the engine is still running."""
        proc = self._proc
        if proc.returncode is None:
            _sleep_until_exit(proc.pid, deadline - time.monotonic())
        try:
            return proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            return None

    def stderr_lines(self, settle: float = 0.0) -> list[str]:
        """The last lines of standard error kept, after waiting up to ``settle`` seconds for the rest of
        it (worth it once the engine has ended: what it wrote last is the likeliest to explain why)."""
        if settle:
            self._stderr_reader.join(settle)
        return list(self._stderr)

    # -- the end ------------------------------------------------------------------------------
    def stop(self, message: bytes, grace: float) -> None:
        """Send a last message, close the input, give the engine ``grace`` seconds to exit, then end it."""
        if not self._ended:
            self.send(message)
            self.close_input()
            self.wait(time.monotonic() + grace)
        self.end()

    def end(self) -> None:
        """End the engine and everything in its process group: SIGTERM, then SIGKILL; then the threads reading and
        writing its pipes, so none outlives this call. Safe to repeat."""
        if self._ended:
            return
        self.signal_group(signal.SIGTERM)
        self.wait(time.monotonic() + _TERM_GRACE)
        self.signal_group(signal.SIGKILL)  # what ignored SIGTERM, and what the engine left behind
        self.wait(time.monotonic() + _TERM_GRACE)
        self.close_input()
        self._backlog.close()  # the reader stops: nothing reads an output the kit let go of
        self._end_threads()
        self._ended = True
        _unregister(self)

    def _end_threads(self) -> None:
        """Let each thread of the engine's end by itself (its pipe closed as the engine ended), reading what the engine
        wrote last (its standard error, which reports quote); then let go of the pipes a process the engine started in
        a session of its own still holds open, and wait for the threads that were waiting on them."""
        drained = time.monotonic() + _DRAIN
        for thread in self._threads:
            thread.join(max(0.0, drained - time.monotonic()))
        self._let_go.set()
        ended = time.monotonic() + _THREAD_END
        for thread in self._threads:
            thread.join(max(0.0, ended - time.monotonic()))

    @property
    def pid(self) -> int:
        """The engine's process id: its process group's and its session's too."""
        return self._proc.pid

    def running(self) -> bool:
        """Whether the engine has not exited; takes no lock that waits (Popen.poll tries its lock without waiting)."""
        return self._proc.poll() is None

    def signal_group(self, signum: signal.Signals) -> None:
        """Send ``signum`` to the engine's process group, and to what left the group but not the session."""
        if sys.platform == "win32":  # no process groups: the engine alone
            if self._proc.poll() is None:
                self._proc.kill()
            return
        signal_session(self._proc.pid, signum)


def signal_session(leader: int, signum: signal.Signals) -> None:
    """Send ``signum`` to the process group of an engine started here, ``leader`` its pid, and to what left the group
    but not the session (an engine's pid is its group's id and its session's: start_new_session)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):  # nothing left in the group to signal
        os.killpg(leader, signum)
    for pid in session_members(leader):  # what moved into a group of its own, still in the session
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signum)


def session_members(session: int) -> list[int]:
    """The processes of a session outside its first process group, where the system lists them (/proc, on
    Linux; elsewhere none are found, and only the group is ended)."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    found = []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rpartition(b")")[2].split()
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if len(fields) > 3 and int(fields[3]) == session and int(fields[2]) != session:  # state ppid pgrp session
            found.append(int(entry))
    return found


def _sleep_until_exit(pid: int, timeout: float) -> None:
    """Sleep until the process ``pid`` ends or ``timeout`` seconds pass, woken the moment it ends (a pidfd,
    on Linux; elsewhere, or without one, this returns at once). ``Popen.wait(timeout)`` alone polls
    with sleeps that double up to 50 ms, so it sees an engine's end up to one sleep late (measured on
    the served reference: a close took 32 ms by polling alone, 24 ms woken)."""
    pidfd_open: Callable[[int], int] | None = getattr(os, "pidfd_open", None)
    if pidfd_open is None or timeout <= 0:
        return
    try:
        fd = pidfd_open(pid)
    except OSError:  # already reaped, or a kernel without pidfds: Popen.wait does the waiting
        return
    try:
        waiting = select.poll()  # not select.select, which takes no descriptor past 1023: a kit may hold that many
        waiting.register(fd, select.POLLIN)  # readable once the process has ended
        waiting.poll(timeout * 1000)
    finally:
        os.close(fd)


def _reader(stream: IO[bytes], let_go: threading.Event, idle: threading.Event | None = None) -> Callable[[int], bytes]:
    """``stream.read``, but that it returns ``b""``, the end, once ``let_go`` is set: a process the engine started in a
    session of its own, out of the kit's reach, may hold the pipe open for ever, and the thread reading it must end
    with the engine. ``idle`` is set while the caller has given all it read (it reads again only once it has) and the
    pipe holds nothing more, and cleared before each read. Where pipes cannot be polled (Windows), a plain read, which
    ends as the pipe closes."""
    if not hasattr(select, "poll"):
        return stream.read
    fd = stream.fileno()
    poller = select.poll()
    poller.register(fd, select.POLLIN)

    def read(size: int) -> bytes:
        while not let_go.is_set():
            if idle is not None and not poller.poll(0):
                idle.set()
            if poller.poll(_POLL * 1000):  # readable, or closed at the other end: os.read does not block
                if idle is not None:
                    idle.clear()
                return os.read(fd, size)
        return b""

    return read


def _writer(stream: IO[bytes], let_go: threading.Event) -> Callable[[memoryview], int]:
    """A write to ``stream`` giving how many bytes it took, that raises BrokenPipeError once ``let_go`` is set instead
    of waiting on for an engine (or a process it started in a session of its own) that holds its input and never
    reads it. Where pipes cannot be polled (Windows), a plain write."""
    if not hasattr(select, "poll"):
        return lambda view: stream.write(view) or 0
    fd = stream.fileno()
    os.set_blocking(fd, False)  # a write takes what fits, never waits: the wait is the poll's, a moment at a time
    poller = select.poll()
    poller.register(fd, select.POLLOUT)

    def write(view: memoryview) -> int:
        while not let_go.is_set():
            if poller.poll(_POLL * 1000):  # room, or the engine's end closed: os.write takes some or raises
                with contextlib.suppress(BlockingIOError):
                    return os.write(fd, view)
        raise BrokenPipeError("the kit let go of the engine's input")

    return write


def _lines(
    read: Callable[[int], bytes | None], limit: int, began: Callable[[int], None] | None = None
) -> Iterator[list[bytes | int]]:
    """The lines ``read`` gives, read in chunks of at most 64 KiB, as the lines each read completes: each
    line's bytes, or, for a line longer than ``limit``, its length so far as soon as it passes the
    limit (the rest of it is skipped). Lines read together are given together, so an engine's
    answer and a copy of it written at once are seen at once. ``began`` is told, after each read, how
    many bytes of a line not yet ended it holds (0 past the limit: that line was given already)."""
    partial = bytearray()
    skipping = False  # inside a line already reported as too long
    try:
        while chunk := read(_CHUNK):
            lines: list[bytes | int] = []
            start = 0
            while (end := chunk.find(b"\n", start)) >= 0:
                if not skipping:
                    if len(partial) + end - start > limit:
                        lines.append(len(partial) + end - start)
                    elif partial:
                        partial += chunk[start:end]
                        lines.append(bytes(partial))
                    else:
                        lines.append(chunk[start:end])
                partial.clear()
                skipping = False
                start = end + 1
            if not skipping:
                partial += chunk[start:]
                if len(partial) > limit:
                    lines.append(len(partial))
                    partial.clear()
                    skipping = True
            if began is not None:
                began(len(partial))
            if lines:
                yield lines
    except (OSError, ValueError):  # the stream was closed under the reader: the end
        pass
    if partial and not skipping:
        yield [_Unended(partial)]


def _event(line: bytes | int, limit: int) -> Event:
    """What ``_lines`` gave, as an event: a line (cut short by the end of the output if it has no newline), or one
    longer than ``limit``."""
    return Line(line, not isinstance(line, _Unended)) if isinstance(line, bytes) else Overlong(limit)


def _daemon(target: Callable[..., None], *args: object) -> threading.Thread:
    """A thread that takes no signal (interrupt.signals_blocked): SIGTERM must reach the main thread even while it
    blocks on a pipe or a child (a fuzz worker waiting for its next batch), and SIGALRM end such a wait."""
    thread = threading.Thread(target=target, args=args, daemon=True)
    with interrupt.signals_blocked():
        thread.start()
    return thread


# -- every engine the kit has started and not yet ended ---------------------------------------------
_LIVE: set[EngineProcess] = set()
_LIVE_LOCK = threading.Lock()
# Told of each engine's pid as it starts (True) and once it has ended (False).
_WATCHERS: list[Callable[[int, bool], None]] = []


def watch(watcher: Callable[[int, bool], None]) -> None:
    """Have ``watcher`` told of every engine this process starts from now on, by its pid, as it starts and once it
    has ended (a fuzz worker tells its campaign, which ends them if the worker is killed). It is called holding the
    list of engines' lock: it must take no lock itself."""
    _WATCHERS.append(watcher)


def _register(process: EngineProcess) -> None:
    with _LIVE_LOCK:
        _LIVE.add(process)
        for watcher in _WATCHERS:
            watcher(process.pid, True)


def _unregister(process: EngineProcess) -> None:
    with _LIVE_LOCK:
        if process in _LIVE:
            _LIVE.discard(process)
            for watcher in _WATCHERS:
                watcher(process.pid, False)


def end_all() -> None:
    """End every engine process group still running: on an interrupted run, and when the kit exits."""
    with _LIVE_LOCK:
        live = list(_LIVE)
    for process in live:
        process.end()


atexit.register(end_all)


def kill_all() -> None:
    """End every engine process group still running, taking no lock: what a signal handler may do. The handler
    runs in the main thread between two of its steps, perhaps inside one holding a lock that ``end`` takes (an
    engine's input queue, its output's backlog, the list of engines), which would then wait for itself for ever.
    The process ends just after, so nothing but the engines needs ending: SIGTERM, a moment, then SIGKILL."""
    live = tuple(_LIVE)  # no lock: copying the set is one step under the GIL, no other thread's change splits it
    for process in live:
        process.signal_group(signal.SIGTERM)
    deadline = time.monotonic() + _TERM_GRACE
    while time.monotonic() < deadline and any(process.running() for process in live):
        time.sleep(0.01)
    for process in live:
        process.signal_group(signal.SIGKILL)


def killed_by(signum: int) -> None:
    """End every engine's process group (``kill_all``), then this process as ``signum`` ends one that does not handle
    it: what a handler of a signal that ends the kit does, for the end skips ``atexit``, and the engines would be left."""
    kill_all()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def end_all_on_sigterm() -> Callable[[], None]:
    """Where nothing handles SIGTERM or SIGHUP (pytest does not; a terminal closing sends SIGHUP), have each end every
    engine's process group first, then end this process as it would have: killed by the signal, which skips
    ``atexit``, so the engines were left running. Returns what puts the handlers before back. Off the main thread,
    or for a signal with a handler already set (the kit's commands trap them themselves), nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    ending = (signal.SIGTERM, interrupt.HANGUP)
    taken = [signum for signum in ending if signum is not None and signal.getsignal(signum) is signal.SIG_DFL]

    def ended(signum: int, frame: FrameType | None) -> None:
        restore()
        killed_by(signum)

    def restore() -> None:
        for signum in taken:
            signal.signal(signum, signal.SIG_DFL)

    for signum in taken:
        signal.signal(signum, ended)
    return restore
