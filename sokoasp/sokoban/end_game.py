"""The end game of staged solving: once at most ``END_GAME_BOXES`` boxes are off the goals, a
search in Python may finish the plan at once, where the last stages would each ask clingo for one
more box. Two best-first searches (``push_search.push_search``), nearest to the goals first: the
boxes off the goals alone, those on goals as walls (``fills_jointly`` with more states); and when
that proves that a box on a goal must move, every box, states with a dead group or a frozen box
off the goals cut (``traps.Traps.deadlocked``). Backwards (pull-route stages) the boxes are pulled
onto the start squares and the player must end able to walk home.

Not ASP: the result says how many boxes were off the goals when it took over. INCOMPLETE: when
both searches fail within their states (``budget``), the stages go on. Every plan is replayed by
the pipeline."""

from __future__ import annotations

import math
from typing import NamedTuple

from sokoasp.board.level import Cell, Level
from sokoasp.sokoban.push_search import (
    MatchingGuide,
    Moves,
    SearchLimits,
    SearchOutcome,
    Stop,
    Target,
    fills_jointly,
    push_search,
    stand_after,
)
from sokoasp.sokoban.pushes import Push, StagePlan, expand_pushes
from sokoasp.sokoban.traps import Traps

END_GAME_BOXES = 5  # the end game searches when at most this many boxes are off the goals
END_GAME_STATES = 50_000  # each search gives up after this many states (the careful test: push_search.JOINT_STATES)
FEW_BOXES_SHARE = 0.8  # a level the end game takes whole: its search of every box may take this share of the time left
FEW_BOXES_STATES = 500_000  # ... and this many states (a few-box level's whole search needs over 100,000)


def budget(boxes: int, stage_states: int, stages_left: float) -> int:
    """The states of an end game on a level of ``boxes`` boxes: a stage's work, at most
    ``END_GAME_STATES``; on a level the end game takes whole (at most ``END_GAME_BOXES`` boxes),
    where the search of every box is all that is left to do, ``FEW_BOXES_SHARE`` of the stages'
    work left (if that is more), at most ``FEW_BOXES_STATES``: cut at a stage's work, its tries
    would start over from each new state and find nothing."""
    if boxes > END_GAME_BOXES:
        return min(stage_states, END_GAME_STATES)
    return int(min(max(stage_states, FEW_BOXES_SHARE * stages_left), FEW_BOXES_STATES))


class Finish(NamedTuple):
    """An end game's plan (None: none found) and the states its searches took up."""

    plan: StagePlan | None
    states: int


def finish(state: Level, states: int, reverse: bool = False, home: Cell | None = None,
           deadline: float = math.inf) -> Finish:
    """The plan that puts every box of ``state`` on a goal (``reverse``: by pulls, the player
    ending where it can walk to ``home``), leaving the boxes on goals in place where it can; or
    None when more than ``END_GAME_BOXES`` boxes are off the goals, or the searches find none
    (the first in ``END_GAME_STATES`` states, the search of every box in ``states``, both before
    ``deadline`` on the clock ``time.perf_counter``; the second runs when the first proves that a
    box on a goal must move, or, with no box on a goal, when the first meets its state limit)."""
    off = state.boxes - state.goals
    if not off or len(off) > END_GAME_BOXES:
        return Finish(None, 0)
    found = fills_jointly(state, reverse, min(END_GAME_STATES, states), deadline, home, END_GAME_BOXES)
    assert found is not None  # at most END_GAME_BOXES boxes are off the goals
    searched = found.states
    # with no box on a goal (from the start) the first search is the second without its prune, cut at
    # END_GAME_STATES: where it meets that limit, the second goes on
    if found.stop is Stop.EXHAUSTED or (found.stop is Stop.STATE_LIMIT and not state.boxes & state.goals):
        found = moving_every_box(state, deadline, reverse, home, states)
        searched += found.states
    if found.stop is not Stop.FOUND:
        return Finish(None, searched)
    if reverse:
        return Finish(StagePlan(routes=tuple((box, to, stand_after(box, to, pulls=True)) for box, to in found.moves)),
                      searched)
    return Finish(StagePlan(moves=pushed_moves(state, found.moves)), searched)


def pushed_moves(state: Level, path: Moves | list[tuple[Cell, Cell]]) -> str:
    """The moves (walks and pushes) of ``path``'s pushes (box square before, after) from ``state``."""
    return expand_pushes(state, [Push(box, (to[0] - box[0], to[1] - box[1])) for box, to in path])


def moving_every_box(state: Level, deadline: float, reverse: bool, home: Cell | None, states: int = END_GAME_STATES,
                     matching: bool = False) -> SearchOutcome:
    """``push_search.push_search`` over every box of ``state``, deadlocked states cut, nearest to the
    goals first (``matching``: in the order of the cheapest box-goal matching,
    ``push_search.MatchingGuide``), only the pushes into a PI-corral where one stands: the pushes
    (``reverse``: pulls) that put a box on every goal, if it finds them within ``states`` and
    ``deadline``."""
    traps = Traps(state, reverse)
    if any(box not in traps.distance for box in state.boxes):
        return SearchOutcome(Stop.EXHAUSTED)  # a box on a dead square
    guide = MatchingGuide(state.floor, state.goals, reverse) if matching else None
    return push_search(state.floor, state.boxes, state.player, traps.distance, Target(state.goals, home=home), reverse,
                       SearchLimits(states, deadline, traps.deadlocked, guide=guide, corrals=True))
