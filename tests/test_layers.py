"""Imports run one way: from the command line down to the level model. Each module of the
package imports only from its own layer or the layers below it."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "sokoasp"

# Top to bottom; a module's layer is its first package part (or its top-level module name).
LAYERS = [
    {"cli", "__main__", "__init__"},
    {"tools"},
    {"portfolio", "optimizer"},
    {"pipeline", "worker", "configure"},
    {"phases"},
    {"asp"},
    {"sokoban"},
    {"board"},
    {"config", "result", "errors", "registry"},
]


def layer_of(module: str) -> int:
    part = module.split(".")[1] if module.count(".") else "__init__"
    for rank, names in enumerate(LAYERS):
        if part in names:
            return rank
    raise AssertionError(f"{module} is in no layer: add it to LAYERS")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" and len(parts) > 2 else parts)


def imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("sokoasp."):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("sokoasp.")}
    return found


def test_every_import_runs_down_the_layers() -> None:
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        for target in imports(path):
            if layer_of(target) < layer_of(module):
                upward.append(f"{module} imports {target}")
    assert upward == []


def test_nothing_below_asp_imports_clingo() -> None:
    below = [path for path in PACKAGE.rglob("*.py") if path.relative_to(PACKAGE).parts[0] in {"sokoban", "board"}]
    offenders = [str(path.relative_to(PACKAGE)) for path in below
                 if any(name == "clingo" or name.startswith("clingo.") for name in imports_all(path))]
    assert offenders == []


def imports_all(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def test_every_package_of_the_checkout_is_installed() -> None:
    """pyproject.toml lists the packages a wheel holds: a new folder missing there imports from a
    checkout and fails in every installed copy."""
    listed = set(tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    folders = {".".join(path.parent.relative_to(PACKAGE.parent).parts) for path in PACKAGE.rglob("__init__.py")}
    assert folders - listed == set()
