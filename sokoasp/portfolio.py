"""Algorithm portfolio: race diverse configurations on the cores, keep the first validated
plan (Froleyks 2016), and choose members from grid data by greedy set cover.

The default members are ``choose_members`` applied to the grids of BENCHMARKS.md: all 155
Microban levels with push-macro started at 1x, 3x and 5x its lower bound
(generators/microban-60-start.toml) and push-macro-parallel (generators/microban-60-parallel.toml),
and the twelve 9x8 thesis-like boards with the same configurations. With two cores the first
two race: push-macro asked for 3x the lower bound first (a plan at a long horizon is often
found sooner than short horizons are refuted), after a probe of the bound itself for a tenth of
the time (which solves Microban 144, a plan right at its bound), and a member that first spends
10 s on stages (dead and freeze forwards, dead backwards; one more box on a goal per stage takes XSokoban
levels that no horizon loop reaches in 300 s) and then asks pull-route with dead and bound
(one box pulled back from the goals along a route per step: the reverse search) for 3x its
bound. pull-route replaced push-route there, which had replaced push-macro from 5x: on
Microban (generators/microban-60-pull.toml, both directions in one grid) the reverse search
solves levels that neither push-route nor any push-macro configuration solves, with long plans
of few box moves. Its stages run in both directions in turn (push-macro forwards, pull-route
backwards from the goals: generators/microban-60-stage-directions.toml, where the turns gained
Microban 105 and 124 and lost none against push-macro stages alone). On a level whose goals lie
in a room with one entrance, the second member first gives the same configuration 10 s on the
level with that room packed by goal macros (sokoasp.goalroom, may lose solutions: the first
member races on the level itself). The third is push-macro with the usual schedule.
Rerun ``sokoasp grid report --suggest-portfolio K`` on your own grid to choose again.
"""

from __future__ import annotations

import os
from multiprocessing.connection import wait
from typing import Any

from .driver import SolveConfig
from .level import Level
from .result import Result, Status
from .worker import GRACE_SECONDS, start_worker

STAGED_SECONDS = 10.0  # the second member first tries staged solving (sokoasp.staged) this long
GOAL_ROOM_SECONDS = 10.0  # ... and before that, on a level with a goal room, the level with macros (sokoasp.goalroom)
DEFAULT_MEMBERS: tuple[SolveConfig, ...] = (
    SolveConfig(encoding="push-macro", strategies=("dead", "freeze", "bound"), start_factor=3, max_horizon=400),
    SolveConfig(encoding="pull-route", strategies=("dead", "freeze", "bound"), start_factor=3, max_horizon=400,
                staged=STAGED_SECONDS, stage_encoding="push-macro+pull-route", goal_room=GOAL_ROOM_SECONDS),
    SolveConfig(encoding="push-macro", strategies=("dead", "freeze", "bound"), max_horizon=400),
)

# When no member solves, report the most informative outcome.
STRENGTH = [Status.UNSOLVABLE, Status.NO_PLAN_UP_TO_HORIZON, Status.TIMEOUT, Status.MEMORY_OUT, Status.ERROR]


def race(level: Level, members: tuple[SolveConfig, ...] = DEFAULT_MEMBERS, time_limit: float | None = None,
         memory_mb: int | None = None, cores: int | None = None) -> Result:
    """Run members at once (as many as ``cores``); the first validated plan wins, others are killed."""
    members = members[: cores or os.cpu_count() or 1]
    workers = [start_worker(level, member, time_limit, memory_mb) for member in members]
    deadline = None if time_limit is None else time_limit + GRACE_SECONDS
    finished: list[Result] = []
    pending = {w.receiver: w for w in workers}
    try:
        while pending:
            ready = wait(list(pending), timeout=deadline)
            if not ready:
                break
            for receiver in ready:
                result = pending.pop(receiver).collect()  # type: ignore[call-overload]
                if result.status.solved:
                    return mark(result, members)
                finished.append(result)
    finally:
        for worker in workers:
            worker.stop()
    finished += [w.timed_out(time_limit) for w in pending.values()]
    return mark(min(finished, key=lambda r: STRENGTH.index(r.status)), members)


def mark(result: Result, members: tuple[SolveConfig, ...]) -> Result:
    result.config = {**result.config, "portfolio": [m.describe() for m in members]}
    return result


def choose_members(rows: list[dict[str, Any]], size: int) -> list[str]:
    """Greedy set cover over grid rows: the configuration solving most instances first, then
    the one adding most instances not yet solved (ties: lower total time)."""
    solved: dict[str, set[str]] = {}
    time_of: dict[str, float] = {}
    for row in rows:
        config = row["configuration"]
        solved.setdefault(config, set())
        time_of[config] = time_of.get(config, 0.0) + (row["total_time"] if row["solved"] else row["time_limit"])
        if row["solved"]:
            solved[config].add(row["instance_hash"])
    chosen: list[str] = []
    covered: set[str] = set()
    while len(chosen) < size and len(chosen) < len(solved):
        best = max((c for c in solved if c not in chosen), key=lambda c: (len(solved[c] - covered), -time_of[c]))
        chosen.append(best)
        covered |= solved[best]
    return chosen
