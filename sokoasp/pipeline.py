"""The clingo driver: builds a Control from an encoding, strategy files and level facts,
runs a fixed horizon or the multi-shot horizon loop, and returns a validated Result.

Soft time limits interrupt solving through the solve handle; grounding cannot be
interrupted, so hard limits are enforced around a worker process (see ``worker``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from sokoasp.asp.encodings import ENCODINGS, Encoding, get_encoding, optimises
from sokoasp.asp.fast_downward import solve_fast_downward
from sokoasp.asp.models import extract_plan
from sokoasp.asp.room_stages import solve_room_stages
from sokoasp.asp.session import DEFAULT_MAX_HORIZON, Clock, Progress, Session, SolveConfig, horizons
from sokoasp.asp.staged import check_phases, loop_config, solve_staged
from sokoasp.asp.strategies import Soundness, check_supported, soundness_of
from sokoasp.board.level import Level
from sokoasp.board.simulator import count_pushes, replay
from sokoasp.errors import InputError
from sokoasp.result import Result, Status
from sokoasp.sokoban.analysis import (
    boxes_off_goals,
    nearest_slide_sum,
    parallel_slide_lower_bound,
    slide_lower_bound,
    unsolvable_reason,
)
from sokoasp.sokoban.box_search import search_plan
from sokoasp.sokoban.goal_room import find_goal_room
from sokoasp.sokoban.pairs import dead_pair_reason, push_bound
from sokoasp.sokoban.pushes import pushes_plan
from sokoasp.sokoban.room_search import room_search_plan

FIRST_SLICE = 0.5  # interleaved horizons: seconds for the shortest open horizon in the first round
SLICE_RATIO = 0.5  # interleaved horizons: each longer open horizon gets this share of the one before
PROBE_SHARE = 0.1  # a start factor above 1 first asks the proven bound for this share of the time limit
DEFAULT_PROBE_LIMIT = 60.0  # ... or of this many seconds when there is no limit
PROBED_BOUNDS = ("slides",)  # the families whose late start probes the bound: measured on push-macro only

Notes = Callable[[str, str], None]  # (stats key, text): a phase's outcome, told as the phase ends

__all__ = ["DEFAULT_MAX_HORIZON", "Clock", "Notes", "Progress", "Session", "SolveConfig", "check_config", "solve", "validate"]


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
    if config.staged is None or config.stage_families == (encoding.name,):
        check_supported(config.strategies, encoding.name)
    if config.staged is not None:
        check_phases(config)
    return encoding


def solve(level: Level, config: SolveConfig, progress: Progress | None = None, notes: Notes | None = None) -> Result:
    """Solve one level; every reported plan is replayed by the simulator first. ``notes`` hears
    each phase's outcome (``goal_room``, ``staged``) as the phase ends, the same text that goes
    into the result's stats, so that a run killed later still has it (``sokoasp.worker``)."""
    encoding = check_config(config)
    clock = Clock(limit=config.time_limit)
    base = Result(Status.ERROR, config=config.describe())
    reason = unsolvable_reason(level) or dead_pair_reason(level)
    if reason:
        return finish(base, clock, None, Status.UNSOLVABLE, reason)
    if encoding.planner:
        return validate(level, within_horizon(solve_fast_downward(level, clock.remaining()), config.max_horizon))
    progress = progress or (lambda _: None)
    notes = notes or (lambda _key, _text: None)
    if level.boxes <= level.goals:  # the horizon loop proves the empty plan optimal; stages would not
        config = replace(config, goal_room=None, staged=None, search=None, room_search=None)
    kept: dict[str, str] = {}  # what the phases before the loop leave in the stats (and in notes, as they end)

    def keep(key: str, text: str) -> None:
        if text:
            kept[key] = text
            notes(key, text)

    for key, seconds, search in (("search", config.search, search_plan),
                                 ("room_search", config.room_search, room_search_plan)):
        if seconds is not None:
            found, search_note = solve_by_search(level, config, clock, progress, seconds, search, key)
            if found is not None:
                return validate(level, found)
            keep(key, search_note)
    config = replace(config, room_search=None, search=None)
    if config.goal_room is not None:
        found, room_note, room_farthest = solve_goal_room(level, config, clock, progress)
        if found is not None:
            return validate(level, found)
        keep("goal_room", room_note)
        keep("room_farthest", room_farthest)
        config = replace(config, goal_room=None)
    if config.staged is not None:
        outcome = solve_staged(level, config, clock, stage_budget(level, encoding, config, clock, progress), progress)
        staged_note = outcome.describe(len(level.boxes))
        if outcome.plan is not None:
            return validate(level, staged_result(base, clock, outcome.plan, staged_note))
        progress(staged_note)
        keep("staged", staged_note)
        keep("staged_farthest", outcome.farthest or "")
        keep("staged_home", outcome.home_board(level))
        config = loop_config(config)
    session = Session(level, encoding, config, clock, revisiting=config.interleave > 1)
    if config.descend:
        result = run_descending(session, config, base, progress)
    elif config.interleave > 1:
        result = run_interleaved(session, config, base, progress)
    elif encoding.incremental:
        result = run_incremental(session, config, base, progress)
    else:
        result = run_fixed(session, config, base)
    result.stats.update(kept)
    return validate(level, result)


