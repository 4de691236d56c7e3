"""How fast is the end game's search of every box (sokoasp/endgame.py, ``moving_every_box``)?
Runs it from the start of each chosen level, deadlocked states cut, up to a number of states,
and prints how it ended (a plan and its pushes, none at all, the state limit) and its seconds
(the median of ``--repeat`` runs). The search is deterministic: two versions of the code that
prune the same states find the same plan, and their seconds compare directly. Run it from two
checkouts in turn on the same machine and take the ratio of the medians (BENCHMARKS.md, "A
cheaper deadlock prune for the box searches").

    python generators/end_game_search_bench.py downloads/levels/microban_ii.sok -l 102,116 --states 200000
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import click

from sokoasp.board.level import Level
from sokoasp.board.loading import load_level
from sokoasp.cli import run
from sokoasp.sokoban import deadlocks
from sokoasp.sokoban import end_game as endgame


def timed_search(level: Level, states: int) -> tuple[str, float]:
    """How one search of every box from the start of ``level`` ended, and its seconds,
    the deadlock tests' caches emptied first (each run pays for its own)."""
    deadlocks.group_is_dead.cache_clear()
    deadlocks.group_sides.cache_clear()
    path: list[tuple[tuple[int, int], tuple[int, int]]] = []
    began = time.perf_counter()
    found = endgame.moving_every_box(level, float("inf"), False, path, None, states)
    seconds = time.perf_counter() - began
    ended = f"plan of {len(path)} pushes" if found else "none at all" if found is False else "state limit"
    return ended, seconds


@click.command(help=__doc__)
@click.argument("level_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-l", "--levels", "which", default="1", show_default=True, help="Levels of the collection, comma-separated.")
@click.option("--states", default=200_000, show_default=True, type=click.IntRange(min=1), help="The search's state limit.")
@click.option("--repeat", default=3, show_default=True, type=click.IntRange(min=1), help="Runs per level (the median is printed).")
def main(level_file: Path, which: str, states: int, repeat: int) -> None:
    names = [name.strip() for name in which.split(",") if name.strip()]
    if not names:
        raise click.BadParameter("names no level", param_hint="--levels")
    for name in names:
        level = load_level(level_file, name).level
        runs = [timed_search(level, states) for _ in range(repeat)]
        ended = runs[0][0]
        seconds = statistics.median(run_seconds for _, run_seconds in runs)
        click.echo(f"{level.title or name}: {len(level.boxes)} boxes, {ended}, median {seconds:.2f} s of {repeat}")


if __name__ == "__main__":
    run(main)
