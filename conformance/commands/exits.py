"""The exit statuses every command shares, and how a usage error or a problem in the data is said."""

from __future__ import annotations

import sys

from specreader.problems import Problem

EXIT_OK, EXIT_FAILED, EXIT_BAD_DATA, EXIT_ENGINE, EXIT_KIT_FAULT = 0, 1, 2, 3, 4



def usage_error(message: str) -> int:
    print(f"usage error: {message}", file=sys.stderr)
    return EXIT_BAD_DATA


def print_problems(problems: list[Problem]) -> int:
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{len(problems)} problem(s)", file=sys.stderr)
    return EXIT_BAD_DATA
