"""generators/room_stage_bench.py: it writes the states a room-stage run reached (on a level the
stages fill, the start alone) and finds a stage plan from each."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers import level_of
from test_roomstages import TWO_DOORS

from sokoasp.board.xsb import read_levels, write_collection

SCRIPT = Path(__file__).resolve().parent.parent / "generators" / "room_stage_bench.py"


def test_room_stage_bench_writes_the_states_of_a_run_and_times_a_stage_from_each(tmp_path: Path) -> None:
    levels, states = tmp_path / "one.sok", tmp_path / "states.sok"
    level = level_of(TWO_DOORS)
    levels.write_text(write_collection([level]))
    written = subprocess.run([sys.executable, str(SCRIPT), str(levels), str(states), "--write", "-l", "1", "--seconds", "30"],
                             capture_output=True, text=True, timeout=300)
    assert written.returncode == 0, written.stderr
    assert "1 states  (filled)" in written.stdout
    (start,) = read_levels(states.read_text(), str(states))
    assert start.title == "1, 0 in" and start.boxes == level.boxes and start.player == level.player
    timed = subprocess.run([sys.executable, str(SCRIPT), str(levels), str(states), "--stage-seconds", "10"],
                           capture_output=True, text=True, timeout=300)
    assert timed.returncode == 0, timed.stderr
    assert "plans 1; models turned away" in timed.stdout
