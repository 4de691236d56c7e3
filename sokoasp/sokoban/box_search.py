"""The box search's engine: a best-first search in Python over the pushes of every box from the
start (the end game's search of every box, ``end_game.moving_every_box``), in the order of the
cheapest box-goal matching, states with a box on a dead square, a dead group or a frozen box off
the goals cut. Not ASP, never optimal; complete within its seconds and ``SEARCH_STATES`` (it
proves a level unsolvable when it searches every state). The phase ``box-search`` runs it."""

from __future__ import annotations

import time

from sokoasp.board.level import Cell, Level
from sokoasp.sokoban.end_game import moving_every_box, pushed_moves
from sokoasp.sokoban.traps import MOST_STATES

SEARCH_STATES = MOST_STATES  # the search gives up after this many states, whatever its time (memory)


def search_plan(level: Level, seconds: float, states: int = SEARCH_STATES) -> tuple[str | None, str]:
    """The moves of a plan for ``level`` by the search of every box (None when it finds none
    within ``seconds`` and ``states``), and what it did, for the result."""
    began = time.perf_counter()
    path: list[tuple[Cell, Cell]] = []
    found = moving_every_box(level, began + seconds, False, path, None, states, matching=True)
    spent = time.perf_counter() - began
    if found is not True:
        why = ("it proved none exists: every state without a deadlock searched" if found is False
               else f"stopped after {min(spent, seconds):.1f} s")
        return None, f"no plan by the search of every box in Python ({why})"
    return pushed_moves(level, path), f"the whole plan by the search of every box in Python (not ASP), in {spent:.1f} s"
