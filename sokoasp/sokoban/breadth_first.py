"""Exact breadth-first search over pushes, with a node budget (deterministic, unlike a time
limit): the push optimum of small levels, for generator manifests and benchmarks."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import NamedTuple, TypeVar

from sokoasp.board.level import DIRECTIONS, Cell, Level, add


def player_region(floor: frozenset[Cell], boxes: frozenset[Cell] | set[Cell], start: Cell) -> frozenset[Cell]:
    """The cells the player can walk to from ``start`` without moving a box."""
    return region_from(floor, boxes, [start])


def region_from(floor: frozenset[Cell], blocked: frozenset[Cell] | set[Cell], starts: Iterable[Cell]) -> frozenset[Cell]:
    """The floor cells reachable from any of ``starts`` (those not blocked) without entering
    a blocked cell."""
    seen = {cell for cell in starts if cell not in blocked}
    todo = list(seen)
    while todo:
        cell = todo.pop()
        for delta in DIRECTIONS.values():
            nxt = add(cell, delta)
            if nxt in floor and nxt not in blocked and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return frozenset(seen)


Key = TypeVar("Key")
Move = TypeVar("Move")


def links_back(came: Mapping[Key, tuple[Key, Move] | None], state: Key) -> list[Move]:
    """The moves along a search's links (a state -> the state before it and the move between,
    None at the start) from its start to ``state``, first first."""
    moves: list[Move] = []
    link = came[state]
    while link is not None:
        state, move = link
        moves.append(move)
        link = came[state]
    return moves[::-1]


State = tuple[frozenset[Cell], Cell]  # the boxes, and the player's region by its least square
Step = tuple[State, Cell, Cell]  # the state before, the box pushed and the direction


class SearchEnd(NamedTuple):
    """How a search over pushes ended: the pushes found (or None), the states it stored, and the
    pushes of the deepest state it took up (every state with fewer was searched)."""

    pushes: list[tuple[Cell, Cell]] | None
    states: int
    depth: int


def push_optimum(level: Level, node_limit: int = 50_000) -> int | None:
    """Fewest pushes, or None when the budget runs out first (or the level is unsolvable)."""
    pushes = optimal_pushes(level, node_limit)
    return None if pushes is None else len(pushes)


def optimal_pushes(level: Level, node_limit: int = 50_000) -> list[tuple[Cell, Cell]] | None:
    """A plan with the fewest pushes, as (box square, direction) pairs, or None when the budget
    runs out first (or the level is unsolvable)."""
    return fewest_pushes_until(level.floor, level.boxes, level.player, lambda boxes: boxes == level.goals, node_limit).pushes


def fewest_pushes_until(floor: frozenset[Cell], start: frozenset[Cell], player: Cell,
                        done: Callable[[frozenset[Cell]], bool], node_limit: int,
                        box_squares: frozenset[Cell] | None = None,
                        dead: Callable[[frozenset[Cell], Cell, Cell], bool] | None = None) -> SearchEnd:
    """The fewest pushes of the boxes ``start`` on ``floor`` (the player starting on ``player``),
    boxes pushed onto ``box_squares`` only (default: any floor), never into a state that is
    ``dead`` (asked with the boxes, the player and the square the box was pushed onto), after
    which the boxes are ``done``: None with more than ``node_limit`` states stored when the
    budget ran out first, None with at most that many when no such pushes exist."""
    squares = floor if box_squares is None else box_squares
    start_region = player_region(floor, start, player)
    came_from: dict[State, Step | None] = {(start, min(start_region)): None}
    queue = deque([(start, start_region, 0)])
    depth = 0
    while queue:
        boxes, region, depth = queue.popleft()
        if done(boxes):
            return SearchEnd(pushes_to(came_from, (boxes, min(region))), len(came_from), depth)
        for box in boxes:
            for delta in DIRECTIONS.values():
                stand, beyond = (box[0] - delta[0], box[1] - delta[1]), add(box, delta)
                if stand not in region or beyond not in squares or beyond in boxes:
                    continue
                moved = (boxes - {box}) | {beyond}
                reach = player_region(floor, moved, box)
                key = (moved, min(reach))
                if key not in came_from and (dead is None or not dead(moved, box, beyond)):
                    came_from[key] = ((boxes, min(region)), box, delta)
                    if len(came_from) > node_limit:
                        return SearchEnd(None, len(came_from), depth)
                    queue.append((moved, reach, depth + 1))
    return SearchEnd(None, len(came_from), depth)


def pushes_to(came_from: dict[State, Step | None], state: State) -> list[tuple[Cell, Cell]]:
    """The pushes that led the search from its start to ``state``."""
    pushes = []
    step = came_from[state]
    while step is not None:
        state, box, delta = step
        pushes.append((box, delta))
        step = came_from[state]
    return pushes[::-1]


def move_optimum(level: Level, node_limit: int = 50_000) -> int | None:
    """Fewest player moves, or None when the budget runs out first (or the level is unsolvable)."""
    start = (level.player, level.boxes)
    seen = {start}
    queue = deque([(level.player, level.boxes, 0)])
    while queue:
        player, boxes, depth = queue.popleft()
        if boxes == level.goals:
            return depth
        for delta in DIRECTIONS.values():
            nxt = add(player, delta)
            if nxt not in level.floor:
                continue
            moved = boxes
            if nxt in boxes:
                beyond = add(nxt, delta)
                if beyond not in level.floor or beyond in boxes:
                    continue
                moved = (boxes - {nxt}) | {beyond}
            if (nxt, moved) not in seen:
                seen.add((nxt, moved))
                if len(seen) > node_limit:
                    return None
                queue.append((nxt, moved, depth + 1))
    return None
