"""The A* over pushes against the breadth-first push optimum: the plan it finds has exactly the
fewest pushes, a search below the optimum runs out (a proof), and a search cut short by its
state budget claims no lower bound above the optimum."""

from __future__ import annotations

import pytest
from corpus import HAND_MADE, UNSOLVABLE, multi_box_corpus, random_corpus
from helpers import level_of
from oracle import bfs_pushes

from sokoasp.board.simulator import count_pushes, replay
from sokoasp.sokoban.analysis import INFINITY
from sokoasp.sokoban.push_optimal import fewest_pushes
from sokoasp.sokoban.push_search import Stop
from sokoasp.sokoban.pushes import expand_pushes

LEVELS = HAND_MADE | random_corpus(30, seed=7) | multi_box_corpus(30, seed=11)


@pytest.mark.parametrize("name", sorted(LEVELS))
def test_the_plan_found_has_the_fewest_pushes_and_below_them_the_search_runs_out(name: str) -> None:
    text = LEVELS[name]
    level, optimum = level_of(text), bfs_pushes(text)
    assert optimum is not None
    found = fewest_pushes(level, INFINITY, 100_000)
    assert found.stop is Stop.FOUND and len(found.pushes) == found.lower_bound == optimum
    plan = expand_pushes(level, list(found.pushes))
    assert replay(level, plan).ok and count_pushes(plan) == optimum
    below = fewest_pushes(level, optimum, 100_000)
    assert below.stop is Stop.EXHAUSTED and below.lower_bound == optimum and below.pushes == ()


@pytest.mark.parametrize("name", sorted(UNSOLVABLE))
def test_an_unsolvable_level_is_exhausted(name: str) -> None:
    assert fewest_pushes(level_of(UNSOLVABLE[name]), INFINITY, 100_000).stop is Stop.EXHAUSTED


@pytest.mark.parametrize("name", sorted(multi_box_corpus(30, seed=11)))
def test_a_search_cut_short_claims_no_bound_above_the_optimum(name: str) -> None:
    text = LEVELS[name]
    optimum = bfs_pushes(text)
    for budget in (1, 3, 10):
        cut = fewest_pushes(level_of(text), INFINITY, budget)
        assert cut.lower_bound <= optimum  # type: ignore[operator]
        assert cut.stop is Stop.FOUND or cut.stop is Stop.STATE_LIMIT and cut.states == budget