DESCENDING_FAMILIES = ("push-jump",)  # --descend: a horizon of h steps admits every plan of up to h pushes


def stage_budget(level: Level, encoding: Encoding, config: SolveConfig, clock: Clock, progress: Progress) -> float:
    """The stages' seconds: ``config.staged``, or all the time left when the horizon loop after
    them has no horizon to ask (its first is above the maximum) but the bound it may probe,
    which would leave that time unused (XSokoban 36 from 5x its bound: 250 of 300 s)."""
    assert config.staged is not None
    left = clock.remaining()
    if left is None or left <= config.staged or not encoding.incremental:
        return config.staged
    bound = first_horizon(level, encoding)
    start = loop_start(level, encoding, config, bound)
    if start <= config.max_horizon:
        return config.staged
    budget = left - (probe_seconds(config) if probes_bound(encoding, config, bound, start) else 0.0)
    if budget <= config.staged:
        return config.staged
    progress(f"the horizon loop would start at {start}, above the maximum {config.max_horizon}: "
             f"the stages take {budget:.1f} s of the {left:.1f} s left")
    return budget


def solve_by_search(level: Level, config: SolveConfig, clock: Clock, progress: Progress, seconds: float,
                    search: Callable[[Level, float], tuple[str | None, str]], key: str) -> tuple[Result | None, str]:
    """Spend up to ``seconds`` on a search of every box in Python (``sokoasp.sokoban.box_search``'s
    or ``sokoasp.sokoban.room_search``'s, its note kept under ``key``): its plan, or None, and what it did."""
    left = clock.remaining()
    plan, note = search(level, seconds if left is None else min(seconds, left))
    progress(f"{key.replace('_', ' ')}: {note}")
    if plan is None:
        return None, note
    return staged_result(Result(Status.ERROR, config=config.describe(), stats={key: note}), clock, plan, note), note


