"""Whether a box can still be brought to a goal room's entrance from outside, with some of the
room's goals filled (the way's approach).

Backwards from the box on the entrance and the player on the square it pushes from, a lone box
is pulled (the filled goals are walls, the player may walk through the rest of the room, the box
stays outside it) until it stands where some box of the level starts. A way whose approach lies
in a pocket that the player can reach only through the room closes once the room is filled
across it: a box that comes down a corridor with the player behind it, where the player must go
round through the room to push it on.

A filter on packing orders (``packing.packing_entries``), which may lose solutions anyway: a box
that starts inside such a pocket, or comes there by another way, is not looked for.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from sokoasp.board.level import DIRECTIONS, Cell, add
from sokoasp.sokoban.breadth_first import player_region

Way = tuple[Cell, Cell]  # an entrance and the square the player pushes a box in from


@lru_cache(maxsize=65536)
def approach_open(floor: frozenset[Cell], room: frozenset[Cell], sources: frozenset[Cell],
                  way: Way, filled: frozenset[Cell]) -> bool:
    """Whether a lone box on one of ``sources`` can be brought to ``way`` with the goals
    ``filled`` as walls."""
    return any(box in sources for box in pulled_boxes(floor, room, way, filled))


def pulled_boxes(floor: frozenset[Cell], room: frozenset[Cell], way: Way, filled: frozenset[Cell]) -> Iterator[Cell]:
    """The squares a lone box pulled back from ``way``'s entrance (the player on the square
    behind it) comes to, outside ``room``, the goals ``filled`` as walls (the player walks
    through the rest of the room too); a square once for each region the player can be in."""
    free = floor - filled
    entrance, stand = way
    seen = {(entrance, min(player_region(free, {entrance}, stand)))}
    stack = [(entrance, stand)]
    while stack:
        box, player = stack.pop()
        yield box
        region = player_region(free, {box}, player)
        for delta in DIRECTIONS.values():
            near, away = add(box, delta), add(box, (2 * delta[0], 2 * delta[1]))
            if near in region and away in free and near not in room:
                key = (near, min(player_region(free, {near}, away)))
                if key not in seen:
                    seen.add(key)
                    stack.append((near, away))
