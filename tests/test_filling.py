"""The fillable test of staged solving (sokoasp/filling.py) is a relaxation: it passes every
state whose empty goals can be filled by pushes that leave the boxes on goals where they are
(checked by a breadth-first search over pushes with those boxes as walls), and it rejects
states that cannot."""

from __future__ import annotations

import pytest
from corpus import multi_box_corpus
from helpers import level_of
from oracle import fills_around, parse, push_closure

from sokoasp.filling import fillable
from sokoasp.level import Level

CORPUS = multi_box_corpus(24, seed=11)


def reachable_states(text: str) -> list[Level]:
    """Every state reachable by pushing (one per placement and player region) with a box on a
    goal and one off, built from the oracle's own parse."""
    floor, boxes, goals, player = parse(text)
    states = [Level(frozenset(floor), placement, goals, cell)
              for (placement, _), cell in push_closure(floor, boxes, player).items()]
    return [state for state in states if state.boxes & state.goals and state.boxes - state.goals]


def fills(state: Level) -> bool:
    return fills_around(set(state.floor), state.boxes, state.goals, state.player)


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_fillable_passes_every_state_whose_empty_goals_can_be_filled_around_the_full_ones(name: str) -> None:
    for state in reachable_states(CORPUS[name]):
        if fills(state):
            assert fillable(state), sorted(state.boxes)


def test_fillable_rejects_states_that_cannot_be_filled_around_the_full_ones() -> None:
    rejected = [state for text in CORPUS.values() for state in reachable_states(text) if not fillable(state)]
    assert len(rejected) > 100
    assert not any(fills(state) for state in rejected[::10])


SEALED = """\
#######
#.*   #
###$  #
  #  @#
  #####
"""


def test_a_goal_behind_a_filled_entrance_goal_fails() -> None:
    sealed = level_of(SEALED)
    assert not fillable(sealed) and not fills(sealed)
    opened = level_of(SEALED.replace(".*", "*."))
    assert fillable(opened)


def test_a_box_that_needs_the_player_on_a_filled_goal_fails() -> None:
    """The box can only go up, pushed from the square below it: there is a filled goal."""
    stuck = level_of("#####\n#.  #\n#$  #\n#* @#\n#####\n")
    assert not fillable(stuck) and not fills(stuck)
    assert fillable(level_of("#####\n#.  #\n#$ *#\n#  @#\n#####\n"))
