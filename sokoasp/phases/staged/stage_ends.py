"""What one stage of staged solving (sokoasp/phases/staged/search.py) asks for and which end states it takes:
the goal (``StageGoal``), the plan of a stage (``StagePlan``), and the test of every model's
end state (``StageEnds``), which turns the dead and the unwanted away with nogoods on the
literals of the end state, valid for one solve call."""

from __future__ import annotations

import time
from dataclasses import dataclass

import clingo

from sokoasp.asp.models import PlanExtractor, extract_plan, route_steps
from sokoasp.board.level import Cell, Level
from sokoasp.board.simulator import replay
from sokoasp.sokoban.breadth_first import player_region
from sokoasp.sokoban.deadlocks import dead_fence, dead_freeze, dead_group
from sokoasp.sokoban.push_search import each_box_reaches_a_goal, fills_jointly
from sokoasp.sokoban.pushes import StagePlan
from sokoasp.sokoban.traps import Traps


@dataclass(frozen=True)
class StageGoal:
    """What one stage asks for: at least ``need`` boxes on goals, in none of the ``avoid``
    states (same boxes, player in the same region), with a filled-goal set unlike each of
    ``other_than``; ``keep_live`` switches subgoal-live.lp on (every other box can still reach a
    free goal); ``keep_fillable`` takes only end states that pass ``push_search.fillable`` (the
    empty goals can be filled around the full ones); ``keep_order`` switches subgoal-order.lp
    on (no goal filled while a goal it shuts out is empty, ``push_search.GoalOrder``)."""

    need: int
    avoid: tuple[Level, ...] = ()
    other_than: tuple[Level, ...] = ()
    keep_live: bool = False
    keep_fillable: bool = False
    keep_order: bool = False
    player_anywhere: bool = False  # backwards, the first stage: the player may start on any free square


def atom(name: str, cell: tuple[int, int], horizon: int) -> clingo.Symbol:
    return clingo.Function(name, [clingo.Number(cell[0]), clingo.Number(cell[1]), clingo.Number(horizon)])


def filled_goals_nogood(end: Level, horizon: int) -> list[tuple[clingo.Symbol, bool]]:
    """The literals of ending at ``horizon`` with the goals filled as in ``end``."""
    return [(atom("box", goal, horizon), goal in end.boxes) for goal in sorted(end.goals)]


def state_nogood(end: Level, horizon: int, boxes: frozenset[Cell] | None = None) -> list[tuple[clingo.Symbol, bool]]:
    """The literals of ending at ``horizon`` in ``end``: its boxes (or just ``boxes`` of them,
    wherever the others are), the player in its region."""
    return boxes_nogood(end.boxes if boxes is None else boxes, horizon, end.player)


def boxes_nogood(boxes: frozenset[Cell], horizon: int, player: Cell | None) -> list[tuple[clingo.Symbol, bool]]:
    """The literals of ending at ``horizon`` with boxes on ``boxes``, wherever the others are,
    and the player able to walk to ``player`` (None: anywhere)."""
    side = [] if player is None else [(atom("region", player, horizon), True)]
    return [(atom("box", box, horizon), True) for box in sorted(boxes)] + side


def filled(state: Level) -> frozenset[tuple[int, int]]:
    return state.goals & state.boxes


def read_stage(state: Level, symbols: list[clingo.Symbol], reverse: bool) -> tuple[StagePlan, Level]:
    """A stage model's plan and the state it ends in. Backwards, ``state`` is the level turned
    round (``turned_round``) and the routes are pulls."""
    if not reverse:
        moves = extract_plan(state, symbols, "push")
        return StagePlan(moves=moves), state_after(state, moves)
    routes = tuple(route_steps(symbols))
    boxes, player = set(state.boxes), state.player
    for lift, drop, stand in routes:
        boxes.remove(lift)
        boxes.add(drop)
        player = stand if stand is not None else player
    return StagePlan(routes=routes), Level(state.floor, frozenset(boxes), state.goals, player, state.title)


