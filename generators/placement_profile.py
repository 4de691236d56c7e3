"""When does each box come onto a goal for good in a push-optimal plan? Staged solving puts one
more box on a goal per stage (sokoasp/staged.py), so its first stage is at least as long as
the stretch before the first box that never leaves its goal again. This script finds a
push-optimal plan by breadth-first search over pushes (``search.optimal_pushes``, exact, in
Python, for few boxes) and prints, for each box placed for good, the push after which it
stays: on Microban II 116 the first comes after push 70 of 100, on 110 after push 130 of 137
(BENCHMARKS.md, "Few boxes, long plans"). One push-optimal plan, the first the search finds;
another may place boxes sooner.

    python generators/placement_profile.py downloads/levels/microban_ii.sok -l 116,110
"""

from __future__ import annotations

from pathlib import Path

import click

from sokoasp.board.level import Cell, Level, add
from sokoasp.board.loading import load_level
from sokoasp.cli import run
from sokoasp.sokoban.breadth_first import optimal_pushes


def placements_for_good(level: Level, pushes: list[tuple[Cell, Cell]]) -> list[int]:
    """For k = 1 .. the number of goals, the first push after which at least k boxes stand on
    goals in every later state (0: already at the start)."""
    boxes, placed = set(level.boxes), [len(level.boxes & level.goals)]
    for box, delta in pushes:
        boxes.remove(box)
        boxes.add(add(box, delta))
        placed.append(len(boxes & level.goals))
    return [next(i for i in range(len(placed)) if min(placed[i:]) >= k) for k in range(1, len(level.goals) + 1)]


def box_moves(pushes: list[tuple[Cell, Cell]]) -> int:
    """Pushes grouped into runs of the same box (what push-route counts as a step at best)."""
    moves, last = 0, None
    for box, delta in pushes:
        moves += box != last
        last = add(box, delta)
    return moves


@click.command(help=__doc__)
@click.argument("level_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-l", "--levels", "which", default="1", show_default=True,
              help="Levels of a collection: numbers or titles, comma-separated.")
@click.option("--nodes", default=3_000_000, show_default=True, type=click.IntRange(min=1),
              help="States the breadth-first search may store before it gives up on a level.")
def main(level_file: Path, which: str, nodes: int) -> None:
    click.echo("level\tboxes\tpushes\tbox moves\tpush after which k boxes stay on goals (k = 1, 2, ...)")
    for name in which.split(","):
        level = load_level(level_file, name.strip()).level
        pushes = optimal_pushes(level, node_limit=nodes)
        title = level.title or name
        if pushes is None:
            click.echo(f"{title}\t{len(level.boxes)}\t-\t-\tno plan within {nodes} states (unsolvable, or raise --nodes)")
            continue
        profile = ", ".join(map(str, placements_for_good(level, pushes)))
        click.echo(f"{title}\t{len(level.boxes)}\t{len(pushes)}\t{box_moves(pushes)}\t{profile}")


if __name__ == "__main__":
    run(main)
