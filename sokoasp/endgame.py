"""The end game of forward staged solving (sokoasp/staged.py): once at most
``filling.JOINT_BOXES`` boxes are off the goals, a push search of their moves alone, the boxes
on goals as walls (``filling.fills_jointly``, the careful stages' own test, given more states),
may fill the empty goals at once, where the last stages, the longest of a staged search, would
each ask clingo for one more box (Microban 143: its last stage needed 12 slides).

Not ASP: the moves come from a best-first search in Python, and the result says how many boxes
it placed. Sound: the pushes are expanded to moves and replayed with the stage plans before
them (``driver.validate``). INCOMPLETE, like the stages: when the search fails (a box on a goal
must move, or it meets ``END_GAME_STATES`` states or its deadline), the stages go on as before.
"""

from __future__ import annotations

from .filling import fills_jointly
from .level import Level
from .plans import Push, expand_pushes

END_GAME_STATES = 50_000  # the search gives up after this many states (the careful test: filling.JOINT_STATES)


def finish(state: Level, deadline: float) -> str | None:
    """The moves that put every box of ``state`` on a goal without moving the boxes already on
    goals, or None when it has more than ``filling.JOINT_BOXES`` boxes off the goals, or the
    search finds none (in ``END_GAME_STATES`` states, before ``deadline`` on the clock
    ``time.perf_counter``)."""
    path: list[tuple[tuple[int, int], tuple[int, int]]] = []
    if not state.boxes - state.goals or fills_jointly(state, False, END_GAME_STATES, deadline, path) is not True:
        return None
    return expand_pushes(state, [Push(box, (to[0] - box[0], to[1] - box[1])) for box, to in path])
