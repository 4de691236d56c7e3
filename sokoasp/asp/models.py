"""Turning model symbols into a LURD plan string (lower case walk, upper case push).

Move families show ``move(DX,DY,T)`` and ``push(T)``: one letter per time step.
Push families show ``push(X,Y,DX,DY,T)`` (the macro family ``slide(X,Y,DX,DY,K,T)``, K pushes
of one box in a line): each push is expanded with a shortest walk of the player to the square
behind the box (so the plan is push-optimal, not move-optimal). The route family shows, per
step, which box is lifted, where it is dropped and where the player ends (``lift/3``,
``drop/3``, ``stand/3``); its pushes are found again by a search over (box, player) squares
with the other boxes fixed, and a wrong model is caught by the simulator, not trusted. The
reverse route family (pull-route) shows the same atoms for pulls from the goals; its steps are
played back last to first, each as a push route.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass

import clingo

from sokoasp.board.level import DIRECTIONS, LETTER_OF, Cell, Level, add
from sokoasp.errors import SokoaspError
from sokoasp.sokoban.breadth_first import links_back, player_region


class PlanExtractor:
    """Copies the shown symbols of the last model inside the model callback."""

    def __init__(self) -> None:
        self.symbols: list[clingo.Symbol] = []
        self.found = False

    def reset(self) -> None:
        self.symbols, self.found = [], False

    def on_model(self, model: clingo.Model) -> bool:
        """Keep the model; False would ask clingo to stop, True to go on enumerating."""
        self.symbols, self.found = list(model.symbols(shown=True)), True
        return True


@dataclass(frozen=True)
class Push:
    box: Cell
    delta: Cell


def numbers(symbol: clingo.Symbol) -> list[int]:
    return [a.number for a in symbol.arguments]


def numbered_steps(steps: Mapping[int, object], what: str) -> list[int]:
    if sorted(steps) != list(range(1, len(steps) + 1)):
        raise SokoaspError(f"the model's {what} are not numbered 1..n: {sorted(steps)}")
    return sorted(steps)


def move_plan(symbols: list[clingo.Symbol]) -> str:
    """LURD string from ``move(DX,DY,T)`` and ``push(T)`` atoms (one move per time step)."""
    moves: dict[int, str] = {}
    pushes: set[int] = set()
    for symbol in symbols:
        if symbol.name == "move" and len(symbol.arguments) == 3:
            dx, dy, step = numbers(symbol)
            if step in moves:
                raise SokoaspError(f"the model has two moves at step {step}")
            moves[step] = LETTER_OF[(dx, dy)]
        elif symbol.name == "push" and len(symbol.arguments) == 1:
            pushes.add(numbers(symbol)[0])
    return "".join(moves[t].upper() if t in pushes else moves[t] for t in numbered_steps(moves, "moves"))


def push_sequence(symbols: list[clingo.Symbol]) -> list[Push]:
    """The pushes of a push-family model in time order. The pushes (or slides) of one parallel
    step come in (x, y) order of their boxes, as push-parallel.lp and push-macro-parallel.lp
    serialise them; a slide becomes its single pushes."""
    steps: dict[int, list[tuple[Cell, list[Push]]]] = {}
    for symbol in symbols:
        if symbol.name == "push" and len(symbol.arguments) == 5:
            x, y, dx, dy, step = numbers(symbol)
            length = 1
        elif symbol.name == "slide" and len(symbol.arguments) == 6:
            x, y, dx, dy, length, step = numbers(symbol)
        else:
            continue
        pushes = [Push((x + k * dx, y + k * dy), (dx, dy)) for k in range(length)]
        steps.setdefault(step, []).append(((x, y), pushes))
    in_order = [sorted(steps[t], key=lambda entry: entry[0]) for t in numbered_steps(steps, "pushes")]
    return [push for step in in_order for _, pushes in step for push in pushes]


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


def route_steps(symbols: list[clingo.Symbol]) -> list[Route]:
    """The routes of a push-route model in time order."""
    parts: dict[int, dict[str, Cell]] = {}
    for symbol in symbols:
        if symbol.name in ("lift", "drop", "stand") and len(symbol.arguments) == 3:
            x, y, step = numbers(symbol)
            parts.setdefault(step, {})[symbol.name] = (x, y)
    if not parts:
        return []
    steps = numbered_steps(parts, "routes")
    for step in steps:
        if len(parts[step]) != 3:
            raise SokoaspError(f"the model's route at step {step} lacks {sorted({'lift', 'drop', 'stand'} - set(parts[step]))}")
    return [(parts[t]["lift"], parts[t]["drop"], parts[t]["stand"]) for t in steps]


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


def extract_plan(level: Level, symbols: list[clingo.Symbol], unit: str, reverse: bool = False) -> str:
    """The LURD plan of a model; ``reverse``: its routes are pulls (pull-route.lp)."""
    if unit != "push":
        return move_plan(symbols)
    routes = route_steps(symbols)
    if reverse:
        return pushes_plan(level, reverse_route_pushes(level, routes))
    return pushes_plan(level, route_pushes(level, routes) if routes else push_sequence(symbols))


def pushes_plan(level: Level, pushes: list[Push]) -> str:
    """The LURD plan of pushes from the level's start, stretches that return to an earlier
    state cut."""
    return expand_pushes(level, without_cycles(level, pushes))
