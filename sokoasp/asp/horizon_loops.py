"""The ASP horizon loops: a fixed horizon; the multi-shot loop from the proven lower bound up,
with a late start and a probe of the bound; interleaved horizons; the descent from above. Each
returns a Result with the plan of the model it found. A plan is called optimal only when every
shorter horizon is refuted and every strategy keeps optimal plans."""

from __future__ import annotations

from sokoasp.asp.encodings import Encoding, optimises
from sokoasp.asp.models import extract_plan
from sokoasp.asp.session import Session, horizons
from sokoasp.asp.strategies import Soundness, soundness_of
from sokoasp.board.level import Level
from sokoasp.board.simulator import count_pushes
from sokoasp.config import WORK_PER_SECOND, Clock, Progress, SolveConfig
from sokoasp.result import Result, Status
from sokoasp.sokoban.analysis import (
    boxes_off_goals,
    nearest_slide_sum,
    parallel_slide_lower_bound,
    slide_lower_bound,
)
from sokoasp.sokoban.pairs import push_bound

FIRST_SLICE = 2_500  # interleaved horizons: work units for the shortest open horizon in the first round
SLICE_RATIO = 0.5  # interleaved horizons: each longer open horizon gets this share of the one before


PROBE_SHARE = 0.1  # a start factor above 1 first asks the proven bound for this share of the time limit's nominal work
DEFAULT_PROBE_LIMIT = 60.0  # ... or of this many seconds' when there is no limit


PROBED_BOUNDS = ("slides",)  # the families whose late start probes the bound first (push-macro's slides)
DESCENDING_FAMILIES = ("push-jump",)  # --descend: a horizon of h steps admits every plan of up to h pushes


def run_loop(level: Level, encoding: Encoding, config: SolveConfig, clock: Clock, progress: Progress) -> Result:
    """The horizon loop ``config`` asks for on ``level``: its result, with the plan if it found one
    (not yet replayed), its times and clingo's statistics."""
    session = Session(level, encoding, config, clock, revisiting=config.interleave > 1)
    if config.descend:
        return run_descending(session, config, progress)
    if config.interleave > 1:
        return run_interleaved(session, config, progress)
    if encoding.incremental:
        return run_incremental(session, config, progress)
    return run_fixed(session, config)


def run_fixed(session: Session, config: SolveConfig) -> Result:
    session.ground([("base", [])])
    outcome = session.solve()
    h = config.horizon
    assert h is not None  # check_config insists on a horizon for fixed-horizon encodings
    if outcome is None:
        return ended(session, Status.TIMEOUT, f"no answer at horizon {h} in time", h)
    if not outcome:
        return ended(session, Status.NO_PLAN_AT_HORIZON, f"no plan of exactly {h} moves", h)
    return ended(session, Status.SOLVED, "", h, model_plan(session))


def run_incremental(session: Session, config: SolveConfig, progress: Progress) -> Result:
    # Every plan needs at least `bound` steps (so pushes and moves too): shorter horizons are
    # skipped. Optimality needs every shorter length refuted (UNSAT or below this bound) and
    # strategies that keep optimal plans. A later start (--min-horizon, --start-factor) skips
    # horizons: they are not refuted, unless a jump family's horizon (which admits every
    # shorter plan) is.
    bound, start = bound_and_start(session, config)
    refuted_below = bound  # every plan is at least this long
    if session.clock.expired():  # the phases before the loop spent the time: ground nothing more
        return no_answer_in_time(session, refuted_below - 1)
    if probes_bound(session.encoding, config, bound, start):
        probe, outcome = probe_bound(session, config, bound, progress)
        if outcome:
            return finish_found(probe, config, bound, refuted_below)
        if outcome is False:
            refuted_below = bound + 1
        del probe  # its ground program is not needed by the loop
    for t in horizons(start, config.max_horizon, session.encoding.jumps):
        if session.clock.expired():
            return no_answer_in_time(session, refuted_below - 1)
        outcome = session.ask(t)
        if outcome is None:
            return no_answer_in_time(session, refuted_below - 1)
        progress(f"horizon {t}: {describe_outcome(outcome)} ({session.clock.times()['total']:.2f} s)")
        if outcome:
            return finish_found(session, config, t, refuted_below)
        if session.encoding.jumps or t == refuted_below:
            refuted_below = t + 1
    return exhausted(session, config, start, refuted_below)


