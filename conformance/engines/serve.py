"""A Python engine served over the engine protocol: ``python -m conformance.engines.serve [module:name]``.

Reads one JSON request per line on standard input and answers one JSON line each
(docs/protocol.md). With no name it serves the reference engine; the answers are the
in-process adapter's, so both ways of running the reference give the same results
scenario by scenario. Named, it serves any Python engine as ``--engine module:name``
names it: this is how the kit runs a Python engine it did not write, in a process of
its own.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import IO, Any, cast

from conformance.engines.adapter import EngineAdapter, describe_error, load_engine, reference_adapter
from conformance.engines.messages import Request
from conformance.engines.protocol import VERSION as PROTOCOL_VERSION
from conformance.engines.protocol import EngineUnusable
from conformance.text import untrusted
from conformance.vocabulary import EngineError
from specreader import roots
from specreader.problems import format_path


def serve(stdin: IO[str], stdout: IO[str], adapter: EngineAdapter | Callable[[], EngineAdapter] | None = None) -> int:
    """Answer the protocol's messages with ``adapter``'s engine (default: the reference engine). Given
    as a function that makes the adapter, it is made once the protocol has its descriptors, so what
    the engine's module prints as it is imported in that function reaches only standard error."""
    with _requests(stdin) as requests, _answers(stdout) as answers:
        try:
            made = adapter() if callable(adapter) else adapter
        except (EngineUnusable, ValueError) as err:  # said on standard error, which the kit shows with the failure
            print(f"the engine cannot be served: {err}", file=sys.stderr)
            return 3
        return _serve(requests, answers, made or reference_adapter())


def _is_process_own(stream: IO[str], descriptor: int) -> bool:
    try:
        return stream.fileno() == descriptor
    except (AttributeError, OSError, ValueError):  # not a file: a test's buffer
        return False


@contextmanager
def _answers(stdout: IO[str]) -> Iterator[IO[str]]:
    """Where the answers go. Served on the process's own standard output, they get a descriptor of
    their own, and descriptor 1 becomes standard error for the rest of the run: whatever else
    writes to it (an engine's print from a thread it started or from ``__del__``, a logging handler
    made at import, a C library) reaches the kit as the engine's standard error, never as a line of
    the protocol."""
    if not _is_process_own(stdout, 1):
        yield stdout
        return
    stdout.flush()
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    try:
        yield answers
    finally:
        answers.close()


@contextmanager
def _requests(stdin: IO[str]) -> Iterator[IO[str]]:
    """Where the requests come from. Read from the process's own standard input, they get a
    descriptor of their own, and descriptor 0 reads nothing (/dev/null): an engine that reads its
    input (``input()``) meets its end, and takes no request meant for the server."""
    if not _is_process_own(stdin, 0):
        yield stdin
        return
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.close(nothing)
    try:
        yield requests
    finally:
        requests.close()


def _serve(stdin: IO[str], stdout: IO[str], adapter: EngineAdapter) -> int:
    def send(message: Mapping[str, Any] | str) -> None:
        stdout.write((message if isinstance(message, str) else _encoded(message)) + "\n")
        stdout.flush()

    for line in stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError as err:
            send({"error": {"kind": "bad_request", "message": f"not JSON: {err.msg}"}})
            continue
        cmd = message.get("cmd") if isinstance(message, dict) else None
        if cmd == "start":
            send(_started(adapter))
        elif cmd == "run":
            request = cast(Request, {k: v for k, v in message.items() if k != "cmd"})
            send(_answer(adapter, request))
        elif cmd == "stop":
            break
        else:
            send({"error": {"kind": "unknown_command", "message": f"unknown command {cmd!r}"}})
    adapter.close()
    return 0


def _encoded(message: Mapping[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), allow_nan=False)


def _started(adapter: EngineAdapter) -> Mapping[str, Any] | str:
    """The handshake's answer, encoded; a hello() that raises or gives what is no JSON is the engine's failure."""
    try:
        return _encoded({"started": True, "protocol": PROTOCOL_VERSION, "implementation": {"homepage": "", **adapter.hello()}})
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as err:
        return {"error": {"kind": "crash", "message": f"the engine's hello() failed: {describe_error(err)}"}}


def _answer(adapter: EngineAdapter, request: Request) -> Mapping[str, Any] | str:
    """The engine's answer as a message that can be sent, encoded: what an adapter says of its own failure, or an
    answer that is no JSON (an Enum for a code, say), becomes an error of the request."""
    rid = request.get("id")
    try:
        answer = adapter.run(request)
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as err:  # the engine's own failure, whatever it raised
        return {"id": rid, "error": {"kind": "crash", "message": describe_error(err)}}
    if isinstance(answer, EngineError):
        return {"id": rid, "error": {"kind": str(answer.kind), "message": answer.message}}
    try:
        return _encoded(answer)  # encoded once, here, where what cannot be encoded is the engine's failure
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as err:
        where = untrusted.unencodable(answer)  # the value json refused, and where in the answer it is
        said = f"expected a JSON value, found {where[1]} at {format_path(where[0])}" if where else describe_error(err)
        return {"id": rid, "error": {"kind": "crash", "message": f"the engine's answer is not JSON: {untrusted.text(said)}"}}


def main(argv: list[str] | None = None) -> int:
    """``[--spec=DIR...] [--path=DIR...] [module:name]``: each ``--spec`` a house spec folder read with the kit's
    (docs/guide/house-rules.md), each ``--path`` searched for the engine's module first, in order (the kit passes
    the folder it runs in and its own search path)."""
    args = sys.argv[1:] if argv is None else argv
    house = [arg.removeprefix("--spec=") for arg in args if arg.startswith("--spec=")]
    folders = [arg.removeprefix("--path=") for arg in args if arg.startswith("--path=")]
    names = [arg for arg in args if not arg.startswith(("--path=", "--spec="))]
    if len(names) > 1 or (names and ":" not in names[0]):
        print("usage: python -m conformance.engines.serve [--spec=DIR...] [--path=DIR...] [module:name]", file=sys.stderr)
        return 2
    sys.path[:0] = [folder for folder in folders if folder not in sys.path]
    with roots.using(spec=house):
        if problems := roots.folder_problems(roots.current().spec, "spec"):
            print("\n".join(map(str, problems)), file=sys.stderr)
            return 2
        return serve(sys.stdin, sys.stdout, (lambda: load_engine(names[0])) if names else None)


if __name__ == "__main__":
    sys.exit(main())
