"""Print a variant's integer action index (action_ids.py, docs/action-ids.md).

    python -m reference.show_actions VARIANT
"""

from __future__ import annotations

import argparse

from reference.engine import compile_rules
from specreader.spec import variant, variant_ids


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("variant", choices=variant_ids(), metavar="VARIANT")
    args = parser.parse_args(argv)
    rules = compile_rules(variant(args.variant))
    index = rules.index
    codes = rules.cards.codes
    n, per_seat = rules.seats.n, index.per_seat
    print(f"{args.variant}: {n} seats x {per_seat} actions = {index.size} ids; id = seat * {per_seat} + local")
    print(f"deck order (card 0 first): {' '.join(codes)}")
    for start, kind, names_card in index.describe():
        if names_card:
            print(f"  local {start:>3} to {start + len(codes) - 1:>3}: {kind}, one per card in deck order")
        else:
            print(f"  local {start:>3}       : {kind}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
