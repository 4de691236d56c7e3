"""Goal rooms with one to three entrances: the ways in, one packing order of entries through
them, and which entries may come next with some goals filled."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import lru_cache

from sokoasp.board.level import DIRECTIONS, Cell, Level, add
from sokoasp.sokoban.pushes import fewest_pushes
from sokoasp.sokoban.rooms.approach import approach_open
from sokoasp.sokoban.rooms.packing import Entry, cut_rooms, goal_rooms, packing_entries, two_entrance_rooms


@dataclass(frozen=True)
class EntranceRoom:
    """A goal room, the ways into it (entrance, square the player pushes from) and one packing
    order of entries through them, which shows that entries can fill it; the level's floor and
    the squares its boxes start on, for the ways' approaches (``approach_open``)."""

    room: frozenset[Cell]
    goals: frozenset[Cell]
    ways: tuple[tuple[Cell, Cell], ...]
    order: tuple[Entry, ...]
    floor: frozenset[Cell]
    sources: frozenset[Cell]

    def open(self, way: tuple[Cell, Cell], filled: frozenset[Cell]) -> bool:
        """Whether a box can come from outside to ``way`` with the goals ``filled``."""
        return approach_open(self.floor, self.room, self.sources, way, filled)

    @property
    def insides(self) -> frozenset[Cell]:
        return frozenset(inside_of(way) for way in self.ways)

    @property
    def entrances(self) -> list[Cell]:
        return sorted({entrance for entrance, _ in self.ways})


def inside_of(way: tuple[Cell, Cell]) -> Cell:
    """The square a box pushed in at ``way`` (entrance, square the player pushes from) lands on."""
    entrance, stand = way
    return add(entrance, (entrance[0] - stand[0], entrance[1] - stand[1]))


@lru_cache(maxsize=4096)
def next_entries(room: EntranceRoom, filled: frozenset[Cell]) -> dict[Cell, Entry]:
    """The entries that may come next with the goals ``filled``, by the square inside their
    entrance: for each, the entry to the goal earliest in the packing order that a box pushed
    in there reaches (the filled goals as walls, the player able to walk out again but after
    the last) and after which the other goals can still be filled."""
    rank = {entry.goal: k for k, entry in enumerate(room.order)}
    open_ways = [way for way in room.ways if room.open(way, filled)]
    found: dict[Cell, Entry] = {}
    for goal in sorted(room.goals - filled, key=rank.__getitem__):
        after = filled | {goal}
        if not can_complete(room, after):
            continue
        for entrance, stand in open_ways:
            inside = inside_of((entrance, stand))
            if inside in found:
                continue
            walk_out = entrance if after != room.goals else None
            pushes = fewest_pushes(room.room | {entrance, stand}, filled, entrance, stand, goal, walk_out)
            if pushes:
                found[inside] = Entry(entrance, tuple(pushes))
    return found


@lru_cache(maxsize=4096)
def can_complete(room: EntranceRoom, filled: frozenset[Cell]) -> bool:
    """Whether entries can fill the other goals with ``filled`` filled first."""
    return filled == room.goals or bool(packing_entries(room.goals, room.room, list(room.ways), filled, room.open))


def find_entrance_room(level: Level) -> EntranceRoom | None:
    """The smallest room with one or two entrances whose goals entries can fill, else the
    smallest such room with three, or None."""
    rooms = [(room, frozenset({entrance})) for entrance, room in goal_rooms(level)]
    rooms += [(room, pair) for pair, room in two_entrance_rooms(level).items()]
    return (fillable_room(level, rooms)
            or fillable_room(level, [(room, cut) for cut, room in cut_rooms(level, 3).items()]))


def fillable_room(level: Level, rooms: list[tuple[frozenset[Cell], frozenset[Cell]]]) -> EntranceRoom | None:
    """The smallest of ``rooms`` (room, entrances) whose goals entries can fill, or None."""
    for room, entrances in sorted(rooms, key=lambda item: (len(item[0]), sorted(item[1]))):
        ways = tuple(entry_ways(level, room, entrances))
        unordered = EntranceRoom(room, level.goals, ways, (), level.floor, frozenset(level.boxes - room))
        order = packing_entries(level.goals, room, list(ways), approach=unordered.open)
        if order:
            return replace(unordered, order=order)
    return None


def entry_ways(level: Level, room: frozenset[Cell], entrances: frozenset[Cell]) -> Iterator[tuple[Cell, Cell]]:
    """(entrance, square the player pushes from) of every push from an entrance into the room."""
    for entrance in sorted(entrances):
        for delta in DIRECTIONS.values():
            stand = add(entrance, (-delta[0], -delta[1]))
            if add(entrance, delta) in room and stand in level.floor and stand not in room:
                yield entrance, stand
