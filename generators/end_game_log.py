"""How did each end-game search of a staged run end? Runs the portfolio's second member's staged
search (push-macro and pull-route stages in turn, then its push-route loop) on one level and lists
every search the end game (sokoasp/endgame.py) started: the boxes it moved, which search (the
boxes off the goals alone, or every box), how it ended (a plan, none at all, the clock, the state
limit), its states and seconds. On Microban II 116, before the few-box end game, the search of
every box was cut by the clock 12 times and never finished (BENCHMARKS.md, "Few-box levels: a
longer end game").

    python generators/end_game_log.py downloads/levels/microban_ii.sok -l 116 --time-limit 60
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import click

from sokoasp.board.loading import load_level
from sokoasp.cli import run
from sokoasp.pipeline import solve
from sokoasp.portfolio.race import DEFAULT_MEMBERS
from sokoasp.sokoban import end_game as endgame
from sokoasp.sokoban import push_search as filling


@dataclass
class Search:
    boxes: int
    kind: str  # "every box" (deadlocks pruned) or "boxes off the goals"
    ended: str  # "plan", "none at all", "clock", "state limit"
    states: int
    seconds: float


def logged(search: Callable[..., bool | None], log: list[Search]) -> Callable[..., bool | None]:
    """``filling.push_search``, noting each call made with an end-game state limit."""
    limits = {endgame.END_GAME_STATES, endgame.FEW_BOXES_STATES}

    def wrapper(*args: Any, **kwargs: Any) -> bool | None:
        limit = args[6]
        if limit not in limits:
            return search(*args, **kwargs)
        seen: set[tuple[int, int]] = kwargs.setdefault("seen", set())
        began = time.perf_counter()
        found = search(*args, **kwargs)
        ended = "plan" if found else "none at all" if found is False else "state limit" if len(seen) >= limit else "clock"
        kind = "every box" if kwargs.get("prune") else "boxes off the goals"
        log.append(Search(len(args[1]), kind, ended, len(seen), time.perf_counter() - began))
        return found
    return wrapper


@click.command(help=__doc__)
@click.argument("level_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("-l", "--level", "which", default="1", show_default=True, help="Which level of a collection.")
@click.option("--time-limit", default=60.0, show_default=True, type=click.FloatRange(min=1.0), help="Seconds for the run.")
def main(level_file: Path, which: str, time_limit: float) -> None:
    level = load_level(level_file, which).level
    log: list[Search] = []
    search = logged(filling.push_search, log)
    filling.push_search, endgame.push_search = search, search  # type: ignore[assignment]  # fills_jointly reads the first
    result = solve(level, replace(DEFAULT_MEMBERS[1], time_limit=time_limit))
    click.echo(f"{level.title or which}: {result.status.value}: {result.message}")
    for entry in log:
        click.echo(f"  {entry.boxes} boxes, {entry.kind}: {entry.ended} ({entry.states} states, {entry.seconds:.2f} s)")
    click.echo(f"{len(log)} end-game searches, {sum(entry.seconds for entry in log):.1f} s in all")


if __name__ == "__main__":
    run(main)
