"""Write the levels with macros (sokoasp.goalroom: the goal room replaced by a corridor of
goals) of every level of a collection that has one, as a new collection, each titled after
its level. The goal-room phase solves these; the grids *-rooms-stages.toml run them directly:

    python generators/goal_room_levels.py ../shared/levels/microban_i.sok microban_i_rooms.sok
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from sokoasp.goalroom import find_goal_room
from sokoasp.loading import load_all
from sokoasp.xsb import write_collection


def levels_with_macros(path: Path) -> str:
    simpler = []
    for number, loaded in enumerate(load_all(path), start=1):
        room = find_goal_room(loaded.level)
        if room is not None:
            simpler.append(replace(room.level, title=f"{path.stem} {number} with macros"))
    return write_collection(simpler)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    Path(sys.argv[2]).write_text(levels_with_macros(Path(sys.argv[1])))
