"""Lone-box distances (``analysis.lone_box_distances``), which the dead squares, the dist/3
facts, the backward dead squares and the joint filling search all read: one search backwards
from every target at once, checked against a forward search from each square alone."""

from __future__ import annotations

import random
from collections import deque

import pytest
from corpus import random_level
from helpers import level_of

from sokoasp.board.level import DIRECTIONS, Cell, add
from sokoasp.sokoban.analysis import lone_box_distances


def forward_distance(free: frozenset[Cell], source: Cell, targets: frozenset[Cell], pulls: bool) -> int | None:
    """The fewest pushes (``pulls``: pulls) of a lone box from ``source`` to any target, the
    player free to stand on any square: a breadth-first search forwards from one square."""
    seen, queue = {source: 0}, deque([source])
    while queue:
        box = queue.popleft()
        if box in targets:
            return seen[box]
        for delta in DIRECTIONS.values():
            to = add(box, delta)
            player = add(to, delta) if pulls else (box[0] - delta[0], box[1] - delta[1])
            if to in free and player in free and to not in seen:
                seen[to] = seen[box] + 1
                queue.append(to)
    return None


def random_boards(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    boards: list[str] = []
    while len(boards) < count:
        text = random_level(rng, rng.randint(3, 7), rng.randint(3, 6), rng.randint(1, 3))
        if text is not None:
            boards.append(text)
    return boards


@pytest.mark.parametrize("pulls", [False, True])
def test_lone_box_distances_match_a_forward_search_from_each_square(pulls: bool) -> None:
    checked = 0
    for text in random_boards(60, seed=11):
        level = level_of(text)
        targets = level.boxes if pulls else level.goals
        distances = lone_box_distances(level.floor, targets, pulls)
        for square in sorted(level.floor):
            assert distances.get(square) == forward_distance(level.floor, square, targets, pulls), (text, square)
            checked += square in distances and distances[square] > 0
    assert checked > 200  # most squares are neither a target nor cut off


def test_a_box_pushed_along_a_corridor_needs_a_square_behind_it() -> None:
    distances = lone_box_distances(level_of("#######\n#@ $ .#\n#######\n").floor, frozenset({(5, 1)}))
    assert distances == {(5, 1): 0, (4, 1): 1, (3, 1): 2, (2, 1): 3}  # (1,1): no square behind it
