"""What an engine must provide to run scenarios, and the in-process adapter for Python engines.

An engine receives a request (variant, setup, actions) and answers with one
observation after setup and one after each action. It never sees what the
scenario expects: the kit compares.

Only the kit's own engines (the reference, selfcheck's mutants of it) run in the kit's process as a
rule. A Python engine the kit did not write (``--engine module:name``) is served over the protocol in
a child process of its own (``python -m conformance.engines.serve module:name``), so that one path
(process groups, timeouts, crashes, stray output) covers every foreign engine; ``--in-process`` runs
it here instead, with no isolation at all, for an author stepping through it in a debugger.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from conformance.engines.breaker import GIVE_UP_AFTER
from conformance.engines.interrupt import Interrupted
from conformance.engines.messages import Answer, ErrorReport, Observation, RefusalReport, Request
from conformance.suite.comparisons import action_text
from conformance.suite.reported import declaration_problem
from conformance.text.untrusted import text
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
    """What a Python engine raises (from ``new``, ``apply``, ``snapshot`` or ``legal_actions``) when its
    API cannot express what a scenario needs (a mid-deal start, an action it has no way to take, a refusal it
    gives no code for): the scenario is reported *unsupported* with the message, judged on what was observed
    before, as a served engine's error of kind ``unsupported`` is (docs/protocol.md)."""


def beyond_the_table(setup: Json, players: int) -> str | None:
    """The first seat or side a setup names by its number that a table of ``players``, each playing alone, lacks
    (``seat 2``, ``side 2``), or None: for an adapter over an engine whose table is fixed, which cannot be given a
    seat it does not have, and answers that the scenario is unsupported."""
    start = setup.get("start")
    start = start if isinstance(start, dict) else {}
    trick = start.get("trick")
    seats = [
        *(setup[key] for key in ("dealer",) if key in setup),
        *_items(setup.get("dealer_history")),
        *_keys(setup.get("hands")),
        *_keys(setup.get("nines")),
        *(start[key] for key in ("to_act", "lone") if start.get(key) is not None),
        *(played.get("seat") for played in _items(trick) if isinstance(played, dict)),
    ]
    sides = [*_keys(start.get("piles")), *(start[key] for key in ("makers",) if start.get(key) is not None)]
    numbers = {str(n) for n in range(players)}
    return next((f"{what} {value}" for what, named in (("seat", seats), ("side", sides)) for value in named
                 if str(value) not in numbers), None)


