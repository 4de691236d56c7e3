"""What the stages' group and corral tests cost (sokoasp/deadlocks.py), three ways on the same
questions in the same run: the search of all a group's boxes together, states taken up in the
order found (the test before commit cc7017e); the boxes first placed one at a time, each
on the goal it reaches first, then that search, depth first along a plateau (the test of
cc7017e); and the test as it is now (boxes placed one at a time aim first at the goals to fill
first). The questions are those a staged run of SECONDS (push-macro stages, dead and freeze)
asks on each level; the answers must agree, and the script stops with an error if one does not.

    python generators/group_test_cost.py ../shared/levels/xsokoban_90.sok -l 24,85,10 --seconds 20

Prints, per level, the questions asked, the seconds each way and the ratios now / before and
now / nearest (the test of cc7017e).
The staged run itself varies from run to run (its passes are timed), so the questions do too;
compare the columns of one run, not runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import click

from sokoasp.asp.session import SolveConfig
from sokoasp.board.level import Cell, Level
from sokoasp.board.loading import load_level
from sokoasp.cli import run
from sokoasp.errors import SokoaspError
from sokoasp.pipeline import solve
from sokoasp.sokoban import deadlocks
from sokoasp.sokoban.analysis import goal_layers, lone_box_distances
from sokoasp.sokoban.push_search import push_search

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


def nearest_goal_first(questions: list[Question]) -> tuple[float, list[bool]]:
    """The test of cc7017e, timed: boxes placed one at a time aim at any goal (the nearest first),
    as ``deadlocks.placed_one_by_one`` does when every goal is one to fill first."""
    aim = deadlocks.goals_filled_first
    deadlocks.goals_filled_first = every_goal  # type: ignore[assignment]
    try:
        return timed(questions, deadlocks.cannot_all_reach_goals)
    finally:
        deadlocks.goals_filled_first = aim


def every_goal(floor: frozenset[Cell], goals: frozenset[Cell]) -> frozenset[Cell]:
    return goals


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
    click.echo("level\tquestions\tbefore s\tnearest s\tnow s\tnow / before\tnow / nearest")
    totals = [0.0, 0.0, 0.0]
    for name in which.split(","):
        level = load_level(level_file, name.strip()).level
        questions = questions_of(level, seconds)
        before, expected = timed(questions, all_together)
        nearest, nearest_answers = nearest_goal_first(questions)
        deadlocks.goals_filled_first.cache_clear()  # its cost counts: the staged run filled the cache
        goal_layers.cache_clear()
        now, answers = timed(questions, deadlocks.cannot_all_reach_goals)
        if answers != expected or nearest_answers != expected:
            raise SokoaspError(f"{level_file}: level {name}: the tests disagree on a question (a bug)")
        for index, seconds_taken in enumerate((before, nearest, now)):
            totals[index] += seconds_taken
        click.echo(f"{level.title or name}\t{len(questions)}\t{row(before, nearest, now)}")
    click.echo(f"all\t\t{row(*totals)}")


def row(before: float, nearest: float, now: float) -> str:
    return f"{before:.2f}\t{nearest:.2f}\t{now:.2f}\t{now / max(before, 1e-9):.2f}\t{now / max(nearest, 1e-9):.2f}"


if __name__ == "__main__":
    run(main)
