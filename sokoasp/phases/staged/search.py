"""Staged solving, a goal agenda (after Koehler & Hoffmann 2000) for the push families: a chain
of short plans that each put one more box on a goal (``encodings/subgoal.lp``), searched depth
first in passes with a growing stage budget (``StagedSearch``), the stages of several families
taking turns (``solve_staged``).

A stage tries a careless plan (any end state that keeps the goal order), then a careful one
(every empty goal still fillable: ``subgoal-live.lp``, ``subgoal-order.lp`` and
``push_search.fillable``); end states with a corral, group or freeze deadlock, or proven traps
(``sokoasp.sokoban.traps``), are turned away by nogoods on their boxes. Once at most five boxes
are off the goals, the end game in Python (``sokoasp.sokoban.end_game``) may finish the plan.
All stages of a family share one clingo session (``StageSession``); pull-route stages run
backwards from the goals. docs/phases.md describes the whole search.

INCOMPLETE and NEVER OPTIMAL: it gives up when its budget is spent, and a greedy stage can walk
into a state no later stage gets out of. The joined plan is replayed from the start by the
pipeline like every other plan."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from sokoasp.asp.encodings import Encoding, get_encoding
from sokoasp.asp.reverse_facts import turned_round
from sokoasp.asp.strategies import get_strategy
from sokoasp.board.level import Cell, Level
from sokoasp.board.xsb import board_lines
from sokoasp.config import Clock, Progress, SolveConfig
from sokoasp.errors import InputError
from sokoasp.phases.staged.schedule import STAGED
from sokoasp.phases.staged.stage_ends import StageGoal
from sokoasp.phases.staged.stage_session import StageSession
from sokoasp.sokoban.breadth_first import player_region
from sokoasp.sokoban.end_game import budget, finish
from sokoasp.sokoban.pushes import StagePlan

SCHEDULE = STAGED  # the stage schedule of staged solving (sokoasp.phases.staged.schedule)
# Strategies that hold for any goal count: they cut states from which no complete plan exists,
# or plan shapes. The others (bound, corral, pack, ...) reason about the full goal and are left
# out of the stages.
STAGE_STRATEGIES = ("dead", "freeze", "pairs", "clutter", "wbtc", "straight", "commute", "guide", "inertia")


@dataclass
class StagedOutcome:
    """What the staged search found: a plan (not yet replayed from the start) or none."""

    plan: str | None
    stages_solved: int = 0  # stage plans found, backtracked ones included
    most_placed: int | None = None  # forward stages: the most boxes on goals in any state reached
    most_home: int | None = None  # backward stages: the most boxes on start squares in any state reached
    farthest: str | None = None  # forward stages: the moves from the start to a state with ``most_placed`` boxes on goals
    nearest_home: Level | None = None  # backward stages: a state with ``most_home`` boxes on start squares (its goals, turned round)
    test_seconds: float = 0.0  # spent testing stage end states (deadlocks, fillability) in Python
    traps: int = 0  # careless end states proven dead by search (traps.py)
    end_game: int = 0  # the boxes the plan's end game (sokoasp.sokoban.end_game) placed, if it ended the plan
    end_game_from_start: bool = False  # and it took the level from the start (clingo found no first stage)

    def home_board(self, level: Level) -> str:
        """``nearest_home`` drawn on ``level`` in XSB rows (its goals, not the start squares), or
        '' without backward stages."""
        if self.nearest_home is None:
            return ""
        state = Level(level.floor, self.nearest_home.boxes, level.goals, self.nearest_home.player)
        return "\n".join(board_lines(state))

    def describe(self, boxes: int) -> str:
        found = "a plan" if self.plan is not None else "no plan"
        best = [f"{self.most_placed} of {boxes} boxes on goals"] if self.most_placed is not None else []
        best += [f"backwards {self.most_home} of {boxes} on start squares"] if self.most_home is not None else []
        at_best = f", at best {', '.join(best)}" if best else ""
        traps = f"; {self.traps} trap{'s' * (self.traps != 1)} proven dead" if self.traps else ""
        end_game = f", the last {self.end_game} by the end game's search in Python" if self.end_game else ""
        if self.end_game_from_start:
            end_game = ", the whole plan by the end game's search in Python (clingo found no first stage)"
        return (f"staged search: {found} after {self.stages_solved} stage plans{end_game}{at_best}{traps}; "
                f"{self.test_seconds:.1f} s testing end states")


def can_stage(encoding: Encoding) -> bool:
    """Staged solving needs a push family solved by clingo (subgoal.lp reads push-core's atoms)."""
    return encoding.unit == "push" and not encoding.planner


def check_staged(encoding: Encoding) -> None:
    if not can_stage(encoding):
        raise InputError(f"the staged phase needs a push family (push, push-jump, push-macro, ..., pull-route), not {encoding.name!r}")


def check_stage_families(families: tuple[str, ...]) -> None:
    for family in families:
        check_staged(get_encoding(family))


def check_stage_strategies(config: SolveConfig, families: tuple[str, ...]) -> None:
    """With staged solving a strategy serves the phases whose family supports it: the horizon
    loop, or the stages of some family in ``families`` (if it holds for any goal count). One
    that serves none is refused."""
    loop = get_encoding(config.encoding)
    for name in config.strategies:
        strategy = get_strategy(name)
        stages = name in STAGE_STRATEGIES and any(family in strategy.encodings for family in families)
        if loop.name not in strategy.encodings and not stages:
            raise InputError(f"strategy {strategy.name!r} supports neither the stages ({'+'.join(families)}) nor the "
                             f"horizon loop ({loop.name}) (it supports {', '.join(strategy.encodings)})")


def loop_strategies(config: SolveConfig) -> tuple[str, ...]:
    """The strategies of the horizon loop after the stages: those its family supports."""
    return tuple(name for name in config.strategies if config.encoding in get_strategy(name).encodings)


def stage_config(config: SolveConfig, family: str) -> SolveConfig:
    """The configuration of the stages in ``family``: the strategies that hold for any goal
    count and that family supports."""
    kept = tuple(name for name in config.strategies
                 if name in STAGE_STRATEGIES and family in get_strategy(name).encodings)
    return replace(config, encoding=family, strategies=kept, phases=())


class StagedSearch:
    """A staged search in one push family (``config.encoding``, see ``stage_config``)."""

    def __init__(self, config: SolveConfig, clock: Clock, progress: Progress, end_game: bool = True) -> None:
        self.schedule = SCHEDULE
        self.config = config
        self.use_end_game = end_game  # the last few boxes by the end game's search in Python
        self.clock = clock  # the phase's: its work budget on the run's meter, which every family's search shares
        self.began = clock.worked()
        self.pass_end = math.inf  # one_pass sets it: the meter's reading pass_stages stage budgets after the pass's start
        self.stage_work = self.schedule.first_stage_work
        self.progress = progress
        self.outcome = StagedOutcome(None)
        self.dead_ends: list[Level] = []  # end states whose search came to nothing in this pass
        self.cut_short = False  # a stage of this pass ran out of work (a longer pass may do better)
        self.finished = False  # a pass found a plan, or none was cut short (the next would repeat it)
        self.passes = 0
        self.session: StageSession | None = None
        self.trail: list[StagePlan] = []  # the stage plans from the start to the state searched now
        # the states whose end game (end_game) found nothing: the states it had (inf: it ended in them)
        self.end_games_tried: dict[tuple[frozenset[Cell], Cell], float] = {}

    def pass_left(self) -> float:
        """The work left for this pass: a pass that runs out of it is cut short, and the next
        starts again from the start with twice the stage budget."""
        mine = self.pass_end - self.clock.worked()
        if mine <= 0:
            self.cut_short = True
        return min(mine, self.clock.spare())

    def run(self, level: Level) -> str | None:
        """Passes from the start, each with twice the stage budget of the one before, until one
        finds a plan, the budget runs out, or a pass had no stage cut short (the next would repeat it)."""
        while self.clock.spare() > 0 and not self.finished:
            plan = self.one_pass(level)
            if plan is not None:
                return plan
        return None

    def one_pass(self, level: Level) -> str | None:
        """One pass from the start; a pass cut short doubles the stage budget of the next."""
        if self.session is None:
            self.session = StageSession(level, self.config, self.clock)
        self.dead_ends, self.cut_short = [], False
        self.passes += 1
        if self.passes > 1:
            self.session.bands.randomize(self.passes)
        self.pass_end = self.clock.worked() + self.schedule.pass_stages * self.stage_work
        reverse = self.session.reverse
        start = turned_round(level) if reverse else level
        plan = self.search(start, home=level.player if reverse else None)
        self.finished = plan is not None or not self.cut_short
        if not self.finished:
            self.stage_work *= 2
            self.progress(f"staged: a pass of {self.config.encoding} stages cut short; its next at {self.stage_work} work units per stage")
        return None if plan is None else plan.lurd(level)

    def search(self, state: Level, home: Cell | None, first: bool = True) -> StagePlan | None:
        """A plan from ``state`` with every box on a goal (backwards: and the player able to
        walk ``home``, the level's start square): stages, and the end game after each (forwards,
        also from the start when clingo found no first stage in this pass)."""
        placed = len(state.boxes & state.goals)
        if home is None:
            if self.outcome.most_placed is None or placed > self.outcome.most_placed:
                self.outcome.most_placed, self.outcome.farthest = placed, "".join(plan.moves for plan in self.trail)
        elif self.outcome.most_home is None or placed > self.outcome.most_home:
            self.outcome.most_home, self.outcome.nearest_home = placed, state
        if placed == len(state.goals) and (home is None or home in player_region(state.floor, state.boxes, state.player)):
            return StagePlan()
        if not first and self.use_end_game and (end := self.end_game(state, home)) is not None:
            return end
        stages_before = self.outcome.stages_solved
        plan = self.stages_from(state, home, first)
        if plan is None and first and home is None and self.use_end_game and self.outcome.stages_solved == stages_before:
            return self.end_game(state, home, from_start=True)
        return plan

    def stages_from(self, state: Level, home: Cell | None, first: bool) -> StagePlan | None:
        """A stage plan from ``state`` and the rest of the plan after it, for up to ``width``
        end states of the stage."""
        placed = len(state.boxes & state.goals)
        need = min(placed + 1, len(state.goals))
        tried: list[Level] = []
        start = 1  # no careless stage plan from state below this horizon
        for _ in range(self.schedule.width):
            if self.pass_left() <= 0:
                return None
            goal = StageGoal(need, tuple(self.dead_ends), tuple(tried), player_anywhere=first and home is not None)
            found, start, careful = self.stage(state, goal, start)
            if found is None:
                return None
            plan, after = found
            tried.append(after)
            if not careful and self.trapped(after):
                continue
            self.trail.append(plan)
            rest = self.search(after, home, first=False)
            self.trail.pop()
            if rest is not None:
                return plan + rest
            self.dead_ends.append(after)
        return None

    def end_game(self, state: Level, home: Cell | None, from_start: bool = False) -> StagePlan | None:
        """After a stage, with few boxes off the goals: the rest of the plan by push (backwards:
        pull) search (sokoasp.sokoban.end_game), for at most a stage budget (on a level of few boxes, a
        share of the stages' work left: ``end_game.budget``), once per state in a search unless
        its budget ran out and a later pass has more. ``from_start``: in a pass whose first stage
        clingo did not find, forwards (``search``); the boxes off the goals then decide the
        budget, as the end game takes them all."""
        boxes = len(state.boxes - state.goals) if from_start else len(state.boxes)
        states = budget(boxes, int(max(0, min(self.stage_work, self.pass_left()))), self.clock.spare())
        key = (state.boxes, state.player)
        if states <= self.end_games_tried.get(key, 0):
            return None
        assert self.session is not None  # a stage ran before
        end, searched = finish(state, states, self.session.reverse, home, self.clock.deadline())
        self.clock.charge(searched)
        if end is None:  # searched in full, or cut short at its states: tried again with more
            self.end_games_tried[key] = states if searched >= states else math.inf
            return None
        self.outcome.end_game, self.outcome.end_game_from_start = len(state.boxes - state.goals), from_start
        if home is None:
            self.outcome.most_placed = len(state.goals)
        else:
            self.outcome.most_home = len(state.goals)
        self.progress(f"end game: the last {self.outcome.end_game} boxes by search ({self.clock.times()['total']:.2f} s)")
        return end

    def stage(self, state: Level, goal: StageGoal, start: int = 1) -> tuple[tuple[StagePlan, Level] | None, int, bool]:
        """A stage plan for ``goal`` (or None), the horizon below which no careless plan
        exists, and whether the plan is a careful one: first a careless try (any end state not
        known dead that keeps the goal order, ``keep_order``) for half the stage budget, then a
        careful one (``keep_live``, ``keep_fillable``) for the rest, whose plan is taken when it
        finds one. When the careless try finds no plan that keeps the order, a careless try
        without it takes the rest of the budget instead, from horizon 1 (the order's refutations
        do not hold for it), and no careful try follows (it keeps the order too). Horizons below
        ``start`` are known to have no careless plan. The careful try starts at the horizon
        where the careless one stopped: a careful plan is a careless one, so every shorter
        horizon is already refuted, as it is for the next end state tried from ``state``
        (``search``), which must also differ from this one. The last stage, whose plan ends the
        search, gets ``final_stage_times`` stage budgets: the last box often needs the longest
        plan, and a pass that fails there starts over."""
        began = self.clock.worked()
        work = self.stage_work * (self.schedule.final_stage_times if goal.need == len(state.goals) else 1)
        careless = self.try_stage(state, replace(goal, keep_order=True), work // 2, start)
        assert self.session is not None  # try_stage ran in it
        refuted_below = self.session.stopped_at
        careful = None
        if careless is None:  # none keeps the goal order (within the budget, or at all): one that breaks it
            careless = self.try_stage(state, goal, work - (self.clock.worked() - began), 1)
            refuted_below = self.session.stopped_at
            if careless is None and not self.session.ran_out:
                return None, refuted_below, False  # no plan at any horizon
        else:
            rest = work - (self.clock.worked() - began)
            careful = self.try_stage(state, replace(goal, keep_live=True, keep_fillable=True, keep_order=True), rest,
                                     refuted_below)
        found = careful or careless
        if found is not None:
            self.outcome.stages_solved += 1
            self.progress(f"stage {goal.need}: {found[0].describe()} ({self.clock.times()['total']:.2f} s)")
        return found, refuted_below, careful is not None

    def trapped(self, state: Level) -> bool:
        """Whether a careless stage's end state (one the careful try would have refused) is a
        trap, proven dead by a search (``traps.py``) of at most ``trap_share`` stage budgets, the
        work the pass has left, and what keeps all proofs within ``trap_time_share`` of the
        search's work (on many boxes a proof rarely ends)."""
        assert self.session is not None  # stage() ran in it
        traps = self.session.traps
        spare = self.schedule.trap_time_share * (self.clock.worked() - self.began) - traps.states
        if not traps.prove_dead(state, int(max(0.0, min(self.schedule.trap_share * self.stage_work, self.pass_left(), spare)))):
            return False
        self.outcome.traps += 1
        self.progress(f"staged: a careless end state with {len(state.boxes & state.goals)} boxes placed is a trap, proven dead")
        return True

    def try_stage(self, state: Level, goal: StageGoal, work: int, start: int) -> tuple[StagePlan, Level] | None:
        """One try at ``goal`` for at most ``work`` units (and the pass's), asking the
        horizons from ``start``."""
        clock = self.clock.within(int(max(0, min(work, self.pass_left()))))
        assert self.session is not None  # run() made it
        found = self.session.plan(state, goal, clock, start)
        self.clock.add(clock)
        self.cut_short |= self.session.ran_out
        return found


def solve_staged(level: Level, config: SolveConfig, families: tuple[str, ...], end_game: bool, clock: Clock,
                 progress: Progress) -> StagedOutcome:
    """Search for a plan stage by stage in ``families`` within the ``clock``'s work budget and
    time limit, ``end_game``: with the end game in Python. With several stage families, each
    keeps a search (and a clingo session) of its own, and they take turns pass by pass, so each
    family's stage budget grows as it would alone."""
    check_stage_families(families)
    searches = [StagedSearch(stage_config(config, family), clock, progress, end_game) for family in families]
    outcome = StagedOutcome(None)
    active = list(searches)
    while active and outcome.plan is None:
        for search in list(active):
            if search.clock.spare() <= 0 or search.finished:
                active.remove(search)
                continue
            outcome.plan = search.one_pass(level)
            if outcome.plan is not None:
                break
    outcome.stages_solved = sum(search.outcome.stages_solved for search in searches)
    sessions = [search.session for search in searches if search.session is not None]
    outcome.test_seconds = sum(session.test_seconds for session in sessions)
    outcome.traps = sum(search.outcome.traps for search in searches)
    outcome.end_game = max(search.outcome.end_game for search in searches)
    outcome.end_game_from_start = any(search.outcome.end_game_from_start for search in searches)
    forward = [search.outcome for search in searches if search.outcome.most_placed is not None]
    if forward:
        farthest = max(forward, key=lambda found: found.most_placed or 0)
        outcome.most_placed, outcome.farthest = farthest.most_placed, farthest.farthest
    backward = [search.outcome for search in searches if search.outcome.most_home is not None]
    if backward:
        nearest = max(backward, key=lambda found: found.most_home or 0)
        outcome.most_home, outcome.nearest_home = nearest.most_home, nearest.nearest_home
    return outcome
