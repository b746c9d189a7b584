"""A hand-written mutant of the reference engine (tests/mutants.py) served over the protocol.

    python tests/serve_mutant.py queen-above-jack
"""

from __future__ import annotations

import sys

from conformance.engines.serve import serve

from mutants import MUTANTS, mutant_adapter

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in MUTANTS:
        sys.exit(f"usage: serve_mutant.py {'|'.join(sorted(MUTANTS))}")
    sys.exit(serve(sys.stdin, sys.stdout, mutant_adapter(sys.argv[1])))
