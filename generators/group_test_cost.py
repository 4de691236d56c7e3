"""What the stages' group and corral tests cost (sokoasp/deadlocks.py), two ways on the same
questions in the same run: the search of all a group's boxes together, states taken up in the
order found (the test before the 2026-11-29 change), and the test as it is now (the boxes placed
one at a time first, then that search, depth first along a plateau). The questions are those a
staged run of SECONDS (push-macro stages, dead and freeze) asks on each level; the answers must
agree, and the script stops with an error if one does not.

    python generators/group_test_cost.py ../shared/levels/xsokoban_90.sok -l 24,85,10 --seconds 20

Prints, per level, the questions asked, the seconds each way and their ratio (now / before).
The staged run itself varies from run to run (its passes are timed), so the questions do too;
compare the two columns of one run, not runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import click

from sokoasp import deadlocks
from sokoasp.analysis import lone_box_distances
from sokoasp.cli import run
from sokoasp.driver import solve
from sokoasp.errors import SokoaspError
from sokoasp.filling import push_search
from sokoasp.level import Cell, Level
from sokoasp.loading import load_level
from sokoasp.session import SolveConfig

Question = tuple[frozenset[Cell], frozenset[Cell], frozenset[Cell], Cell, bool, int, frozenset[Cell]]
GroupTest = Callable[[frozenset[Cell], frozenset[Cell], frozenset[Cell], Cell, bool, int, frozenset[Cell]], bool]


def questions_of(level: Level, seconds: float) -> list[Question]:
    """The group and corral questions (``deadlocks.cannot_all_reach_goals``'s arguments) of a
    staged run of ``seconds`` on ``level``."""
    asked: list[Question] = []
    test = deadlocks.cannot_all_reach_goals

    def recording(floor: frozenset[Cell], goals: frozenset[Cell], boxes: frozenset[Cell], player: Cell, pulls: bool,
                  limit: int, escape: frozenset[Cell] = frozenset()) -> bool:
        asked.append((floor, goals, boxes, player, pulls, limit, escape))
        return test(floor, goals, boxes, player, pulls, limit, escape)

    deadlocks.cannot_all_reach_goals = recording
    deadlocks.fence_is_dead.cache_clear()
    deadlocks.group_is_dead.cache_clear()
    try:
        solve(level, SolveConfig(encoding="push-macro", strategies=("dead", "freeze"), staged=seconds,
                                 stage_encoding="push-macro", max_horizon=400, time_limit=seconds))
    finally:
        deadlocks.cannot_all_reach_goals = test
    return asked


def all_together(floor: frozenset[Cell], goals: frozenset[Cell], boxes: frozenset[Cell], player: Cell, pulls: bool,
                 limit: int, escape: frozenset[Cell]) -> bool:
    """The test before: one search of all the boxes, states taken up in the order found."""
    distance = lone_box_distances(floor, goals, pulls)
    if any(box not in distance for box in boxes):
        return True
    return push_search(floor, boxes, player, distance, goals, pulls, limit, escape) is False


def timed(questions: list[Question], test: GroupTest) -> tuple[float, list[bool]]:
    began = time.perf_counter()
    answers = [test(*question) for question in questions]
    return time.perf_counter() - began, answers


@click.command(help=__doc__)
@click.argument("level_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-l", "--levels", "which", default="1", show_default=True,
              help="Levels of a collection: numbers or titles, comma-separated.")
@click.option("--seconds", default=20.0, show_default=True, type=click.FloatRange(min=0.1),
              help="The staged run that asks the questions, per level.")
def main(level_file: Path, which: str, seconds: float) -> None:
    click.echo("level\tquestions\tbefore s\tnow s\tnow / before")
    totals = [0.0, 0.0]
    for name in which.split(","):
        level = load_level(level_file, name.strip()).level
        questions = questions_of(level, seconds)
        before, expected = timed(questions, all_together)
        now, answers = timed(questions, deadlocks.cannot_all_reach_goals)
        if answers != expected:
            raise SokoaspError(f"{level_file}: level {name}: the two tests disagree on a question (a bug)")
        totals[0] += before
        totals[1] += now
        click.echo(f"{level.title or name}\t{len(questions)}\t{before:.2f}\t{now:.2f}\t{now / max(before, 1e-9):.2f}")
    click.echo(f"all\t\t{totals[0]:.2f}\t{totals[1]:.2f}\t{totals[1] / max(totals[0], 1e-9):.2f}")


if __name__ == "__main__":
    run(main)
