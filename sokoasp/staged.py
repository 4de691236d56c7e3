"""Staged solving, a goal agenda (after Koehler & Hoffmann 2000) for the push families.

Instead of one plan that puts every box on a goal, a chain of short plans that each put one
more box on a goal (``encodings/subgoal.lp``), searched depth first:

- a stage first looks for an end state that keeps every other box able to reach a free goal
  with the filled goals as walls (``encodings/subgoal-live.lp``), and only then for any;
- a stage tries up to ``WIDTH`` end states, each with a different set of filled goals, and
  never one found dead before; the search backtracks when a stage finds no plan in its time;
- a stage's time starts at 1/``FIRST_SHARE`` of the budget and doubles on every new pass from
  the start (iterative broadening: many cheap tries first, long stages later).

Short stages ground and solve fast where a whole plan is far beyond reach, but a greedy stage
can walk into a state that no later stage gets out of.

INCOMPLETE and NOT OPTIMAL: it gives up when its time is spent. The joined plan is replayed
from the start by the simulator like every other plan (``driver.validate``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import clingo

from .errors import InputError
from .families import Encoding, encodings_dir, get_encoding
from .filling import fillable
from .level import Level
from .plans import PlanExtractor, extract_plan
from .session import Clock, Progress, Session, SolveConfig, horizons
from .simulator import replay

WIDTH = 3  # end states (sets of filled goals) tried per stage before backtracking
FIRST_SHARE = 64  # in the first pass a stage gets 1/FIRST_SHARE of the budget; each pass doubles it
# What a stage asks of its end state, tried in order: (keep_live, keep_fillable), see StageGoal.
STAGE_TRIES = ((True, True), (False, False))
# Strategies that hold for any goal count: they cut states from which no complete plan exists,
# or plan shapes. The others (bound, corral, pack, ...) reason about the full goal and are left
# out of the stages.
STAGE_STRATEGIES = ("dead", "freeze", "clutter", "wbtc", "straight", "guide", "inertia")


@dataclass
class StagedOutcome:
    """What the staged search found: a plan (not yet replayed from the start) or none."""

    plan: str | None
    stages_solved: int = 0  # stage plans found, backtracked ones included
    most_placed: int = 0  # the most boxes on goals in any state reached

    def describe(self, boxes: int) -> str:
        found = "a plan" if self.plan is not None else "no plan"
        return (f"staged search: {found} after {self.stages_solved} stage plans, "
                f"at best {self.most_placed} of {boxes} boxes on goals")


def can_stage(encoding: Encoding) -> bool:
    """Staged solving needs a push family solved by clingo (subgoal.lp reads push-core's atoms)."""
    return encoding.unit == "push" and not encoding.planner


def check_staged(encoding: Encoding) -> None:
    if not can_stage(encoding):
        raise InputError(f"--staged needs a push family (push, push-jump, push-macro, ...), not {encoding.name!r}")


def stage_config(config: SolveConfig) -> SolveConfig:
    kept = tuple(name for name in config.strategies if name in STAGE_STRATEGIES)
    return replace(config, strategies=kept, staged=None)


def forbid(state: Level) -> str:
    """A constraint against ending a stage in ``state`` (same boxes, player in the same region)."""
    boxes = ", ".join(f"box({x},{y},t)" for x, y in sorted(state.boxes))
    x, y = state.player
    return f":- query(t), {boxes}, region({x},{y},t).\n"


def forbid_filled(state: Level) -> str:
    """A constraint against ending a stage with the goals filled as in ``state``."""
    filled = [f"box({x},{y},t)" for x, y in sorted(state.goals & state.boxes)]
    empty = [f"not box({x},{y},t)" for x, y in sorted(state.goals - state.boxes)]
    return f":- query(t), {', '.join(filled + empty)}.\n"


@dataclass(frozen=True)
class StageGoal:
    """What one stage asks for: at least ``need`` boxes on goals, in none of the ``avoid``
    states, with a filled-goal set unlike each of ``other_than``; ``keep_live`` adds
    subgoal-live.lp (every other box can still reach a free goal); ``keep_fillable`` takes only
    end states that pass ``filling.fillable`` (the empty goals can be filled around the full ones)."""

    need: int
    avoid: tuple[Level, ...] = ()
    other_than: tuple[Level, ...] = ()
    keep_live: bool = False
    keep_fillable: bool = False

    def program(self) -> list[tuple[str, str]]:
        parts = [("base", f"#const need={self.need}.")]
        parts += [("check", forbid(end)) for end in self.avoid]
        parts += [("check", forbid_filled(end)) for end in self.other_than]
        return parts


def filled_goals_nogood(end: Level, horizon: int) -> list[tuple[clingo.Symbol, bool]]:
    """The literals of ending at ``horizon`` with the goals filled as in ``end``."""
    return [(clingo.Function("box", [clingo.Number(x), clingo.Number(y), clingo.Number(horizon)]), (x, y) in end.boxes)
            for x, y in sorted(end.goals)]


class FillableEndStates(PlanExtractor):
    """Keeps the first model whose end state passes ``filling.fillable``. For every other one
    it adds a nogood against its set of filled goals (a filled-goal set that fails mostly fails
    wherever the other boxes stand) and lets clingo go on to the next model."""

    def __init__(self, state: Level, unit: str) -> None:
        super().__init__()
        self.state, self.unit = state, unit
        self.horizon = 0

    def on_model(self, model: clingo.Model) -> bool:
        symbols = list(model.symbols(shown=True))
        end = state_after(self.state, extract_plan(self.state, symbols, self.unit))
        if fillable(end):
            self.symbols, self.found = symbols, True
            return False
        model.context.add_nogood(filled_goals_nogood(end, self.horizon))
        return True


def plan_stage(state: Level, goal: StageGoal, config: SolveConfig, clock: Clock) -> str | None:
    """The first plan from ``state`` that reaches ``goal``, or None when no horizon up to the
    maximum has one or the clock runs out."""
    encoding = get_encoding(config.encoding)
    session = Session(state, encoding, config, clock)
    session.control.load(str(encodings_dir() / "subgoal.lp"))
    if goal.keep_live:
        session.control.load(str(encodings_dir() / "subgoal-live.lp"))
    for part, text in goal.program():
        session.control.add(part, ["t"] if part == "check" else [], text)
    filter_ = FillableEndStates(state, encoding.unit) if goal.keep_fillable else None
    if filter_ is not None:
        session.extractor = filter_
        session.control.configuration.solve.models = 0  # type: ignore[union-attr]
    for t in horizons(1, config.max_horizon, encoding.jumps):
        if clock.expired():
            return None
        if filter_ is not None:
            filter_.horizon = t
        outcome = session.ask(t)
        if outcome is None:
            return None
        if outcome:
            return extract_plan(state, session.extractor.symbols, encoding.unit)
    return None


def state_after(state: Level, plan: str) -> Level:
    check = replay(state, plan)
    if check.steps_done != len(plan):
        raise RuntimeError(f"a stage plan failed replay: {check.problem}")
    return Level(state.floor, check.boxes, state.goals, check.player, state.title)


class StagedSearch:
    def __init__(self, config: SolveConfig, clock: Clock, budget: float, progress: Progress) -> None:
        self.config = stage_config(config)
        self.clock = clock
        self.deadline = time.perf_counter() + budget
        self.stage_seconds = budget / FIRST_SHARE
        self.progress = progress
        self.outcome = StagedOutcome(None)
        self.dead_ends: list[Level] = []  # end states whose search came to nothing in this pass
        self.cut_short = False  # a stage of this pass ran out of time (a longer pass may do better)

    def left(self) -> float:
        overall = self.clock.remaining()
        mine = self.deadline - time.perf_counter()
        return mine if overall is None else min(mine, overall)

    def run(self, level: Level) -> str | None:
        """Passes from the start, each with twice the stage time of the one before, until one
        finds a plan, time runs out, or a pass had no stage cut short (the next would repeat it)."""
        while self.left() > 0:
            self.dead_ends, self.cut_short = [], False
            plan = self.search(level)
            if plan is not None or not self.cut_short:
                return plan
            self.stage_seconds *= 2
            self.progress(f"staged: a new pass, {self.stage_seconds:.2f} s per stage")
        return None

    def search(self, state: Level) -> str | None:
        placed = len(state.boxes & state.goals)
        self.outcome.most_placed = max(self.outcome.most_placed, placed)
        if placed == len(state.goals):
            return ""
        tried: list[Level] = []
        for _ in range(WIDTH):
            if self.left() <= 0:
                return None
            plan = self.stage(state, StageGoal(placed + 1, tuple(self.dead_ends), tuple(tried)))
            if plan is None:
                return None
            after = state_after(state, plan)
            tried.append(after)
            rest = self.search(after)
            if rest is not None:
                return plan + rest
            self.dead_ends.append(after)
        return None

    def stage(self, state: Level, goal: StageGoal) -> str | None:
        """A plan for ``goal`` under each of ``STAGE_TRIES`` in turn, each with an equal share
        of the stage time."""
        for keep_live, keep_fillable in STAGE_TRIES:
            clock = Clock(limit=min(self.stage_seconds / len(STAGE_TRIES), self.left()))
            tried = replace(goal, keep_live=keep_live, keep_fillable=keep_fillable)
            plan = plan_stage(state, tried, self.config, clock)
            self.clock.ground += clock.ground
            self.clock.solve += clock.solve
            self.cut_short |= clock.expired()
            if plan is not None:
                self.outcome.stages_solved += 1
                self.progress(f"stage {goal.need}: {len(plan)} moves ({self.clock.times()['total']:.2f} s)")
                return plan
        return None


def solve_staged(level: Level, config: SolveConfig, clock: Clock, budget: float, progress: Progress) -> StagedOutcome:
    """Search for a plan stage by stage for at most ``budget`` seconds (and the clock's limit)."""
    check_staged(get_encoding(config.encoding))
    search = StagedSearch(config, clock, budget, progress)
    search.outcome.plan = search.run(level)
    return search.outcome
