"""Push sequences as LURD plans: shortest walks between pushes, push routes of one box, cycles cut."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from sokoasp.board.level import DIRECTIONS, LETTER_OF, Cell, Level, add
from sokoasp.errors import SokoaspError
from sokoasp.sokoban.breadth_first import links_back, player_region


@dataclass(frozen=True)
class Push:
    box: Cell
    delta: Cell


def walk(level: Level, boxes: set[Cell], start: Cell, goal: Cell) -> str | None:
    """A shortest walk (lower-case letters) avoiding boxes, or None if there is none."""
    came: dict[Cell, tuple[Cell, str] | None] = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == goal:
            letters = []
            while came[cell] is not None:
                cell, letter = came[cell]  # type: ignore[misc]
                letters.append(letter)
            return "".join(reversed(letters))
        for letter, delta in DIRECTIONS.items():
            nxt = add(cell, delta)
            if nxt in level.floor and nxt not in boxes and nxt not in came:
                came[nxt] = (cell, letter)
                queue.append(nxt)
    return None


def expand_pushes(level: Level, pushes: list[Push]) -> str:
    """The LURD plan of a push sequence. A push the player cannot get to is written as the
    bare push letter, so the simulator rejects the plan at that point."""
    player, boxes, plan = level.player, set(level.boxes), []
    for push in pushes:
        stand = (push.box[0] - push.delta[0], push.box[1] - push.delta[1])
        plan.append(walk(level, boxes, player, stand) or "")
        plan.append(LETTER_OF[push.delta].upper())
        boxes.discard(push.box)
        boxes.add(add(push.box, push.delta))
        player = push.box
    return "".join(plan)


def without_cycles(level: Level, pushes: list[Push]) -> list[Push]:
    """The push sequence with every stretch that returns to an earlier state (same boxes, same
    player region) cut out: satisficing plans often push a box away and back. The pushes kept
    are legal in order, since each starts from the same state as before. Stops at the first
    illegal push (the simulator then rejects the plan there), so no illegal push is ever cut away."""
    boxes = set(level.boxes)
    region = player_region(level.floor, boxes, level.player)
    states = [(frozenset(boxes), min(region))]  # boxes and the player region's least cell
    kept: list[Push] = []
    for index, push in enumerate(pushes):
        stand, target = (push.box[0] - push.delta[0], push.box[1] - push.delta[1]), add(push.box, push.delta)
        if push.box not in boxes or stand not in region or target not in level.floor or target in boxes:
            return kept + pushes[index:]
        boxes.discard(push.box)
        boxes.add(target)
        region = player_region(level.floor, boxes, push.box)
        key = (frozenset(boxes), min(region))
        if key in states:
            back_to = states.index(key)
            del kept[back_to:], states[back_to + 1:]
        else:
            kept.append(push)
            states.append(key)
    return kept


Route = tuple[Cell, Cell, Cell | None]  # lifted box, dropped box, player's end square (None: anywhere)


State = tuple[Cell, Cell]  # box, player


def route_pushes(level: Level, routes: list[Route]) -> list[Push]:
    """The pushes of the routes, one after the other, from the level's start. A route whose
    player end square is None may leave the player anywhere."""
    boxes, player, pushes = set(level.boxes), level.player, []
    for number, (lift, drop, stand) in enumerate(routes, start=1):
        found = fewest_pushes(level.floor, frozenset(boxes - {lift}), lift, player, drop, stand)
        if found is None:
            raise SokoaspError(f"no route for the box at {lift} to {drop} at step {number}")
        pushes += found
        boxes.discard(lift)
        boxes.add(drop)
        player = stand if stand is not None else (found[-1].box if found else player)
    return pushes


def reverse_route_pushes(level: Level, routes: list[Route]) -> list[Push]:
    """The pushes of a pull-route model: its routes (pulls from the goals back to the start
    squares) played last to first, each as a push route from where the box was dropped back
    to where it was lifted. Backward step k begins with the player in the region of step k-1's
    stand, so the push route must end with the player able to walk there; after the first
    backward step (the last push route) the player may stand anywhere."""
    forward = [(drop, lift, routes[number - 2][2] if number > 1 else None)
               for number, (lift, drop, _) in reversed(list(enumerate(routes, start=1)))]
    return route_pushes(level, forward)


def fewest_pushes(floor: frozenset[Cell], others: frozenset[Cell], box: Cell, player: Cell,
                  drop: Cell, stand: Cell | None) -> list[Push] | None:
    """Fewest pushes that bring ``box`` to ``drop`` with the player able to walk to ``stand``
    (None: anywhere), the boxes in ``others`` fixed (0-1 breadth-first search: walking is free)."""
    start = (box, player)
    pushes_at = {start: 0}
    came: dict[State, tuple[State, Push | None] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if state[0] == drop and stand in (None, state[1]):
            return [push for push in links_back(came, state) if push is not None]
        for nxt, push in moves(floor, others, state):
            cost = pushes_at[state] + (push is not None)
            if cost < pushes_at.get(nxt, cost + 1):
                pushes_at[nxt], came[nxt] = cost, (state, push)
                if push:
                    queue.append(nxt)
                else:
                    queue.appendleft(nxt)
    return None


def moves(floor: frozenset[Cell], others: frozenset[Cell], state: State) -> list[tuple[State, Push | None]]:
    """The player's steps from a (box, player) state: a walk, or a push of the box."""
    box, player = state
    found: list[tuple[State, Push | None]] = []
    for delta in DIRECTIONS.values():
        step = add(player, delta)
        if step not in floor or step in others:
            continue
        if step != box:
            found.append(((box, step), None))
        elif (beyond := add(box, delta)) in floor and beyond not in others:
            found.append(((beyond, box), Push(box, delta)))
    return found


def pushes_plan(level: Level, pushes: list[Push]) -> str:
    """The LURD plan of pushes from the level's start, stretches that return to an earlier
    state cut."""
    return expand_pushes(level, without_cycles(level, pushes))


@dataclass(frozen=True)
class StagePlan:
    """Stage plans joined: forwards the LURD moves; backwards (pull-route stages) the pull
    routes, in the order found (from the goals back to the start)."""

    moves: str = ""
    routes: tuple[Route, ...] = ()

    def __add__(self, other: StagePlan) -> StagePlan:
        return StagePlan(self.moves + other.moves, self.routes + other.routes)

    def moved_onto(self, start: Level) -> frozenset[Cell]:
        """Every square a box is pushed (backwards: pulled) onto on the way from ``start``:
        a box that stands on none of them at the end has not moved."""
        if self.routes:
            return frozenset(drop for _, drop, _ in self.routes)
        squares, player = set(), start.player
        for move in self.moves:
            player = add(player, DIRECTIONS[move.lower()])
            if move.isupper():
                squares.add(add(player, DIRECTIONS[move.lower()]))
        return frozenset(squares)

    def describe(self) -> str:
        if self.routes:
            return f"{len(self.routes)} box route{'s' * (len(self.routes) != 1)} pulled"
        return f"{len(self.moves)} moves"

    def lurd(self, level: Level) -> str:
        """The plan from ``level``'s start: the moves, or the routes played back as pushes."""
        if not self.routes:
            return self.moves
        return pushes_plan(level, reverse_route_pushes(level, list(self.routes)))
