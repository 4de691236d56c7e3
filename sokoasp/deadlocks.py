"""Corral deadlocks (the Sokoban wiki's name; YASS and Rolling Stone search them too): boxes
that fence off floor the player cannot reach, and that cannot all be brought onto goals even
when every other box is taken off the board.

A sound test for any state: taking boxes away only frees squares and the player's walks, so
the pushes of the fence's boxes in any plan from the state (a plan puts every box on a goal)
are a plan of this smaller problem too. When a search of the smaller problem runs out of
states, no plan exists from the state. The search gives up (and the state passes) when the
player gets into the fenced floor (the fence is open: the question grows) or after
``CORRAL_STATES`` states, so it stays cheap.

It catches what the static tests miss: three boxes round a pocket in a corner, say, each of
which could still reach a goal alone (dead squares) and none of which is frozen on its own.

With ``pulls`` the same for the reverse search (the level turned round, boxes pulled).
"""

from __future__ import annotations

from .analysis import lone_box_distances
from .filling import push_search
from .level import DIRECTIONS, Cell, Level, add
from .search import player_region, region_from

CORRAL_BOXES = 5  # fences of more boxes are not searched
CORRAL_STATES = 2_000  # the search of one fence gives up after this many states


def dead_fence(state: Level, pulls: bool = False) -> frozenset[Cell] | None:
    """The boxes of a corral deadlock in ``state`` (``pulls``: boxes are pulled), or None when
    the test finds none."""
    region = player_region(state.floor, state.boxes, state.player)
    for pocket in pockets(state.floor - state.boxes - region):
        fence = frozenset(box for box in state.boxes if any(add(box, d) in pocket for d in DIRECTIONS.values()))
        if len(fence) <= CORRAL_BOXES and fence_is_dead(state, fence, pocket, pulls):
            return fence
    return None


def pockets(cells: frozenset[Cell]) -> list[frozenset[Cell]]:
    """The connected parts of ``cells``, each sorted into the list by its least cell."""
    parts: list[frozenset[Cell]] = []
    left = set(cells)
    while left:
        part = region_from(cells, frozenset(), [min(left)])
        parts.append(part)
        left -= part
    return parts


def fence_is_dead(state: Level, fence: frozenset[Cell], pocket: frozenset[Cell], pulls: bool) -> bool:
    """True when the boxes of ``fence`` alone (every other box taken away) cannot all be moved
    onto goals; the search gives up when the player gets into ``pocket`` or after
    ``CORRAL_STATES`` states."""
    distance = lone_box_distances(state.floor, state.goals, pulls)
    if any(box not in distance for box in fence):
        return True  # a box on a dead square (the dead strategy prunes these already)

    def done(boxes: frozenset[Cell], region: frozenset[Cell]) -> bool:
        return boxes <= state.goals or bool(region & pocket)

    return push_search(state.floor, fence, state.player, distance, done, pulls, CORRAL_STATES) is False
