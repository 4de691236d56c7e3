"""generators/room_stage_chains.py: it proves a room-stage chain's states from the last
backwards and says from which state on the chain was dead."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from helpers import level_of
from test_roomstages import TWO_DOORS

from sokoasp.board.xsb import write_collection
from sokoasp.errors import ExitCode

SCRIPT = Path(__file__).resolve().parent.parent / "generators" / "room_stage_chains.py"

# TWO_DOORS after its first entry, (1, 1) filled, with a box pushed into the corner (7, 1)
# on the way: no box can be pushed out of a corner.
CORNERED = """\
#########
#*#    $#
#.. $$  #
#.. $   #
###    @#
#########
"""


def test_room_stage_chains_names_the_first_dead_state_of_a_chain(tmp_path: Path) -> None:
    levels, states = tmp_path / "one.sok", tmp_path / "states.sok"
    level = level_of(TWO_DOORS)
    levels.write_text(write_collection([level]))
    chain = [replace(level, title="1, 0 in"), replace(level_of(CORNERED), title="1, 1 in")]
    states.write_text(write_collection(chain))
    proven = subprocess.run([sys.executable, str(SCRIPT), str(levels), str(states), "--seconds", "30"],
                            capture_output=True, text=True, timeout=300)
    assert proven.returncode == 0, proven.stderr
    lines = proven.stdout.splitlines()
    assert "1, 1 in  dead (a box on a dead square: (7, 1))" in lines[0]
    assert "1, 0 in  live" in lines[1]  # the boxes can all come in: the walk stops here
    assert lines[2].strip() == "1: dead from 1 in"


def test_room_stage_chains_refuses_a_level_without_an_entrance_room(tmp_path: Path) -> None:
    levels, states = tmp_path / "one.sok", tmp_path / "states.sok"
    level = level_of("######\n#    #\n# $. #\n# @  #\n######\n")  # the goal in the open
    levels.write_text(write_collection([level]))
    states.write_text(write_collection([replace(level, title="1, 0 in")]))
    proven = subprocess.run([sys.executable, str(SCRIPT), str(levels), str(states)], capture_output=True, text=True, timeout=60)
    assert proven.returncode == ExitCode.USAGE  # a level the script cannot take, said as sokoasp says usage errors
    assert "level 1 of" in proven.stderr and "has no entrance room" in proven.stderr
