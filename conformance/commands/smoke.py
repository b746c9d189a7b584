"""``trickspec smoke``: an engine tried on the protocol's basics before any verdict."""

from __future__ import annotations

import argparse
import sys

from conformance.commands.exits import EXIT_ENGINE, EXIT_KIT_FAULT, EXIT_OK, usage_error
from conformance.engines import adapter as adapters
from conformance.engines.protocol import BadCommand
from conformance.measures.smoke import smoke
from conformance.run import kit_faults


def cmd_smoke(args: argparse.Namespace) -> int:
    try:
        adapters.check_names(args.engine, args.engine_cmd)
        if args.engine is None and args.engine_cmd is None:
            raise BadCommand("name the engine to try: --engine module:name or --engine-cmd 'command'")
        trials = smoke(adapters.served_command(args.engine) if args.engine else args.engine_cmd, timeout=args.timeout)
    except BadCommand as err:
        return usage_error(str(err))
    for trial in trials:
        print(f"{'ok  ' if trial.ok else 'FAIL'} {trial.name}: {trial.detail}")
    if faulty := next((t for t in trials if t.where), None):  # once, for a report of the fault
        print(kit_faults.raised(f"judging {faulty.name}", faulty.where), file=sys.stderr)
    passed = sum(t.ok for t in trials)
    print(f"{passed} passed, {len(trials) - passed} failed")
    if faulty:
        return EXIT_KIT_FAULT
    return EXIT_OK if passed == len(trials) else EXIT_ENGINE
