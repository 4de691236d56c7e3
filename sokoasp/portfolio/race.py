"""Algorithm portfolio: race diverse configurations on the cores, keep the first validated
plan (Froleyks 2016), and choose members from grid data by greedy set cover.

The default members are ``choose_members`` applied to the grids of BENCHMARKS.md: all 155
Microban levels with push-macro started at 1x, 3x and 5x its lower bound
(generators/microban-60-start.toml) and push-macro-parallel (generators/microban-60-parallel.toml),
and the twelve 9x8 thesis-like boards with the same configurations. With two cores the first
two race: push-macro asked for 3x the lower bound first (a plan at a long horizon is often
found sooner than short horizons are refuted), after a probe of the bound itself for a tenth of
the time (which solves Microban 144, a plan right at its bound), and before both, 10 s of a
search of every box's pushes in Python, not ASP (sokoasp.sokoban.box_search: it solves most Microban
levels in well under a second, and Microban II 131, 44 boxes, which no ASP phase solved; in the
first member rather than the second, whose goal room solves its levels sooner: BENCHMARKS.md,
"A search of every box first"), then, on a level whose goals lie in a room with one to three
entrances, up to 40 s of that search with goal-room entries as macros (sokoasp.sokoban.room_search: it
solves Microban 153, whose first box must be parked in the room, in about 30 s; BENCHMARKS.md,
"A search with goal-room entries as macros"); and a member that first spends
10 s on the level with its goal room packed by goal macros where it has one, its stages
forwards only (sokoasp.sokoban.goal_room, may lose solutions: the first member races on the level
itself), then 25 s on stages (dead and freeze forwards, dead backwards; one more box on a
goal per stage takes XSokoban levels that no horizon loop reaches in 300 s), forwards in
push-macro and backwards in pull-route in turn
(generators/microban-60-stage-directions.toml), and then asks push-route (one box along a
route of its own per step) for 3x its bound. That loop was pull-route from 3x (the reverse
search solved Microban 98, 99 and 138, which no push-macro configuration did), until the goal
rooms took those three in under a second; then push-macro from 5x (on Microban's 25 hardest
levels, generators/microban-60-member-2-tail.toml, 20 solved behind the same goal room and
stages against pull-route's 11; BENCHMARKS.md, "The second member's horizon loop"); then, once
the route step became linear in the floor, push-route from 3x (10 of 28 hard Microban I and II
levels against 8, generators/member-2-tail-*.toml; it takes the few-box levels with long plans;
BENCHMARKS.md, "The second member's loop: box routes up to 60 s"). Past 60 s the loop stays
push-macro from 5x (``fitted``).
A first member that spends its time on stages instead (microban-60-members.toml,
microban-60-member-1-stages.toml) made a pair within one level of this one, inside the noise of
the timed stage search, so the first member stays (BENCHMARKS.md, "Who races beside the second
member"). The third is push-macro with the usual schedule; with two cores it races on the core
of a member that ends without a plan (the first, on a large level whose 3x horizon is above the
maximum, ends after probing its bound).
Those times hold up to a 60 s limit; ``members_for`` fits them to a longer one (``fitted``,
and ``staged_first`` for the first member).
Rerun ``sokoasp grid report --suggest-portfolio K`` on your own grid to choose again.
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from multiprocessing.connection import Connection
from typing import Any

from sokoasp.board.level import Level
from sokoasp.pipeline import SolveConfig
from sokoasp.result import Result, Status
from sokoasp.worker import Worker, arrivals, deadline_of, start_worker

SEARCH_SECONDS = 10.0  # the first member first searches every box's pushes in Python (sokoasp.sokoban.box_search) this long
ROOM_SEARCH_SECONDS = 40.0  # ... then, on a level with a goal room, searches with room macros (sokoasp.sokoban.room_search)
SEARCH_SHARE = 1 / 12  # under a longer time limit: this share of it for that search (25 s of 300 s)
STAGED_SECONDS = 25.0  # the second member first tries staged solving (sokoasp.asp.staged) this long
GOAL_ROOM_SECONDS = 10.0  # ... and before that, on a level with a goal room, the level with macros (sokoasp.sokoban.goal_room)
GOAL_ROOM_SHARE = 1 / 6  # under a longer time limit: this share of it for the goal room (10 s of 60 s)
LOOP_SECONDS = 25.0  # ... and the stages take all but this much of what the goal room leaves (25 s of 60 s)
MEASURED_LIMIT = 60.0  # the members' times were chosen at this limit (Microban); up to it they stay as they are
LONG_LIMIT_LOOP = ("push-macro", 5)  # the second member's horizon loop past 60 s: family, start factor
MIN_MEMBER_SECONDS = 1.0  # a member that ends early frees its core for the next, if this much time is left
DEFAULT_MEMBERS: tuple[SolveConfig, ...] = (
    SolveConfig(encoding="push-macro", strategies=("dead", "freeze", "bound"), start_factor=3, max_horizon=400,
                search=SEARCH_SECONDS, room_search=ROOM_SEARCH_SECONDS),
    SolveConfig(encoding="push-route", strategies=("dead", "freeze", "bound"), start_factor=3, max_horizon=400,
                staged=STAGED_SECONDS, stage_encoding="push-macro+pull-route", goal_room=GOAL_ROOM_SECONDS),
    SolveConfig(encoding="push-macro", strategies=("dead", "freeze", "bound"), max_horizon=400),
)


def members_for(time_limit: float | None) -> tuple[SolveConfig, ...]:
    """The members raced under ``time_limit``: ``DEFAULT_MEMBERS`` fitted to the limit, the
    first with stages before its horizon loop (``staged_first``), the others ``fitted``."""
    first, *others = DEFAULT_MEMBERS
    return (staged_first(first, time_limit), *(fitted(member, time_limit) for member in others))


def staged_first(member: SolveConfig, time_limit: float | None) -> SolveConfig:
    """The first member under ``time_limit``: above ``MEASURED_LIMIT`` it first spends the time
    past it on stages in its own family (push-macro: forwards), then runs its horizon loop for the
    ``MEASURED_LIMIT`` it has at 60 s. At 300 s on XSokoban the loop alone solved only the
    levels with the smallest slide bounds, and forward stages alone are the better use of time
    there than stages in turn with backward ones, which the second member runs. The cost: a
    level only the loop solves waits for the stages (Microban 145 at 300 s: about 100 s instead
    of 9 s; BENCHMARKS.md, "The first member at long limits"). Its search of every box first
    gets ``SEARCH_SHARE`` of the limit, taken from the stages where it is more than at 60 s."""
    if time_limit is None or time_limit <= MEASURED_LIMIT or member.staged is not None:
        return member
    search = None if member.search is None else round(max(member.search, time_limit * SEARCH_SHARE), 1)
    more = (search or 0.0) - (member.search or 0.0)  # the search's seconds beyond those it has at 60 s
    return replace(member, search=search, staged=round(time_limit - MEASURED_LIMIT - more, 1))


def fitted(member: SolveConfig, time_limit: float | None) -> SolveConfig:
    """A member with a goal room and stages first, their times fitted to ``time_limit``: up to
    60 s (and with no limit) the measured 10 s and 25 s; a longer limit gives the goal room a
    sixth of it and the stages all but ``LOOP_SECONDS`` of the rest, since on XSokoban at 300 s
    the plans come from the stages, not from horizon loops (BENCHMARKS.md, "The second member's
    times follow the limit"). Past 60 s its loop is push-macro from 5x (``LONG_LIMIT_LOOP``),
    as measured there: that loop starts above the maximum horizon on most XSokoban levels and
    leaves its time to the stages, which push-route's loop from 3x would not (BENCHMARKS.md,
    "The second member's loop: box routes up to 60 s"). A member without both phases is left
    as it is."""
    if time_limit is None or time_limit <= MEASURED_LIMIT or member.staged is None or member.goal_room is None:
        return member
    goal_room = round(max(member.goal_room, time_limit * GOAL_ROOM_SHARE), 1)
    staged = round(max(member.staged, time_limit - goal_room - LOOP_SECONDS), 1)
    encoding, start_factor = LONG_LIMIT_LOOP
    return replace(member, goal_room=goal_room, staged=staged, encoding=encoding, start_factor=start_factor)


# When no member solves, report the most informative outcome (then the one with the most phase notes).
STRENGTH = [Status.UNSOLVABLE, Status.NO_PLAN_UP_TO_HORIZON, Status.TIMEOUT, Status.MEMORY_OUT, Status.ERROR]


def race(level: Level, members: tuple[SolveConfig, ...] | None = None, time_limit: float | None = None,
         memory_mb: int | None = None, cores: int | None = None) -> Result:
    """Run ``members`` (default: ``members_for(time_limit)``), as many at once as ``cores``. A
    member that ends without a plan frees its core for the next member, which gets the time
    left (unless the level was proven unsolvable). The first validated plan wins, and the
    other members are killed. Without a plan, the most informative outcome is reported, with
    the phase notes of every member (how far each one's goal room and stages got)."""
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
    reported = min(finished, key=lambda r: (STRENGTH.index(r.status), -len(r.stats)))
    reported.stats = {**all_notes(started), **reported.stats}
    return mark(reported, raced, began)


def all_notes(workers: list[Worker]) -> dict[str, str]:
    """The phase notes the ``workers`` sent, a later member's over an earlier one's."""
    return {key: text for worker in workers for key, text in worker.notes.items()}


def mark(result: Result, members: list[SolveConfig], began: float) -> Result:
    """The member's result with the members raced and the race's own total time."""
    result.config = {**result.config, "portfolio": [m.describe() for m in members]}
    result.times = {**result.times, "total": round(time.perf_counter() - began, 4)}
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
