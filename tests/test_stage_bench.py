"""generators/stage_bench.py: from the states on a record's plan, every stage finds its plan
under both strategy sets, and the CSV holds one row per state."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

from corpus import HAND_MADE
from helpers import level_of
from oracle import bfs_pushes

from sokoasp import SolveConfig, Status, solve
from sokoasp.board.xsb import write_collection
from sokoasp.tools.records import Entry, write_record

SCRIPT = Path(__file__).resolve().parent.parent / "generators" / "stage_bench.py"


def test_stage_bench_times_a_stage_from_each_state_on_the_plan(tmp_path: Path) -> None:
    text = HAND_MADE["corridor"]
    level = level_of(text)
    result = solve(level, SolveConfig(encoding="push", strategies=("dead",)))
    assert result.status is Status.SOLVED_OPTIMAL and result.plan is not None and result.pushes == bfs_pushes(text)
    levels, record, out = tmp_path / "one.sok", tmp_path / "one.csv", tmp_path / "bench.csv"
    levels.write_text(write_collection([level]))
    write_record(record, {1: Entry(1, "one", result.pushes, len(result.plan), "test", 0.0, result.plan)})
    finished = subprocess.run([sys.executable, str(SCRIPT), str(levels), str(record), "--levels", "1",
                               "--tried", "dead+freeze+straight", "--family", "push-macro", "--csv", str(out)],
                              capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr
    with out.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert 1 <= len(rows) <= 3 and rows[0]["share"] == "0.0"
    assert all(row["baseline_found"] == "1" and row["tried_found"] == "1" for row in rows)
    assert f"stages solved: baseline {len(rows)}, tried {len(rows)} of {len(rows)}" in finished.stdout
