"""The whole level by a search in Python before any ASP (``--search SECONDS``, the portfolio's
second member): the end game's search of every box (``endgame.moving_every_box``), from the
start. Best first over (boxes, player region) states in the order of the cheapest box-goal
matching, states with a box on a dead square, a dead group of boxes or a frozen box off the
goals cut.

Not ASP, and no horizon: the result says the plan came from this search, and it is never
called optimal. Sound: the plan is replayed from the start (``driver.validate``). INCOMPLETE
within its seconds and ``SEARCH_STATES``; when it finds nothing, the phases after it (goal
room, stages, horizon loop) run as before. On Microban it alone solves most levels in well
under a second, and levels no ASP phase reaches in 60 s (Microban II 131: 44 boxes, 88 pushes;
BENCHMARKS.md, "A search of every box first").
"""

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
