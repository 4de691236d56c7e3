"""The feature-space search (FESS-like) in Python: a plan exactly where the breadth-first oracle
finds one, replayed; unsolvable levels proven so by searching every live state; the same states
and plan on every run."""

from __future__ import annotations

import pytest
from corpus import multi_box_corpus
from helpers import assert_replays, level_of
from oracle import bfs_pushes
from test_boxsearch import unsolvable_corpus

from sokoasp.board.simulator import count_pushes
from sokoasp.sokoban.end_game import pushed_moves
from sokoasp.sokoban.feature_search import feature_search
from sokoasp.sokoban.push_search import Stop

CORPUS = multi_box_corpus(16, seed=76)
UNSOLVABLE = unsolvable_corpus(6, seed=76)


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_the_search_finds_a_plan_that_replays(name: str) -> None:
    level = level_of(CORPUS[name])
    found = feature_search(level, 100_000)
    assert found.stop is Stop.FOUND
    plan = pushed_moves(level, found.moves)
    assert_replays(level, plan)
    assert count_pushes(plan) >= bfs_pushes(CORPUS[name])


@pytest.mark.parametrize("name", sorted(UNSOLVABLE))
def test_an_unsolvable_level_is_proven_so(name: str) -> None:
    assert feature_search(level_of(UNSOLVABLE[name]), 100_000).stop is Stop.EXHAUSTED


def test_the_same_level_gives_the_same_search() -> None:
    level = level_of(CORPUS[sorted(CORPUS)[0]])
    first, second = feature_search(level, 100_000), feature_search(level, 100_000)
    assert (first.moves, first.states) == (second.moves, second.states)
