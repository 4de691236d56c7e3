"""The fewest pushes, by A*: a search over (boxes, player region) states ordered by pushes made
plus the cheapest matching of the boxes to goals of their own (``push_search.MatchingGuide``,
the fewest pushes of each box alone: never more than the pushes left, and a push lowers it by at
most one), so the first state taken up with every box on a goal is reached by the fewest pushes.

Sound: states are cut only when no plan from them exists (a box on a dead square, no matching, a
dead group holding the box just pushed, a frozen box off a goal: ``traps.Traps.deadlocked``) or
when they cannot lead to fewer than ``below`` pushes; where a PI-corral stands, only the pushes
into it are tried (``corrals.py``: some plan with the fewest pushes starts with one). So a search that runs out of states proves
that no plan has fewer than ``below`` pushes, and one cut short by its state budget proves the
least ordering value still waiting as a lower bound (``tests/sokoban/test_push_optimal.py`` checks
both against the breadth-first optimum). Costs one flood and one incremental matching per state
taken up; the budget counts those states, so an outcome is the same on every run.
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass

from sokoasp.board.level import Cell, Level
from sokoasp.sokoban.analysis import INFINITY, lone_box_distances
from sokoasp.sokoban.bitboard import board_of, floor_mask
from sokoasp.sokoban.corrals import pi_corral
from sokoasp.sokoban.push_search import MatchingGuide, Stop, move_table
from sokoasp.sokoban.pushes import Push, expand_pushes
from sokoasp.sokoban.traps import Traps

Key = tuple[int, int]  # (boxes, player square), as bits
CHECK_EVERY = 1024  # states between two looks at the clock (a look costs about as much as a state)


@dataclass(frozen=True)
class FewestPushes:
    """A* over pushes: ``pushes`` of a plan with the fewest pushes (when ``stop`` is FOUND), and
    ``lower_bound``: no plan has fewer pushes (``below`` itself when the search is EXHAUSTED)."""

    stop: Stop
    pushes: tuple[Push, ...]
    lower_bound: int
    states: int

    def lurd(self, level: Level) -> str | None:
        """The plan of the pushes found, with shortest walks between them (None: none found)."""
        return expand_pushes(level, list(self.pushes)) if self.stop is Stop.FOUND else None


def fewest_pushes(level: Level, below: int, states: int, deadline: float = math.inf) -> FewestPushes:
    """A plan of ``level`` with the fewest pushes, if that is fewer than ``below``, within
    ``states`` states taken up (``below``: INFINITY when no plan is known) and until the clock
    (``time.perf_counter``) passes ``deadline`` (the outer cap; then the stop is DEADLINE)."""
    free, goals = level.floor, level.goals
    distance = lone_box_distances(free, goals)
    if any(box not in distance for box in level.boxes):
        return FewestPushes(Stop.EXHAUSTED, (), INFINITY, 0)  # a box on a dead square: no plan at all
    board, guide, traps = board_of(free), MatchingGuide(free, goals, False), Traps(level, pulls=False)
    open_squares, goal_mask, steps = floor_mask(free), board.mask(goals), move_table(free, False)
    start_mask, fill_all = board.mask(level.boxes), len(goals) == len(level.boxes)
    first = guide.cost(level.boxes, start_mask)
    # (pushes made + matching, -pushes made (deeper first), order found, pushes made, boxes, player,
    #  the state before as a key, the push from it (box square before, after))
    todo: list[tuple[int, int, int, int, int, int, Key | None, tuple[Cell, Cell] | None]] = []
    if first < below:
        todo.append((first, 0, 0, 0, start_mask, board.bit(level.player), None, None))
    came: dict[Key, tuple[Key, tuple[Cell, Cell]] | None] = {}
    seen: set[tuple[int, int]] = set()
    found = 0
    while todo:
        if len(seen) >= states or (len(seen) % CHECK_EVERY == 0 and time.perf_counter() > deadline):
            stop = Stop.STATE_LIMIT if len(seen) >= states else Stop.DEADLINE
            return FewestPushes(stop, (), todo[0][0], len(seen))
        _, _, _, made, boxes_mask, stand, parent, push = heapq.heappop(todo)
        region = board.flood(open_squares & ~boxes_mask, stand)
        if (boxes_mask, region) in seen:
            continue
        seen.add((boxes_mask, region))
        came[(boxes_mask, stand)] = None if parent is None or push is None else (parent, push)
        boxes = frozenset(board.cells(boxes_mask))
        if push is not None and traps.deadlocked(boxes, board.cell(stand), push[1]):
            continue
        if boxes_mask & goal_mask == boxes_mask:
            return FewestPushes(Stop.FOUND, tuple(as_pushes(came, (boxes_mask, stand))), made, len(seen))
        corral = pi_corral(board, open_squares, region, boxes_mask, goal_mask, fill_all)
        into = -1 if corral is None else corral[1]  # the squares a push may go to
        for box in sorted(boxes) if corral is None else board.cells(corral[0]):
            box_bit = board.bit(box)
            for to, to_bit, stand_after, needs, blocked_by in steps[box]:
                if not needs & region or blocked_by & boxes_mask or not to_bit & into or to not in distance:
                    continue
                moved_mask = boxes_mask ^ box_bit | to_bit
                matched = guide.cost((boxes - {box}) | {to}, moved_mask, boxes_mask, box, to)
                if matched >= INFINITY or made + 1 + matched >= below:
                    continue
                found += 1
                heapq.heappush(todo, (made + 1 + matched, -(made + 1), found, made + 1, moved_mask, stand_after,
                                      (boxes_mask, stand), (box, to)))
    return FewestPushes(Stop.EXHAUSTED, (), below, len(seen))


def as_pushes(came: dict[Key, tuple[Key, tuple[Cell, Cell]] | None], key: Key) -> list[Push]:
    """The pushes along the links from the start to ``key``, first first."""
    pushes: list[Push] = []
    link = came[key]
    while link is not None:
        key, (box, to) = link
        pushes.append(Push(box, (to[0] - box[0], to[1] - box[1])))
        link = came[key]
    return pushes[::-1]
