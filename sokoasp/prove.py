"""After the portfolio's first plan: prove it push-optimal, or find a shorter plan that is.

The portfolio's members are satisficing (they start above the lower bound, or plan in stages),
so its first plan is seldom proven optimal. With ``--prove`` the rest of the time goes to the
push family's horizon loop (one push per step; dead, freeze, bound and pairs keep every optimal
plan), from the proven lower bound up to one push fewer than the plan has:

- a plan it finds is push-optimal (every shorter horizon refuted) and replaces the first;
- if it refutes every horizon up to that cap, the first plan is push-optimal;
- otherwise the first plan stays, not proven optimal, and the result says how far the proof got.

The loop runs in a child process with the time and memory left (``worker.solve_isolated``), on
every core the race used (clasp's parallel solving, ``--parallel-mode``): on 12 Microban levels
whose one-thread proof was slow or out of time, two threads on two cores proved 10 against 7, at
a geometric mean 1.5x faster where both did; in the full pipeline they proved none of the 20
levels one thread had left unproven, but got further on 6 and less far on 2 (BENCHMARKS.md).
Its plans are replayed by the simulator (``driver.validate``) like every other.
"""

from __future__ import annotations

import os
import time
from dataclasses import replace

from .level import Level
from .pairs import push_bound
from .portfolio import race
from .result import Result, Status
from .session import SolveConfig
from .worker import solve_isolated

PROVER = SolveConfig(encoding="push", strategies=("dead", "freeze", "bound", "pairs"))


def prover(pushes: int, cores: int | None = None) -> SolveConfig:
    """The proof's configuration for a plan of ``pushes``: up to one push fewer, one clasp
    thread per core."""
    threads = cores or os.cpu_count() or 1
    return replace(PROVER, max_horizon=pushes - 1, clingo_args=(f"--parallel-mode={threads}",) if threads > 1 else ())


def prove(level: Level, first: Result, seconds: float | None, memory_mb: int | None) -> Result:
    """``first`` (a solved result) proven push-optimal, or replaced by a shorter plan that is,
    or with a note on how far a proof got in ``seconds``. Other results are returned as they are."""
    if not first.status.solved or first.pushes is None:
        return first
    if first.optimal_for == "pushes":
        return noted(proven(first, "proven by the member that found it"), "", 0.0)
    if first.pushes == 0:
        return noted(proven(first, "the level is solved already"), "", 0.0)
    if first.pushes <= push_bound(level):
        why = f"its {first.pushes} pushes meet the lower bound (box-goal matching, or two boxes' joint pushes)"
        return noted(proven(first, why), "", 0.0)
    if seconds is not None and seconds <= 0:
        return noted(first, "not proven push-optimal: no time left for the proof", 0.0)
    began = time.perf_counter()
    proof = solve_isolated(level, prover(first.pushes), seconds, memory_mb)
    spent = time.perf_counter() - began
    if proof.status is Status.SOLVED_OPTIMAL and proof.optimal_for == "pushes":
        proof.config = {**proof.config, "portfolio": first.config.get("portfolio", [])}  # the plan is the prover's
        note = f"a shorter plan is push-optimal: {proof.pushes} pushes, the first plan had {first.pushes}"
        return noted(proof, note, spent, first)
    if proof.status is Status.NO_PLAN_UP_TO_HORIZON and proof.horizon is not None and proof.horizon >= first.pushes - 1:
        return noted(proven(first, f"no plan has fewer than its {first.pushes} pushes"), "", spent)
    how_far = f"{proof.status.value}" + (f", {proof.message}" if proof.message else "")
    return noted(first, f"not proven push-optimal: {how_far} (the plan has {first.pushes} pushes)", spent)


def proven(result: Result, why: str) -> Result:
    result.status, result.optimal_for = Status.SOLVED_OPTIMAL, "pushes"
    result.stats = {**result.stats, "proof": f"push-optimal: {why}"}
    return result


def noted(result: Result, note: str, spent: float, first: Result | None = None) -> Result:
    """``result`` with the proof's note and times: the first plan's time, and the total with the proof."""
    first = first or result
    first_plan = first.times.get("total", 0.0)
    if note:
        result.stats = {**result.stats, "proof": note}
    result.times = {**result.times, "first_plan": first_plan, "total": round(first_plan + spent, 4)}
    return result


def race_and_prove(level: Level, time_limit: float | None, memory_mb: int | None) -> Result:
    """``solve --portfolio --prove``: the portfolio's race, then ``prove`` in the time left."""
    first = race(level, time_limit=time_limit, memory_mb=memory_mb)
    left = None if time_limit is None else time_limit - first.times.get("total", 0.0)
    return prove(level, first, left, memory_mb)
