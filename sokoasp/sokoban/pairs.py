"""Two-box deadlocks: a table of every state of two boxes alone on the board, searched once per
level (a pattern database of two boxes, after Rolling Stone's pattern searches and the Sokoban
wiki's deadlock tables).

A two-box state is the pair of squares and the side of them the player is on. A breadth-first
search by pulls from every state with both boxes on goals finds every two-box state from which
both boxes can still be pushed onto goals; the others are dead. Sound for any state of the level:
taking the other boxes away only frees squares and walks, so a state with two boxes on a dead
two-box state has no plan (``encodings/strategies/pairs/push.lp`` forbids it).

The same search counts the pulls, so it gives the fewest pushes that bring two boxes alone onto
goals: with each other box's pushes to its nearest goal, a lower bound on the pushes left
(``pair_lower_bound``, which the horizon loop and the bound strategy use). To keep the grounding
small, only pairs of squares that two different boxes can each reach are listed."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, pairwise

from sokoasp.board.level import DIRECTIONS, Cell, Level, add
from sokoasp.sokoban.analysis import lone_box_distances, push_lower_bound
from sokoasp.sokoban.bitboard import Board, board_of

Pair = tuple[Cell, Cell]  # two squares, the smaller first


@dataclass(frozen=True)
class PairTable:
    """The dead two-box states of a level: ``dead`` pairs are dead wherever the player stands;
    ``dead_sides`` maps a pair to the squares next to its boxes on the sides where it is dead."""

    dead: frozenset[Pair]
    dead_sides: dict[Pair, frozenset[Cell]]
    extra: dict[Pair, int]  # pushes beyond the two boxes' own distances, the player on its best side
    extra_sides: dict[Pair, dict[Cell, int]]  # more than that from the side holding the square (next to a box)

    def facts(self) -> str:
        lines = [f"dead_pair({a[0]},{a[1]},{b[0]},{b[1]})." for a, b in sorted(self.dead)]
        for (a, b), cells in sorted(self.dead_sides.items()):
            lines += [f"dead_pair_side({a[0]},{a[1]},{b[0]},{b[1]},{x},{y})." for x, y in sorted(cells)]
        return "".join(line + "\n" for line in lines)

    def bound_facts(self) -> str:
        """pair_extra/5, pair_extra_side/7 (a square next to the boxes on a side with a larger
        extra), and extra_step(V,W): the extras that occur, each with how far it lies above the
        one below (so that the largest extra of a state is a sum of steps)."""
        lines = [f"pair_extra({a[0]},{a[1]},{b[0]},{b[1]},{e})." for (a, b), e in sorted(self.extra.items())]
        for (a, b), cells in sorted(self.extra_sides.items()):
            lines += [f"pair_extra_side({a[0]},{a[1]},{b[0]},{b[1]},{x},{y},{e})." for (x, y), e in sorted(cells.items())]
        values = sorted(set(self.extra.values()).union(*(cells.values() for cells in self.extra_sides.values())))
        lines += [f"extra_step({value},{value - below})." for below, value in pairwise([0, *values])]
        return "".join(line + "\n" for line in lines)


class PairSides:
    """The sides (parts of the floor without the two squares) of each pair, as bitboards, cached."""

    def __init__(self, floor: frozenset[Cell]) -> None:
        self.board: Board = board_of(floor)
        self.open = self.board.mask(floor)
        self.cache: dict[Pair, list[int]] = {}

    def of(self, pair: Pair) -> list[int]:
        sides = self.cache.get(pair)
        if sides is None:
            sides = self.board.parts(self.open & ~(self.board.bit(pair[0]) | self.board.bit(pair[1])))
            self.cache[pair] = sides
        return sides

    def side_of(self, pair: Pair, cell: Cell) -> int:
        bit = self.board.bit(cell)
        return next(index for index, side in enumerate(self.of(pair)) if side & bit)


def ordered(a: Cell, b: Cell) -> Pair:
    return (a, b) if a < b else (b, a)


State = tuple[Pair, int]  # two squares and the index of the player's side of them


def pair_distances(floor: frozenset[Cell], goals: frozenset[Cell], sides: PairSides) -> dict[State, int]:
    """Every (pair, side) from which both boxes can be pushed onto goals, with the fewest pushes
    that do it: a breadth-first search by pulls back from both boxes on goals, the player on
    any side."""
    alive = {(pair, side): 0 for pair in combinations(sorted(goals), 2) for side in range(len(sides.of(pair)))}
    todo = deque(alive)
    while todo:
        pair, side = todo.popleft()
        pulls = alive[(pair, side)] + 1
        region = sides.of(pair)[side]
        for index, box in enumerate(pair):
            other = pair[1 - index]
            for delta in DIRECTIONS.values():
                stand = add(box, delta)  # the player pulls the box from here onto this square
                step = add(stand, delta)  # and steps back here
                if stand in floor and step in floor and other not in (stand, step) and sides.board.bit(stand) & region:
                    moved = ordered(stand, other)
                    state = (moved, sides.side_of(moved, step))
                    if state not in alive:
                        alive[state] = pulls
                        todo.append(state)
    return alive


def reachable_squares(level: Level) -> list[frozenset[Cell]]:
    """For each box, the squares it can be pushed to alone from its start square."""
    reach = []
    for box in sorted(level.boxes):
        pushed = lone_box_distances(level.floor, frozenset([box]), pulls=True)  # pulls back to the box = pushes from it
        reach.append(frozenset(pushed))
    return reach


def relevant_pairs(level: Level) -> list[Pair]:
    """Pairs of distinct squares that two different boxes can each be pushed to alone."""
    owners: dict[Cell, set[int]] = {}
    for number, squares in enumerate(reachable_squares(level)):
        for square in squares:
            owners.setdefault(square, set()).add(number)
    return [(a, b) for a, b in combinations(sorted(owners), 2)
            if len(owners[a]) > 1 or len(owners[b]) > 1 or owners[a] != owners[b]]


def searched(level: Level) -> tuple[PairSides, dict[State, int]]:
    """The sides of the level's pairs and ``pair_distances``."""
    return alive_pairs(level.floor, level.goals)


