"""Every Hypothesis strategy in the kit and its tests can be described while another thread imports.

Hypothesis describes a strategy (when a ``recursive`` draw runs past its leaves, a filter retries, or a
draw fails) and, for a lambda that reads a module's attribute, iterates ``sys.modules`` to do it, which
raises when an engine's thread imports meanwhile. Such a lambda made a test fail under pytest-xdist;
tests/json_strategies.py says how the tests avoid it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DESCRIBED = {"recursive", "map", "filter", "flatmap", "builds"}  # strategies whose description shows their function
FILES = sorted([*(ROOT / "conformance").rglob("*.py"), *(ROOT / "tests").rglob("*.py")])


def module_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.asname or alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            names |= {alias.asname or alias.name for alias in node.names}  # a name imported from a package may be a module
    return names


def module_reading_lambdas(source: str) -> list[int]:
    """The lines of lambdas given to a described strategy that read an attribute of an imported name."""
    tree = ast.parse(source)
    modules = module_names(tree)
    found = []
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in DESCRIBED):
            continue
        for argument in [*call.args, *(keyword.value for keyword in call.keywords)]:
            if isinstance(argument, ast.Lambda) and any(
                isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules
                for node in ast.walk(argument.body)
            ):
                found.append(argument.lineno)
    return found


def test_the_check_finds_the_lambda_that_failed() -> None:
    failed = "from hypothesis import strategies as st\nJ = st.recursive(st.none(), lambda inner: st.lists(inner))\n"
    harmless = "from hypothesis import strategies as st\nJ = st.builds(dict).map(lambda game: game.actions)\n"
    assert module_reading_lambdas(failed) == [2]
    assert module_reading_lambdas(harmless) == []


def test_no_strategy_is_described_from_a_lambda_reading_a_module() -> None:
    sources = {path: path.read_text(encoding="utf-8") for path in FILES}
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path, source in sources.items()
        if "hypothesis" in source  # only these can make a strategy; parsing the rest is time lost
        for line in module_reading_lambdas(source)
    ]
    assert found == [], f"use a named function: {found}"
