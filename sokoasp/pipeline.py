"""One level through its phases and the ASP horizon loop: ``solve(level, config) -> Result``.

The phases of ``config.phases`` run in order (``sokoasp.phases``); the first plan wins, and the
horizon loop (``sokoasp.asp.horizon_loops``) runs with the time they leave. Every reported plan
is replayed by the simulator first: a plan that fails replay turns the result into an error.
Each phase spends at most its work budget (``sokoasp.config.Meter``): the same level and
configuration give the same outcome on every run the time limit does not cut.
Soft time limits interrupt solving through clingo's solve handle; grounding cannot be
interrupted, so hard limits are enforced around a worker process (``sokoasp.worker``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from sokoasp.asp.encodings import Encoding
from sokoasp.asp.fast_downward import solve_fast_downward
from sokoasp.asp.horizon_loops import first_horizon, loop_start, probe_work, probes_bound, run_loop
from sokoasp.board.level import Level
from sokoasp.board.simulator import count_pushes, replay
from sokoasp.config import DEFAULT_MAX_HORIZON, WORK_PER_SECOND, Clock, PhaseRun, Progress, SolveConfig
from sokoasp.configure import check_config
from sokoasp.phases import PHASES, PhaseContext, PhaseOutcome, loop_config
from sokoasp.result import PhaseReport, Result, Status
from sokoasp.sokoban.analysis import unsolvable_reason
from sokoasp.sokoban.pairs import dead_pair_reason

Reports = Callable[[PhaseReport], None]  # hears each phase's report as the phase ends

__all__ = ["DEFAULT_MAX_HORIZON", "Clock", "Progress", "Reports", "SolveConfig", "check_config", "solve", "validate"]


def solve(level: Level, config: SolveConfig, progress: Progress | None = None, reports: Reports | None = None,
          clock: Clock | None = None) -> Result:
    """Solve one level; every reported plan is replayed by the simulator first. ``reports`` hears
    each phase's report as the phase ends, so that a run killed later still has it. ``clock``:
    the run's limits when it is part of another (a phase's work budget), else ``config.time_limit``."""
    encoding = check_config(config)
    clock = clock or Clock(limit=config.time_limit)
    reason = unsolvable_reason(level) or dead_pair_reason(level)
    if reason:
        return Result(Status.UNSOLVABLE, message=reason, times=clock.times(), config=config.describe())
    if encoding.planner:
        return validate(level, within_horizon(solve_fast_downward(level, clock.remaining()), config.max_horizon))
    progress = progress or (lambda _: None)
    phases = () if level.boxes <= level.goals else config.phases  # the loop proves the empty plan optimal
    done: list[PhaseReport] = []
    for index, run in enumerate(phases):
        outcome = run_phase(level, encoding, config, clock, progress, run, phases[index + 1:])
        done.append(outcome.report)
        if reports is not None:
            reports(outcome.report)
        if outcome.plan is not None:
            return validate(level, with_work(phase_result(config, clock, run.name, outcome, done), clock))
    result = run_loop(level, encoding, loop_config(config), clock, progress)
    return validate(level, with_work(replace(result, config=config.describe(), phases=done), clock))


def run_phase(level: Level, encoding: Encoding, config: SolveConfig, clock: Clock, progress: Progress,
              run: PhaseRun, later: tuple[PhaseRun, ...]) -> PhaseOutcome:
    phase = PHASES[run.name]
    budget = clock.within(run.work)
    if phase.uses_idle_loop_time:
        budget = with_idle_loop_time(level, encoding, config, clock, budget, progress)
    context = PhaseContext(config, budget, phase.settings_of(run), progress, later, partial(solve, progress=progress))
    outcome = phase.run(level, context)
    clock.add(budget)
    return outcome


def with_idle_loop_time(level: Level, encoding: Encoding, config: SolveConfig, clock: Clock, budget: Clock,
                        progress: Progress) -> Clock:
    """A phase's ``budget``, or no work budget but the time left when the horizon loop after it
    would ask no horizon (its first is above the maximum), less the nominal time of the bound it
    may probe."""
    left = clock.remaining()
    if left is None or not encoding.incremental:
        return budget  # no time limit: no time to hand on
    bound = first_horizon(level, encoding)
    start = loop_start(level, encoding, config, bound)
    if start <= config.max_horizon:
        return budget
    probe = probe_work(config) / WORK_PER_SECOND if probes_bound(encoding, config, bound, start) else 0.0
    progress(f"the horizon loop would start at {start}, above the maximum {config.max_horizon}: "
             "the stages take all the time left" + (f" but {probe:.1f} s for the probe" if probe else ""))
    return clock.within(None, left - probe)


def phase_result(config: SolveConfig, clock: Clock, phase: str, outcome: PhaseOutcome, done: list[PhaseReport]) -> Result:
    """A phase's plan, called optimal only in the unit its registry entry claims; there is no
    horizon to report."""
    assert outcome.plan is not None
    optimal = PHASES[phase].optimal
    return Result(Status.SOLVED if optimal is None else Status.SOLVED_OPTIMAL, optimal_for=optimal,
                  plan=outcome.plan, moves=len(outcome.plan), pushes=count_pushes(outcome.plan),
                  times=clock.times(), stats=dict(outcome.stats), config=config.describe(), message=outcome.report.note,
                  found_by=phase, phases=list(done))


def with_work(result: Result, clock: Clock) -> Result:
    """``result`` with the work its run did (``stats["work"]``, units of ``sokoasp.config.Meter``):
    the same on every run of the same level and configuration that found a plan."""
    return replace(result, stats={**result.stats, "work": clock.worked()})


def within_horizon(result: Result, max_horizon: int) -> Result:
    """An optimal plan longer than the cap proves that none fits under it."""
    if result.status is Status.SOLVED_OPTIMAL and result.moves is not None and result.moves > max_horizon:
        return Result(Status.NO_PLAN_UP_TO_HORIZON, horizon=max_horizon, times=result.times, config=result.config,
                      message=f"no plan up to horizon {max_horizon} (the shortest has {result.moves} moves)")
    return result


def validate(level: Level, result: Result) -> Result:
    """Replay a reported plan; a plan that fails replay turns the result into an error."""
    if result.plan is None:
        return result
    check = replay(level, result.plan)
    if not check.ok:
        return replace(result, status=Status.ERROR, optimal_for=None,
                       message=f"the solver's plan failed replay: {check.problem}")
    return result

