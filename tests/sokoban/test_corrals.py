"""PI-corral pruning against breadth-first search: a push search that tries only the pushes into a
PI-corral finds a plan exactly when one exists, the A* with the cut still finds the fewest
pushes, and the cut does cut (fewer states on levels with corrals)."""

from __future__ import annotations

import random

import pytest
from corpus import random_level
from helpers import level_of
from oracle import bfs_pushes

from sokoasp.board.level import Level
from sokoasp.sokoban.analysis import INFINITY, lone_box_distances
from sokoasp.sokoban.bitboard import board_of, floor_mask
from sokoasp.sokoban.corrals import pi_corral
from sokoasp.sokoban.push_optimal import fewest_pushes
from sokoasp.sokoban.push_search import SearchLimits, Stop, Target, push_search


def corpus(count: int, seed: int) -> list[tuple[str, int | None]]:
    """Random 2-4 box levels with inner walls, no box on a dead square, and their push optimum
    (None: unsolvable): ``count`` solvable ones, then as many unsolvable."""
    rng = random.Random(seed)
    found: dict[bool, list[tuple[str, int | None]]] = {True: [], False: []}
    while len(found[False]) < count:
        width, height, boxes = rng.choice([(5, 4, 2), (5, 5, 3), (6, 4, 3), (6, 5, 3), (5, 5, 4)])
        text = random_level(rng, width, height, boxes)
        if text is None:
            continue
        level = level_of(text)
        if any(box not in lone_box_distances(level.floor, level.goals) for box in level.boxes):
            continue
        try:
            optimum = bfs_pushes(text, limit=30_000)
        except RuntimeError:
            continue
        if len(found[optimum is not None]) < count:
            found[optimum is not None].append((text, optimum))
    return found[True] + found[False]


LEVELS = corpus(40, seed=5)


def search(level: Level, corrals: bool) -> tuple[Stop, int]:
    distance = lone_box_distances(level.floor, level.goals)
    if any(box not in distance for box in level.boxes):
        return Stop.EXHAUSTED, 0
    found = push_search(level.floor, level.boxes, level.player, distance, Target(level.goals), False,
                        SearchLimits(200_000, corrals=corrals))
    return found.stop, found.states


def test_a_search_with_the_cut_finds_a_plan_exactly_when_one_exists_and_takes_up_fewer_states() -> None:
    fewer = 0
    for text, optimum in LEVELS:
        level = level_of(text)
        (cut, cut_states), (whole, whole_states) = search(level, True), search(level, False)
        assert cut is (Stop.EXHAUSTED if optimum is None else Stop.FOUND), text
        assert whole is cut
        fewer += cut_states < whole_states
    assert fewer >= 10, fewer


@pytest.mark.parametrize("index", range(0, 80, 2))
def test_the_fewest_pushes_survive_the_cut(index: int) -> None:
    text, optimum = LEVELS[index]
    found = fewest_pushes(level_of(text), INFINITY, 300_000)
    if optimum is None:
        assert found.stop is Stop.EXHAUSTED
    else:
        assert found.stop is Stop.FOUND and len(found.pushes) == optimum


def corral_of(text: str) -> tuple[list, list] | None:
    level = level_of(text)
    board, open_squares = board_of(level.floor), floor_mask(level.floor)
    boxes = board.mask(level.boxes)
    region = board.flood(open_squares & ~boxes, board.bit(level.player))
    found = pi_corral(board, open_squares, region, boxes, board.mask(level.goals), len(level.goals) == len(level.boxes))
    return None if found is None else (board.cells(found[0]), board.cells(found[1]))


def test_a_fence_that_can_only_be_pushed_in_is_a_pi_corral() -> None:
    assert corral_of("#####\n#   #\n#@$.#\n#####\n") is None  # the goal is open to the player
    # two boxes shut the upper goal off; neither can move but into it, and the player reaches that push
    found = corral_of("######\n#@ $.#\n#   *#\n######\n")
    assert found is not None and found[1] == [(4, 1)] and sorted(found[0]) == [(3, 1), (4, 2)]


def test_a_fence_box_that_can_be_pushed_out_spoils_the_corral() -> None:
    # the lower box could be pushed left, from a square the player may reach once other boxes move
    assert corral_of("#######\n#@ $.##\n#   * #\n#######\n") is None
