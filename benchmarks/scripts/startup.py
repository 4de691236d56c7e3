"""Start-up: the wall time of `sokoasp --help` and of a solve of a one-box level, as ratios to
`python -c "import clingo"`, each the best of N runs taken in turn (the machine's noise falls on
all three alike), after one run of each that writes the bytecode, as `pip install` does (the
children run without PYTHONDONTWRITEBYTECODE).

    python benchmarks/scripts/startup.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ONE_BOX = "#####\n#@$.#\n#####\n"


ENV = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=ENV)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    sokoasp = str(Path(sys.executable).parent / "sokoasp")
    with tempfile.TemporaryDirectory() as folder:
        level = Path(folder) / "one.sok"
        level.write_text(ONE_BOX)
        commands = {"import clingo": [sys.executable, "-c", "import clingo"], "sokoasp --help": [sokoasp, "--help"],
                    "sokoasp solve (one box)": [sokoasp, "solve", str(level)]}
        for command in commands.values():
            wall(command)
        best = {name: min(wall(command) for _ in range(runs)) for name, command in commands.items()}
    base = best["import clingo"]
    for name, seconds in best.items():
        print(f"{name:26} {seconds * 1000:7.1f} ms   x{seconds / base:.2f}")


if __name__ == "__main__":
    main()
