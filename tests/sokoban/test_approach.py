"""A way's approach (sokoasp.sokoban.rooms.approach): whether a lone box can still be brought to a goal room's
entrance from a square, against a forward search of pushes and walks."""

from __future__ import annotations

from collections import deque

from helpers import level_of
from test_roomstages import TWO_DOORS

from sokoasp.board.level import DIRECTIONS, Cell, add
from sokoasp.sokoban.rooms.approach import approach_open
from sokoasp.sokoban.rooms.entrances import find_entrance_room

# A room with a pocket below: the corridor at (5, 4) leads a box down into the pocket, where it
# must be pushed left to (2, 5) and up through the lower entrance; the player, behind the box
# in the corridor, can get round it only through the room (in at the upper entrance (3, 2), down
# to (2, 4) and out at the bottom). Once (2, 2), (2, 3) or (2, 4) is filled, the pocket's way is
# closed.
POCKET = """\
#########
#.#    @#
#.. $$$ #
#..#$$$ #
##.## ###
#      ##
#      ##
#########
"""
POCKET_ROOM = frozenset({(1, 1), (1, 2), (2, 2), (1, 3), (2, 3), (2, 4)})
POCKET_WAYS = (((3, 2), (4, 2)), ((2, 5), (2, 6)))


def forward_reaches(floor: frozenset[Cell], room: frozenset[Cell], walls: frozenset[Cell], box: Cell,
                    player: Cell, way: tuple[Cell, Cell]) -> bool:
    """Whether the player, walking and pushing the lone ``box`` (never into the room), gets it
    onto the way's entrance with the player on the way's square behind it."""
    free = floor - walls
    seen, queue = {(box, player)}, deque([(box, player)])
    while queue:
        at, me = queue.popleft()
        if (at, me) == way:
            return True
        for delta in DIRECTIONS.values():
            step = add(me, delta)
            if step not in free:
                continue
            nxt = (at, step) if step != at else (add(at, delta), at)
            if nxt[0] in free and nxt[0] not in room - {at} and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return False


def cases() -> list[tuple[str, frozenset[Cell], tuple[tuple[Cell, Cell], ...], list[frozenset[Cell]]]]:
    """(level, room, ways, sets of filled goals) to check."""
    level = level_of(TWO_DOORS)
    room = find_entrance_room(level)
    assert room is not None
    prefixes = [frozenset(entry.goal for entry in room.order[:k]) for k in range(len(room.order))]
    pocket = [frozenset(), frozenset({(2, 4)}), frozenset({(1, 1), (2, 2)})]
    return [(TWO_DOORS, room.room, room.ways, prefixes), (POCKET, POCKET_ROOM, POCKET_WAYS, pocket)]


def test_a_way_is_open_from_the_squares_a_lone_box_can_be_pushed_in_from() -> None:
    for text, room, ways, filled_sets in cases():
        level = level_of(text)
        for filled in filled_sets:
            for way in ways:
                for box in level.floor - room:
                    expected = any(forward_reaches(level.floor, room, filled, box, player, way)
                                   for player in level.floor - filled - {box})
                    assert approach_open(level.floor, room, frozenset({box}), way, filled) == expected, (text, way, box, sorted(filled))
                for box in room - filled:  # the box comes from outside; it is never pulled into the room
                    assert not approach_open(level.floor, room, frozenset({box}), way, filled)


def test_a_pocket_way_closes_when_the_room_is_filled_across() -> None:
    level = level_of(POCKET)
    lower = POCKET_WAYS[1]
    sources = frozenset(level.boxes)
    assert approach_open(level.floor, POCKET_ROOM, sources, lower, frozenset())
    assert approach_open(level.floor, POCKET_ROOM, sources, lower, frozenset({(1, 1), (1, 3)}))
    assert not approach_open(level.floor, POCKET_ROOM, sources, lower, frozenset({(2, 2)}))  # the door to the room
    assert not approach_open(level.floor, POCKET_ROOM, sources, lower, frozenset({(2, 4)}))
    assert approach_open(level.floor, POCKET_ROOM, frozenset({(4, 5)}), lower, frozenset({(2, 4)}))  # from inside the pocket
