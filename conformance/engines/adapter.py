"""What an engine must provide to run scenarios, and the in-process adapter for Python engines.

An engine receives a request (variant, setup, actions) and answers with one
observation after setup and one after each action. It never sees what the
scenario expects: the kit compares.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol

from conformance.engines import engine_output
from conformance.engines.breaker import GIVE_UP_AFTER, Breaker
from conformance.engines.interrupt import Interrupted
from conformance.engines.messages import Answer, ErrorReport, Observation, Rejection, Request
from conformance.text.untrusted import Unreadable, as_json, text
from conformance.vocabulary import EngineError, ErrorKind
from specreader.jsontypes import Json

# Raised in an engine's call, a stop of the whole run (Ctrl-C, or a signal the kit trapped): never the engine's failure.
_STOPS = (KeyboardInterrupt, Interrupted)


class EngineAdapter(Protocol):
    """The interface every engine adapter implements (in-process or over a pipe)."""

    def hello(self) -> Json:
        """The handshake: name, version, language and the variants the engine supports."""

    def run(self, request: Request) -> Mapping[str, Any] | EngineError:
        """The engine's answer to one request, as it sent it (untrusted; the shape it should have is
        conformance/engines/messages.py's Answer): one observation after setup and one after each action,
        or an error report, or both. An adapter that itself sees the engine fail (a timeout, a
        crash) says so with an EngineError instead.
        """

    def close(self) -> None:
        """Release the engine."""


def take_late_copies(engine: EngineAdapter) -> list[str]:
    """The ids of the answers the engine sent again after the kit had let go of them, set aside since this was last
    asked (docs/protocol.md). Only an adapter that reads the engine's answers off a stream sees such a copy, and says
    so with a ``take_late_copies`` method (protocol.SubprocessAdapter); any other adapter has none to give."""
    take: Callable[[], list[str]] | None = getattr(engine, "take_late_copies", None)
    return list(take()) if take is not None else []


class PythonEngine(Protocol):
    """A Python engine as the in-process adapter drives it (the reference engine's API)."""

    def legal_actions(self) -> list[Json]: ...

    def apply(self, action: Json) -> Any: ...

    def snapshot(self) -> Json: ...


class Unsupported(Exception):
    """What an in-process engine raises (from ``new``, ``apply``, ``snapshot`` or ``legal_actions``) when its
    API cannot express what a scenario needs (a mid-deal start, an action it has no way to take, a refusal it
    gives no code for): the scenario is reported *unsupported* with the message, judged on what was observed
    before, as a served engine's error of kind ``unsupported`` is (docs/protocol.md)."""


class InProcessAdapter:
    """Drives a Python engine through its API: ``factory(variant_id, setup) -> engine``.

    With a ``timeout``, each request runs on a worker thread and the kit stops waiting for it
    after that many seconds: the scenario is a timeout. Python cannot stop a thread, so a stuck
    one is left to run (it is a daemon: it never holds up the kit's exit, and what it returns is
    dropped) and the next request gets a fresh worker. After ``give_up_after`` timeouts in a row
    the engine is given up on (conformance/engines/breaker.py).
    """

    def __init__(
        self,
        factory: Any,
        info: Json,
        variants: list[str],
        *,
        timeout: float | None = None,
        give_up_after: int = GIVE_UP_AFTER,
        trusted: bool = False,
    ) -> None:
        self._factory = factory
        # An engine the kit did not write has each snapshot and list of legal actions read as a served
        # engine's would be (untrusted.as_json), and what it prints kept (conformance/engines/engine_output.py).
        # ``trusted`` is for the kit's own engines (the reference, selfcheck's mutants of it): their
        # observations are JSON by construction (checked against the schemas by the kit's tests) and they
        # print nothing; read again, every scenario in process runs at about 0.45x the rate.
        self._trusted = trusted
        self._info = info
        self._variants = variants
        self.timeout = timeout
        self._breaker = Breaker(give_up_after)
        self._worker: _Worker | None = None
        # Routed while it is open (conformance/engines/engine_output.py): until closed, or, left open, collected.
        self._closed = engine_output.opened_for(self) if not trusted else None

    def hello(self) -> Json:
        return {**self._info, "variants": list(self._variants)}

    def run(self, request: Request) -> Answer | EngineError:
        if self._trusted:
            return self._run(request, None)
        with engine_output.request():
            return self._run(request, engine_output.Printed())

    def _run(self, request: Request, printed: engine_output.Printed | None) -> Answer | EngineError:
        """The answer, within the timeout if there is one; ``printed`` is None for the kit's own engines."""
        if self.timeout is None:
            return self._answer_printing(request, printed)
        unavailable = self._breaker.open
        if unavailable is not None:
            return unavailable
        worker = self._worker = self._worker or _Worker()
        answer = worker.run(lambda: self._answer_printing(request, printed), request.get("id"), self.timeout)
        if answer is None:
            self._worker = None  # still busy with this request, for good perhaps: the next one gets another
            left_running = "the engine's thread is left running: Python cannot stop it"
            said = printed.tail() if printed is not None else ""
            error = EngineError(ErrorKind.TIMEOUT, f"no answer within {self.timeout:g} s ({left_running}){said}")
            self._breaker.stall(str(error))
            return error
        self._breaker.answered()
        return answer

    def answer(self, request: Request) -> Answer:
        """The engine's answer, worked out on the calling thread with no time limit (how the
        protocol's server, conformance/engines/serve.py, asks)."""
        if self._trusted:
            return self._answer(request)
        with engine_output.request():
            return self._answer_printing(request, engine_output.Printed())

    def _answer_printing(self, request: Request, printed: engine_output.Printed | None) -> Answer:
        """The answer, on the thread that works it out; what the engine prints meanwhile goes to
        ``printed``, and its last lines with a crash."""
        if printed is None:
            return self._answer(request)
        with engine_output.prints_to(printed):
            answer = self._answer(request)
        error = answer.get("error")
        if error is not None and error["kind"] == ErrorKind.CRASH:
            error["message"] += printed.tail()
        return answer

    def _answer(self, request: Request) -> Answer:
        rid = request.get("id")
        actions = request["actions"]
        wanted = set(request.get("observe", range(len(actions) + 1)))
        # An engine's own failure is reported, never raised, whatever it raises (sys.exit too): but for a
        # stop of the whole run (_STOPS).
        try:
            engine = self._factory(request["variant"], request["setup"])
        except _STOPS:
            raise
        except Unsupported as err:
            return {"id": rid, "observations": [], "error": unsupported(err)}
        except BaseException as err:
            return {"id": rid, "error": setup_error(err)}
        try:
            observations = [self._observe(engine, None, 0 in wanted)]
        except Unreadable as err:  # it failed as a served engine fails that sends a line it cannot
            return {"id": rid, "error": {"kind": ErrorKind.CRASH, "message": f"at the start: {err}"}}
        except _STOPS:
            raise
        except Unsupported as err:
            return {"id": rid, "observations": [], "error": unsupported(err)}
        except BaseException as err:  # no first snapshot: the deal was not set up
            return {"id": rid, "error": setup_error(err)}
        for index, action in enumerate(actions, start=1):
            try:
                rejected = self._rejection(engine.apply(dict(action)))
                observations.append(self._observe(engine, rejected, index in wanted))
            except Unreadable as err:
                error: ErrorReport = {"kind": ErrorKind.CRASH, "message": f"after {action}: {err}"}
                return {"id": rid, "observations": observations, "error": error}
            except _STOPS:
                raise
            except Unsupported as err:  # with what it observed before: the kit judges that much
                return {"id": rid, "observations": observations, "error": unsupported(err)}
            except BaseException as err:
                return {
                    "id": rid,
                    "observations": observations,
                    "error": {"kind": ErrorKind.CRASH, "message": f"on {action}: {describe_error(err)}"},
                }
        return {"id": rid, "observations": observations}

    def _rejection(self, applied: Any) -> Rejection | None:
        """The refusal ``apply`` returned (an object with a ``code``), or None: the action was taken."""
        code = getattr(applied, "code", None)
        if not code:
            return None
        rejected: Rejection = {"code": code, "message": getattr(applied, "message", "")}
        return rejected if self._trusted else _read("refusal", rejected)  # an Enum for a code is no JSON

    def _observe(self, engine: PythonEngine, rejected: Rejection | None, full: bool) -> Observation:
        if not full:  # the kit does not read this one: skip building what nobody compares
            return {"rejected": rejected, "snapshot": None, "legal": None}
        snapshot, legal = engine.snapshot(), engine.legal_actions()
        if not self._trusted:
            snapshot = _read("snapshot", snapshot)
            legal = _read("legal actions", legal)
        return {"rejected": rejected, "snapshot": snapshot, "legal": legal}

    def close(self) -> None:
        if self._worker is not None:
            self._worker.retire()
            # An idle worker ends at once: waited for, it is not taken for a thread of the engine's,
            # which would keep the streams routed (engine_output.closed).
            self._worker.finish(0.5)
            self._worker = None
        if self._closed is not None:
            self._closed()


class _Worker:
    """A daemon thread that answers one request at a time, for a caller that waits a bounded time.

    Two locks hand each request over and its answer back: cheaper than queues, which matters when
    the engine itself takes a few hundred microseconds a scenario.
    """

    def __init__(self) -> None:
        self._job: Callable[[], Answer] | None = None  # the one to run; None once it ran
        self._retired = False
        self._request_id: Any = None
        self._result: Answer | None = None
        self._given = threading.Lock()  # released when a job is there to take
        self._given.acquire()
        self._answered = threading.Lock()  # released when its answer is there
        self._answered.acquire()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def run(self, job: Callable[[], Answer], request_id: Any, timeout: float) -> Answer | None:
        """``job``'s answer (to the request ``request_id``), or None if it took longer than ``timeout``
        (the worker then retires when it is done)."""
        self._job, self._request_id = job, request_id
        self._given.release()
        if self._answered.acquire(timeout=timeout):
            return self._result
        self.retire()
        return None

    def retire(self) -> None:
        """Let the thread end once it is idle; it may still be busy with a request that timed out."""
        self._retired = True
        with contextlib.suppress(RuntimeError):  # not yet taken: the thread finds no job, and ends
            self._given.release()

    def finish(self, seconds: float) -> None:
        """Wait up to ``seconds`` for a retired worker's thread to end (an idle one ends at once)."""
        self._thread.join(seconds)

    def _serve(self) -> None:
        while True:
            self._given.acquire()
            job, self._job = self._job, None  # held no longer than it runs: an adapter left open can be collected
            if self._retired or job is None:
                return
            try:
                self._result = job()
            except BaseException as err:  # even SystemExit: on this thread it would vanish, and the kit wait in vain
                self._result = {"id": self._request_id, "error": {"kind": ErrorKind.CRASH, "message": describe_error(err)}}
            self._answered.release()


def _read(what: str, value: Any) -> Any:
    try:
        return as_json(value)
    except Unreadable as err:
        raise Unreadable(f"the {what} the engine reported: {err}") from None


def setup_error(err: BaseException) -> ErrorReport:
    """A setup the engine refused, as the protocol's setup error: with the refusal code when the
    exception carries one as a ``code`` string (the reference's SetupError does)."""
    report: ErrorReport = {"kind": ErrorKind.SETUP, "message": describe_error(err)}
    code = None if isinstance(err, SystemExit) else getattr(err, "code", None)  # SystemExit's is its exit status
    if isinstance(code, str):
        report["code"] = text(code, 200)
    return report


def unsupported(err: Unsupported) -> ErrorReport:
    """The protocol's error of kind ``unsupported`` for an engine that raised ``Unsupported``, its message as safe text."""
    return {"kind": ErrorKind.UNSUPPORTED, "message": text(_said(err))}


def describe_error(err: BaseException) -> str:
    """An exception as one line of safe text for a report: ``KeyError: 'x'``; never raises, whatever the
    exception's ``__str__`` does (the worker thread reports with it, and must answer)."""
    return text(f"{type(err).__name__}: {_said(err)}")  # made safe here, where an engine's words enter the kit


def _said(err: BaseException) -> str:
    """An exception's message, or why it could not be read: never raises."""
    try:
        return str(err)
    except BaseException as inner:  # an engine's exception is data, even one whose message fails
        return f"(its message could not be read: {type(inner).__name__})"


def reference_adapter(*, timeout: float | None = None, give_up_after: int = GIVE_UP_AFTER) -> InProcessAdapter:
    """The reference engine, in process."""
    from reference import Engine
    from specreader import spec
    from specreader.kitdata import kit_homepage, kit_version

    info = {"name": "trickspec-reference", "version": kit_version(), "language": "python", "homepage": kit_homepage()}
    variants = spec.variant_ids()
    return InProcessAdapter(Engine.new, info, variants, timeout=timeout, give_up_after=give_up_after, trusted=True)


def load_engine(target: str, *, timeout: float | None = None, give_up_after: int = GIVE_UP_AFTER) -> EngineAdapter:
    """``module:name``: a Python engine class with ``new(variant_id, setup)`` (the reference's API),
    or a zero-argument callable returning an EngineAdapter (which keeps its own time, if any).
    An engine that exits while it is loaded (``sys.exit`` at import, say), or raises any other
    BaseException but a stop of the run, is an ``EngineUnusable``: the kit says so, rather than end
    with the status the engine chose."""
    from conformance.engines.protocol import EngineUnusable

    module_name, _, attr = target.partition(":")
    if not module_name or not attr:
        raise ValueError(f"expected module:name, found {target!r}")
    try:
        return _loaded(target, module_name, attr, timeout, give_up_after)
    except (*_STOPS, Exception):
        raise  # an Exception is the caller's to report, as any engine it cannot use
    except BaseException as err:  # sys.exit, say: the engine's status would be the kit's
        did = "exited" if isinstance(err, SystemExit) else "raised"
        raise EngineUnusable(f"it {did} while it was loaded ({describe_error(err)})") from None


def _loaded(target: str, module_name: str, attr: str, timeout: float | None, give_up_after: int) -> EngineAdapter:
    from specreader import spec

    engine_output.opened()  # before the import: a thread the module starts is the engine's
    try:
        with engine_output.request(), engine_output.prints_to(engine_output.Printed()):
            obj = getattr(importlib.import_module(module_name), attr)
            if hasattr(obj, "new"):
                info = {"name": target, "version": "unknown", "language": "python"}
                return InProcessAdapter(obj.new, info, spec.variant_ids(), timeout=timeout, give_up_after=give_up_after)
            made = obj()
        if not all(hasattr(made, name) for name in ("hello", "run", "close")):
            raise ValueError(f"{target} returned {type(made).__name__}: expected an object with hello, run and close")
        adapter = _PrintsDropped(made)
        hello = adapter.hello()
        if not isinstance(hello, dict) or not isinstance(hello.get("variants", []), list):
            raise ValueError(f"{target}: expected hello() to return a mapping with a list of variants, found {hello!r}")
        return adapter
    finally:
        engine_output.closed()  # the adapter made holds the streams routed on its own


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Python adapter code runs here: what it prints never reaches the kit's output, and is dropped."""
    with engine_output.request(), engine_output.prints_to(engine_output.Printed()):
        yield


class _PrintsDropped:
    """A Python adapter (``--engine module:factory``) whose prints never reach the kit's output, as an
    in-process engine's do not (conformance/engines/engine_output.py); they go with no failure, as the
    adapter reports its failures itself. Its ``run_many``, if it has one, is its own too."""

    def __init__(self, adapter: Any) -> None:
        self._adapter = adapter
        self._closed = engine_output.opened_for(self)

    def hello(self) -> Json:
        with _quiet():
            return self._adapter.hello()  # type: ignore[no-any-return]

    def run(self, request: Request) -> Mapping[str, Any] | EngineError:
        with _quiet():
            return self._adapter.run(request)  # type: ignore[no-any-return]

    def __getattr__(self, name: str) -> Any:
        if name == "run_many" and hasattr(self._adapter, "run_many"):
            return self._run_many
        raise AttributeError(name)

    def _run_many(self, *args: Any, **options: Any) -> Iterator[Any]:
        with _quiet():
            answers = iter(self._adapter.run_many(*args, **options))
        while True:
            with _quiet():
                answer = next(answers, _DONE)
            if answer is _DONE:
                return
            yield answer

    def close(self) -> None:
        try:
            with _quiet():
                self._adapter.close()
        except _STOPS:
            raise
        except BaseException as err:  # the run is over and judged: its reports are still written
            print(f"note: the adapter's close failed: {describe_error(err)}", file=sys.stderr)
        finally:
            self._closed()


_DONE = object()


def open_engine(
    engine: str | None = None,
    engine_cmd: str | None = None,
    *,
    timeout: float = 10.0,
    validate: bool = False,
    startup_timeout: float | None = None,
    give_up_after: int = GIVE_UP_AFTER,
) -> EngineAdapter:
    """The engine a user named: ``--engine`` (``reference`` or module:name) or ``--engine-cmd``.

    A command or name given empty is a ``BadCommand``: it never falls back to the reference engine.
    """
    from conformance.engines.protocol import BadCommand, SubprocessAdapter, split_command

    if engine is not None and engine_cmd is not None:
        raise BadCommand("name either an in-process engine or an engine command, not both")
    if engine_cmd is not None:
        return SubprocessAdapter(
            split_command(engine_cmd),
            timeout=timeout,
            validate=validate,
            startup_timeout=startup_timeout,
            give_up_after=give_up_after,
        )
    if engine is not None and not engine.strip():
        raise BadCommand(f"expected 'reference' or module:name for the engine, found {engine!r}")
    if engine in (None, "reference"):
        return reference_adapter(timeout=timeout, give_up_after=give_up_after)
    return load_engine(engine, timeout=timeout, give_up_after=give_up_after)
