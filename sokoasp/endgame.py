"""The end game of staged solving (sokoasp/staged.py): once at most ``filling.JOINT_BOXES``
boxes are off the goals, a push search of their moves alone, the boxes on goals as walls
(``filling.fills_jointly``, the careful stages' own test, given more states), may fill the
empty goals at once, where the last stages, the longest of a staged search, would each ask
clingo for one more box. Backwards (pull-route stages, the level turned round) the boxes are
pulled onto the free start squares and the player must end able to walk home; each pull
becomes a route of one pull.

Not ASP: the moves come from a best-first search in Python, and the result says how many boxes
it placed. Sound: the joined plan is replayed from the start (``driver.validate``). INCOMPLETE,
like the stages: when the search fails (a box on a goal must move, or it meets
``END_GAME_STATES`` states or its deadline), the stages go on as before.
"""

from __future__ import annotations

from .filling import fills_jointly
from .level import Cell, Level
from .plans import Push, expand_pushes
from .stage_ends import StagePlan

END_GAME_STATES = 50_000  # the search gives up after this many states (the careful test: filling.JOINT_STATES)


def finish(state: Level, deadline: float, reverse: bool = False, home: Cell | None = None) -> StagePlan | None:
    """The plan that puts every box of ``state`` on a goal without moving the boxes already on
    goals (``reverse``: by pulls, the player ending where it can walk to ``home``), or None
    when it has more than ``filling.JOINT_BOXES`` boxes off the goals, or the search finds
    none (in ``END_GAME_STATES`` states, before ``deadline`` on the clock
    ``time.perf_counter``)."""
    path: list[tuple[Cell, Cell]] = []
    if not state.boxes - state.goals or fills_jointly(state, reverse, END_GAME_STATES, deadline, path, home) is not True:
        return None
    if reverse:
        return StagePlan(routes=tuple((box, to, (2 * to[0] - box[0], 2 * to[1] - box[1])) for box, to in path))
    return StagePlan(moves=expand_pushes(state, [Push(box, (to[0] - box[0], to[1] - box[1])) for box, to in path]))
