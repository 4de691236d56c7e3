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


def table_rows(page: str, header: str) -> list[list[str]]:
    """The rows of the table of ``page`` whose header row starts with ``header``, cells stripped."""
    lines = (ROOT / "docs" / page).read_text().splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip().strip("*`").strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_strategies_page_tells_what_the_registry_says() -> None:
    from sokoasp.asp.strategies import STRATEGIES

    rows = table_rows("strategies.md", "| strategy |")
    assert sorted(row[0] for row in rows) == sorted(STRATEGIES)
    for name, thesis, soundness, *_ in rows:
        assert (thesis, soundness) == (STRATEGIES[name].thesis_name or "", STRATEGIES[name].soundness.value), name


def test_the_encodings_page_tells_what_the_registry_says() -> None:
    from sokoasp.asp.encodings import ENCODINGS

    rows = table_rows("encodings.md", "| name |")
    assert [row[0] for row in rows] == [name for name, encoding in ENCODINGS.items() if not encoding.planner]
    for name, _, optimal_for, _ in rows:
        encoding = ENCODINGS[name]
        if encoding.incremental:
            plural = {"move": "moves", "push": "pushes"}[encoding.unit]
            assert optimal_for == plural if encoding.proves_optimum else optimal_for.startswith("nothing (satisficing"), name


def test_the_phases_page_tells_what_the_registry_says() -> None:
    from sokoasp.config import work_text
    from sokoasp.phases import PHASES

    rows = table_rows("phases.md", "| phase |")
    assert [row[0] for row in rows] == list(PHASES)
    for name, kind, soundness, work, summary in rows:
        phase = PHASES[name]
        assert (kind.lower(), work, summary) == (phase.kind, work_text(phase.default_work), phase.summary), name
        assert soundness.replace("within its states", "").split(",")[0].strip() == phase.soundness.split(",")[0], name
