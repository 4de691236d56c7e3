"""How many pushes before a box can stand on a given square, with some boxes held in place?
A breadth-first search over pushes (``search.fewest_pushes_until``, exact, in Python) that
never pushes a box onto a dead square (``analysis.dead_squares``) nor into a deadlock (a box
frozen off the goals, ``deadlocks.frozen_boxes``, or a dead group of two or three,
``deadlocks.dead_group``), and never pushes the boxes listed with ``--hold`` (the deadlock
tests see them as boxes, which might move). No plan of the level passes a deadlock, so with
nothing held the count is the fewest pushes of any plan before a box stands there; a plan
found is a legal start of the level. "None" with boxes held says that some of them must move
before the square can be reached.

Microban 153's first box must reach the top of its goal column, (1, 1): it takes 74 pushes at
least (1.4 million states, about 10 minutes), and with any one of the middle room's boxes held
there is no way at all (BENCHMARKS.md, "Microban 153: how far the first box is"):

    python generators/first_entry.py ../shared/levels/microban_i.sok -l 153 --square 1,1 --hold 7,3
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import click

from sokoasp.board.level import Cell, Level
from sokoasp.board.loading import load_level
from sokoasp.cli import run
from sokoasp.errors import InputError
from sokoasp.sokoban.analysis import dead_squares
from sokoasp.sokoban.breadth_first import fewest_pushes_until
from sokoasp.sokoban.deadlocks import dead_group, frozen_boxes
from sokoasp.sokoban.pushes import Push, pushes_plan


def parse_cell(text: str) -> Cell:
    try:
        x, y = (int(part) for part in text.split(","))
    except ValueError:
        raise InputError(f"{text!r} is not a square: write it as x,y (1-based, x to the right)") from None
    return x, y


def deadlock_test(level: Level, held: frozenset[Cell]) -> Callable[[frozenset[Cell], Cell, Cell], bool]:
    """Whether the boxes (and the ``held`` ones), the player beside the box just pushed, are in
    a deadlock of ``level``: frozen boxes off the goals, or a dead group holding that box."""
    def dead(boxes: frozenset[Cell], player: Cell, moved: Cell) -> bool:
        state = replace(level, boxes=boxes | held, player=player)
        return bool(frozen_boxes(state) - level.goals) or dead_group(state, moved=frozenset({moved})) is not None
    return dead


@click.command(help=__doc__)
@click.argument("level_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-l", "--level", "which", default="1", show_default=True, help="Which level of a collection.")
@click.option("--square", required=True, help="The square a box should reach, as x,y.")
@click.option("--hold", multiple=True, help="A box that stays where it is (a wall), as x,y; repeat for more.")
@click.option("--nodes", default=3_000_000, show_default=True, type=click.IntRange(min=1),
              help="States the search may store before it gives up.")
def main(level_file: Path, which: str, square: str, hold: tuple[str, ...], nodes: int) -> None:
    level = load_level(level_file, which).level
    target = parse_cell(square)
    held = frozenset(parse_cell(cell) for cell in hold)
    if not held <= level.boxes:
        raise InputError(f"no box to hold on {', '.join(map(str, sorted(held - level.boxes)))}")
    floor = level.floor - held
    end = fewest_pushes_until(floor, level.boxes - held, level.player, lambda boxes: target in boxes, nodes,
                              box_squares=floor - dead_squares(level), dead=deadlock_test(level, held))
    title = level.title or which
    if end.pushes is not None:
        click.echo(f"{title}: {len(end.pushes)} pushes put a box on {target} ({end.states} states)")
        click.echo(f"moves (`sokoasp show --plan MOVES` plays them): {pushes_plan(level, [Push(*push) for push in end.pushes])}")
    elif end.states > nodes:
        ruled_out = f"none of up to {end.depth - 1} pushes puts a box on {target}; " if end.depth > 1 else ""
        click.echo(f"{title}: {ruled_out}no answer within {nodes} states (raise --nodes)")
    else:
        click.echo(f"{title}: no push sequence puts a box on {target} (all {end.states} states searched)")


if __name__ == "__main__":
    run(main)
