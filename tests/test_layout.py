"""The package's layout (issue 19): folders by role, no import circle, light imports where promised."""

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
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names if not node.module else [None]:
                candidate = f"{target}.{alias.name}" if alias is not None else target
                found.add(candidate)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found.update(name for name in names if name.startswith("exact_odds"))
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