def solve_goal_room(level: Level, config: SolveConfig, clock: Clock, progress: Progress) -> tuple[Result | None, str, str]:
    """Spend up to ``config.goal_room`` seconds on the level with its goal room packed by
    macros (``sokoasp.sokoban.goal_room``); its plan, mapped back to the level, or None and why not; and
    the moves to the farthest state room stages reached (empty if they did not run or ended
    with a plan)."""
    assert config.goal_room is not None
    left = clock.remaining()
    seconds = config.goal_room if left is None else min(config.goal_room, left)
    room = find_goal_room(level)
    if room is None:
        return solve_room_by_stages(level, config, clock, seconds, progress)
    simpler = solve(room.level, room_config(config, seconds), progress)
    if not simpler.status.solved or simpler.plan is None:
        clock.ground += simpler.times.get("ground", 0.0)
        clock.solve += simpler.times.get("solve", 0.0)
        note = f"no plan for the level with macros in {seconds:g} s ({simpler.status.value})"
        progress(f"goal room: {note}")
        return None, note, ""
    plan = pushes_plan(level, room.real_pushes(simpler.plan))
    closed = "" if room.closed is None else f", its other entrance {room.closed} closed"
    note = f"a plan for the level with macros ({len(room.macros)} goals entered at {room.entrance}{closed})"
    result = Result(Status.ERROR, config=config.describe(), stats={**simpler.stats, "goal_room": note})
    staged_result(result, clock, plan, "goal room: " + note)
    result.times = {**simpler.times, "total": result.times["total"]}
    return result, note, ""


def solve_room_by_stages(level: Level, config: SolveConfig, clock: Clock, seconds: float,
                         progress: Progress) -> tuple[Result | None, str, str]:
    """A level with no room that goal macros and a corridor stand for: up to ``seconds`` of
    room stages (``sokoasp.asp.room_stages``: the room may need two or three entrances), or None, why
    not and the moves to the farthest state they reached."""
    stages_clock = Clock(limit=seconds)
    plan, note, farthest = solve_room_stages(level, config, stages_clock)
    clock.ground += stages_clock.ground
    clock.solve += stages_clock.solve
    progress(f"goal room: {note}")
    if plan is None:
        return None, note, farthest
    return staged_result(Result(Status.ERROR, config=config.describe(), stats={"goal_room": note}), clock, plan, note), note, ""


def room_config(config: SolveConfig, seconds: float) -> SolveConfig:
    """The configuration for the level with macros: ``seconds`` long, and its stages in the
    forward families of ``config`` alone (backward ones only if it has no other). On the
    goal-room levels of Microban and XSokoban with macros, forward stages alone solved as many
    as stages in turn with backward ones, and Microban 139's in under a second where the turns
    mostly timed out (BENCHMARKS.md, "Forward stages on the level with macros")."""
    simpler = replace(config, goal_room=None, time_limit=seconds)
    forward = [family for family in config.stage_families if not get_encoding(family).reverse]
    if config.stage_encoding is None or not forward:
        return simpler
    return replace(simpler, stage_encoding="+".join(forward))


def staged_result(result: Result, clock: Clock, plan: str, note: str) -> Result:
    """A plan of the staged search: never called optimal, and there is no horizon to report."""
    result.plan, result.moves, result.pushes = plan, len(plan), count_pushes(plan)
    finish(result, clock, None, Status.SOLVED, note)
    return result


def within_horizon(result: Result, max_horizon: int) -> Result:
    """An optimal plan longer than the cap proves that none fits under it."""
    if result.status is Status.SOLVED_OPTIMAL and result.moves is not None and result.moves > max_horizon:
        return Result(Status.NO_PLAN_UP_TO_HORIZON, horizon=max_horizon, times=result.times, config=result.config,
                      message=f"no plan up to horizon {max_horizon} (the shortest has {result.moves} moves)")
    return result


def run_fixed(session: Session, config: SolveConfig, result: Result) -> Result:
    session.ground([("base", [])])
    outcome = session.solve()
    h = config.horizon
    assert h is not None  # check_config insists on a horizon for fixed-horizon encodings
    if outcome is None:
        return finish(result, session.clock, session, Status.TIMEOUT, f"no answer at horizon {h} in time", h)
    if not outcome:
        return finish(result, session.clock, session, Status.NO_PLAN_AT_HORIZON, f"no plan of exactly {h} moves", h)
    return finish_with_plan(result, session, Status.SOLVED, h)


