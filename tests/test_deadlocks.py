"""Corral deadlocks (sokoasp/deadlocks.py): every fence the test reports is a real deadlock
(no push sequence from the state puts every box on a goal, by the breadth-first oracle), in
both directions, and the test finds some that the lone-box tests pass."""

from __future__ import annotations

import pytest
from corpus import multi_box_corpus
from helpers import level_of
from oracle import parse, push_closure
from test_filling import reachable_pull_states

from sokoasp.analysis import dead_squares
from sokoasp.deadlocks import dead_fence
from sokoasp.level import Level
from sokoasp.staged import StageEnds, StageGoal, state_nogood

CORPUS = multi_box_corpus(24, seed=11)

# Three boxes round the pocket in the left corner: none is on a dead square or frozen, yet
# none can move except into the pocket's corner.
POCKET = """\
#######
#..   #
#    @#
##$   #
## $  #
## $ .#
#######
"""


def every_state(text: str) -> list[Level]:
    floor, boxes, goals, player = parse(text)
    return [Level(frozenset(floor), placement, goals, cell)
            for (placement, _), cell in push_closure(floor, boxes, player).items()]


def solvable(state: Level, pulls: bool = False) -> bool:
    """The oracle: some push (``pulls``: pull) sequence puts every box on a goal."""
    closure = push_closure(set(state.floor), state.boxes, state.player, pulls=pulls)
    return any(placement == state.goals for placement, _ in closure)


def test_three_boxes_round_a_pocket_are_a_deadlock_the_static_tests_miss() -> None:
    level = level_of(POCKET)
    assert not level.boxes & dead_squares(level)
    assert dead_fence(level) == {(2, 3), (3, 4), (3, 5)}
    assert not solvable(level)
    opened = level_of(POCKET.replace("## $ .#", "##   .#").replace("#..   #", "#.    #"))
    assert dead_fence(opened) is None and solvable(opened)


@pytest.mark.parametrize("pulls", [False, True])
def test_every_fence_found_is_a_deadlock(pulls: bool) -> None:
    names = sorted(CORPUS)[:12] if pulls else sorted(CORPUS)
    states = [state for name in names for state in (reachable_pull_states if pulls else every_state)(CORPUS[name])]
    fenced = [state for state in states if dead_fence(state, pulls) is not None]
    assert len(fenced) >= (30 if pulls else 500)
    assert not any(solvable(state, pulls) for state in fenced)
    assert sum(not state.boxes & dead_squares(state) for state in fenced) >= (0 if pulls else 100)  # no box on a dead square


def test_a_stage_turns_away_an_end_state_with_a_dead_fence_wherever_the_other_boxes_are() -> None:
    level = level_of(POCKET.replace("#..   #", "#.. . #").replace("#    @#", "#   $@#"))
    ends = StageEnds(level, StageGoal(1), reverse=False)
    ends.horizon = 4
    nogood = ends.nogood(level)
    assert nogood == state_nogood(level, 4, frozenset({(2, 3), (3, 4), (3, 5)}))
    assert nogood is not None and len(nogood) == 4  # the fence's three boxes and the player's side, not the fourth box
