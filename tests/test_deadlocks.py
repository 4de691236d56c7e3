"""Corral and group deadlocks (sokoasp/deadlocks.py): every fence or group of boxes the tests
report is a real deadlock (no push sequence from the state puts every box on a goal, by the
breadth-first oracle), in both directions, and the tests find some that the lone-box tests
pass."""

from __future__ import annotations

import pytest
from corpus import multi_box_corpus
from helpers import level_of
from oracle import parse, push_closure
from test_filling import reachable_pull_states

from sokoasp.analysis import dead_squares
from sokoasp.deadlocks import dead_fence, dead_group
from sokoasp.level import Level
from sokoasp.staged import StageEnds, StageGoal, boxes_nogood, state_nogood

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


def corpus_states(pulls: bool) -> list[Level]:
    """Every state reachable on the corpus levels (``pulls``: by pulls, on the first twelve)."""
    names = sorted(CORPUS)[:12] if pulls else sorted(CORPUS)
    return [state for name in names for state in (reachable_pull_states if pulls else every_state)(CORPUS[name])]


@pytest.mark.parametrize("pulls", [False, True])
def test_every_fence_found_is_a_deadlock(pulls: bool) -> None:
    fenced = [state for state in corpus_states(pulls) if dead_fence(state, pulls) is not None]
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


@pytest.mark.parametrize("pulls", [False, True])
def test_every_group_found_is_a_deadlock_and_some_pass_the_other_tests(pulls: bool) -> None:
    grouped = [state for state in corpus_states(pulls) if dead_group(state, pulls) is not None]
    assert len(grouped) >= (200 if pulls else 5000)
    assert not any(solvable(state, pulls) for state in grouped)
    missed = [state for state in grouped if dead_fence(state, pulls) is None and not state.boxes & dead_squares(state)]
    assert len(missed) >= (50 if pulls else 500)  # no fence, no box on a dead square


# The two boxes against the top wall can only be pushed along it, and the one goal there is
# the only goal either can reach: each alone can, both cannot, though no box stands on a dead
# square, none is frozen and no floor is fenced off.
FACING = """\
#########
#  $.$  #
#   @   #
#.   $ .#
#########
"""


def test_two_boxes_that_need_the_same_goal_are_a_group_deadlock_and_its_nogood_holds_them_alone() -> None:
    level = level_of(FACING)
    assert not level.boxes & dead_squares(level) and dead_fence(level) is None
    assert dead_group(level) == ({(3, 1), (5, 1)}, None)  # dead wherever the player stands
    moved = dead_group(level, moved=frozenset({(5, 3)}))  # only groups holding a box that moved:
    assert moved is not None and (5, 3) in moved[0]  # the pair with the third box, which stands near
    assert not solvable(level)
    before = level_of(FACING.replace("#  $.$  #", "#  $. $ #"))  # the stage pushed the right box left
    ends = StageEnds(before, StageGoal(1), reverse=False)
    ends.horizon = 2
    assert ends.nogoods(level) == [boxes_nogood(frozenset({(3, 1), (5, 1)}), 2, None)]  # not the third box
    one_left = level_of(FACING.replace("#  $.$  #", "#  $.   #").replace("#.   $ .#", "#. $  $.#"))
    assert dead_group(one_left) is None and solvable(one_left)


def test_a_group_dead_from_some_sides_only_names_the_squares_it_is_dead_from() -> None:
    """Taken alone, the group cannot be finished with the player on those squares (the state's
    own among them), and can with the player on any other free square (by the oracle)."""
    checked = 0
    for name in sorted(CORPUS):
        for state in every_state(CORPUS[name]):
            group = dead_group(state)
            if group is None or group[1] is None:
                continue
            boxes, players = group
            assert state.player in players
            for cell in sorted(state.floor - boxes):
                assert solvable_alone(state, boxes, cell) is (cell not in players)
            checked += 1
            if checked == 40:
                return
    pytest.fail(f"only {checked} groups dead from some sides only")


def solvable_alone(state: Level, boxes: frozenset, player: tuple[int, int]) -> bool:
    """The oracle: with only ``boxes`` on the board and the player on ``player``, some push
    sequence puts each of them on a goal."""
    closure = push_closure(set(state.floor), boxes, player)
    return any(placement <= state.goals for placement, _ in closure)