def run_incremental(session: Session, config: SolveConfig, result: Result, progress: Progress) -> Result:
    # Every plan needs at least `bound` steps (so pushes and moves too): shorter horizons are
    # skipped. Optimality needs every shorter length refuted (UNSAT or below this bound) and
    # strategies that keep optimal plans. A later start (--min-horizon, --start-factor) skips
    # horizons: they are not refuted, unless a jump family's horizon (which admits every
    # shorter plan) is.
    bound, start = bound_and_start(session, config)
    refuted_below = bound  # every plan is at least this long
    if session.clock.expired():  # the phases before the loop spent the time: ground nothing more
        return no_answer_in_time(result, session, refuted_below - 1)
    if probes_bound(session.encoding, config, bound, start):
        probe, outcome = probe_bound(session, config, bound, progress)
        if outcome:
            return finish_found(result, probe, config, bound, refuted_below)
        if outcome is False:
            refuted_below = bound + 1
        del probe  # its ground program is not needed by the loop
    for t in horizons(start, config.max_horizon, session.encoding.jumps):
        if session.clock.expired():
            return no_answer_in_time(result, session, refuted_below - 1)
        outcome = session.ask(t)
        if outcome is None:
            return no_answer_in_time(result, session, refuted_below - 1)
        progress(f"horizon {t}: {describe_outcome(outcome)} ({session.clock.times()['total']:.2f} s)")
        if outcome:
            return finish_found(result, session, config, t, refuted_below)
        if session.encoding.jumps or t == refuted_below:
            refuted_below = t + 1
    return exhausted(result, session, config, start, refuted_below)


def run_interleaved(session: Session, config: SolveConfig, result: Result, progress: Progress) -> Result:
    """The jump families' loop with ``config.interleave`` horizons asked in turn (Rintanen 2004,
    algorithm B): a longer horizon admits more plans, so it may have one that is quicker to find
    than the shorter one is to refute. Each round gives every open horizon a time slice, the
    shortest the longest (each next one ``SLICE_RATIO`` of it), and doubles the slices for the
    next round; a refuted horizon refutes every shorter one (idle steps at the end), and the next
    horizon of the schedule takes its place."""
    bound, start = bound_and_start(session, config)
    schedule = horizons(start, config.max_horizon, jumps=True)
    open_horizons: list[int] = []
    refuted_below = bound
    first_slice = FIRST_SLICE
    while schedule or open_horizons:
        while schedule and len(open_horizons) < config.interleave:
            open_horizons.append(schedule.pop(0))
        for rank, t in enumerate(list(open_horizons)):
            if session.clock.expired():
                return no_answer_in_time(result, session, refuted_below - 1)
            outcome = session.ask(t, first_slice * SLICE_RATIO**rank)
            said = {True: "plan found", False: "no plan", None: "open"}[outcome]
            progress(f"horizon {t}: {said} ({session.clock.times()['total']:.2f} s)")
            if outcome:
                return finish_found(result, session, config, t, refuted_below)
            if outcome is False:
                refuted_below = max(refuted_below, t + 1)
                open_horizons = [h for h in open_horizons if h > t]
        first_slice *= 2
    return exhausted(result, session, config, start, refuted_below)


def run_descending(session: Session, config: SolveConfig, result: Result, progress: Progress) -> Result:
    """``--descend`` (SAT-UNSAT search from above): ask the maximum horizon, then one push fewer
    than the plan found has, and so on, until a horizon is refuted. A push-jump horizon admits
    every plan of up to that many pushes, so one refutation below the last plan proves it
    push-optimal, where the loop from below refutes every horizon from the bound up. Each
    horizon gets a session of its own, grounded up to it: asking a shorter horizon in the same
    session needs the steps past it kept idle (idle.lp), and those externals made the
    refutations about 1.5x slower (BENCHMARKS.md, "Proofs from above")."""
    bound = first_horizon(session.level, session.encoding)
    t = config.max_horizon
    while t >= bound:
        outcome = None if session.clock.expired() else session.ask(t)
        if outcome is None:
            return descended(result, session, config, bound - 1, f"no answer at horizon {t} in time")
        progress(f"horizon {t}: {describe_outcome(outcome)} ({session.clock.times()['total']:.2f} s)")
        if not outcome:
            return descended(result, session, config, t)
        finish_with_plan(result, session, Status.SOLVED, t)
        assert result.pushes is not None
        t = result.pushes - 1
        session = Session(session.level, session.encoding, config, session.clock)
    return descended(result, session, config, t)  # below the proven bound


