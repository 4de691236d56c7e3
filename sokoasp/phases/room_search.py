"""Room search: on a level whose goals lie in a room with one to three entrances
(``sokoasp.sokoban.rooms.entrances``), a best-first search in Python over every box's pushes
with goal-room entries as macros (Rolling Stone's goal macros, YASS's packing order). A level
without such a room leaves at once.

States come up most goals filled first, then by the least summed push distance of the boxes
outside to the squares just inside the entrances. A move is any push of a box not yet in the room
onto a live square, the room's too (a box may be parked there and pushed out again); a push in
from an entrance becomes the whole entry (``entrances.next_entries``) when no other box stands
in the room, and that box then stays on its goal. A parked box counts ``PARKED_COST``. States
with a dead group or a frozen box are cut (``traps.Traps.deadlocked``).

Not ASP, never optimal, and INCOMPLETE (boxes on filled goals never move again, the entries follow
the packing order). Every plan is replayed by the pipeline."""

from __future__ import annotations

import heapq
import time

from sokoasp.board.level import DIRECTIONS, Cell, Level, add
from sokoasp.config import MOST_STATES, Clock
from sokoasp.phases.base import PhaseContext, PhaseOutcome
from sokoasp.result import PhaseReport
from sokoasp.sokoban.analysis import lone_box_distances
from sokoasp.sokoban.bitboard import board_of, floor_mask
from sokoasp.sokoban.breadth_first import links_back
from sokoasp.sokoban.end_game import pushed_moves
from sokoasp.sokoban.rooms.entrances import EntranceRoom, find_entrance_room, next_entries
from sokoasp.sokoban.traps import Traps

NAME = "room-search"
WORK = 500_000  # states (about 40 s): a level that needs a parked box takes a few hundred thousand; others finish early


def run(level: Level, context: PhaseContext) -> PhaseOutcome:
    plan, note = room_search_plan(level, context.clock)
    context.progress(f"room search: {note}")
    return PhaseOutcome(plan, PhaseReport(NAME, note))


PARKED_COST = 4  # a box parked in the room: out again and in (2 pushes at least), and more, so parking is a last resort

Moves = tuple[tuple[Cell, Cell], ...]  # pushes as (box square before, after)
Key = tuple[int, int, int]  # boxes, filled goals and the player's region, as bits
# (most goals filled, negated; summed distance; order found; boxes; filled goals; player; the state before; the move)
Entry = tuple[int, int, int, frozenset[Cell], frozenset[Cell], Cell, Key, Moves]


class RoomMacroSearch:
    """One search of every box into one goal room, from the level's start."""

    def __init__(self, level: Level, room: EntranceRoom) -> None:
        self.level, self.room = level, room
        outside = (level.floor - room.room) | room.insides
        self.to_room = lone_box_distances(outside, room.insides)  # fewest pushes of a lone box to a square inside
        self.traps = Traps(level, False)
        self.board, self.open_squares = board_of(level.floor), floor_mask(level.floor)
        self.seen: set[Key] = set()  # the states a run took up, dead ones too: its work

    def cost(self, boxes: frozenset[Cell], filled: frozenset[Cell]) -> int:
        return sum(PARKED_COST if box in self.room.room else self.to_room[box] for box in boxes - filled)

    def moves(self, boxes: frozenset[Cell], filled: frozenset[Cell], region: int) -> list[tuple[Moves, Cell, Cell, bool]]:
        """The moves from a state: (pushes, the box's square after them, the player's square,
        whether the move is an entry, which leaves the box on its goal for good)."""
        entries = {} if (boxes - filled) & self.room.room else next_entries(self.room, filled)
        found: list[tuple[Moves, Cell, Cell, bool]] = []
        for box in sorted(boxes - filled):
            for delta in DIRECTIONS.values():
                to, stand = add(box, delta), (box[0] - delta[0], box[1] - delta[1])
                if to in boxes or to not in self.traps.distance or not self.board.bit(stand) & region:
                    continue
                entry = entries.get(to)
                if entry is not None and entry.entrance == box and entry.pushes[0].delta == delta:
                    pushes = tuple((push.box, add(push.box, push.delta)) for push in entry.pushes)
                    found.append((pushes, entry.goal, entry.pushes[-1].box, True))
                elif to in self.room.room or to in self.to_room:
                    found.append((((box, to),), to, box, False))
        return found

    def run(self, deadline: float, states: int) -> list[tuple[Cell, Cell]] | bool | None:
        """The pushes of a plan; False when every state was searched; None when cut short. A
        state is tested for deadlocks when it comes up, not when it is found: most states
        found never come up (the tests are most of the time)."""
        level, board = self.level, self.board
        if any(box not in self.traps.distance or box not in self.to_room for box in level.boxes):
            return False  # a box on a dead square, or one that comes to the room only by pushes from inside it
        came: dict[Key, tuple[Key, Moves] | None] = {}  # the states taken up, alive: the state before, the move
        seen = self.seen  # the states taken up, dead ones too
        taken: set[tuple[int, int, int]] = set()  # their (boxes, filled goals, player square), as bits
        order = 0
        start: Entry = (0, self.cost(level.boxes, frozenset()), order, level.boxes, frozenset(), level.player, (0, 0, 0), ())
        todo = [start]
        while todo:
            _, _, _, boxes, filled, player, before, pushes = heapq.heappop(todo)
            boxes_mask, filled_mask = board.mask(boxes), board.mask(filled)
            if (boxes_mask, filled_mask, board.bit(player)) in taken:
                continue  # found again from another state before it came up
            taken.add((boxes_mask, filled_mask, board.bit(player)))
            region = board.flood(self.open_squares & ~boxes_mask, board.bit(player))
            key = (boxes_mask, filled_mask, region)
            if key in seen:
                continue
            if len(seen) >= states or time.perf_counter() > deadline:
                return None
            seen.add(key)
            if pushes and self.traps.deadlocked(boxes, player, pushes[-1][1]):
                continue
            came[key] = (before, pushes) if pushes else None
            if len(filled) == len(level.goals):
                return [push for pushes in links_back(came, key) for push in pushes]
            for moved, to, stand, entry in self.moves(boxes, filled, region):
                after = (boxes - {moved[0][0]}) | {to}
                now_filled = filled | {to} if entry else filled
                if (boxes_mask ^ board.bit(moved[0][0]) | board.bit(to), board.mask(now_filled), board.bit(stand)) in taken:
                    continue
                order += 1
                heapq.heappush(todo, (-len(now_filled), self.cost(after, now_filled), order, after, now_filled, stand,
                                      key, moved))
        return False


def room_search_plan(level: Level, clock: Clock, states: int = MOST_STATES) -> tuple[str | None, str]:
    """The moves of a plan for ``level`` by the search with room entries as macros (None when the
    level has no such room or the search finds none within ``states`` and the clock's budget,
    which it is charged), and what it did, for the result."""
    room = find_entrance_room(level)
    if room is None:
        return None, "no goal room that entries fill, for the search with room macros"
    search = RoomMacroSearch(level, room)
    found = search.run(clock.deadline(), clock.allow(states))
    clock.charge(len(search.seen))
    if not isinstance(found, list):
        why = ("none with its macros: every state it allows searched" if found is False
               else f"stopped after {len(search.seen)} states")
        return None, f"no plan by the search of every box with goal-room macros ({why})"
    return (pushed_moves(level, found),
            f"the whole plan by the search of every box with goal-room macros in Python (not ASP), {len(search.seen)} states")