def _items(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _keys(value: Any) -> list[Any]:
    return list(value) if isinstance(value, dict) else []


class InProcessAdapter:
    """Drives a Python engine through its API, ``factory(variant_id, setup) -> engine``, in the kit's
    process: no timeout, and what the engine prints is its own. For the kit's engines, for the server
    of ``conformance/engines/serve.py`` (which runs in the engine's own process), and for ``--in-process``."""

    def __init__(self, factory: Any, info: Json, variants: list[str]) -> None:
        self._factory = factory
        self._info = info
        self._variants = variants

    def hello(self) -> Json:
        return {**self._info, "variants": list(self._variants)}

    def run(self, request: Request) -> Answer:
        return self.answer(request)

    def answer(self, request: Request) -> Answer:
        rid = request.get("id")
        actions = request["actions"]
        wanted = set(request.get("observe", range(len(actions) + 1)))
        # An engine's own failure is reported, never raised, whatever it raises (sys.exit too): but for a
        # stop of the whole run (_STOPS).
        try:
            engine = self._factory(request["variant"], request["setup"])
            observations = [_observe(engine, None, 0 in wanted)]
        except _STOPS:
            raise
        except Unsupported as err:
            return {"id": rid, "observations": [], "error": unsupported(err)}
        except BaseException as err:  # no first snapshot: the deal was not set up
            return {"id": rid, "error": setup_error(err)}
        for index, action in enumerate(actions, start=1):
            try:
                rejected = _refusal(engine.apply(dict(action)))
                observations.append(_observe(engine, rejected, index in wanted))
            except _STOPS:
                raise
            except Unsupported as err:  # with what it observed before: the kit judges that much
                return {"id": rid, "observations": observations, "error": unsupported(err)}
            except BaseException as err:
                return {
                    "id": rid,
                    "observations": observations,
                    "error": {"kind": ErrorKind.CRASH, "message": f"on {action_text(action)}: {describe_error(err)}"},
                }
        return {"id": rid, "observations": observations}

    def close(self) -> None:
        """Nothing to release: the engines of finished requests are garbage."""


def _refusal(applied: Any) -> RefusalReport | None:
    """The refusal ``apply`` returned (an object with a ``code``), or None: the action was taken."""
    code = getattr(applied, "code", None)
    if not code:
        return None
    return {"code": code, "message": getattr(applied, "message", "")}


def _observe(engine: PythonEngine, rejected: RefusalReport | None, full: bool) -> Observation:
    if not full:  # the kit does not read this one: skip building what nobody compares
        return {"rejected": rejected, "snapshot": None, "legal": None}
    return {"rejected": rejected, "snapshot": engine.snapshot(), "legal": engine.legal_actions()}


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


def unusable_said(err: BaseException) -> str:
    """Why an engine cannot be used, as one line of safe text: the kit's own word where the kit said why (an
    EngineUnusable), else the exception as ``describe_error`` gives it."""
    from conformance.engines.protocol import EngineUnusable

    return text(_said(err)) if isinstance(err, EngineUnusable) else describe_error(err)


def _said(err: BaseException) -> str:
    """An exception's message, or why it could not be read: never raises."""
    try:
        return str(err)
    except BaseException as inner:  # an engine's exception is data, even one whose message fails
        return f"(its message could not be read: {type(inner).__name__})"


def reference_adapter() -> InProcessAdapter:
    """The reference engine, in process."""
    from reference import Engine
    from specreader import spec
    from specreader.kitdata import kit_homepage, kit_version

    info = {"name": "trickspec-reference", "version": kit_version(), "language": "python", "homepage": kit_homepage()}
    variants = spec.variant_ids()
    return InProcessAdapter(Engine.new, info, variants)


# What a name that is neither an engine class nor an adapter factory was taken for.
_NAMED_HOW = (
    "; a name with no new(variant, setup) classmethod is called with no arguments to make an adapter: name an engine "
    "class with new, or a factory (docs/guide/adapter.md)"
)


def load_engine(target: str) -> EngineAdapter:
    """``module:name`` loaded into this process: a Python engine class with ``new(variant_id, setup)`` (the
    reference's API), or a zero-argument callable returning an EngineAdapter. An engine that exits while it is
    loaded (``sys.exit`` at import, say), or raises any other BaseException but a stop of the run, is an
    ``EngineUnusable``: the kit says so, rather than end with the status the engine chose; so is a module that
    cannot be imported, with where Python looked for it."""
    from conformance.engines.protocol import EngineUnusable

    module_name, _, attr = target.partition(":")
    if not module_name or not attr:
        raise ValueError(f"expected module:name, found {target!r}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name is None or not module_name.startswith(err.name):
            raise EngineUnusable(f"it raised while it was loaded ({describe_error(err)})") from None
        raise EngineUnusable(_not_found(module_name, err.name)) from None
    except _STOPS:
        raise
    except BaseException as err:  # sys.exit, say: the engine's status would be the kit's
        did = "exited" if isinstance(err, SystemExit) else "raised"
        raise EngineUnusable(f"it {did} while it was loaded ({describe_error(err)})") from None
    obj = getattr(module, attr, None)
    if obj is None:
        raise EngineUnusable(f"module {module_name!r} has no attribute {attr!r}")
    if hasattr(obj, "new"):
        from specreader import spec

        info: Json = {"name": target, "version": "unknown", "language": "python"}
        reports = getattr(obj, "REPORTS", None)  # the snapshot fields it keeps
        if problem := declaration_problem(list(reports) if isinstance(reports, tuple) else reports, f"{target}.REPORTS"):
            raise EngineUnusable(text(problem, 300))
        if reports is not None:
            info["reports"] = list(reports)
        return InProcessAdapter(obj.new, info, spec.variant_ids())
    try:
        made = obj()
    except _STOPS:
        raise
    except BaseException as err:
        raise EngineUnusable(f"{target}() raised ({describe_error(err)}){_NAMED_HOW}") from None
    if not all(hasattr(made, name) for name in ("hello", "run", "close")):
        raise EngineUnusable(
            f"{target} returned {type(made).__name__}: expected an object with hello, run and close{_NAMED_HOW}"
        )
    try:
        hello = made.hello()
    except _STOPS:
        raise
    except BaseException as err:
        raise EngineUnusable(f"{target}: hello() raised ({describe_error(err)})") from None
    if not isinstance(hello, dict) or not isinstance(hello.get("variants", []), list):
        raise EngineUnusable(f"{target}: expected hello() to return a mapping with a list of variants, found {hello!r}")
    if problem := declaration_problem(hello.get("reports"), f"{target}: hello()'s reports"):
        raise EngineUnusable(text(problem, 300))
    return made  # type: ignore[no-any-return]


def _not_found(module_name: str, missing: str) -> str:
    """Why a module could not be imported, with the folders Python looked in and how to add one."""
    import sys
    from pathlib import Path

    here = Path.cwd()
    looked = [str(Path(p or ".").resolve()) for p in sys.path]
    on_path = str(here) in looked
    hint = (
        f"it is neither in the current folder ({here}) nor elsewhere on Python's path: run from the folder that holds"
        " it or put that folder on PYTHONPATH, and name a module in a package with its package (package.module)"
        if on_path
        else f"the current folder ({here}) is not on Python's path: put the folder that holds the module on PYTHONPATH"
    )
    return f"no module named {missing!r} (for {module_name!r}): {hint}"


def _search_path() -> list[str]:
    """``--path`` arguments for the server: the current folder, then where this process finds modules, so that
    the engine is found in its own process where it would be found in the kit's."""
    folders = dict.fromkeys(os.path.abspath(entry or os.curdir) for entry in [os.curdir, *sys.path])
    return [f"--path={folder}" for folder in folders]


def served_command(engine: str) -> list[str]:
    """The command serving a Python engine (module:name, or ``reference``) over the protocol in a process of its
    own, with the house spec folders in use and this process's search path."""
    from specreader import roots

    named = [] if engine == "reference" else [engine]
    return [sys.executable, "-m", "conformance.engines.serve", *roots.as_arguments(roots.current()), *_search_path(), *named]


def check_names(engine: str | None, engine_cmd: str | None) -> None:
    """The engine a user named, read as ``open_engine`` reads it: a ``BadCommand`` (a usage error) when it is
    named twice, or empty, or is no ``module:name``; checked before anything starts."""
    from conformance.engines.protocol import BadCommand, split_command

    if engine is not None and engine_cmd is not None:
        raise BadCommand("name either a Python engine or an engine command, not both")
    if engine_cmd is not None:
        split_command(engine_cmd)
    elif engine not in (None, "reference"):
        module_name, _, attr = (engine or "").partition(":")
        if not module_name.strip() or not attr.strip():
            raise BadCommand(f"expected 'reference' or module:name for the engine, found {engine!r}")


def open_engine(
    engine: str | None = None,
    engine_cmd: str | None = None,
    *,
    timeout: float = 10.0,
    validate: bool = False,
    startup_timeout: float | None = None,
    give_up_after: int = GIVE_UP_AFTER,
    in_process: bool = False,
) -> EngineAdapter:
    """The engine a user named: ``--engine`` (``reference`` or module:name) or ``--engine-cmd``.

    ``module:name`` is served over the protocol in a child process of its own; with ``in_process`` it is
    loaded into this process instead, with no isolation and no timeout. A command or name given empty is a
    ``BadCommand``: it never falls back to the reference engine.
    """
    from conformance.engines.protocol import InProcessChecked, SubprocessAdapter, split_command

    check_names(engine, engine_cmd)
    if engine_cmd is None and engine not in (None, "reference"):
        assert engine is not None
        if in_process:
            folder = os.path.abspath(os.curdir)  # looked in first, as the served engine's process does (_search_path)
            if folder not in (os.path.abspath(entry or os.curdir) for entry in sys.path):
                sys.path.insert(0, folder)
            return InProcessChecked(load_engine(engine), validate=validate)  # each answer held to the protocol's limits
        command = served_command(engine)
    elif engine_cmd is not None:
        command = split_command(engine_cmd)
    else:
        return reference_adapter()
    return SubprocessAdapter(
        command, timeout=timeout, validate=validate, startup_timeout=startup_timeout, give_up_after=give_up_after
    )
