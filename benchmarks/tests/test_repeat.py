"""benchmarks/scripts/repeat.py runs a grid twice and lists the runs whose outcome differs: on a
small grid nothing differs, and a difference below the limit is told apart from one at it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from scripts import SCRIPTS, script

ROOT = SCRIPTS.parent.parent


def test_a_small_grid_run_twice_gives_the_same_outcomes(tmp_path: Path) -> None:
    grid = tmp_path / "g.toml"
    grid.write_text(f'encodings = ["push-macro"]\ntime_limit = 30\nphases = [["box-search"], ["staged"]]\n'
                    f'[[instances]]\npath = "{ROOT / "instances" / "microban_1-5.sok"}"\n')
    done = subprocess.run([sys.executable, str(SCRIPTS / "repeat.py"), str(grid), "--out", str(tmp_path / "out")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "10 runs in both passes: 0 differ below the limits, 0 at a limit"


def test_a_difference_below_the_limit_is_a_bug_and_one_at_it_is_not(capsys) -> None:
    repeat = script("repeat")
    first = {("a", "c"): ("solved (not proven optimal)", "rrU"), ("b", "c"): ("timeout", "")}
    second = {("a", "c"): ("solved (not proven optimal)", "rU"), ("b", "c"): ("solved (not proven optimal)", "lL")}
    assert repeat.compare(first, second) == 1
    out = capsys.readouterr().out
    assert "BELOW THE LIMIT: a [c]" in out and "at the limit: b [c]" in out