class StageEnds(PlanExtractor):
    """Keeps the first model whose end state ``goal`` allows. For every other one it adds
    nogoods, valid for this solve call, and lets clingo go on to the next model: against the
    boxes of a group or corral deadlock (``deadlocks.dead_group``, ``deadlocks.dead_fence``, in
    every try: no plan exists from there) wherever the other boxes stand; forwards, against
    frozen boxes with the squares they leave too few boxes on for some goals
    (``deadlocks.dead_freeze``); against the exact state for an ``avoid`` state or for boxes
    that block each other where they stand (``push_search.fills_jointly``), else against the set
    of filled goals (a filled-goal set some box cannot get round mostly fails wherever the
    other boxes stand)."""

    def __init__(self, state: Level, goal: StageGoal, reverse: bool, traps: Traps | None = None) -> None:
        super().__init__()
        self.state, self.goal, self.reverse, self.traps = state, goal, reverse, traps
        self.horizon = 0
        self.kept: tuple[StagePlan, Level] | None = None  # the plan of the model kept, and its end state
        self.seconds = 0.0  # spent reading and testing end states (clasp waits meanwhile)

    def on_model(self, model: clingo.Model) -> bool:
        began = time.perf_counter()
        go_on = self.test(model)
        self.seconds += time.perf_counter() - began
        return go_on

    def test(self, model: clingo.Model) -> bool:
        """Keep the model (False: stop) or turn its end state away with nogoods (True: go on)."""
        symbols = list(model.symbols(shown=True))
        plan, end = read_stage(self.state, symbols, self.reverse)
        nogoods = self.nogoods(end, plan.moved_onto(self.state))
        if not nogoods:
            self.symbols, self.found, self.kept = symbols, True, (plan, end)
            return False
        for nogood in nogoods:
            model.context.add_nogood(nogood)
        return True

    def nogoods(self, end: Level, moved_onto: frozenset[Cell]) -> list[list[tuple[clingo.Symbol, bool]]]:
        """The nogoods that turn ``end`` away, or none to keep it. ``moved_onto``: the squares
        the stage's plan moved a box onto; a group of boxes none of which moved stood there with
        the player on its side at the stage's start, and was tested then."""
        moved = None if self.goal.player_anywhere else end.boxes & moved_onto
        group = dead_group(end, pulls=self.reverse, moved=moved)
        if group is not None:  # those boxes alone, with the player on a side where they are dead
            boxes, players = group
            if players is None:
                return [boxes_nogood(boxes, self.horizon, None)]
            return [boxes_nogood(boxes, self.horizon, cell) for cell in sorted(players)]
        frozen = None if self.reverse else dead_freeze(end)
        if frozen is not None:  # those boxes, and none on the empty squares
            boxes, empty = frozen
            empty_squares = [(atom("box", cell, self.horizon), False) for cell in sorted(empty)]
            return [boxes_nogood(boxes, self.horizon, None) + empty_squares]
        nogood = self.nogood(end)
        return [] if nogood is None else [nogood]

    def nogood(self, end: Level) -> list[tuple[clingo.Symbol, bool]] | None:
        fence = dead_fence(end, pulls=self.reverse)
        if fence is not None:
            return state_nogood(end, self.horizon, fence)  # the fence's boxes alone: no plan from any such state
        if self.traps is not None and self.traps.known_dead(end):
            return state_nogood(end, self.horizon)
        if self.goal.avoid:
            region = player_region(end.floor, end.boxes, end.player)
            if any(end.boxes == other.boxes and other.player in region for other in self.goal.avoid):
                return state_nogood(end, self.horizon)
        if any(filled(end) == filled(other) for other in self.goal.other_than):
            return filled_goals_nogood(end, self.horizon)
        if self.goal.keep_fillable and not each_box_reaches_a_goal(end, pulls=self.reverse):
            return filled_goals_nogood(end, self.horizon)
        joint = fills_jointly(end, pulls=self.reverse) if self.goal.keep_fillable else None
        if joint is not None and joint.answer is False:
            return state_nogood(end, self.horizon)  # the boxes off the goals block each other where they stand
        return None


def state_after(state: Level, plan: str) -> Level:
    check = replay(state, plan)
    if check.steps_done != len(plan):
        raise RuntimeError(f"a stage plan failed replay: {check.problem}")
    return Level(state.floor, check.boxes, state.goals, check.player, state.title)
