"""The clingo driver: builds a Control from an encoding, strategy files and level facts,
runs a fixed horizon or the multi-shot horizon loop, and returns a validated Result.

Soft time limits interrupt solving through the solve handle; grounding cannot be
interrupted, so hard limits are enforced around a worker process (see ``worker``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata

import clingo

from .analysis import parallel_slide_lower_bound, push_lower_bound, slide_lower_bound, unsolvable_reason
from .classical import solve_fast_downward
from .errors import InputError
from .families import Encoding, encoding_paths, get_encoding, optimises
from .instance import program_facts
from .level import Level
from .plans import PlanExtractor, extract_plan
from .result import Result, Status
from .simulator import count_pushes, replay
from .strategies import Soundness, check_supported, soundness_of, strategy_clingo_args, strategy_paths

DEFAULT_MAX_HORIZON = 200

Progress = Callable[[str], None]


@dataclass(frozen=True)
class SolveConfig:
    encoding: str = "incremental"
    strategies: tuple[str, ...] = ()
    horizon: int | None = None  # fixed-horizon encodings
    min_horizon: int = 0  # incremental encodings
    start_factor: int = 1  # incremental encodings: first horizon = start_factor x the proven lower bound
    max_horizon: int = DEFAULT_MAX_HORIZON
    time_limit: float | None = None  # seconds; soft (solving only)
    clingo_args: tuple[str, ...] = ()

    def describe(self) -> dict[str, object]:
        return {
            "encoding": self.encoding,
            "strategies": list(self.strategies),
            "horizon": self.horizon,
            "min_horizon": self.min_horizon,
            "start_factor": self.start_factor,
            "max_horizon": self.max_horizon,
            "time_limit": self.time_limit,
            "clingo_args": list(self.clingo_args),
            "clingo": clingo.__version__,
            "sokoasp": sokoasp_version(),
        }


def sokoasp_version() -> str:
    try:
        return metadata.version("sokoasp")
    except metadata.PackageNotFoundError:  # running from a source tree that is not installed
        return "unknown"


@dataclass
class Clock:
    start: float = field(default_factory=time.perf_counter)
    ground: float = 0.0
    solve: float = 0.0
    limit: float | None = None

    def remaining(self) -> float | None:
        if self.limit is None:
            return None
        return self.limit - (time.perf_counter() - self.start)

    def expired(self) -> bool:
        left = self.remaining()
        return left is not None and left <= 0

    def times(self) -> dict[str, float]:
        total = time.perf_counter() - self.start
        return {"ground": round(self.ground, 4), "solve": round(self.solve, 4), "total": round(total, 4)}


class Session:
    """One clingo Control loaded with an encoding, strategies and a level."""

    def __init__(self, level: Level, encoding: Encoding, config: SolveConfig, clock: Clock) -> None:
        self.level = level
        self.encoding = encoding
        self.clock = clock
        args = ["--stats", *strategy_clingo_args(config.strategies), *config.clingo_args]
        if not encoding.incremental:
            args += ["-c", f"horizon={config.horizon}"]
        try:
            self.control = clingo.Control(args, logger=lambda code, msg: None)
        except RuntimeError as error:
            raise InputError(f"bad clingo option in {' '.join(config.clingo_args)!r}: {error}") from None
        for path in encoding_paths(encoding):
            self.control.load(str(path))
        for path in strategy_paths(config.strategies, encoding.name):
            self.control.load(str(path))
        self.control.add("base", [], program_facts(level))
        self.rules = 0
        self.extractor = PlanExtractor()

    def ground(self, parts: list[tuple[str, list[clingo.Symbol]]]) -> None:
        began = time.perf_counter()
        self.control.ground(parts)
        self.clock.ground += time.perf_counter() - began

    def solve(self) -> bool | None:
        """True: model found; False: unsatisfiable; None: no answer (time or search limit)."""
        began = time.perf_counter()
        self.extractor.reset()
        with self.control.solve(on_model=self.extractor.on_model, async_=True) as handle:
            finished = handle.wait(self.clock.remaining())
            if not finished:
                handle.cancel()
            outcome = handle.get()
        self.clock.solve += time.perf_counter() - began
        self.rules += int(self.control.statistics["problem"]["lp"]["rules"])  # this step's new rules
        if outcome.satisfiable:
            return True
        if not finished or outcome.unknown:  # interrupted, or a search limit (--solve-limit) hit
            return None
        return False

    def stats(self) -> dict[str, object]:
        statistics = self.control.statistics
        accu = statistics.get("accu", statistics)["solving"]["solvers"]
        return {
            "rules": self.rules,
            "choices": int(accu["choices"]),
            "conflicts": int(accu["conflicts"]),
            "atoms": int(self.control.statistics["problem"]["lp"]["atoms"]),
        }


def check_config(config: SolveConfig) -> Encoding:
    """Refuse a configuration that cannot run (raises InputError), before any work starts."""
    encoding = get_encoding(config.encoding)
    check_supported(config.strategies, encoding.name)
    if not encoding.incremental and config.horizon is None:
        raise InputError(f"encoding {encoding.name!r} needs a horizon: give --horizon N or #const horizon in the file")
    return encoding


def solve(level: Level, config: SolveConfig, progress: Progress | None = None) -> Result:
    """Solve one level; every reported plan is replayed by the simulator first."""
    encoding = check_config(config)
    clock = Clock(limit=config.time_limit)
    base = Result(Status.ERROR, config=config.describe())
    reason = unsolvable_reason(level)
    if reason:
        return finish(base, clock, None, Status.UNSOLVABLE, reason)
    if encoding.planner:
        return validate(level, within_horizon(solve_fast_downward(level, clock.remaining()), config.max_horizon))
    session = Session(level, encoding, config, clock)
    if encoding.incremental:
        result = run_incremental(session, config, base, progress or (lambda _: None))
    else:
        result = run_fixed(session, config, base)
    return validate(level, result)


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


def horizons(start: int, stop: int, jumps: bool) -> list[int]:
    """The horizons the loop asks for: every one, or growing by half for jump families."""
    if not jumps or start > stop:
        return list(range(start, stop + 1))
    result = [start]
    while result[-1] < stop:
        result.append(min(stop, max(result[-1] + 1, (result[-1] * 3 + 1) // 2)))
    return result


def run_incremental(session: Session, config: SolveConfig, result: Result, progress: Progress) -> Result:
    control = session.control
    # Every plan needs at least `bound` steps (so pushes and moves too): shorter horizons are
    # skipped. Optimality needs every shorter length refuted (UNSAT or below this bound) and
    # strategies that keep optimal plans. A later start (--min-horizon, --start-factor) skips
    # horizons: they are not refuted, unless a jump family's horizon (which admits every
    # shorter plan) is.
    bound = first_horizon(session.level, session.encoding)
    start = max(config.min_horizon, config.start_factor * bound)
    sound = soundness_of(config.strategies) is Soundness.KEEPS_OPTIMAL
    refuted_below = bound  # every plan is at least this long
    grounded = 0
    parts: list[tuple[str, list[clingo.Symbol]]] = [("base", [])]
    for t in horizons(start, config.max_horizon, session.encoding.jumps):
        if session.clock.expired():
            return no_answer_in_time(result, session, refuted_below - 1)
        parts += [("step", [clingo.Number(k)]) for k in range(grounded + 1, t + 1)]
        session.ground(parts + [("check", [clingo.Number(t)])])
        parts, previous, grounded = [], grounded, t
        if previous >= start:
            control.release_external(clingo.Function("query", [clingo.Number(previous)]))
        control.assign_external(clingo.Function("query", [clingo.Number(t)]), True)
        outcome = session.solve()
        if outcome is None:
            return no_answer_in_time(result, session, refuted_below - 1)
        progress(f"horizon {t}: {'plan found' if outcome else 'no plan'} ({session.clock.times()['total']:.2f} s)")
        if outcome:
            finish_with_plan(result, session, Status.SOLVED, t)
            length = result.pushes if session.encoding.unit == "push" else result.moves
            if sound and length == refuted_below:
                result.status, result.optimal_for = Status.SOLVED_OPTIMAL, optimises(session.encoding)
            return result
        if session.encoding.jumps or t == refuted_below:
            refuted_below = t + 1
    h = config.max_horizon
    caveat = "" if sound else " (with strategies that may lose solutions)"
    if refuted_below <= h:  # a late start skipped horizons
        refuted = f"no plan up to horizon {refuted_below - 1}{caveat}"
        if start > h:
            message = f"{refuted}: the first horizon, {start}, is above the maximum {h}"
        else:
            message = f"{refuted}, nor at horizons {start} to {h} ({refuted_below} to {start - 1} were skipped)"
        return finish(result, session.clock, session, Status.NO_PLAN_UP_TO_HORIZON, message, max(refuted_below - 1, 0))
    return finish(result, session.clock, session, Status.NO_PLAN_UP_TO_HORIZON, f"no plan up to horizon {h}{caveat}", h)


def first_horizon(level: Level, encoding: Encoding) -> int:
    """A proven lower bound on the steps of any plan of the family."""
    bounds = {"slides": slide_lower_bound, "parallel-slides": parallel_slide_lower_bound, "pushes": push_lower_bound}
    return bounds[encoding.first_horizon](level)


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
    result.plan = extract_plan(session.level, session.extractor.symbols, session.encoding.unit)
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
