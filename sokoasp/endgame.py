"""The end game of staged solving (sokoasp/staged.py): once at most ``END_GAME_BOXES`` boxes
are off the goals, a search in Python may finish the plan at once, where the last stages, the
longest of a staged search, would each ask clingo for one more box. Two best-first searches
(``filling.push_search``), nearest to the goals first:

- the boxes off the goals alone, those on goals as walls (``filling.fills_jointly``, the
  careful stages' own test, given more states);
- when that one proves that a box on a goal must move (Microban 143: the last box turns round
  in a room whose goals are filled), every box, states with a dead group or a frozen box off
  the goals cut (``traps.Traps.deadlocked``).

Backwards (pull-route stages, the level turned round) the boxes are pulled onto the start
squares and the player must end able to walk home; each pull becomes a route of one pull.

Not ASP: the moves come from a search in Python, and the result says how many boxes were off
the goals when it took over. Sound: the joined plan is replayed from the start
(``driver.validate``). INCOMPLETE, like the stages: when both searches fail (each within
``END_GAME_STATES`` states and the deadline), the stages go on as before.
"""

from __future__ import annotations

from .filling import fills_jointly, push_search
from .level import Cell, Level
from .plans import Push, expand_pushes
from .stage_ends import StagePlan
from .traps import Traps

END_GAME_BOXES = 5  # the end game searches when at most this many boxes are off the goals
END_GAME_STATES = 50_000  # each search gives up after this many states (the careful test: filling.JOINT_STATES)


def finish(state: Level, deadline: float, reverse: bool = False, home: Cell | None = None) -> StagePlan | None:
    """The plan that puts every box of ``state`` on a goal (``reverse``: by pulls, the player
    ending where it can walk to ``home``), leaving the boxes on goals in place where it can; or
    None when more than ``END_GAME_BOXES`` boxes are off the goals, or the searches find none
    (each in ``END_GAME_STATES`` states, before ``deadline`` on the clock ``time.perf_counter``)."""
    off = state.boxes - state.goals
    if not off or len(off) > END_GAME_BOXES:
        return None
    path: list[tuple[Cell, Cell]] = []
    found = fills_jointly(state, reverse, END_GAME_STATES, deadline, path, home, END_GAME_BOXES)
    if found is False:
        found = moving_every_box(state, deadline, reverse, path, home)
    if found is not True:
        return None
    if reverse:
        return StagePlan(routes=tuple((box, to, (2 * to[0] - box[0], 2 * to[1] - box[1])) for box, to in path))
    return StagePlan(moves=expand_pushes(state, [Push(box, (to[0] - box[0], to[1] - box[1])) for box, to in path]))


def moving_every_box(state: Level, deadline: float, reverse: bool, path: list[tuple[Cell, Cell]],
                     home: Cell | None) -> bool | None:
    """``filling.push_search`` over every box of ``state``, deadlocked states cut: whether some
    pushes (``reverse``: pulls) put a box on every goal; None when cut short."""
    traps = Traps(state, reverse)
    if any(box not in traps.distance for box in state.boxes):
        return False  # a box on a dead square
    return push_search(state.floor, state.boxes, state.player, traps.distance, state.goals, reverse, END_GAME_STATES,
                       deadline=deadline, prune=traps.deadlocked, path=path, home=home)
