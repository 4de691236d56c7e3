"""The stage questions of one staged run, by band of horizons (sokoasp/bands.py): how many were
asked and their mean time (the grounding of new steps included). Shows what the controls by
band cost and save in a real run, where stage_ask_cost.py times one question in isolation; run
two installed copies side by side to compare them.

    python generators/stage_ask_bands.py ../shared/levels/xsokoban_90.sok -l 10 --seconds 60
"""

from __future__ import annotations

import time
from collections import defaultdict
from pathlib import Path

import click

import sokoasp.asp.session
from sokoasp.asp.bands import CONTROL_STEPS
from sokoasp.asp.session import Session, SolveConfig
from sokoasp.board.loading import load_level
from sokoasp.cli import run
from sokoasp.pipeline import solve

LAST = 10**6  # the last band's last horizon: none is asked beyond it
# The bands' horizons, first and last: (1, 8), (9, 27), (28, LAST) for CONTROL_STEPS (8, 27).
BANDS = tuple(zip((1, *(steps + 1 for steps in CONTROL_STEPS)), (*CONTROL_STEPS, LAST), strict=True))


def timed_asks(log: list[tuple[int, float]]) -> None:
    """Every Session.ask from now on appends its horizon and seconds to ``log``."""
    ask = Session.ask

    def logged(self: Session, horizon: int, budget: float | None = None) -> bool | None:
        began = time.perf_counter()
        answer = ask(self, horizon, budget)
        log.append((horizon, time.perf_counter() - began))
        return answer

    sokoasp.asp.session.Session.ask = logged  # type: ignore[method-assign]


@click.command()
@click.argument("level_file", type=click.Path(exists=True, path_type=Path))
@click.option("-l", "--level", "which", required=True, help="Which level of the file (number or title).")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=60.0, show_default=True,
              help="The staged run's time.")
def main(level_file: Path, which: str, seconds: float) -> None:
    level = load_level(level_file, which).level
    log: list[tuple[int, float]] = []
    timed_asks(log)
    config = SolveConfig(encoding="push-macro", strategies=("dead", "freeze"), staged=seconds, time_limit=seconds)
    result = solve(level, config)
    print(f"{result.status.value}: {result.stats.get('staged', result.message)}")
    totals: dict[tuple[int, int], list[float]] = defaultdict(list)
    for horizon, took in log:
        totals[next(band for band in BANDS if band[0] <= horizon <= band[1])].append(took)
    print("horizons  questions  total (s)  mean (ms)")
    for band in BANDS:
        times = totals[band]
        label = f"{band[0]}-{band[1]}" if band[1] < LAST else f"{band[0]}+"
        mean = sum(times) / len(times) * 1000 if times else 0.0
        print(f"{label:>8}  {len(times):9}  {sum(times):9.1f}  {mean:9.0f}")


if __name__ == "__main__":
    run(main)