def descended(result: Result, session: Session, config: SolveConfig, refuted: int, timeout: str = "") -> Result:
    """The end of ``run_descending``: no plan up to horizon ``refuted`` (refuted, or below the
    proven bound), with the last plan found if any; ``timeout`` says where the time ran out.
    Without a timeout the last plan is one push above ``refuted``: push-optimal, if the
    strategies keep optimal plans."""
    sound = soundness_of(config.strategies) is Soundness.KEEPS_OPTIMAL
    if result.plan is not None:
        finish(result, session.clock, session, Status.SOLVED, timeout, result.pushes)
        if not timeout and sound:
            result.status, result.optimal_for = Status.SOLVED_OPTIMAL, optimises(session.encoding)
        return result
    if timeout:
        return finish(result, session.clock, session, Status.TIMEOUT, timeout, max(refuted, 0))
    caveat = "" if sound else " (with strategies that may lose solutions)"
    return finish(result, session.clock, session, Status.NO_PLAN_UP_TO_HORIZON, f"no plan up to horizon {refuted}{caveat}", refuted)


def finish_found(result: Result, session: Session, config: SolveConfig, horizon: int, refuted_below: int) -> Result:
    """The plan of the model found at ``horizon``: optimal when every shorter plan is refuted and
    no strategy may have cut one."""
    finish_with_plan(result, session, Status.SOLVED, horizon)
    length = result.pushes if session.encoding.unit == "push" else result.moves
    if soundness_of(config.strategies) is Soundness.KEEPS_OPTIMAL and length == refuted_below:
        result.status, result.optimal_for = Status.SOLVED_OPTIMAL, optimises(session.encoding)
    return result


def exhausted(result: Result, session: Session, config: SolveConfig, start: int, refuted_below: int) -> Result:
    """Every horizon of the schedule up to the maximum was refuted (or skipped by a late start)."""
    h = config.max_horizon
    caveat = "" if soundness_of(config.strategies) is Soundness.KEEPS_OPTIMAL else " (with strategies that may lose solutions)"
    if refuted_below <= h:  # a late start skipped horizons
        refuted = f"no plan up to horizon {refuted_below - 1}{caveat}"
        if start > h:
            message = f"{refuted}: the first horizon, {start}, is above the maximum {h}"
        else:
            message = f"{refuted}, nor at horizons {start} to {h} ({refuted_below} to {start - 1} were skipped)"
        return finish(result, session.clock, session, Status.NO_PLAN_UP_TO_HORIZON, message, max(refuted_below - 1, 0))
    message = f"no plan up to horizon {h}{caveat}"
    if start > h:  # nothing was asked: the proven lower bound alone is above the maximum
        message = f"no plan up to horizon {h}: every plan needs at least {refuted_below} steps (the proven lower bound)"
    return finish(result, session.clock, session, Status.NO_PLAN_UP_TO_HORIZON, message, h)


def probe_seconds(config: SolveConfig) -> float:
    """How long a start factor above 1 first asks the proven bound: a level with many boxes may
    have a plan right at the bound that is quick to find, while three times the bound is a far
    bigger problem (Microban 144: 16 slides, 3.8 s at the bound, a timeout at 48)."""
    return PROBE_SHARE * (config.time_limit or DEFAULT_PROBE_LIMIT)


def probes_the_bound(encoding: Encoding, config: SolveConfig) -> bool:
    """Whether a configuration first asks the bound: a start factor above 1, in a family where
    that was measured (``PROBED_BOUNDS``)."""
    return config.start_factor > 1 and encoding.first_horizon in PROBED_BOUNDS