def run_interleaved(session: Session, config: SolveConfig, progress: Progress) -> Result:
    """The jump families' loop with ``config.interleave`` horizons asked in turn (Rintanen 2004,
    algorithm B): a longer horizon admits more plans, so it may have one that is quicker to find
    than the shorter one is to refute. Each round gives every open horizon a slice of work, the
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
                return no_answer_in_time(session, refuted_below - 1)
            outcome = session.ask(t, max(1, int(first_slice * SLICE_RATIO**rank)))
            said = {True: "plan found", False: "no plan", None: "open"}[outcome]
            progress(f"horizon {t}: {said} ({session.clock.times()['total']:.2f} s)")
            if outcome:
                return finish_found(session, config, t, refuted_below)
            if outcome is False:
                refuted_below = max(refuted_below, t + 1)
                open_horizons = [h for h in open_horizons if h > t]
        first_slice *= 2
    return exhausted(session, config, start, refuted_below)


def run_descending(session: Session, config: SolveConfig, progress: Progress) -> Result:
    """``--descend`` (SAT-UNSAT search from above): ask the maximum horizon, then one push fewer
    than the plan found has, and so on, until a horizon is refuted. A push-jump horizon admits
    every plan of up to that many pushes, so one refutation below the last plan proves it
    push-optimal, where the loop from below refutes every horizon from the bound up. Each
    horizon gets a session of its own, grounded up to it (asking a shorter horizon in the same
    session would need the steps past it kept idle, idle.lp, whose externals slow refutations)."""
    bound = first_horizon(session.level, session.encoding)
    t = config.max_horizon
    plan: str | None = None  # the shortest found so far
    while t >= bound:
        outcome = None if session.clock.expired() else session.ask(t)
        if outcome is None:
            return descended(plan, session, config, bound - 1, f"no answer at horizon {t} in time")
        progress(f"horizon {t}: {describe_outcome(outcome)} ({session.clock.times()['total']:.2f} s)")
        if not outcome:
            return descended(plan, session, config, t)
        plan = model_plan(session)
        t = count_pushes(plan) - 1
        session = Session(session.level, session.encoding, config, session.clock)
    return descended(plan, session, config, t)  # below the proven bound


def descended(plan: str | None, session: Session, config: SolveConfig, refuted: int, timeout: str = "") -> Result:
    """The end of ``run_descending``: no plan up to horizon ``refuted`` (refuted, or below the
    proven bound), with the last ``plan`` found if any; ``timeout`` says where the time ran out.
    Without a timeout the last plan is one push above ``refuted``: push-optimal, if the
    strategies keep optimal plans."""
    sound = soundness_of(config.strategies) is Soundness.KEEPS_OPTIMAL
    if plan is not None:
        proven = not timeout and sound
        return ended(session, Status.SOLVED_OPTIMAL if proven else Status.SOLVED, timeout, count_pushes(plan), plan,
                     optimises(session.encoding) if proven else None)
    if timeout:
        return ended(session, Status.TIMEOUT, timeout, max(refuted, 0))
    caveat = "" if sound else " (with strategies that may lose solutions)"
    return ended(session, Status.NO_PLAN_UP_TO_HORIZON, f"no plan up to horizon {refuted}{caveat}", refuted)


def finish_found(session: Session, config: SolveConfig, horizon: int, refuted_below: int) -> Result:
    """The plan of the model found at ``horizon``: optimal when every shorter plan is refuted and
    no strategy may have cut one."""
    plan = model_plan(session)
    length = count_pushes(plan) if session.encoding.unit == "push" else len(plan)
    proven = soundness_of(config.strategies) is Soundness.KEEPS_OPTIMAL and length == refuted_below
    return ended(session, Status.SOLVED_OPTIMAL if proven else Status.SOLVED, "", horizon, plan,
                 optimises(session.encoding) if proven else None)


def exhausted(session: Session, config: SolveConfig, start: int, refuted_below: int) -> Result:
    """Every horizon of the schedule up to the maximum was refuted (or skipped by a late start)."""
    h = config.max_horizon
    caveat = "" if soundness_of(config.strategies) is Soundness.KEEPS_OPTIMAL else " (with strategies that may lose solutions)"
    if refuted_below <= h:  # a late start skipped horizons
        refuted = f"no plan up to horizon {refuted_below - 1}{caveat}"
        if start > h:
            message = f"{refuted}: the first horizon, {start}, is above the maximum {h}"
        else:
            message = f"{refuted}, nor at horizons {start} to {h} ({refuted_below} to {start - 1} were skipped)"
        return ended(session, Status.NO_PLAN_UP_TO_HORIZON, message, max(refuted_below - 1, 0))
    message = f"no plan up to horizon {h}{caveat}"
    if start > h:  # nothing was asked: the proven lower bound alone is above the maximum
        message = f"no plan up to horizon {h}: every plan needs at least {refuted_below} steps (the proven lower bound)"
    return ended(session, Status.NO_PLAN_UP_TO_HORIZON, message, h)


def probe_work(config: SolveConfig) -> int:
    """How much work a start factor above 1 first spends asking the proven bound: a level with
    many boxes may have a plan right at the bound that is quick to find, while three times the
    bound is a far bigger problem."""
    return int(PROBE_SHARE * (config.time_limit or DEFAULT_PROBE_LIMIT) * WORK_PER_SECOND)


def probes_the_bound(encoding: Encoding, config: SolveConfig) -> bool:
    """Whether a configuration first asks the bound: a start factor above 1, in a family of
    ``PROBED_BOUNDS``."""
    return config.start_factor > 1 and encoding.first_horizon in PROBED_BOUNDS


def probes_bound(encoding: Encoding, config: SolveConfig, bound: int, start: int) -> bool:
    """Whether this loop asks the bound first: ``probes_the_bound``, with the bound below the
    start and within the maximum."""
    return probes_the_bound(encoding, config) and bound < start and bound <= config.max_horizon


def probe_bound(session: Session, config: SolveConfig, bound: int, progress: Progress) -> tuple[Session, bool | None]:
    """Ask the proven bound for ``probe_work`` in a session of its own: the main loop then
    searches as it would without the probe (what clasp learns at the bound can slow the longer
    horizons of the same session)."""
    probe = Session(session.level, session.encoding, config, session.clock)
    outcome = probe.ask(bound, probe_work(config))
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
    it is the weaker sum of each box's slides to its nearest goal, the scale the portfolio's start
    factors are chosen for."""
    if encoding.first_horizon == "slides":
        return nearest_slide_sum(level)
    return bound


def no_answer_in_time(session: Session, refuted: int) -> Result:
    message = f"no plan up to horizon {refuted}" if refuted >= 0 else "no horizon finished"
    return ended(session, Status.TIMEOUT, message, max(refuted, 0))


def model_plan(session: Session) -> str:
    """The plan of the model ``session`` found last (LURD)."""
    return extract_plan(session.level, session.extractor.symbols, session.encoding.unit, session.encoding.reverse)


def ended(session: Session, status: Status, message: str, horizon: int | None, plan: str | None = None,
          optimal_for: str | None = None) -> Result:
    """The loop's result: how it ended, the plan if it found one, the session's times and clingo's
    statistics."""
    return Result(status, plan=plan, moves=None if plan is None else len(plan),
                  pushes=None if plan is None else count_pushes(plan), horizon=horizon, optimal_for=optimal_for,
                  times=session.clock.times(), stats=session.stats(), message=message)
