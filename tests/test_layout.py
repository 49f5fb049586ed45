"""The package's layout (issues 19 and 30): folders by role, imports only downward, no import circle,
light imports where promised."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parent.parent / "exact_odds"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """The package modules ``path`` imports, at any depth of its code (lazy imports included)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("exact_odds"):  # each name may be a module (from ..studies import removal)
                found.update([target] + [f"{target}.{alias.name}" for alias in node.names])
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("exact_odds"))
    return found


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports (a name that is a symbol of a module counts as that module)."""
    edges = {}
    for name, path in MODULES.items():
        targets = set()
        for target in imports(path):
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name and MODULES[target].name != "__init__.py":
                targets.add(target)
        edges[name] = targets
    return edges


def test_no_import_circle() -> None:
    edges = graph()
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for target in sorted(edges[node]):
            if state.get(target) == 1:
                circle = path[path.index(target):] + [target]
                pytest.fail("import circle: " + " -> ".join(circle))
            if target not in state:
                visit(target)
        path.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)


FLOORS = {"errors": 0, "records": 0, "interrupts": 0, "importing": 0, "core": 1, "bets": 2, "engine": 3, "games": 3, "studies": 4,
          "commands": 5, "cli": 6, "serve": 6, "exact_odds": 7, "__main__": 7}
"""Each folder (and top-level module) by floor: a module imports only from its own floor or below.
errors, records, interrupts and importing are standard-library modules under everything; the package itself
(the library's public names) and ``python -m`` stand over the front doors."""
RENDERER = "output"
"""The renderer stands beside the floors: it imports only what RENDERER_USES names, and only the
commands and the front doors import it."""
RENDERER_USES = {"exact_odds.core.numbers", "exact_odds.errors", "exact_odds.records", "exact_odds.interrupts"}
"""interrupts holds Ctrl-C while output/files renames a folder written whole: standard library only."""


def folder(name: str) -> str:
    """The folder (or top-level module) a module sits in: ``exact_odds.core.shoe`` -> ``core``."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def test_imports_run_only_downward() -> None:
    """Every import, lazy ones inside functions too: core < bets < engine, games < studies <
    commands < cli, serve; output/ imports only core's numbers, errors and records."""
    wrong = []
    for name, targets in graph().items():
        for target in sorted(targets):
            source, goal = folder(name), folder(target)
            if source == RENDERER:
                allowed = goal == RENDERER or target in RENDERER_USES
            elif goal == RENDERER:
                allowed = FLOORS[source] >= FLOORS["commands"]
            else:
                allowed = FLOORS[goal] <= FLOORS[source]
            if not allowed:
                wrong.append(f"{name} -> {target}")
    assert not wrong, "imports that run up the floors: " + ", ".join(wrong)


def test_every_folder_has_a_floor() -> None:
    """A new folder or top-level module takes its place in FLOORS (or is the renderer)."""
    assert {folder(name) for name in MODULES} - {RENDERER} <= set(FLOORS)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_module_imports_alone(name: str) -> None:
    """Each module is importable as the first one a process loads (a circle would fail here)."""
    done = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True, text=True, cwd=PACKAGE.parent)
    assert done.returncode == 0, done.stderr[-2000:]


def test_subpackage_inits_import_nothing() -> None:
    for path in PACKAGE.glob("*/__init__.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert not [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))], path


@pytest.mark.parametrize("name", ["exact_odds", "exact_odds.games.chemin", "exact_odds.core.policy", "exact_odds.core.rules"])
def test_light_imports_load_no_numpy(name: str) -> None:
    done = subprocess.run([sys.executable, "-c", f"import sys, {name}; print('numpy' in sys.modules)"], capture_output=True, text=True, cwd=PACKAGE.parent)
    assert done.stdout.strip() == "False", done.stderr[-2000:]
