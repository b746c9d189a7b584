"""``trickspec where`` and ``trickspec schema-path``: where the installed kit keeps what a user reads and points tools at."""

from __future__ import annotations

import argparse

from conformance.commands.exits import EXIT_OK, usage_error
from conformance.run import runlog
from specreader import kitdata


def cmd_schema_path(args: argparse.Namespace) -> int:
    """Where the kit's schemas are installed, for an editor's schema hint in a file outside the kit."""
    folder = kitdata.schemas_dir()
    if args.name is None:
        print(folder)
        return EXIT_OK
    path = folder / f"{args.name.removesuffix('.schema.json')}.schema.json"
    if not path.is_file():
        known = " ".join(sorted(p.name.removesuffix(".schema.json") for p in folder.glob("*.schema.json")))
        return usage_error(f"no schema {args.name!r}: expected one of {known}")
    print(path)
    return EXIT_OK


PLACES = {
    "spec": kitdata.spec_dir,
    "schemas": kitdata.schemas_dir,
    "scenarios": kitdata.scenarios_dir,
    "docs": kitdata.docs_dir,
    "examples": kitdata.examples_dir,
}


def cmd_where(args: argparse.Namespace) -> int:
    """Where the installed kit keeps what a user reads and points tools at; one folder alone, for a script."""
    if args.name is not None:
        print(PLACES[args.name]())
        return EXIT_OK
    places = [(name, folder()) for name, folder in PLACES.items()]
    print(f"trickspec {kitdata.kit_version()}, spec {runlog.spec_version()}")
    for name, folder in places:
        print(f"{name:<10} {folder}" + ("" if folder.is_dir() else "  (not installed)"))
    print(f"{'site':<10} {kitdata.kit_homepage() or 'https://trickspec.dev'}")
    return EXIT_OK
