"""States per second of the Python push search, against a baseline install, back to back.

    python benchmarks/scripts/search_speed.py --baseline OLD/bin/sokoasp [--states 20000]
        [--levels ../shared/levels/xsokoban_90.sok] [--numbers 4,24,29,36,50] [--rounds 3]

Each round runs, for every level, ``sokoasp solve`` with the box-search phase alone (the search
of every box: ``push_search`` with its matching guide and deadlock cuts) stopped after
``--states`` states, once with the baseline's ``sokoasp`` and once with this checkout's, one
after the other. The search is deterministic, so both test the same states from the same
start; the figure is states over the run's total time, best of the rounds, and the ratio of
this checkout's rate to the baseline's on each level and over all (geometric mean). Runs only
the command line.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATES = re.compile(r"(\d+) states")


def rate(sokoasp: list[str], level_file: str, number: int, states: int) -> float:
    """States per second of one run of the box search on level ``number``."""
    args = [*sokoasp, "solve", "--json", "-e", "push-macro", "-s", "dead", "-s", "freeze", "-s", "bound",
            "-p", f"box-search:states={states}", "--max-horizon", "0", "-l", str(number), level_file]
    done = subprocess.run(args, capture_output=True, text=True, cwd=tempfile.gettempdir())  # not the checkout: -m would find it first
    result = json.loads(done.stdout)
    note = next(phase["note"] for phase in result["phases"] if phase["phase"] == "box-search")
    found = STATES.search(note)
    searched = int(found.group(1)) if found else states
    return searched / result["times"]["total"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="the baseline's sokoasp command (split like a shell line)")
    parser.add_argument("--states", type=int, default=5_000)
    parser.add_argument("--levels", type=lambda path: str(Path(path).resolve()),
                        default=str(ROOT.parent / "shared" / "levels" / "xsokoban_90.sok"))
    parser.add_argument("--numbers", default="4,24,29,36,50")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    numbers = [int(n) for n in args.numbers.split(",")]
    ours = [sys.executable, "-m", "sokoasp"]
    best: dict[tuple[str, int], float] = {}
    for _ in range(args.rounds):
        for number in numbers:
            for name, command in (("baseline", shlex.split(args.baseline)), ("this", ours)):
                found = rate(command, args.levels, number, args.states)
                best[name, number] = max(best.get((name, number), 0.0), found)
    print(f"{'level':>6} {'baseline/s':>11} {'this/s':>9} {'ratio':>6}")
    ratios = []
    for number in numbers:
        old, new = best["baseline", number], best["this", number]
        ratios.append(new / old)
        print(f"{number:>6} {old:>11.0f} {new:>9.0f} {new / old:>6.2f}")
    print(f"geometric mean ratio: {math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}")


if __name__ == "__main__":
    main()
