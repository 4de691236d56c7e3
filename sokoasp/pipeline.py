"""One level through its phases and the ASP horizon loop: ``solve(level, config) -> Result``.

The phases of ``config.phases`` run in order (``sokoasp.phases``); the first plan wins, and the
horizon loop (``sokoasp.asp.horizon_loops``) runs with the time they leave. Every reported plan
is replayed by the simulator first: a plan that fails replay turns the result into an error.
Soft time limits interrupt solving through clingo's solve handle; grounding cannot be
interrupted, so hard limits are enforced around a worker process (``sokoasp.worker``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from sokoasp.asp.encodings import ENCODINGS, Encoding, get_encoding
from sokoasp.asp.fast_downward import solve_fast_downward
from sokoasp.asp.horizon_loops import DESCENDING_FAMILIES, first_horizon, loop_start, probe_seconds, probes_bound, run_loop
from sokoasp.asp.session import check_clingo_args
from sokoasp.asp.staged import loop_config
from sokoasp.asp.strategies import check_supported
from sokoasp.board.level import Level
from sokoasp.board.simulator import count_pushes, replay
from sokoasp.config import DEFAULT_MAX_HORIZON, Clock, PhaseRun, Progress, SolveConfig
from sokoasp.errors import InputError
from sokoasp.phases import PHASES, PhaseContext, PhaseOutcome, check_phases
from sokoasp.result import PhaseReport, Result, Status
from sokoasp.sokoban.analysis import unsolvable_reason
from sokoasp.sokoban.pairs import dead_pair_reason

Reports = Callable[[PhaseReport], None]  # hears each phase's report as the phase ends

__all__ = ["DEFAULT_MAX_HORIZON", "Clock", "Progress", "Reports", "SolveConfig", "check_config", "solve", "validate"]


def check_config(config: SolveConfig) -> Encoding:
    """Refuse a configuration that cannot run (raises InputError), before any work starts."""
    encoding = get_encoding(config.encoding)
    if not encoding.incremental and config.horizon is None:
        raise InputError(f"encoding {encoding.name!r} needs a horizon: give --horizon N or #const horizon in the file")
    if config.interleave > 1 and not encoding.jumps:
        raise InputError(f"--interleave needs a jump family (its horizon h admits every plan of up to h steps: "
                         f"{', '.join(e.name for e in ENCODINGS.values() if e.jumps)}), not {encoding.name!r}")
    if config.descend and encoding.name not in DESCENDING_FAMILIES:
        raise InputError(f"--descend needs a family whose horizon h admits every plan of up to h of its unit "
                         f"({', '.join(DESCENDING_FAMILIES)}), not {encoding.name!r}")
    if config.stage_encoding and not config.has_stages():
        raise InputError("a stage encoding names the family of the stages: add the phase staged too")
    if not config.end_game and not config.has_stages():
        raise InputError("turning the end game off is for staged solving: add the phase staged too")
    if not config.has_stages() or config.stage_families == (encoding.name,):
        check_supported(config.strategies, encoding.name)
    check_phases(config)
    check_clingo_args(config.clingo_args)
    return encoding


def solve(level: Level, config: SolveConfig, progress: Progress | None = None, reports: Reports | None = None) -> Result:
    """Solve one level; every reported plan is replayed by the simulator first. ``reports`` hears
    each phase's report as the phase ends, so that a run killed later still has it."""
    encoding = check_config(config)
    clock = Clock(limit=config.time_limit)
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
            return validate(level, phase_result(config, clock, run.name, outcome, done))
    loop = loop_config(config) if config.has_stages() else config
    result = run_loop(level, encoding, loop, clock, progress)
    return validate(level, replace(result, config=config.describe(), phases=done))


def run_phase(level: Level, encoding: Encoding, config: SolveConfig, clock: Clock, progress: Progress,
              run: PhaseRun, later: tuple[PhaseRun, ...]) -> PhaseOutcome:
    phase = PHASES[run.name]
    seconds = clock.capped(run.seconds)
    if phase.uses_idle_loop_time:
        seconds = with_idle_loop_time(level, encoding, config, clock, seconds, progress)
    return phase.run(level, PhaseContext(config, clock, seconds, progress, later, partial(solve, progress=progress)))


def with_idle_loop_time(level: Level, encoding: Encoding, config: SolveConfig, clock: Clock, seconds: float,
                        progress: Progress) -> float:
    """A phase's ``seconds``, or all the time left when the horizon loop after it would ask no
    horizon (its first is above the maximum) but the bound it may probe."""
    left = clock.remaining()
    if left is None or left <= seconds or not encoding.incremental:
        return seconds
    bound = first_horizon(level, encoding)
    start = loop_start(level, encoding, config, bound)
    if start <= config.max_horizon:
        return seconds
    budget = left - (probe_seconds(config) if probes_bound(encoding, config, bound, start) else 0.0)
    if budget <= seconds:
        return seconds
    progress(f"the horizon loop would start at {start}, above the maximum {config.max_horizon}: "
             f"the stages take {budget:.1f} s of the {left:.1f} s left")
    return budget


def phase_result(config: SolveConfig, clock: Clock, phase: str, outcome: PhaseOutcome, done: list[PhaseReport]) -> Result:
    """A phase's plan: never called optimal, and there is no horizon to report."""
    assert outcome.plan is not None
    return Result(Status.SOLVED, plan=outcome.plan, moves=len(outcome.plan), pushes=count_pushes(outcome.plan),
                  times=clock.times(), stats=dict(outcome.stats), config=config.describe(), message=outcome.report.note,
                  found_by=phase, phases=list(done))


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

