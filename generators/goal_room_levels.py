"""Write the levels with macros (sokoasp.sokoban.goal_room: the goal room replaced by a corridor of
goals) of every level of a collection that has one, as a new collection, each titled after
its level. The goal-room phase solves these; the grids *-rooms-stages.toml run them directly:

    python generators/goal_room_levels.py ../shared/levels/microban_i.sok microban_i_rooms.sok
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click

from sokoasp.board.loading import load_all
from sokoasp.board.xsb import write_collection
from sokoasp.cli import run
from sokoasp.sokoban.goal_room import find_goal_room


def levels_with_macros(path: Path) -> str:
    simpler = []
    for number, loaded in enumerate(load_all(path), start=1):
        room = find_goal_room(loaded.level)
        if room is not None:
            simpler.append(replace(room.level, title=f"{path.stem} {number} with macros"))
    return write_collection(simpler)


@click.command(help=__doc__)
@click.argument("collection", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("written", type=click.Path(dir_okay=False, path_type=Path))
def main(collection: Path, written: Path) -> None:
    written.write_text(levels_with_macros(collection))


if __name__ == "__main__":
    run(main)
