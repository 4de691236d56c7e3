"""The squares no box or player ever enters (walls, and the outside), split into 8-connected parts:
the facts ``rim(X,Y,C)`` that the route families' step reads (encodings/route-core.lp).

A rim square is a non-floor square that touches the floor (8-neighbourhood); C numbers its part.
Parts are found over every non-floor square of the floor's bounding box grown by one, so the
outside is one part with every wall that touches it, and a free-standing block of wall inside
the level is a part of its own. route-core.lp joins parts through the boxes that stand between
them at each step, and asks whether the player can walk round a box by looking for one part
on both sides of it (the ring test there)."""

from __future__ import annotations

from sokoasp.board.level import Cell, Level

KING_STEPS = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0))


def obstacle_parts(level: Level) -> dict[Cell, int]:
    """Each rim square's part: 1, 2, ... in the order of the parts' first squares (row by row)."""
    xs = [x for x, _ in level.floor]
    ys = [y for _, y in level.floor]
    region = {
        (x, y)
        for y in range(min(ys) - 1, max(ys) + 2)
        for x in range(min(xs) - 1, max(xs) + 2)
        if (x, y) not in level.floor
    }
    part_of: dict[Cell, int] = {}
    parts = 0
    for start in sorted(region, key=lambda cell: (cell[1], cell[0])):
        if start not in part_of:
            parts += 1
            mark_part(start, parts, region, part_of)
    return {cell: part_of[cell] for cell in level.walls}


def mark_part(start: Cell, number: int, region: set[Cell], part_of: dict[Cell, int]) -> None:
    part_of[start] = number
    stack = [start]
    while stack:
        x, y = stack.pop()
        for dx, dy in KING_STEPS:
            cell = (x + dx, y + dy)
            if cell in region and cell not in part_of:
                part_of[cell] = number
                stack.append(cell)


def rim_facts(level: Level) -> str:
    """The rim squares' parts, and ``boxes(N)``, how many boxes there are: it bounds how far a
    cluster of boxes reaches. A fact, not a count of the start's boxes, so that staged solving
    (whose boxes are externals, stage-start.lp) grounds the step once, not once per count."""
    parts = obstacle_parts(level)
    rims = "".join(f"rim({x},{y},{part}).\n" for (x, y), part in sorted(parts.items()))
    return rims + f"boxes({len(level.boxes)}).\n"
