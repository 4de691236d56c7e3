"""After the portfolio's first plan: prove it push-optimal, or find a shorter plan that is.

Two provers race, one per core, each with dead, freeze, bound and pairs (they keep every optimal
plan): from below, the push family's horizon loop from the proven lower bound up to one push
fewer than the plan has; from above (``--descend``), push-jump asked for at most one push fewer
than the plan, then one fewer than each plan it finds, whose first refutation proves its last
plan push-optimal. The first decisive answer stops the other. Out of time, a plan from above is
push-optimal when the loop from below refuted every horizon under it; otherwise the shortest plan
stays, not proven optimal, with the number of pushes below which no plan exists. Every plan is
replayed like every other."""

from __future__ import annotations

import time
from dataclasses import replace
from multiprocessing.connection import Connection

from sokoasp.board.level import Level
from sokoasp.board.simulator import count_pushes, replay
from sokoasp.config import SolveConfig
from sokoasp.errors import InputError
from sokoasp.portfolio.race import race
from sokoasp.result import Result, Status
from sokoasp.sokoban.pairs import push_bound
from sokoasp.worker import Worker, arrivals, deadline_of, start_worker

STRATEGIES = ("dead", "freeze", "bound", "pairs")
FROM_BELOW = SolveConfig(encoding="push", strategies=STRATEGIES)
FROM_ABOVE = SolveConfig(encoding="push-jump", strategies=STRATEGIES, descend=True)


def provers(pushes: int) -> tuple[SolveConfig, SolveConfig]:
    """The two provers for a plan of ``pushes``: every horizon up to one push fewer."""
    return replace(FROM_BELOW, max_horizon=pushes - 1), replace(FROM_ABOVE, max_horizon=pushes - 1)


def prove(level: Level, first: Result, seconds: float | None, memory_mb: int | None) -> Result:
    """``first`` (a solved result) proven push-optimal, or replaced by a shorter plan (proven or
    not), or with a note on how far the proofs got in ``seconds``. Other results are returned
    as they are."""
    if not first.status.solved or first.pushes is None:
        return first
    if first.optimal_for == "pushes":
        return noted(proven(first, "proven by the member that found it"), "", 0.0)
    if first.pushes == 0:
        return noted(proven(first, "the level is solved already"), "", 0.0)
    bound = push_bound(level)
    if first.pushes <= bound:
        why = f"its {first.pushes} pushes meet the lower bound (box-goal matching, or two boxes' joint pushes)"
        return noted(proven(first, why), "", 0.0)
    if seconds is not None and seconds <= 0:
        return noted(bounded(first, bound), "not proven push-optimal: no time left for the proof", 0.0)
    began = time.perf_counter()
    answers = race_provers(level, first.pushes, seconds, memory_mb)
    return put_together(first, answers, time.perf_counter() - began, bound)


def race_provers(level: Level, pushes: int, seconds: float | None, memory_mb: int | None) -> list[Result]:
    """The provers' results, up to the first decisive one (the other is stopped then)."""
    workers = [start_worker(level, config, seconds, memory_mb) for config in provers(pushes)]
    pending: dict[Connection, Worker] = {worker.receiver: worker for worker in workers}
    deadline = deadline_of(workers[0].began, seconds)
    answers: list[Result] = []
    try:
        for answer in arrivals(pending, deadline):
            answers.append(answer)
            if decisive(answer, pushes):
                return answers
    finally:
        for worker in pending.values():
            worker.stop()
    return answers + [worker.timed_out(seconds) for worker in pending.values()]


def decisive(answer: Result, pushes: int) -> bool:
    """A push-optimal plan, or no plan with fewer than ``pushes`` pushes."""
    return push_optimal(answer) or \
        (answer.status is Status.NO_PLAN_UP_TO_HORIZON and answer.horizon is not None and answer.horizon >= pushes - 1)


