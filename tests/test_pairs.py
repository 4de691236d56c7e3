"""Two-box deadlocks (sokoasp/pairs.py, the pairs strategy): the table against a forward
search of each two-box problem, and the strategy against breadth-first push optima."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus import multi_box_corpus
from helpers import assert_replays, level_of
from oracle import bfs_pushes

from sokoasp import SolveConfig, Status, solve
from sokoasp.analysis import lone_box_distances
from sokoasp.deadlocks import cannot_all_reach_goals
from sokoasp.level import DIRECTIONS, Level, add
from sokoasp.loading import load_level
from sokoasp.pairs import PairSides, pair_table, relevant_pairs

MICROBAN = Path(__file__).resolve().parents[2] / "shared" / "levels" / "microban_i.sok"
needs_shared = pytest.mark.skipif(not MICROBAN.exists(), reason="needs ../shared/levels")


def check_against_forward_search(level: Level) -> tuple[int, int]:
    """For each relevant pair of live squares and each side of it that touches a box, whether
    the table calls it dead must match a forward search of the two boxes alone (the player on
    that side). Returns how many sides the table calls dead: for all of a pair's sides, for
    some of them."""
    table = pair_table(level)
    sides = PairSides(level.floor)
    live = lone_box_distances(level.floor, level.goals)
    for a, b in relevant_pairs(level):
        if a not in live or b not in live:
            continue
        near = {add(box, delta) for box in (a, b) for delta in DIRECTIONS.values()} & level.floor - {a, b}
        for side in sides.of((a, b)):
            touching = {cell for cell in near if side & sides.board.bit(cell)}
            if touching:
                said = (a, b) in table.dead or touching <= table.dead_sides.get((a, b), frozenset())
                truth = cannot_all_reach_goals(level.floor, level.goals, frozenset({a, b}), min(touching), False, 10**6)
                assert said == truth, (a, b, min(touching), said, truth)
    return len(table.dead), len(table.dead_sides)


def test_the_table_agrees_with_a_forward_search_of_each_two_box_problem() -> None:
    dead, one_sided = 0, 0
    for text in multi_box_corpus(12, seed=5).values():
        counts = check_against_forward_search(level_of(text))
        dead, one_sided = dead + counts[0], one_sided + counts[1]
    assert dead > 0 and one_sided > 0  # both kinds were checked


@needs_shared
@pytest.mark.parametrize("number", ["3", "17", "40"])
def test_the_table_agrees_with_a_forward_search_on_microban(number: str) -> None:
    check_against_forward_search(load_level(MICROBAN, number).level)


def test_two_boxes_that_need_the_same_goal_are_dead_though_neither_is_frozen() -> None:
    """Two boxes in a dead-end corridor whose one goal is at its end: each can reach it alone."""
    table = pair_table(level_of("########\n#@ $ $.#\n#  #####\n#.##\n####\n"))
    assert ((3, 1), (5, 1)) in table.dead


def test_a_dead_pair_at_the_start_proves_the_level_unsolvable() -> None:
    """Each box alone could reach a goal, but the player cannot get past the first to the second."""
    text = "########\n#@$$ ..#\n########\n"
    result = solve(level_of(text), SolveConfig(encoding="push", max_horizon=10))
    assert result.status is Status.UNSOLVABLE and "(2, 1) and (3, 1)" in result.message
    assert bfs_pushes(text) is None


@pytest.mark.parametrize("name,text", sorted(multi_box_corpus(16, seed=23).items()))
def test_the_push_optimum_is_kept(name: str, text: str) -> None:
    level = level_of(text)
    result = solve(level, SolveConfig(encoding="push", strategies=("dead", "freeze", "bound", "pairs"), max_horizon=20))
    assert result.status is Status.SOLVED_OPTIMAL and result.pushes == bfs_pushes(text), name
    assert_replays(level, result.plan)
