"""Feature-space search after FESS (Shoham and Schaeffer, "The FESS Algorithm: A Feature Based
Approach to Single-Agent Search", CoG 2020): the open push states are grouped into the cells of
a small space of domain features, and the search takes up one state of each non-empty cell in
turn (a cycle over the cells), so progress in any feature is followed at once rather than along
one heuristic. Within a cell the state with the cheapest box-goal matching comes first
(``push_search.MatchingGuide``).

Features (each from the state alone): packing, the boxes on goals; connectivity, the player's
regions (the floor the boxes cut apart: fewer is freer). The paper's room connectivity and
out-of-plan features and its advisors are not here yet. Children are macro moves, as in the
paper: one box pushed along a fewest-pushes route to any square it reaches alone (once per
player region there); a state with a dead group or a frozen box off the goals is cut when taken
up (``traps.Traps``). Work: a state taken up is a unit, route states count at
``push_search.ROUTE_STATES_PER_UNIT`` a unit.

Not ASP, never optimal; complete within its work: it proves a level unsolvable when it takes up
every live state.
"""

from __future__ import annotations

import heapq
import math
import time
from collections import deque
from dataclasses import dataclass

from sokoasp.board.level import Cell, Level
from sokoasp.sokoban import kernel
from sokoasp.sokoban.analysis import INFINITY
from sokoasp.sokoban.bitboard import Board, board_of, floor_mask
from sokoasp.sokoban.breadth_first import links_back
from sokoasp.sokoban.push_search import MatchingGuide, Move, Moves, SearchOutcome, Stop, move_table, search_work
from sokoasp.sokoban.traps import Traps

Feature = tuple[int, int]  # (boxes off the goals, player regions): smaller is better in each


Entry = tuple[int, int, bool, int, int, frozenset[Cell], int, Cell | None, Cell | None]
# (matching or a lower bound on it, order found, whether settled (matching and cell computed), boxes as
#  bits, player square as a bit, boxes before the push, boxes before as bits, the box pushed, its square after)


@dataclass
class Cells:
    """The open states by feature cell, a heap of ``Entry`` per cell."""

    heaps: dict[Feature, list[Entry]]
    found: int = 0

    def add(self, feature: Feature, weight: int, settled: bool, boxes_mask: int, stand: int, boxes: frozenset[Cell],
            before: int, box: Cell | None, to: Cell | None) -> None:
        self.found += 1
        heapq.heappush(self.heaps.setdefault(feature, []), (weight, self.found, settled, boxes_mask, stand, boxes, before, box, to))

    def cycle(self) -> list[Feature]:
        """The non-empty cells, best first: fewest boxes off the goals, then fewest regions."""
        return sorted(feature for feature, heap in self.heaps.items() if heap)


