"""Solvable-by-construction placement: boxes start on their goals and the player pulls them
away (the reverse of pushing), so reversing the pulls is a plan. Boxes end on live squares."""

from __future__ import annotations

import random

from sokoasp.board.level import DIRECTIONS, Cell, Level, add
from sokoasp.errors import InputError
from sokoasp.sokoban.breadth_first import player_region
from sokoasp.sokoban.pushes import Push

ATTEMPTS = 200


def pulls(floor: frozenset[Cell], boxes: set[Cell], player: Cell) -> list[tuple[Cell, Cell]]:
    """Every (box, delta) the player can pull: it walks to box+delta and steps on to box+2*delta."""
    region = player_region(floor, boxes, player)
    moves = []
    for box in sorted(boxes):
        for delta in DIRECTIONS.values():
            stand, back = add(box, delta), add(add(box, delta), delta)
            if stand in region and back in floor and back not in boxes:
                moves.append((box, delta))
    return moves


def scramble(
    floor: frozenset[Cell],
    boxes: int,
    pull_count: int,
    rng: random.Random,
    start_zone: frozenset[Cell] | None = None,
    goal_zone: frozenset[Cell] | None = None,
) -> tuple[Level, list[Push]]:
    """A level with ``boxes`` boxes and the pushes that solve it (the pulls reversed). With
    zones, goals lie in ``goal_zone`` and the pulls go on until every box is in ``start_zone``."""
    goal_cells = sorted(goal_zone if goal_zone is not None else floor)
    if boxes < 1 or boxes + 1 > len(floor) or boxes > len(goal_cells):
        raise InputError(f"{boxes} boxes do not fit on a board of {len(floor)} cells")
    for _ in range(ATTEMPTS):
        goals = set(rng.sample(goal_cells, boxes))
        free = sorted(floor - goals)
        if not free:
            continue
        made = pull_away(floor, frozenset(goals), rng.choice(free), pull_count, rng, start_zone)
        if made is not None:
            return made
    raise InputError(f"could not place {boxes} boxes in {ATTEMPTS} attempts: the board is too tight")


def pull_away(floor: frozenset[Cell], goals: frozenset[Cell], player: Cell, pull_count: int, rng: random.Random,
              start_zone: frozenset[Cell] | None) -> tuple[Level, list[Push]] | None:
    boxes, done = set(goals), []
    limit = pull_count * (8 if start_zone else 1)
    for step in range(limit):
        if start_zone is not None and step >= pull_count and boxes <= start_zone:
            break
        moves = pulls(floor, boxes, player)
        if not moves:
            break
        if start_zone is not None:  # prefer pulls that bring boxes into the start zone
            inward = [m for m in moves if m[0] not in start_zone or add(m[0], m[1]) in start_zone]
            moves = inward or moves
        box, delta = rng.choice(moves)
        done.append(Push(add(box, delta), (-delta[0], -delta[1])))  # undoing this pull is that push
        boxes.remove(box)
        boxes.add(add(box, delta))
        player = add(add(box, delta), delta)
    too_short = len(done) < pull_count // 2  # the player got boxed in early: a near-trivial level
    if too_short or boxes == set(goals) or (start_zone is not None and not boxes <= start_zone):
        return None
    # the player may be anywhere it can walk to; take the lowest cell of its region for a canonical level
    player = min(player_region(floor, boxes, player))
    return Level(floor, frozenset(boxes), goals, player), list(reversed(done))
