"""The indexes in the docs neither miss nor invent a file: generators/README.md lists every
recipe of generators/, benchmarks/README.md every grid and script of benchmarks/, and the
README's layout names every folder and top module of the package."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INDEXED = {"generators": ("*.toml", "*.py"),
           "benchmarks": ("grids/*.toml", "studies/*.toml", "scripts/*.py", "thesis/*.toml")}


def first_column(text: str) -> list[str]:
    """The backticked names in the first column of the Markdown table rows of ``text``."""
    rows = (line.split("|")[1] for line in text.splitlines() if line.startswith("| `"))
    return [name for row in rows for name in re.findall(r"`([^`]+)`", row)]


def indexed(folder: str) -> list[str]:
    return first_column((ROOT / folder / "README.md").read_text())


@pytest.mark.parametrize("folder", sorted(INDEXED))
def test_every_file_of_the_folder_is_in_its_index(folder: str) -> None:
    files = {str(path.relative_to(ROOT / folder)) for pattern in INDEXED[folder] for path in (ROOT / folder).glob(pattern)}
    assert files - set(indexed(folder)) == set()


@pytest.mark.parametrize("folder", sorted(INDEXED))
def test_the_index_names_no_file_that_is_missing(folder: str) -> None:
    named = ROOT / folder
    assert {name for name in indexed(folder)
            if not ((named / name).is_dir() if name.endswith("/") else (named / name).is_file())} == set()


def test_the_readme_layout_names_every_folder_and_top_module_of_the_package() -> None:
    package = ROOT / "sokoasp"
    names = {path.name for path in package.glob("*.py") if not path.stem.startswith("_")}
    names |= {f"sokoasp/{path.name}/" for path in package.iterdir() if (path / "__init__.py").is_file()}
    layout = (ROOT / "README.md").read_text().split("## Layout", 1)[1].split("\n## ", 1)[0]
    assert names - set(first_column(layout)) == set()