def feature_search(level: Level, states: int, deadline: float = math.inf) -> SearchOutcome:
    """The pushes that put every box of ``level`` on a goal, by the feature-space search, within
    ``states`` work units (``push_search.search_work``) and ``deadline`` (``time.perf_counter``).
    A child is filed under its parent's regions and matching (less its route's pushes, a lower
    bound) and settled when it comes up: then its own are computed, and it goes back if they
    differ (most children never come up)."""
    traps = Traps(level, False)
    distance = traps.distance
    if any(box not in distance for box in level.boxes):
        return SearchOutcome(Stop.EXHAUSTED)  # a box on a dead square
    board, guide, steps = board_of(level.floor), MatchingGuide(level.floor, level.goals, False), move_table(level.floor, False)
    open_squares, goals_mask, every = floor_mask(level.floor), board.mask(level.goals), len(level.goals)
    compiled = kernel.routes(level.floor, distance)  # box_routes in the kernel, where it is built
    start = (board.mask(level.boxes), board.bit(level.player))
    came: dict[tuple[int, int], tuple[tuple[int, int], Moves] | None] = {start: None}  # state -> parent, route
    routes = 0
    seen: set[tuple[int, int]] = set()
    cells = Cells({})
    cells.add(feature_of(board, open_squares, goals_mask, every, start[0]), 0, True, *start, level.boxes, 0, None, None)
    while True:
        cycle = cells.cycle()
        if not cycle:
            return SearchOutcome(Stop.EXHAUSTED, seen=seen, routes=routes)
        for feature in cycle:
            heap = cells.heaps[feature]
            while heap:  # settle the cell's best until one settled stays best here: that one comes up
                weight, _, settled, boxes_mask, stand, boxes, before, box, to = heapq.heappop(heap)
                if box is not None and to is not None:
                    boxes = (boxes - {box}) | {to}
                if settled:
                    break
                matched = guide.cost(boxes, boxes_mask, before, box, to)
                if matched < INFINITY:  # else no box-goal matching: no plan from there
                    own = feature_of(board, open_squares, goals_mask, every, boxes_mask)
                    cells.add(own, matched, True, boxes_mask, stand, boxes, before, None, None)
            else:
                continue
            region = board.flood(open_squares & ~boxes_mask, stand)
            if (boxes_mask, region) in seen:
                continue
            if search_work(len(seen), routes) >= states:
                return SearchOutcome(Stop.STATE_LIMIT, seen=seen, routes=routes)
            if deadline < math.inf and time.perf_counter() > deadline:
                return SearchOutcome(Stop.DEADLINE, seen=seen, routes=routes)
            seen.add((boxes_mask, region))
            parent = came[boxes_mask, stand]
            if parent is not None and traps.deadlocked(boxes, board.cell(stand), parent[1][-1][1]):
                continue
            if (boxes_mask & goals_mask).bit_count() == every:
                path = tuple(push for route in links_back(came, (boxes_mask, stand)) for push in route)
                return SearchOutcome(Stop.FOUND, path, seen, routes)
            for pushed in sorted(boxes):
                others = boxes_mask ^ board.bit(pushed)
                found = (box_routes(board, steps, distance, open_squares, others, pushed, region) if compiled is None
                         else kernel.box_routes(compiled, level.floor, others, pushed, region))
                routes += len(found)
                for square, stand_after, route in found:
                    child = (others | board.bit(square), stand_after)
                    if child in came:
                        continue
                    came[child] = ((boxes_mask, stand), route)
                    packed = every - (child[0] & goals_mask).bit_count()
                    cells.add((packed, feature[1]), max(0, weight - len(route)), False, *child, boxes, boxes_mask, pushed,
                              square)


def box_routes(board: Board, steps: dict[Cell, tuple[Move, ...]], distance: dict[Cell, int], open_squares: int,
               others: int, box: Cell, region: int) -> list[tuple[Cell, int, Moves]]:
    """Every square the box on ``box`` can be pushed to alone (the boxes ``others`` fixed, the
    player starting in ``region``), once per player region there: the square, the player's square
    after the last push (as a bit) and the pushes. A breadth-first search: each route is a
    fewest-pushes one."""
    seen = {(box, region)}
    queue: deque[tuple[Cell, int, Moves]] = deque([(box, region, ())])
    found: list[tuple[Cell, int, Moves]] = []
    while queue:
        square, reach, path = queue.popleft()
        for to, to_bit, stand_after, needs, blocked_by in steps[square]:
            if not needs & reach or blocked_by & others or to not in distance:
                continue
            after = board.flood(open_squares & ~(others | to_bit), stand_after)
            if (to, after) in seen:
                continue
            seen.add((to, after))
            route = (*path, (square, to))
            found.append((to, stand_after, route))
            queue.append((to, after, route))
    return found


def feature_of(board: Board, open_squares: int, goals_mask: int, every: int, boxes_mask: int) -> Feature:
    """A state's cell: the boxes off the goals, and the player's regions (the floor left by the
    boxes, counted by floods)."""
    walkable = open_squares & ~boxes_mask
    regions = 0
    while walkable:
        walkable &= ~board.flood(walkable, walkable & -walkable)
        regions += 1
    return every - (boxes_mask & goals_mask).bit_count(), regions
