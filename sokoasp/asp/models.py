"""Turning model symbols into a LURD plan string (lower case walk, upper case push).

Move families show ``move(DX,DY,T)`` and ``push(T)``: one letter per time step. Push families
show ``push(X,Y,DX,DY,T)`` (the macro family ``slide(X,Y,DX,DY,K,T)``: K pushes of one box in a
line), expanded with shortest walks between pushes (``sokoasp.sokoban.pushes``). The route
families show, per step, which box is lifted, where it is dropped and where the player ends
(``lift/3``, ``drop/3``, ``stand/3``); their pushes are found again by a search, and a wrong model
is caught by the simulator, not trusted. pull-route's steps are played back last to first."""

from __future__ import annotations

from collections.abc import Mapping

import clingo

from sokoasp.board.level import LETTER_OF, Cell, Level
from sokoasp.errors import SokoaspError
from sokoasp.sokoban.pushes import Push, Route, pushes_plan, reverse_route_pushes, route_pushes


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


def extract_plan(level: Level, symbols: list[clingo.Symbol], unit: str, reverse: bool = False) -> str:
    """The LURD plan of a model; ``reverse``: its routes are pulls (pull-route.lp)."""
    if unit != "push":
        return move_plan(symbols)
    routes = route_steps(symbols)
    if reverse:
        return pushes_plan(level, reverse_route_pushes(level, routes))
    return pushes_plan(level, route_pushes(level, routes) if routes else push_sequence(symbols))


