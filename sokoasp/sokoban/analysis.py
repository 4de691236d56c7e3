"""Static analysis of a level in Python: facts the strategies read, and cheap proofs.

- dead squares: a box there can never reach any goal, even alone on the board (found by
  pulling a box backwards from every goal; the "simple deadlock" of the solver literature);
- push distances: the fewest pushes that bring a box from a square to a goal, alone;
- slide distances: the same in straight slides (pushes of one box along a line), for macros;
- wall segments: runs of floor along a wall that a box cannot leave (generalised WBTC);
- packing layers: the order in which a filled goal area can be emptied by pulling;
- a proof of unsolvability when a box stands on a dead square or no box-goal matching exists.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from functools import lru_cache

from sokoasp.board.level import DIRECTIONS, Cell, Level, add
from sokoasp.sokoban.breadth_first import region_from

INFINITY = 10**9


def pull_distances(level: Level, goal: Cell) -> dict[Cell, int]:
    """Pushes needed to bring a lone box from each square to ``goal`` (absent: never)."""
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        cell = queue.popleft()
        for delta in DIRECTIONS.values():
            box_to = add(cell, delta)  # pull the box one step in delta
            player_to = add(box_to, delta)
            if box_to in level.floor and player_to in level.floor and box_to not in dist:
                dist[box_to] = dist[cell] + 1
                queue.append(box_to)
    return dist


@lru_cache(maxsize=256)
def distance_table(level: Level) -> dict[Cell, dict[Cell, int]]:
    """goal -> square -> pushes."""
    return {goal: pull_distances(level, goal) for goal in sorted(level.goals)}


def dead_squares(level: Level) -> frozenset[Cell]:
    live: set[Cell] = set()
    for dist in distance_table(level).values():
        live.update(dist)
    return frozenset(level.floor - live)


def nearest_goal_distances(level: Level) -> dict[Cell, int]:
    """Live square -> fewest pushes that bring a lone box from it to the nearest goal."""
    return lone_box_distances(level.floor, level.goals)


@lru_cache(maxsize=1024)
def lone_box_distances(free: frozenset[Cell], targets: frozenset[Cell], pulls: bool = False) -> dict[Cell, int]:
    """The fewest moves (``pulls``: pulls, else pushes) of a lone box from each square of
    ``free`` to the nearest of ``targets``, the player anywhere; squares missing can reach none.
    Cached (the stages ask it again for every end state): the dict is shared, never change it."""
    distance = {target: 0 for target in targets}
    queue = deque(sorted(targets))
    while queue:
        cell = queue.popleft()
        for delta in DIRECTIONS.values():
            before = (cell[0] - delta[0], cell[1] - delta[1])  # the box came from here, moving by delta
            player = add(cell, delta) if pulls else (before[0] - delta[0], before[1] - delta[1])
            if before in free and player in free and before not in distance:
                distance[before] = distance[cell] + 1
                queue.append(before)
    return distance


def slides_to(level: Level, targets: frozenset[Cell]) -> dict[Cell, int]:
    """Live square -> fewest straight slides that bring a lone box from it to the nearest of
    ``targets`` (breadth-first from them, undoing slides: the player needs the square behind)."""
    slides = {target: 0 for target in targets}
    queue = deque(sorted(targets))
    while queue:
        cell = queue.popleft()
        for delta in DIRECTIONS.values():
            start = add(cell, delta)  # the box slid from `start` against delta to `cell`
            while start in level.floor and add(start, delta) in level.floor:
                if start not in slides:
                    slides[start] = slides[cell] + 1
                    queue.append(start)
                start = add(start, delta)
    return slides


def nearest_goal_slides(level: Level) -> dict[Cell, int]:
    """Live square -> fewest straight slides that bring a lone box from it to the nearest goal."""
    return slides_to(level, level.goals)


def wall_segments(level: Level) -> list[frozenset[Cell]]:
    """Maximal runs of floor cells that all have a wall on the same side and walls at both
    ends: a box inside can only slide along the run, never leave it."""
    segments: set[frozenset[Cell]] = set()
    for side in DIRECTIONS.values():
        along = (side[1], side[0])  # perpendicular to the wall side
        for start in level.floor:
            if add(start, side) in level.floor or add(start, (-along[0], -along[1])) in level.floor:
                continue  # not against the wall, or not the first cell of a run
            run = [start]
            while add(run[-1], along) in level.floor and add(add(run[-1], along), side) not in level.floor:
                run.append(add(run[-1], along))
            if add(run[-1], along) not in level.floor:
                segments.add(frozenset(run))
    return sorted(segments, key=lambda s: sorted(s))


def packing_layers(level: Level) -> dict[Cell, int]:
    """Goal -> layer: empty the solved goal area by pulling; layer 1 are the goals whose box
    the player can pull out first (standing next to it, with room to step back), layer 2 the
    next, and so on; fill goals in reverse. Empty when the area cannot be emptied this way."""
    return dict(goal_layers(level.floor, level.goals))


@lru_cache(maxsize=4096)
def goal_layers(floor: frozenset[Cell], goals: frozenset[Cell]) -> dict[Cell, int]:
    """``packing_layers`` of the goals ``goals`` on ``floor`` (cached: the dict is shared, never change it)."""
    remaining, layer = set(goals), 0
    layers: dict[Cell, int] = {}
    while remaining:
        layer += 1
        region = region_from(floor, remaining, floor - goals)
        out = {g for g in remaining for d in DIRECTIONS.values()
               if add(g, d) in region and add(add(g, d), d) in region}
        if not out:
            return {}
        layers.update((g, layer) for g in out)
        remaining -= out
    return layers


def minimum_matching(cost: list[list[int]]) -> int:
    """Minimum-cost perfect matching (Hungarian algorithm); INFINITY if none exists."""
    return Assignment.solve(cost).total(cost)


@dataclass(frozen=True)
class Assignment:
    """An optimal assignment of the rows of a square cost matrix to its columns (Hungarian
    algorithm, e-maxx's layout): the dual potentials ``u`` (rows) and ``v`` (columns), and
    ``match[column]``, the row (1-based) assigned to it; index 0 is the algorithm's own."""

    u: list[int]
    v: list[int]
    match: list[int]

    @staticmethod
    def solve(matrix: list[list[int]]) -> Assignment:
        size = len(matrix) + 1
        assignment = Assignment([0] * size, [0] * size, [0] * size)
        for row in range(1, size):
            assignment.augment(row, matrix)
        return assignment

    def with_row(self, row: int, matrix: list[list[int]]) -> Assignment:
        """The assignment for ``matrix``, which differs from this one's in row ``row`` (0-based)
        alone: that row is matched again, the others keep theirs (their potentials stay
        feasible; the row's own is lowered until it is). n^2, where a whole solve is n^3."""
        match, u, v = list(self.match), list(self.u), list(self.v)
        row += 1
        match[match.index(row, 1)] = 0  # its column (index 0 holds the row the last step matched)
        u[row] = min(matrix[row - 1][column - 1] - v[column] for column in range(1, len(v)))
        assignment = Assignment(u, v, match)
        assignment.augment(row, matrix)
        return assignment

    def augment(self, row: int, matrix: list[list[int]]) -> None:
        """Match ``row`` (1-based), the matched rows moving along an augmenting path: one step
        of the Hungarian algorithm, n^2. The columns not yet on the path are kept in a list in
        column order, so each round scans only those (ties go to the first, as in e-maxx's)."""
        u, v, match = self.u, self.v, self.match
        size = len(v)
        way = [0] * size
        minv = [math.inf] * size
        unused, used = list(range(1, size)), [0]
        match[0], column0 = row, 0
        while match[column0]:
            row0, delta, column1 = match[column0], math.inf, 0
            costs, offset = matrix[row0 - 1], u[row0]
            for column in unused:
                current = costs[column - 1] - offset - v[column]
                if current < minv[column]:
                    minv[column], way[column] = current, column0
                if minv[column] < delta:
                    delta, column1 = minv[column], column
            step = int(delta)  # a reduced cost: finite, as every cost is
            for column in used:
                u[match[column]] += step
                v[column] -= step
            for column in unused:
                minv[column] -= step
            unused.remove(column1)
            used.append(column1)
            column0 = column1
        while column0:
            column1 = way[column0]
            match[column0] = match[column1]
            column0 = column1

    def total(self, matrix: list[list[int]]) -> int:
        """The assignment's cost in ``matrix``; INFINITY if it needs an impossible pair."""
        total = sum(matrix[self.match[column] - 1][column - 1] for column in range(1, len(self.match)))
        return INFINITY if total >= INFINITY else total


def push_lower_bound(level: Level, boxes: frozenset[Cell] | None = None) -> int:
    """A lower bound on the pushes of any plan: the cheapest box-goal matching."""
    boxes = level.boxes if boxes is None else boxes
    return matching_bound(distance_table(level), boxes)


def slide_lower_bound(level: Level) -> int:
    """A lower bound on the slides of any plan that slides one box per step: the cheapest
    box-goal matching on lone-box slides (every plan ends with each goal holding its own box,
    and each box needs at least its lone slides to that goal; the boxes' slides are distinct
    steps)."""
    return matching_bound({goal: slides_to(level, frozenset([goal])) for goal in sorted(level.goals)}, level.boxes)


def nearest_slide_sum(level: Level) -> int:
    """Each box's fewest lone slides to its nearest goal, summed: a weaker slide bound than the
    matching (two boxes may count the same goal)."""
    slides = nearest_goal_slides(level)
    return sum(slides.get(box, INFINITY) for box in level.boxes)


def matching_bound(table: dict[Cell, dict[Cell, int]], boxes: frozenset[Cell]) -> int:
    """The cheapest perfect matching of ``boxes`` to the goals of ``table`` (goal -> square -> cost)."""
    cost = [[table[goal].get(box, INFINITY) for goal in sorted(table)] for box in sorted(boxes)]
    return minimum_matching(cost)


def parallel_slide_lower_bound(level: Level) -> int:
    """A lower bound on the steps of any plan that slides several boxes per step: the box
    farthest (in slides) from its nearest goal."""
    slides = nearest_goal_slides(level)
    return max(slides.get(box, INFINITY) for box in level.boxes)


def boxes_off_goals(level: Level) -> int:
    """A lower bound on the box moves of any plan (the route family's steps): each box off a
    goal moves at least once."""
    return len(level.boxes - level.goals)


def unsolvable_reason(level: Level) -> str:
    """A reason the level cannot be solved, or '' when none is found (which proves nothing)."""
    dead = dead_squares(level)
    stuck = sorted(b for b in level.boxes if b in dead)
    if stuck:
        return f"the box at {stuck[0]} stands on a dead square: it can never reach a goal"
    if push_lower_bound(level) >= INFINITY:
        return "no assignment of boxes to goals is reachable by pushing"
    return ""