def probes_bound(encoding: Encoding, config: SolveConfig, bound: int, start: int) -> bool:
    """Whether this loop asks the bound first: ``probes_the_bound``, with the bound below the
    start and within the maximum."""
    return probes_the_bound(encoding, config) and bound < start and bound <= config.max_horizon


def probe_bound(session: Session, config: SolveConfig, bound: int, progress: Progress) -> tuple[Session, bool | None]:
    """Ask the proven bound for ``probe_seconds`` in a session of its own: the main loop then
    searches as it would without the probe (in the same session, what clasp learnt at the bound
    made some later horizons slower: Microban 36 and 112 timed out, BENCHMARKS.md)."""
    probe = Session(session.level, session.encoding, config, session.clock)
    outcome = probe.ask(bound, probe_seconds(config))
    progress(f"horizon {bound} (the bound, probed first): {describe_outcome(outcome)} ({session.clock.times()['total']:.2f} s)")
    return probe, outcome


def describe_outcome(outcome: bool | None) -> str:
    return {True: "plan found", False: "no plan", None: "no answer in time"}[outcome]


def bound_and_start(session: Session, config: SolveConfig) -> tuple[int, int]:
    """The proven lower bound on the steps, and the first horizon asked: --min-horizon, or
    --start-factor times the family's start scale, never below the bound."""
    bound = first_horizon(session.level, session.encoding)
    return bound, loop_start(session.level, session.encoding, config, bound)


def loop_start(level: Level, encoding: Encoding, config: SolveConfig, bound: int) -> int:
    """The first horizon the loop asks, given the family's proven ``bound``."""
    return max(config.min_horizon, bound, config.start_factor * start_scale(level, encoding, bound))


def first_horizon(level: Level, encoding: Encoding) -> int:
    """A proven lower bound on the steps of any plan of the family."""
    bounds = {"slides": slide_lower_bound, "parallel-slides": parallel_slide_lower_bound, "pushes": push_bound,
              "boxes": boxes_off_goals}
    return bounds[encoding.first_horizon](level)


def start_scale(level: Level, encoding: Encoding, bound: int) -> int:
    """What --start-factor multiplies: the proven bound, except for the slide families, where
    it is the weaker sum of each box's slides to its nearest goal. The start factors were
    measured with that sum, and on Microban 3x the stronger matching bound solved fewer levels
    than 3x the sum, and 2x fewer still (BENCHMARKS.md, "A stronger slide bound")."""
    if encoding.first_horizon == "slides":
        return nearest_slide_sum(level)
    return bound


def no_answer_in_time(result: Result, session: Session, refuted: int) -> Result:
    message = f"no plan up to horizon {refuted}" if refuted >= 0 else "no horizon finished"
    return finish(result, session.clock, session, Status.TIMEOUT, message, max(refuted, 0))


def finish(
    result: Result,
    clock: Clock,
    session: Session | None,
    status: Status,
    message: str,
    horizon: int | None = None,
) -> Result:
    result.status, result.message, result.horizon = status, message, horizon
    result.times = clock.times()
    if session is not None:
        result.stats = session.stats()
    return result


def finish_with_plan(result: Result, session: Session, status: Status, horizon: int) -> Result:
    result.plan = extract_plan(session.level, session.extractor.symbols, session.encoding.unit,
                               session.encoding.reverse)
    result.moves, result.pushes = len(result.plan), count_pushes(result.plan)
    return finish(result, session.clock, session, status, "", horizon)


def validate(level: Level, result: Result) -> Result:
    """Replay a reported plan; a plan that fails replay turns the result into an error."""
    if result.plan is None:
        return result
    check = replay(level, result.plan)
    if not check.ok:
        result.status, result.optimal_for = Status.ERROR, None
        result.message = f"the solver's plan failed replay: {check.problem}"
    return result
