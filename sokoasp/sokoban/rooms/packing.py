"""Goal-room macros (Junghanns & Schaeffer's Rolling Stone, YASS's packing order): a level whose
goals all lie in a room with one entrance square and no box inside is solved as a simpler
level, the room replaced by a straight dead-end corridor of goals. A room with two entrances is
taken through one of them, the other made a wall (``closable_rooms``), which only takes plans away.

A box pushed in from the entrance is taken at once to its goal by a fixed push sequence (a goal
macro), the goals filled in a packing order found backwards: from the full room, a goal is taken
off last when its box can be brought from the entrance to it with every other goal filled and
the player can walk out again. Where no order of one-box macros exists, a breadth-first search of
the room's own states finds the fewest pushes that fill it with boxes parked on the way
(``room_plan``). A plan for the simpler level maps back (``GoalRoom.real_pushes``): pushes outside
the room stay, the k-th entry into the corridor becomes the k-th goal macro.

MAY LOSE SOLUTIONS, NEVER OPTIMAL: a level whose boxes must turn round in the room, or that needs
the room for other moves, cannot be solved this way; the goal-room phase therefore gives the
level itself the time left."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from sokoasp.board.level import DIRECTIONS, Cell, Level, add
from sokoasp.board.simulator import apply_step
from sokoasp.errors import InputError
from sokoasp.sokoban.analysis import lone_box_distances, unsolvable_reason
from sokoasp.sokoban.bitboard import board_of, shifted
from sokoasp.sokoban.breadth_first import links_back, region_from
from sokoasp.sokoban.pushes import Push, fewest_pushes
from sokoasp.sokoban.rooms.approach import Way

Approach = Callable[[Way, frozenset[Cell]], bool]  # (way, goals filled) -> can a box still come to it

ROOM_STATES = 20_000  # room_plan gives up after this many room states
PARKING_ROOMS = 2  # room_plan is tried in the first rooms find_goal_room tries, this many


@dataclass(frozen=True)
class GoalRoom:
    """A goal room, its entrance and packing order, and the simpler level that stands for it."""

    entrance: Cell
    direction: Cell  # the push from the entrance into the room
    macros: tuple[tuple[Push, ...], ...]  # the pushes from the k-th box's entry to the next entry
    level: Level  # the simpler level: the room replaced by a corridor of goals
    shift: Cell  # the simpler level's coordinates minus the real ones
    closed: Cell | None = None  # two entrances: the one made a wall in the simpler level (closable_rooms)

    def real_pushes(self, plan: str) -> list[Push]:
        """The pushes in the real level of a LURD plan for the simpler level."""
        player, boxes = self.level.player, set(self.level.boxes)
        corridor, entries, pushes = self.level.goals, 0, list[Push]()
        entrance = add(self.entrance, self.shift)
        for letter in plan:
            delta = DIRECTIONS[letter.lower()]
            box = add(player, delta)
            player, _ = apply_step(player, boxes, letter)
            if not letter.isupper() or box in corridor:
                continue
            if box == entrance and delta == self.direction:
                pushes += self.macros[entries]
                entries += 1
            else:
                pushes.append(Push(add(box, (-self.shift[0], -self.shift[1])), delta))
        return pushes


def find_goal_room(level: Level) -> GoalRoom | None:
    """The goal room whose goals can all be filled by goal macros and whose corridor fits on
    the board: rooms with one entrance first, then rooms with two, one of them closed
    (``closable_rooms``); the smaller first in each. None when there is none. One-box macros
    are tried in every room, macros that park boxes (a costlier search) in the first
    ``PARKING_ROOMS`` rooms only."""
    for number, (packed, closed, entrance, room) in enumerate(room_candidates(level)):
        for delta in DIRECTIONS.values():
            stand, inside = add(entrance, (-delta[0], -delta[1])), add(entrance, delta)
            if inside not in room or stand not in packed.floor or stand in room:
                continue
            macros = packing_macros(packed, room, entrance, stand)
            if not macros and number < PARKING_ROOMS:
                macros = room_plan(packed.goals, room, entrance, delta)
            simpler = macros and corridor_level(packed, room, entrance, delta)
            if macros and simpler:
                return GoalRoom(entrance, delta, macros, *simpler, closed=closed)
    return None


def room_candidates(level: Level) -> Iterator[tuple[Level, Cell | None, Cell, frozenset[Cell]]]:
    """(level to pack, closed square, entrance, room): the rooms with one entrance, the smaller
    first, and only then (they are searched only if needed) those with two, one closed."""
    for entrance, room in sorted(goal_rooms(level), key=lambda pair: len(pair[1])):
        yield level, None, entrance, room
    for closed, entrance, room in closable_rooms(level):
        yield closing(level, closed), closed, entrance, room


def goal_rooms(level: Level) -> list[tuple[Cell, frozenset[Cell]]]:
    """(entrance, room) pairs: taking the entrance square off the floor cuts off a room that
    holds every goal and no box (a player inside walks out first, so the entrance must be free)."""
    found = []
    goal = min(level.goals)
    for entrance in level.floor - level.goals:
        room = region_from(level.floor - {entrance}, frozenset(), [goal])
        trapped = level.player in room and entrance in level.boxes
        if level.goals <= room and not room & level.boxes and not trapped and len(room) < len(level.floor) - 1:
            found.append((entrance, room))
    return found


def closable_rooms(level: Level) -> list[tuple[Cell, Cell, frozenset[Cell]]]:
    """(closed, entrance, room) triples of the rooms with two entrances, the smaller rooms
    first: with ``closed`` made a wall (``closing``) the room has the single ``entrance``, the
    rest of the floor stays in one piece and no box stands on a dead square. Closing a square
    only takes plans away, so a plan of the closed level plays on the level itself."""
    triples = []
    rooms = two_entrance_rooms(level)
    for pair, room in sorted(rooms.items(), key=lambda item: (len(item[1]), sorted(item[0]))):
        for closed in sorted(pair):
            (entrance,) = pair - {closed}
            rest = level.floor - room - {closed}
            if region_from(rest, frozenset(), [level.player]) == rest and not unsolvable_reason(closing(level, closed)):
                triples.append((closed, entrance, room))
    return triples


def two_entrance_rooms(level: Level) -> dict[frozenset[Cell], frozenset[Cell]]:
    """Rooms keyed by their two entrances (``cut_rooms``) where neither square alone cuts the
    room off."""
    outside = level.boxes | {level.player}
    return {pair: room for pair, room in cut_rooms(level, 2).items()
            if all(path_between(level.floor - {square}, level.goals, outside) for square in pair)}


def cut_rooms(level: Level, count: int) -> dict[frozenset[Cell], frozenset[Cell]]:
    """Rooms keyed by ``count`` squares whose taking off the floor cuts off a room that holds
    every goal, no box and not the player (a room that fewer of them cut off is among them too).
    Any such set holds a square of a walk from the goals to the boxes and the player, then a
    square of a walk that avoids it, and so on, so only those sets are tried."""
    outside = level.boxes | {level.player}
    rooms: dict[frozenset[Cell], frozenset[Cell]] = {}

    def extend(cut: frozenset[Cell]) -> None:
        if len(cut) == count:
            room = region_from(level.floor - cut, frozenset(), [min(level.goals)])
            if level.goals <= room and not room & outside:
                rooms[cut] = room
            return
        for square in path_between(level.floor - cut, level.goals, outside):
            extend(cut | {square})

    extend(frozenset())
    return rooms


def closing(level: Level, square: Cell) -> Level:
    """The level with ``square`` made a wall."""
    return Level(level.floor - {square}, level.boxes, level.goals, level.player, level.title)


def path_between(floor: frozenset[Cell], sources: frozenset[Cell], targets: frozenset[Cell]) -> list[Cell]:
    """The squares strictly between the ends of a shortest walk on ``floor`` from ``sources``
    to ``targets``: every set of squares (sources and targets aside) whose removal parts them
    holds one of these. Empty when no walk exists."""
    came: dict[Cell, Cell | None] = {cell: None for cell in sources}
    queue = deque(sorted(sources))
    while queue:
        cell = queue.popleft()
        if cell in targets:
            between = []
            link = came[cell]
            while link is not None and link not in sources:
                between.append(link)
                link = came[link]
            return between
        for delta in DIRECTIONS.values():
            nxt = add(cell, delta)
            if nxt in floor and nxt not in came:
                came[nxt] = cell
                queue.append(nxt)
    return []


@dataclass(frozen=True)
class Entry:
    """A box into a goal room: pushed from ``entrance`` by ``pushes[0]`` onto the square
    inside, then on to its goal by the rest."""

    entrance: Cell
    pushes: tuple[Push, ...]

    @property
    def inside(self) -> Cell:
        return add(self.entrance, self.pushes[0].delta)

    @property
    def goal(self) -> Cell:
        return add(self.pushes[-1].box, self.pushes[-1].delta)


def packing_macros(level: Level, room: frozenset[Cell], entrance: Cell, stand: Cell) -> tuple[tuple[Push, ...], ...]:
    """Each goal's macro in packing order through one entrance (pushed in from ``stand``);
    empty when some goal cannot be filled."""
    return tuple(entry.pushes for entry in packing_entries(level.goals, room, [(entrance, stand)]))


def packing_entries(goals: frozenset[Cell], room: frozenset[Cell], ways: list[tuple[Cell, Cell]],
                    kept: frozenset[Cell] = frozenset(), approach: Approach | None = None) -> tuple[Entry, ...]:
    """The entries that fill ``goals`` in packing order, each box pushed in at one of the
    ``ways`` (entrance, square the player pushes from), found backwards: the goal filled last
    first, the first that a lone box pushed in can reach with every other goal filled (as walls)
    and the player able to walk out again (but after the last), and ``approach`` (if given)
    saying a box can come to the way with the goals filled before. The goals ``kept`` are filled
    before the first entry. Empty when some goal cannot be filled."""
    filled, backwards = set(goals), list[Entry]()
    while filled - kept:
        walk_out = len(filled) < len(goals)
        found = next(fill_last(room, frozenset(filled), ways, walk_out, kept, approach), None)
        if found is None:
            return ()
        filled.discard(found[0])
        backwards.append(found[1])
    return tuple(reversed(backwards))


def fill_last(room: frozenset[Cell], filled: frozenset[Cell], ways: list[tuple[Cell, Cell]],
              walk_out: bool, kept: frozenset[Cell] = frozenset(),
              approach: Approach | None = None) -> Iterator[tuple[Cell, Entry]]:
    """The goals of ``filled`` (but ``kept``) that a box pushed in at one of ``ways`` can fill
    with the others filled, each with its fewest pushes."""
    for goal in sorted(filled - kept):
        for entrance, stand in ways:
            pushes = fewest_pushes(room | {entrance, stand}, filled - {goal}, entrance, stand, goal,
                                   entrance if walk_out else None)
            if pushes is not None and (approach is None or approach((entrance, stand), filled - {goal})):
                yield goal, Entry(entrance, tuple(pushes))


RoomKey = tuple[int, int]  # the boxes in the room and the lowest bit of the player's region


def room_plan(goals: frozenset[Cell], room: frozenset[Cell], entrance: Cell, delta: Cell,
              limit: int = ROOM_STATES) -> tuple[tuple[Push, ...], ...]:
    """Macros that may park boxes in the room: the fewest pushes that fill the empty room, each
    box pushed in from the entrance when the player can walk out to fetch it (a breadth-first
    search over the room's boxes and the player's region, on bits: ``RoomSearch``). The k-th
    macro is the k-th box's push in and every push inside the room until the next box comes
    in. Empty when no such plan is found within ``limit`` states."""
    search = RoomSearch(goals, room, entrance, delta)
    region = search.region(0, search.entry)
    came: dict[RoomKey, tuple[RoomKey, Push] | None] = {(0, region & -region): None}
    queue = deque([(0, region)])
    while queue and len(came) < limit:
        boxes, region = queue.popleft()
        key = (boxes, region & -region)
        if boxes == search.goals:
            return split_at_entries(links_back(came, key), entrance)
        for push, after, after_region in search.moves(boxes, region):
            after_key = (after, after_region & -after_region)
            if after_key not in came:
                came[after_key] = (key, push)
                queue.append((after, after_region))
    return ()


class RoomSearch:
    """The room's squares as bits (``sokoasp.sokoban.bitboard``): a state is the set of boxes in the
    room and the player's region, keyed by the region's lowest bit."""

    def __init__(self, goals: frozenset[Cell], room: frozenset[Cell], entrance: Cell, delta: Cell) -> None:
        floor = room | {entrance}
        self.board = board_of(floor)
        self.open = self.board.mask(floor)
        live = lone_box_distances(floor, goals)
        self.targets = self.board.mask({cell for cell in room if cell in live})  # where a pushed box may go
        self.goals, self.boxes = self.board.mask(goals), len(goals)
        self.entry, self.inside, self.delta = self.board.bit(entrance), self.board.bit(add(entrance, delta)), delta
        self.steps = [(step, self.board.offset(step)) for step in DIRECTIONS.values()]

    def region(self, boxes: int, player: int) -> int:
        return self.board.flood(self.open & ~boxes, player)

    def moves(self, boxes: int, region: int) -> Iterator[tuple[Push, int, int]]:
        """The pushes from a room state, with the boxes and the player's region after each: a box
        in from the entrance, or a push inside the room onto a square from which a lone box
        can still reach a goal."""
        rest = boxes
        while rest:
            box = rest & -rest
            rest ^= box
            for step, offset in self.steps:
                to, behind = shifted(box, offset), shifted(box, -offset)
                if behind & region and to & self.targets and not to & boxes:
                    after = boxes ^ box | to
                    yield Push(self.board.cell(box), step), after, self.region(after, box)
        if self.entry & region and not self.inside & boxes and bin(boxes).count("1") < self.boxes:
            after = boxes | self.inside
            yield Push(self.board.cell(self.entry), self.delta), after, self.region(after, self.entry)


def split_at_entries(pushes: list[Push], entrance: Cell) -> tuple[tuple[Push, ...], ...]:
    """The pushes cut before each push in from the entrance."""
    macros: list[list[Push]] = []
    for push in pushes:
        if push.box == entrance:
            macros.append([])
        macros[-1].append(push)
    return tuple(tuple(macro) for macro in macros)


def corridor_level(level: Level, room: frozenset[Cell], entrance: Cell, delta: Cell) -> tuple[Level, Cell] | None:
    """The level with the room replaced by a straight corridor of goals running on from the
    entrance, shifted so that every coordinate stays positive; None when the corridor would
    touch the rest of the floor."""
    outside = level.floor - room
    corridor = [(entrance[0] + k * delta[0], entrance[1] + k * delta[1]) for k in range(1, len(level.goals) + 1)]
    touches = {add(cell, d) for cell in corridor for d in DIRECTIONS.values()} - {entrance}
    if touches & outside:
        return None
    cells = outside | set(corridor)
    shift = (max(0, 1 - min(x for x, _ in cells)), max(0, 1 - min(y for _, y in cells)))

    def moved(group: set[Cell] | frozenset[Cell]) -> frozenset[Cell]:
        return frozenset(add(cell, shift) for cell in group)

    player = entrance if level.player in room else level.player  # a player in the room walks out first
    try:
        simpler = Level(moved(cells), moved(level.boxes), moved(set(corridor)), add(player, shift), level.title)
    except InputError:  # the corridor runs off the largest board
        return None
    return simpler, shift
