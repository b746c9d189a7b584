"""The packages form layers: each imports only the layers below it, so there is no import cycle.

specreader (the kit's data, read strictly) < reference (the engine) < conformance (the kit) < rulesite
(the rules site generator). The reference never imports the kit: an engine built on it, such as
examples/python-subprocess, carries no runner, adapter or report. Inside the kit, its rooms are layers too:
text < vocabulary < suite < engines < run < measures < fuzz < traces < what stands at its top (the commands
and the command line, the plugin, validate's checks).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Each package and the packages it may import, lowest layer first.
LAYERS = {
    "specreader": set(),
    "reference": {"specreader"},
    "conformance": {"specreader", "reference"},
    "rulesite": {"specreader", "reference", "conformance"},
}


# The kit's rooms, lowest first; each imports only the rooms before it. What stands at the kit's top (the commands,
# the command line, the plugin, the strategies, validate's checks) may import any room, and no room imports it.
ROOMS = ["text", "vocabulary", "suite", "engines", "run", "measures", "fuzz", "traces"]


@functools.cache
def module_tree(source: Path) -> ast.Module:
    """A module's syntax tree, parsed once while this file's tests run: three checks here walk every module of the
    kit."""
    return ast.parse(source.read_text(encoding="utf-8"))


@pytest.fixture(scope="module", autouse=True)
def _trees_let_go() -> Iterator[None]:
    """The trees go with this file's last test: kept, they were some 200,000 objects, which every full collection
    of the garbage collector walked again until the end of the run (40 ms each)."""
    yield
    module_tree.cache_clear()


def imported_packages(source: Path) -> set[str]:
    """The first-party packages a module imports, at any depth of the module (lazy imports count)."""
    found = set()
    for node in ast.walk(module_tree(source)):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        found |= {name.split(".")[0] for name in names if name.split(".")[0] in LAYERS}
    return found


def package_modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", [p for p in LAYERS if (ROOT / p).is_dir()])
def test_a_package_imports_only_the_layers_below_it(package: str) -> None:
    modules = package_modules(package)
    assert modules, f"{package} has no modules"
    wrong = {
        f"{module.relative_to(ROOT)} imports {', '.join(sorted(bad))}"
        for module in modules
        if (bad := imported_packages(module) - LAYERS[package] - {package})
    }
    assert not wrong, "imports against the layers:\n" + "\n".join(sorted(wrong))


def room_of(module: str) -> str | None:
    """The room of a dotted module name inside the kit, or None for a module at its top level."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ROOMS else None


def imported_kit_modules(source: Path) -> set[str]:
    """The kit modules a module imports, dotted, at any depth (``from conformance import x`` names
    ``conformance.x``)."""
    found = set()
    for node in ast.walk(module_tree(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return {name for name in found if name.startswith("conformance.")}


def test_a_room_of_the_kit_imports_only_the_rooms_before_it() -> None:
    kit = ROOT / "conformance"
    packages = [p.name for p in kit.iterdir() if (p / "__init__.py").is_file() and p.name not in ROOMS]
    top_level = sorted([p.stem for p in kit.glob("*.py")] + packages)
    assert set(top_level) <= {
        "commands",
        "__init__",
        "cli",
        "plugin",
        "pytest_scenarios",
        "strategies",
        "validate",
        "implementations",
        "vocabulary",
    }, "a new module at the kit's top level: put it in the room that holds its kind"
    wrong = []
    for module in package_modules("conformance"):
        dotted = ".".join(module.relative_to(ROOT).with_suffix("").parts)
        room = room_of(dotted)
        if room is None:
            continue
        for name in imported_kit_modules(module):
            other = room_of(name)
            if other is not None and ROOMS.index(other) > ROOMS.index(room):
                wrong.append(f"{module.relative_to(ROOT)} ({room}) imports {name} ({other})")
            elif other is None and name.split(".")[1] in top_level:
                wrong.append(f"{module.relative_to(ROOT)} ({room}) imports {name}, a command at the top")
    assert not wrong, "imports against the kit's rooms:\n" + "\n".join(sorted(wrong))


def test_the_layer_table_itself_has_no_cycle() -> None:
    order = list(LAYERS)
    for package, allowed in LAYERS.items():
        assert all(order.index(lower) < order.index(package) for lower in allowed), package


def test_the_checker_sees_an_import_against_the_layers(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from conformance.run.runner import run\n    import reference.engine\n")
    assert imported_packages(module) == {"conformance", "reference"}


def test_the_python_template_engine_imports_only_the_engine() -> None:
    template = ROOT / "examples" / "python-subprocess" / "engine.py"
    assert imported_packages(template) == {"reference"}


def test_hypothesis_stays_optional_for_the_kit() -> None:
    """Only conformance.strategies imports Hypothesis (a dev extra), and nothing of the kit imports it."""
    strategies = ROOT / "conformance" / "strategies.py"
    for package in LAYERS:
        for module in package_modules(package):
            if module == strategies:
                continue
            tree = module_tree(module)
            for node in ast.walk(tree):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                if isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
                bad = [n for n in names if n.split(".")[0] == "hypothesis" or n == "conformance.strategies"]
                assert not bad, f"{module.relative_to(ROOT)} imports {', '.join(bad)}"


def test_openspiel_stays_optional_for_the_engine_and_the_kit() -> None:
    """Only reference/openspiel.py imports pyspiel or open_spiel (the ``openspiel`` extra), and no
    module imports it: the engine and the kit work without OpenSpiel installed."""
    bridge = ROOT / "reference" / "openspiel.py"
    for package in LAYERS:
        for module in package_modules(package):
            tree = module_tree(module)
            for node in ast.walk(tree):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                if isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
                spiel = [n for n in names if n.split(".")[0] in ("pyspiel", "open_spiel")]
                assert module == bridge or not spiel, f"{module.relative_to(ROOT)} imports {', '.join(spiel)}"
                assert "reference.openspiel" not in names, f"{module.relative_to(ROOT)} imports reference.openspiel"
