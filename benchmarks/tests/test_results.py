"""The README's XSokoban rows state what the committed race exports hold: the levels solved in
the one run and the median time of a solved level."""

from __future__ import annotations

import csv
import re
import statistics
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results"


@pytest.mark.parametrize(("limit", "export"), [("60 s", "xsokoban-60-portfolio.csv"), ("300 s", "xsokoban-300-portfolio.csv")])
def test_the_readme_states_the_exports_figures(limit: str, export: str) -> None:
    rows = list(csv.DictReader((RESULTS / export).open(encoding="utf-8")))
    solved = [float(row["total_time"]) for row in rows if row["solved"] == "1"]
    line = next(line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
                if line.startswith(f"| XSokoban (90) | {limit}, `race` |"))
    stated = re.search(r"(\d+) in one run, median ([\d.]+) s", line)
    assert stated, line
    assert len(rows) == 90
    assert int(stated.group(1)) == len(solved)
    assert float(stated.group(2)) == round(statistics.median(solved), 1)