def push_optimal(answer: Result) -> bool:
    return answer.status is Status.SOLVED_OPTIMAL and answer.optimal_for == "pushes"


def put_together(first: Result, answers: list[Result], spent: float, bound: int = 0) -> Result:
    """The proof's outcome from the provers' ``answers`` (every plan they find is shorter than
    the first: they ask one push fewer), ``bound`` the level's static lower bound."""
    assert first.pushes is not None
    refuted = max((a.horizon for a in answers if a.horizon is not None and a.status in REFUTING), default=-1)
    how_far = f"timeout, no plan up to horizon {refuted}" if refuted >= 0 else "timeout, no horizon refuted"
    found = [a for a in answers if a.status.solved and a.pushes is not None]
    shorter = min(found, key=lambda a: (a.pushes, not push_optimal(a)), default=None)
    if shorter is not None and shorter.pushes is not None:
        shorter.config = {**shorter.config, "portfolio": first.config.get("portfolio", [])}  # the plan is the prover's
        if push_optimal(shorter) or refuted >= shorter.pushes - 1:
            note = f"a shorter plan is push-optimal: {shorter.pushes} pushes, the first plan had {first.pushes}"
            return noted(proven(shorter, note), note, spent, first)
        return noted(bounded(shorter, max(bound, refuted + 1)), f"a shorter plan, not proven push-optimal: "
                     f"{shorter.pushes} pushes, the first plan had {first.pushes}; {how_far}", spent, first)
    if refuted >= first.pushes - 1:
        return noted(proven(first, f"no plan has fewer than its {first.pushes} pushes"), "", spent)
    return noted(bounded(first, max(bound, refuted + 1)),
                 f"not proven push-optimal: {how_far} (the plan has {first.pushes} pushes)", spent)


REFUTING = (Status.NO_PLAN_UP_TO_HORIZON, Status.TIMEOUT)  # their horizon: no plan up to it


def proven(result: Result, why: str) -> Result:
    result.status, result.optimal_for = Status.SOLVED_OPTIMAL, "pushes"
    result.stats = {**result.stats, "proof": f"push-optimal: {why}"}
    return bounded(result, result.pushes or 0)


def bounded(result: Result, lower_bound: int) -> Result:
    """``result`` with what the proof showed: no plan has fewer than ``lower_bound`` pushes
    (``push_lower_bound``, which plan records keep)."""
    result.stats = {**result.stats, "push_lower_bound": lower_bound}
    return result


def noted(result: Result, note: str, spent: float, first: Result | None = None) -> Result:
    """``result`` with the proof's note and times: the first plan's time, and the total with the proof."""
    first = first or result
    first_plan = first.times.get("total", 0.0)
    if note:
        result.stats = {**result.stats, "proof": note}
    result.times = {**result.times, "first_plan": first_plan, "total": round(first_plan + spent, 4)}
    return result


def prove_plan(level: Level, plan: str, origin: str, seconds: float | None, memory_mb: int | None) -> Result:
    """``solve --prove --record``: ``plan`` (from ``origin``, e.g. a plan record) proven
    push-optimal, or replaced by a shorter plan, in ``seconds``; the plan is replayed first."""
    outcome = replay(level, plan)
    if not outcome.ok:
        raise InputError(f"the plan to prove fails replay: {outcome.problem}", origin)
    given = Result(Status.SOLVED, plan=plan, moves=len(plan), pushes=count_pushes(plan), times={"total": 0.0},
                   config={"encoding": "given plan", "origin": origin, "strategies": []})
    return prove(level, given, seconds, memory_mb)


def race_and_prove(level: Level, time_limit: float | None, memory_mb: int | None) -> Result:
    """``race --prove``: the portfolio's race, then ``prove`` in the time left."""
    first = race(level, time_limit=time_limit, memory_mb=memory_mb)
    left = None if time_limit is None else time_limit - first.times.get("total", 0.0)
    return prove(level, first, left, memory_mb)
