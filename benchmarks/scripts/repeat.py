"""Run a grid twice and list the runs whose outcome differs: the reproducibility benchmark.

    python benchmarks/scripts/repeat.py GRID.toml --out DIR [--workers N]

It runs ``sokoasp grid run GRID --db DIR/first.sqlite``, then the same into ``DIR/second.sqlite``,
exports both (``sokoasp grid export``) and compares each run's status and plan. A run that met its
time limit in either pass may differ (the limit is the one budget in seconds); every other
difference is a reproducibility bug. Prints one line per differing run and a summary; exits 1
when a run below the limit differs. Runs only the command line.
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
from pathlib import Path

CUT = ("timeout", "memory out")  # outcomes of a run the outer limits ended


def run_twice(grid: Path, out: Path, workers: int) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    exports = []
    for name in ("first", "second"):
        database, export = out / f"{name}.sqlite", out / f"{name}.csv"
        sokoasp = [sys.executable, "-m", "sokoasp", "grid"]
        subprocess.run([*sokoasp, "run", str(grid), "--db", str(database), "--workers", str(workers)], check=True)
        subprocess.run([*sokoasp, "export", "--db", str(database), "--csv", str(export)], check=True)
        exports.append(export)
    return exports[0], exports[1]


def outcomes(export: Path) -> dict[tuple[str, str], tuple[str, str]]:
    """(level, configuration) -> (status, plan) of every run in an export."""
    with export.open(newline="") as handle:
        return {(row["instance"], row["configuration"]): (row["status"], row["plan"]) for row in csv.DictReader(handle)}


def compare(first: dict[tuple[str, str], tuple[str, str]], second: dict[tuple[str, str], tuple[str, str]]) -> int:
    """Print the runs whose outcome differs; return how many did so below the limits."""
    bugs = cut = 0
    for key in sorted(first.keys() & second.keys()):
        (status_a, plan_a), (status_b, plan_b) = first[key], second[key]
        if (status_a, plan_a) == (status_b, plan_b):
            continue
        limited = status_a in CUT or status_b in CUT
        cut += limited
        bugs += not limited
        kind = "at the limit" if limited else "BELOW THE LIMIT"
        print(f"{kind}: {key[0]} [{key[1]}]: {status_a} ({len(plan_a)} moves) vs {status_b} ({len(plan_b)} moves)")
    print(f"{len(first.keys() & second.keys())} runs in both passes: {bugs} differ below the limits, {cut} at a limit")
    return bugs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("grid", type=Path)
    parser.add_argument("--out", type=Path, required=True, help="folder for the two databases and exports")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    first, second = run_twice(args.grid, args.out, args.workers)
    sys.exit(1 if compare(outcomes(first), outcomes(second)) else 0)


if __name__ == "__main__":
    main()
