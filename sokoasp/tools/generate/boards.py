"""Board shapes: open rectangles, and non-rectangular boards of 2x2 floor blocks joined at
their edges (thesis Fig. 4.1). A board is a set of floor cells, origin (1, 1)."""

from __future__ import annotations

import random

from sokoasp.board.level import Cell

BLOCK_STEPS = [(1, 0), (-1, 0), (0, 1), (0, -1)]


def rectangle(width: int, height: int) -> frozenset[Cell]:
    return frozenset((x, y) for x in range(1, width + 1) for y in range(1, height + 1))


def joined_blocks(blocks: int, rng: random.Random) -> frozenset[Cell]:
    """``blocks`` 2x2 floor blocks grown one by one onto a free edge of the shape so far."""
    shape = {(0, 0)}
    while len(shape) < blocks:
        bx, by = rng.choice(sorted(shape))
        dx, dy = rng.choice(BLOCK_STEPS)
        shape.add((bx + dx, by + dy))
    min_x = min(bx for bx, _ in shape)
    min_y = min(by for _, by in shape)
    return frozenset(
        (2 * (bx - min_x) + 1 + ox, 2 * (by - min_y) + 1 + oy) for bx, by in shape for ox in (0, 1) for oy in (0, 1)
    )


def zones(floor: frozenset[Cell]) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """Split a board across its longer side into a start zone (left or top) and a goal zone
    (right or bottom), each holding about half of the floor."""
    wide = max(x for x, _ in floor) - min(x for x, _ in floor) >= max(y for _, y in floor) - min(y for _, y in floor)
    axis = 0 if wide else 1
    lines = sorted({cell[axis] for cell in floor})
    count, cut = 0, lines[0]
    for line in lines:
        count += sum(1 for cell in floor if cell[axis] == line)
        cut = line
        if count >= len(floor) / 2:
            break
    start = frozenset(c for c in floor if c[axis] <= cut)
    return start, floor - start
