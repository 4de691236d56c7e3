"""Whole plans in pushes: the fewest pushes of the level by A* (``sokoban.push_optimal``), the
plan given as the upper bound that cuts the search. Exact where it ends: a plan found has the
fewest pushes, a search that runs out proves the given plan has; one cut short by its budget
still proves a lower bound. Python search: a plan it finds says so in the optimizer's tally."""

from __future__ import annotations

from dataclasses import dataclass

from sokoasp.board.level import Level
from sokoasp.board.simulator import count_pushes, replay
from sokoasp.config import Clock
from sokoasp.sokoban.push_optimal import fewest_pushes

WHOLE_SHARE = 3  # the search gets a third of the optimizer's work: it settles small levels, the windows take the rest
WHOLE_STATES = 1_000_000  # at most this many states (about 1 GB) when the budget is only a time limit


@dataclass(frozen=True)
class Whole:
    """The search's outcome: a replayed plan with fewer pushes than the one given (the fewest),
    or None; and a lower bound on every plan's pushes."""

    plan: str | None
    lower_bound: int


def fewest_push_plan(level: Level, plan: str, clock: Clock) -> Whole:
    """A plan with fewer pushes than ``plan`` and the fewest, if there is one and the search ends
    within ``clock`` (its states charged to it); walks between pushes are shortest walks."""
    found = fewest_pushes(level, count_pushes(plan), clock.allow(WHOLE_STATES), clock.deadline())
    clock.charge(found.states)
    shorter = found.lurd(level)
    return Whole(shorter if shorter is not None and replay(level, shorter).ok else None, found.lower_bound)
