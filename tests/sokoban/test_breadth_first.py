"""sokoasp.sokoban.breadth_first, the package's own breadth-first search over pushes (generator manifests,
benchmarks), against the independent oracle: its fewest pushes, and a plan with that many
pushes that the simulator replays to the goals."""

from __future__ import annotations

import pytest
from corpus import HAND_MADE, UNSOLVABLE, multi_box_corpus
from helpers import assert_replays, level_of
from oracle import bfs_pushes

from sokoasp.sokoban.breadth_first import fewest_pushes_until, optimal_pushes, push_optimum
from sokoasp.sokoban.pushes import Push, expand_pushes

LEVELS = {**HAND_MADE, **multi_box_corpus(6, seed=57)}


@pytest.mark.parametrize("name", sorted(LEVELS))
def test_the_fewest_pushes_and_a_plan_with_that_many(name: str) -> None:
    level = level_of(LEVELS[name])
    pushes = optimal_pushes(level)
    assert pushes is not None and len(pushes) == push_optimum(level) == bfs_pushes(LEVELS[name])
    plan = expand_pushes(level, [Push(box, delta) for box, delta in pushes])
    assert_replays(level, plan)
    assert sum(letter.isupper() for letter in plan) == len(pushes)


@pytest.mark.parametrize("name", sorted(UNSOLVABLE))
def test_an_unsolvable_level_has_no_plan(name: str) -> None:
    assert optimal_pushes(level_of(UNSOLVABLE[name])) is None


def test_a_search_past_its_budget_gives_up() -> None:
    level = level_of(LEVELS["two-boxes"])
    assert optimal_pushes(level, node_limit=2) is None and optimal_pushes(level) is not None


CORRIDOR = frozenset((x, 1) for x in range(1, 7))  # six squares in a row, a box on the second


def test_the_fewest_pushes_until_a_box_stands_on_a_square() -> None:
    end = fewest_pushes_until(CORRIDOR, frozenset({(2, 1)}), (1, 1), lambda boxes: (5, 1) in boxes, 100)
    assert end.pushes == [((2, 1), (1, 0)), ((3, 1), (1, 0)), ((4, 1), (1, 0))] and end.depth == 3


def test_a_search_never_enters_a_state_called_dead() -> None:
    asked: list[tuple[frozenset[tuple[int, int]], tuple[int, int], tuple[int, int]]] = []

    def dead(boxes: frozenset[tuple[int, int]], player: tuple[int, int], moved: tuple[int, int]) -> bool:
        asked.append((boxes, player, moved))
        return moved == (4, 1)

    end = fewest_pushes_until(CORRIDOR, frozenset({(2, 1)}), (1, 1), lambda boxes: (5, 1) in boxes, 100, dead=dead)
    assert end.pushes is None and end.states == 2  # the box on (4, 1) was never stored
    assert asked == [(frozenset({(3, 1)}), (2, 1), (3, 1)), (frozenset({(4, 1)}), (3, 1), (4, 1))]


def test_a_search_that_runs_out_of_states_tells_it_from_one_that_ran_out_of_budget() -> None:
    never = frozenset(CORRIDOR - {(4, 1)})  # boxes may not be pushed onto (4, 1)
    end = fewest_pushes_until(CORRIDOR, frozenset({(2, 1)}), (1, 1), lambda boxes: (5, 1) in boxes, 100, never)
    assert end.pushes is None and end.states == 2  # the start, and the box on (3, 1): every state searched
    end = fewest_pushes_until(CORRIDOR, frozenset({(2, 1)}), (1, 1), lambda boxes: (5, 1) in boxes, 1)
    assert end.pushes is None and end.states > 1 and end.depth == 0
