"""One stage of staged solving from fixed states, two strategy sets side by side: a repeatable
measure of how fast clingo finds a stage plan, where a timed staged search walks other states on
every run (sokoasp/staged.py: a stage asks for one more box on a goal).

The states lie on the plans of a plan record (so every stage has a plan): the start and the
states after the given shares of each plan's moves. From each, one stage in a session of its
own (grounding included) asks for one more box on a goal than the state has (``--more``: more),
with the baseline strategies and then the tried ones. Prints each state's times, the stages
each set solved, and the geometric mean speed-up (baseline / tried) over the stages both
solved; writes a CSV.

    python generators/stage_bench.py ../shared/levels/xsokoban_90.sok instances/plans/xsokoban_90.csv \
        --levels 1-20 --tried dead+freeze+commute
"""

from __future__ import annotations

import csv
import math
import time
from pathlib import Path

import click

from sokoasp.asp.session import Clock, SolveConfig
from sokoasp.asp.stage_ends import StageGoal, state_after
from sokoasp.asp.stage_session import StageSession
from sokoasp.board.level import Level
from sokoasp.board.loading import load_all
from sokoasp.cli import run
from sokoasp.tools.grid.spec import select
from sokoasp.tools.records import read_record


def states_on(level: Level, plan: str, shares: list[float]) -> list[tuple[float, Level]]:
    """Each share with the state after that share of ``plan``'s moves, without the solved ones."""
    states = [(share, state_after(level, plan[: int(len(plan) * share)])) for share in shares]
    return [(share, state) for share, state in states if not state.boxes <= state.goals]


def one_stage(state: Level, config: SolveConfig, limit: float, more: int) -> tuple[float, bool]:
    """Seconds to a plan for ``more`` boxes more on goals from ``state``, and whether one was found."""
    need = min(len(state.boxes & state.goals) + more, len(state.goals))
    clock = Clock(limit=limit)
    began = time.perf_counter()
    found = StageSession(state, config, clock).plan(state, StageGoal(need=need), clock)
    return time.perf_counter() - began, found is not None


@click.command()
@click.argument("level_file", type=click.Path(exists=True, path_type=Path))
@click.argument("record", type=click.Path(exists=True, path_type=Path))
@click.option("--levels", required=True, help="Level numbers, e.g. 1-20,31 (levels without a plan are skipped).")
@click.option("--family", default="push-macro", show_default=True, help="The stages' push family.")
@click.option("--baseline", default="dead+freeze", show_default=True, help="Stage strategies, joined by +.")
@click.option("--tried", required=True, help="The stage strategies measured against the baseline, joined by +.")
@click.option("--tried-clingo-arg", "clingo_args", multiple=True, help="A clingo option for the tried stages, e.g. "
              "--tried-clingo-arg=--configuration=jumpy.")
@click.option("--shares", default="0,0.33,0.67", show_default=True, help="Where on each plan the states lie.")
@click.option("--more", type=click.IntRange(1), default=1, show_default=True,
              help="How many boxes more on goals a stage asks for (more: longer, harder stage plans).")
@click.option("--time-limit", type=float, default=10.0, show_default=True, help="Seconds per stage.")
@click.option("--csv", "csv_path", type=click.Path(path_type=Path), default=Path("stage-bench.csv"), show_default=True)
def main(level_file: Path, record: Path, levels: str, family: str, baseline: str, tried: str,
         clingo_args: tuple[str, ...], shares: str, more: int, time_limit: float, csv_path: Path) -> None:
    collection = [loaded.level for loaded in load_all(level_file)]
    plans = read_record(record, collection)
    sets = {"baseline": SolveConfig(encoding=family, strategies=tuple(baseline.split("+"))),
            "tried": SolveConfig(encoding=family, strategies=tuple(tried.split("+")), clingo_args=clingo_args)}
    rows: list[dict[str, float]] = []
    print("level  share  placed  baseline (s)  tried (s)")
    cut = [float(share) for share in shares.split(",")]
    for number in (n for n in select(len(collection), levels, str(level_file)) if n in plans):
        for share, state in states_on(collection[number - 1], plans[number].plan, cut):
            row = {"level": number, "share": share, "placed": len(state.boxes & state.goals)}
            for name, config in sets.items():
                seconds, found = one_stage(state, config, time_limit, more)
                row[f"{name}_s"], row[f"{name}_found"] = round(seconds, 3), int(found)
            rows.append(row)
            marks = ["" if row[f"{name}_found"] else " (none)" for name in sets]
            print(f"{number:5}  {share:5}  {row['placed']:6}  {row['baseline_s']:8.2f}{marks[0]}  "
                  f"{row['tried_s']:8.2f}{marks[1]}", flush=True)
    report(rows)
    with csv_path.open("w", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]) if rows else ["level"])
        writer.writeheader()
        writer.writerows(rows)


def report(rows: list[dict[str, float]]) -> None:
    """The stages each set solved, and the speed-up over the stages both solved."""
    print(f"stages solved: baseline {sum(r['baseline_found'] for r in rows):.0f}, "
          f"tried {sum(r['tried_found'] for r in rows):.0f} of {len(rows)}")
    both = [row for row in rows if row["baseline_found"] and row["tried_found"]]
    if both:
        logs = [math.log(row["baseline_s"] / row["tried_s"]) for row in both]
        print(f"speed-up (baseline / tried), geometric mean over the {len(both)} both solved: "
              f"{math.exp(sum(logs) / len(logs)):.2f}x")


if __name__ == "__main__":
    run(main)
