"""The indexes in the docs neither miss nor invent a file: generators/README.md lists every
recipe, grid and script of generators/, and the README's layout names every folder and top module
of the package."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GENERATORS = ROOT / "generators"


def first_column(text: str) -> list[str]:
    """The backticked names in the first column of the Markdown table rows of ``text``."""
    rows = (line.split("|")[1] for line in text.splitlines() if line.startswith("| `"))
    return [name for row in rows for name in re.findall(r"`([^`]+)`", row)]


def generators_index() -> list[str]:
    return first_column((GENERATORS / "README.md").read_text())


def test_every_recipe_grid_and_script_is_in_the_generators_index() -> None:
    files = {path.name for path in GENERATORS.iterdir() if path.suffix in {".toml", ".py"}}
    assert files - set(generators_index()) == set()


def test_the_generators_index_names_no_file_that_is_missing() -> None:
    assert {name for name in generators_index() if not (GENERATORS / name).is_file()} == set()


def test_the_readme_layout_names_every_folder_and_top_module_of_the_package() -> None:
    package = ROOT / "sokoasp"
    names = {path.name for path in package.glob("*.py") if not path.stem.startswith("_")}
    names |= {f"sokoasp/{path.name}/" for path in package.iterdir() if (path / "__init__.py").is_file()}
    layout = (ROOT / "README.md").read_text().split("## Layout", 1)[1].split("\n## ", 1)[0]
    assert names - set(first_column(layout)) == set()
