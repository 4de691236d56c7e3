"""What the steps a stage control has grounded cost a short stage question (sokoasp/bands.py,
``CONTROL_STEPS``): for each count of grounded steps, a control of its own asks the same question
(one box more on a goal from the level's start, at a short horizon) a few times, and the median
time of the repeats (the first, which pays for clasp's first look at the program, left out) is
printed. Every grounded step weighs on every solve call, idle or not.

    python generators/stage_ask_cost.py ../shared/levels/xsokoban_90.sok -l 10 --grounded 8,40,108
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import click

from sokoasp.asp.encodings import get_encoding
from sokoasp.asp.session import Clock, SolveConfig
from sokoasp.asp.stage_ends import StageEnds, StageGoal
from sokoasp.asp.stage_session import StageControl, stage_facts
from sokoasp.board.level import Level
from sokoasp.board.loading import load_level
from sokoasp.cli import run


def ask_seconds(level: Level, family: str, grounded: int, horizon: int, repeats: int) -> tuple[float, float]:
    """Seconds to ground ``grounded`` steps, and the median seconds of the repeated question."""
    config = SolveConfig(encoding=family, strategies=("dead", "freeze"))
    control = StageControl(level, get_encoding(family), config, Clock(), stage_facts(level, False))
    began = time.perf_counter()
    control.session.ground_up_to(grounded)
    ground = time.perf_counter() - began
    goal = StageGoal(need=len(level.boxes & level.goals) + 1)
    times = []
    for _ in range(repeats + 1):
        control.switch(level, goal)
        ends = StageEnds(level, goal, reverse=False)
        ends.horizon = horizon
        control.session.extractor = ends
        began = time.perf_counter()
        control.session.ask(horizon)
        times.append(time.perf_counter() - began)
    return ground, statistics.median(times[1:])


@click.command()
@click.argument("level_file", type=click.Path(exists=True, path_type=Path))
@click.option("-l", "--level", "which", required=True, help="Which level of the file (number or title).")
@click.option("--family", type=click.Choice(["push", "push-jump", "push-macro", "push-route"]), default="push-macro",
              show_default=True, help="The stages' push family (forwards).")
@click.option("--grounded", default="8,20,40,108", show_default=True, help="Counts of grounded steps, comma-separated.")
@click.option("--horizon", type=click.IntRange(1), default=3, show_default=True, help="The horizon of the question.")
@click.option("--repeats", type=click.IntRange(1), default=4, show_default=True, help="Questions timed per count, after one untimed.")
def main(level_file: Path, which: str, family: str, grounded: str, horizon: int, repeats: int) -> None:
    level = load_level(level_file, which).level
    print("grounded steps  grounding (s)  question (ms, median)")
    for steps in (int(text) for text in grounded.split(",")):
        ground, asked = ask_seconds(level, family, max(steps, horizon), horizon, repeats)
        print(f"{steps:14}  {ground:13.2f}  {asked * 1000:20.0f}", flush=True)


if __name__ == "__main__":
    run(main)