@lru_cache(maxsize=16)
def alive_pairs(floor: frozenset[Cell], goals: frozenset[Cell]) -> tuple[PairSides, dict[State, int]]:
    """The sides of the pairs of ``floor`` and ``pair_distances`` (cached: the strategies, the
    bound, the unsolvability test and the searches' group deadlocks of one level share one search)."""
    sides = PairSides(floor)
    return sides, pair_distances(floor, goals, sides)


def pair_is_dead(floor: frozenset[Cell], goals: frozenset[Cell], pair: Pair, player: Cell) -> bool:
    """Whether the two boxes of ``pair`` (the smaller first), alone on ``floor`` with the player
    on ``player``, cannot both be pushed onto goals: a look-up in ``alive_pairs``."""
    sides, alive = alive_pairs(floor, goals)
    return (pair, sides.side_of(pair, player)) not in alive


@lru_cache(maxsize=65_536)
def pair_never_dead(floor: frozenset[Cell], goals: frozenset[Cell], pair: Pair) -> bool:
    """Whether the two boxes of ``pair`` (the smaller first), alone on ``floor``, can both be
    pushed onto goals from every side of them (``alive_pairs``): most pairs can, and then where
    the player stands need not be worked out (cached per pair)."""
    sides, alive = alive_pairs(floor, goals)
    return all((pair, index) in alive for index in range(len(sides.of(pair))))


@lru_cache(maxsize=16)
def pair_table(level: Level) -> PairTable:
    """The dead two-box states among the pairs two boxes of ``level`` can stand on, and the
    pushes the two need beyond their distances alone (cached: pairs and bound share it; never
    change its dicts)."""
    sides, alive = searched(level)
    live = lone_box_distances(level.floor, level.goals)
    dead: set[Pair] = set()
    dead_sides: dict[Pair, frozenset[Cell]] = {}
    extra: dict[Pair, int] = {}
    extra_sides: dict[Pair, dict[Cell, int]] = {}
    for pair in relevant_pairs(level):
        if pair[0] not in live or pair[1] not in live:
            continue  # a box on a dead square: the dead strategy's business
        parts = sides.of(pair)
        pushes = {index: alive[(pair, index)] for index in range(len(parts)) if (pair, index) in alive}
        if not pushes:
            dead.add(pair)
            continue
        own = live[pair[0]] + live[pair[1]]
        least = min(pushes.values())
        near = {cell: sides.side_of(pair, cell)
                for cell in {add(box, delta) for box in pair for delta in DIRECTIONS.values()} & level.floor - set(pair)}
        lost = frozenset(cell for cell, index in near.items() if index not in pushes)
        if lost:
            dead_sides[pair] = lost
        if least > own:
            extra[pair] = least - own
        more = {cell: pushes[index] - own for cell, index in near.items() if pushes.get(index, least) > least}
        if more:
            extra_sides[pair] = more
    return PairTable(frozenset(dead), dead_sides, extra, extra_sides)


def pair_facts(level: Level) -> str:
    """The facts ``encodings/strategies/pairs/push.lp`` reads."""
    return pair_table(level).facts()


def pair_bound_facts(level: Level) -> str:
    """The facts ``encodings/strategies/bound/push.lp`` reads beyond dist/3."""
    return pair_table(level).bound_facts()


def start_pairs(level: Level) -> Iterator[tuple[Pair, State | None, int]]:
    """Each pair of the level's boxes with at least one off the goals, both on live squares:
    its state (the player where it stands) and the pushes the two need beyond their distances
    alone, or None when the two cannot both reach goals."""
    sides, alive = searched(level)
    live = lone_box_distances(level.floor, level.goals)
    for pair in combinations(sorted(level.boxes), 2):
        if set(pair) <= live.keys() and not set(pair) <= level.goals:
            state = (pair, sides.side_of(pair, level.player))
            yield pair, state if state in alive else None, alive.get(state, 0) - live[pair[0]] - live[pair[1]]


def dead_pair_reason(level: Level) -> str:
    """A reason the level cannot be solved: two of its boxes that cannot both reach goals even
    alone, the player where it stands; or '' (which proves nothing)."""
    for pair, state, _ in start_pairs(level):
        if state is None:
            return f"the boxes at {pair[0]} and {pair[1]} cannot both reach goals, even with every other box gone"
    return ""


def pair_lower_bound(level: Level) -> int:
    """A lower bound on the pushes of any plan: each box's pushes to its nearest goal alone,
    summed, plus the most that two of the boxes need beyond their own (0 for a level with a
    dead pair: ``dead_pair_reason`` says so)."""
    live = lone_box_distances(level.floor, level.goals)
    alone = sum(live.get(box, 0) for box in level.boxes)
    return alone + max((beyond for _, state, beyond in start_pairs(level) if state is not None), default=0)


def push_bound(level: Level) -> int:
    """The stronger of two lower bounds on the pushes of any plan: the cheapest box-goal
    matching (``analysis.push_lower_bound``) and ``pair_lower_bound``."""
    return max(push_lower_bound(level), pair_lower_bound(level))
