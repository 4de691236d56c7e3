"""Shorter plans: ``optimize`` re-solves windows of a plan exactly with clingo (windows.py) in a
metric of moves and pushes (metric.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from sokoasp.board.level import Level
from sokoasp.board.simulator import count_pushes
from sokoasp.config import Clock
from sokoasp.optimizer.metric import Metric, read_metric
from sokoasp.optimizer.windows import WINDOW_WORK, Optimized, optimize_plan
from sokoasp.pipeline import validate
from sokoasp.result import Result, Status

DEFAULT_WORK = 300_000  # work units: about a minute at the nominal rate, enough for the windows of a long plan


def optimize(level: Level, plan: str, metric: str | Metric = "moves", time_limit: float | None = None,
             work: int = DEFAULT_WORK, window_work: int = WINDOW_WORK,
             progress: Callable[[str], None] | None = None) -> Optimized:
    """A plan no longer than ``plan`` in ``metric`` (``moves``, ``pushes``, ``pushes,moves`` or
    ``moves,pushes``), replayed, found within ``work`` units; ``time_limit`` is the outer cap. The
    same level, plan, metric and budgets give the same plan on every run the cap does not cut."""
    chosen = read_metric(metric) if isinstance(metric, str) else metric
    return optimize_plan(level, plan, chosen, Clock(limit=time_limit, until=work), window_work, progress)


def optimize_result(level: Level, result: Result, work: int, seconds: float | None = None) -> Result:
    """``result`` with its plan shortened with ``work`` units (``seconds`` the outer cap), in the
    unit it was proven optimal in first (pushes first when none), so no optimality claim is lost
    (a plan the optimizer proves push-optimal gains that claim); the result's stats say what was done."""
    if result.plan is None:
        return result
    metric = "moves,pushes" if result.optimal_for == "moves" else "pushes,moves"
    outcome = optimize(level, result.plan, metric, time_limit=seconds, work=work)
    stats = result.stats | {"optimized": {"metric": metric, "moves_before": len(result.plan),
                                          "pushes_before": count_pushes(result.plan),
                                          "windows_improved": outcome.windows_improved,
                                          "whole_proven": outcome.whole_proven, "work": outcome.work,
                                          "stopped": outcome.stopped, "lower_bound": outcome.lower_bound,
                                          "found_by_search": outcome.found_by_search}}
    proven = outcome.whole_proven and metric.startswith("pushes")
    status, optimal_for = (Status.SOLVED_OPTIMAL, "pushes") if proven else (result.status, result.optimal_for)
    return validate(level, replace(result, plan=outcome.plan, moves=len(outcome.plan), pushes=count_pushes(outcome.plan),
                                   stats=stats, status=status, optimal_for=optimal_for))


__all__ = ["Optimized", "optimize", "optimize_result"]
