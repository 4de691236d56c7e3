"""Which levels of a collection get goal macros (sokoasp.sokoban.goal_room.find_goal_room), and how long
the analysis takes on each: the levels, the closed square of a room with two entrances, the
slowest analysis, and the levels whose goals lie in a room (one entrance or two) that no goal
macros fill, closed or not. To compare two versions of the code, run it from each checkout at once:

    python generators/goal_room_survey.py ../shared/levels/xsokoban_90.sok ../shared/levels/microban_i.sok
    PYTHONPATH=COPY python generators/goal_room_survey.py ...   (COPY holding only the sokoasp package)
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from sokoasp.board.loading import load_all
from sokoasp.cli import run
from sokoasp.sokoban.goal_room import find_goal_room, goal_rooms, two_entrance_rooms


def survey(path: Path) -> None:
    rooms, unfilled, slowest = [], [], (0.0, 0)
    for number, loaded in enumerate(load_all(path), start=1):
        began = time.perf_counter()
        room = find_goal_room(loaded.level)
        slowest = max(slowest, (time.perf_counter() - began, number))
        if room is not None:
            rooms.append(f"{number}" + ("" if room.closed is None else f" (closed {room.closed})"))
        elif goal_rooms(loaded.level) or two_entrance_rooms(loaded.level):
            unfilled.append(str(number))
    print(f"{path}: {len(rooms)} levels with goal macros: {', '.join(rooms)}")
    print(f"  slowest analysis: level {slowest[1]}, {slowest[0]:.2f} s")
    print(f"  {len(unfilled)} levels with a goal room but no macros: {', '.join(unfilled)}")


@click.command(help=__doc__)
@click.argument("collections", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
def main(collections: tuple[Path, ...]) -> None:
    for path in collections:
        survey(path)


if __name__ == "__main__":
    run(main)
