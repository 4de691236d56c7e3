"""The portfolio's race: its members (``sokoasp.portfolio.members``) run on the cores, the first
validated plan wins and the others are killed (Froleyks 2016)."""

from __future__ import annotations

import os
import time
from multiprocessing.connection import Connection

from sokoasp.board.level import Level
from sokoasp.pipeline import SolveConfig
from sokoasp.portfolio.members import members_for
from sokoasp.result import PhaseReport, Result, Status
from sokoasp.worker import Worker, arrivals, deadline_of, start_worker

MIN_MEMBER_SECONDS = 1.0  # a member that ends early frees its core for the next, if this much time is left


# When no member solves, report the most informative outcome (then the one with the most phase reports).
STRENGTH = [Status.UNSOLVABLE, Status.NO_PLAN_UP_TO_HORIZON, Status.TIMEOUT, Status.MEMORY_OUT, Status.ERROR]


def race(level: Level, members: tuple[SolveConfig, ...] | None = None, time_limit: float | None = None,
         memory_mb: int | None = None, cores: int | None = None) -> Result:
    """Run ``members`` (default: ``members_for(time_limit)``), as many at once as ``cores``. A
    member that ends without a plan frees its core for the next member, which gets the time
    left (unless the level was proven unsolvable). The first validated plan wins, and the
    other members are killed. Without a plan, the most informative outcome is reported, with
    the phase reports of every member (how far each one's goal room and stages got)."""
    waiting = list(members or members_for(time_limit))
    began = time.perf_counter()
    raced: list[SolveConfig] = []
    started: list[Worker] = []
    pending: dict[Connection, Worker] = {}

    def start_next(seconds: float | None) -> None:
        if waiting:
            raced.append(waiting.pop(0))
            started.append(start_worker(level, raced[-1], seconds, memory_mb))
            pending[started[-1].receiver] = started[-1]

    for _ in range(cores or os.cpu_count() or 1):
        start_next(time_limit)
    deadline = deadline_of(began, time_limit)
    finished: list[Result] = []
    try:
        for result in arrivals(pending, deadline):
            if result.status.solved:
                return mark(result, raced, began)
            finished.append(result)
            time_left = None if time_limit is None else time_limit - (time.perf_counter() - began)
            if result.status is not Status.UNSOLVABLE and (time_left is None or time_left >= MIN_MEMBER_SECONDS):
                start_next(time_left)
    finally:
        for worker in pending.values():
            worker.stop()
    finished += [w.timed_out(w.config.time_limit) for w in pending.values()]
    reported = min(finished, key=lambda r: (STRENGTH.index(r.status), -len(r.phases)))
    reported.phases = all_reports(started)
    return mark(reported, raced, began)


def all_reports(workers: list[Worker]) -> list[PhaseReport]:
    """The phase reports the ``workers`` sent, one per phase: a later member's over an earlier one's."""
    return list({report.phase: report for worker in workers for report in worker.reports}.values())


def mark(result: Result, members: list[SolveConfig], began: float) -> Result:
    """The member's result with the members raced and the race's own total time."""
    result.config = {**result.config, "portfolio": [m.describe() for m in members]}
    result.times = {**result.times, "total": round(time.perf_counter() - began, 4)}
    return result
