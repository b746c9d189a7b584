"""A minimal engine over the trickspec protocol (docs/protocol.md), wrapping the reference engine.

A template for a Python engine author: replace ``Engine.new`` by your own engine and
``VARIANTS`` by the variants it plays. It imports only ``reference``, never the kit.
Run from the repository root: ``.venv/bin/python examples/python-subprocess/engine.py``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from reference import Engine, Refusal, SetupError

VARIANTS = [
    "albastini-2p", "albastini-3p", "albastini-4p", "albastini-5p", "albastini-6p-pairs", "albastini-6p-threes",
    "albastini-clockwise", "albastini-over60", "albastini-over60-2p", "albastini-over60-3p", "albastini-over60-5p",
    "albastini-over60-6p-pairs", "albastini-over60-6p-threes", "altbaumer-standard", "bisca-2p", "briscola-2p", "briscola-4p",
]
HELLO = {"name": "python-subprocess-example", "version": "0.1.0", "language": "python", "homepage": "", "variants": VARIANTS}


def run(request: dict[str, Any]) -> dict[str, Any]:
    rid = request.get("id")
    try:
        engine = Engine.new(request["variant"], request["setup"])
    except Exception as err:  # a setup the engine cannot play is an answer, not a crash
        refused = {"kind": "setup", "message": f"{type(err).__name__}: {err}"}
        if isinstance(err, SetupError):  # a setup no deal begins from: its refusal code (spec/refusals.yaml)
            refused["code"] = err.code
        return {"id": rid, "error": refused}

    def observe(rejected: dict[str, str] | None) -> dict[str, Any]:
        return {"rejected": rejected, "snapshot": engine.snapshot(), "legal": engine.legal_actions()}

    observations = [observe(None)]
    for action in request.get("actions", []):
        try:
            outcome = engine.apply(action if isinstance(action, dict) else {})
            refused = {"code": outcome.code, "message": outcome.message} if isinstance(outcome, Refusal) else None
            observations.append(observe(refused))
        except Exception as err:  # report what there is, and the failure
            crash = {"kind": "crash", "message": f"{type(err).__name__}: {err}"}
            return {"id": rid, "observations": observations, "error": crash}
    return {"id": rid, "observations": observations}


def main() -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError as err:
            message = {"cmd": f"<not JSON: {err.msg}>"}
        cmd = message.get("cmd") if isinstance(message, dict) else None
        if cmd == "stop":
            return 0
        if cmd == "start":
            answer: dict[str, Any] = {"started": True, "protocol": 1, "implementation": HELLO}
        elif cmd == "run":
            answer = run(message)
        else:
            answer = {"error": {"kind": "unknown_command", "message": f"unknown command {cmd!r}"}}
        print(json.dumps(answer, separators=(",", ":")), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
