"""Room stages alone (sokoasp/roomstages.py) on the levels of a collection: for each level, the
seconds until the stages fill its goal room (the plan replayed by the simulator), or how many
boxes they brought in when the time ran out. A repeatable measure of the room stages without
the portfolio around them; run two installed copies side by side to compare them.

    python generators/room_stages_alone.py ../shared/levels/xsokoban_90.sok -l 12,36,57,67 --seconds 30
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from sokoasp.asp.room_stages import solve_room_stages
from sokoasp.asp.session import Clock, SolveConfig
from sokoasp.board.loading import load_level
from sokoasp.board.simulator import replay
from sokoasp.cli import run


@click.command()
@click.argument("level_file", type=click.Path(exists=True, path_type=Path))
@click.option("-l", "--levels", required=True, help="Levels of the file (numbers or titles), comma-separated.")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=30.0, show_default=True,
              help="The room stages' time on each level.")
def main(level_file: Path, levels: str, seconds: float) -> None:
    config = SolveConfig(encoding="push-macro", strategies=("dead", "freeze"))
    solved = 0
    for which in levels.split(","):
        level = load_level(level_file, which).level
        began = time.perf_counter()
        plan, note, _ = solve_room_stages(level, config, Clock(limit=seconds))
        took = time.perf_counter() - began
        filled = plan is not None and replay(level, plan).ok
        solved += filled
        print(f"{which:>6}  {'solved' if filled else '-':6}  {took:6.1f} s  {note}", flush=True)
    print(f"solved {solved} of {len(levels.split(','))}")


if __name__ == "__main__":
    run(main)
