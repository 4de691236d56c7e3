"""Turning model symbols into a LURD plan string (lower case walk, upper case push)."""

from __future__ import annotations

import clingo

from .errors import SokoaspError
from .level import Cell


class PlanExtractor:
    """Copies the shown symbols of the last model inside the model callback."""

    def __init__(self) -> None:
        self.symbols: list[clingo.Symbol] = []

    def reset(self) -> None:
        self.symbols = []

    def on_model(self, model: clingo.Model) -> None:
        self.symbols = list(model.symbols(shown=True))


def extract_plan(symbols: list[clingo.Symbol], letter_of: dict[Cell, str]) -> str:
    """LURD string from ``move(DX,DY,T)`` and ``push(T)`` atoms (one move per time step)."""
    moves: dict[int, str] = {}
    pushes: set[int] = set()
    for symbol in symbols:
        args = [a.number for a in symbol.arguments]
        if symbol.name == "move" and len(args) == 3:
            step = args[2]
            if step in moves:
                raise SokoaspError(f"the model has two moves at step {step}")
            moves[step] = letter_of[(args[0], args[1])]
        elif symbol.name == "push" and len(args) == 1:
            pushes.add(args[0])
    if sorted(moves) != list(range(1, len(moves) + 1)):
        raise SokoaspError(f"the model's moves are not numbered 1..n: {sorted(moves)}")
    return "".join(moves[t].upper() if t in pushes else moves[t] for t in sorted(moves))
