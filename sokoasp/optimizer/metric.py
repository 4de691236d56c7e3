"""What a shorter plan means: moves, pushes, or one of them first and the other to break ties,
and the clingo families that find the exact optimum of a window in each."""

from __future__ import annotations

from dataclasses import dataclass

from sokoasp.board.simulator import count_pushes
from sokoasp.errors import InputError

UNITS = ("moves", "pushes")
METRICS = ("moves", "pushes", "pushes,moves", "moves,pushes")


@dataclass(frozen=True)
class Family:
    """A clingo family whose horizon counts ``unit``, with strategies that keep every optimal plan."""

    unit: str
    encoding: str
    strategies: tuple[str, ...]


FAMILIES = {
    "moves": Family("moves", "incremental", ("dead", "ntb")),  # one move a step: move-optimal
    "pushes": Family("pushes", "push", ("dead", "freeze", "bound")),  # one push a step: push-optimal
}


@dataclass(frozen=True)
class Metric:
    """Units compared in order (``pushes,moves``: fewer pushes, then fewer moves)."""

    units: tuple[str, ...]

    @property
    def name(self) -> str:
        return ",".join(self.units)

    def cost(self, plan: str) -> tuple[int, ...]:
        return tuple(cost_in(unit, plan) for unit in self.units)

    @property
    def families(self) -> tuple[Family, ...]:
        """The families asked for each window, the first unit's first."""
        return tuple(FAMILIES[unit] for unit in self.units)


def cost_in(unit: str, plan: str) -> int:
    return len(plan) if unit == "moves" else count_pushes(plan)


def read_metric(text: str) -> Metric:
    """``moves``, ``pushes``, ``pushes,moves`` or ``moves,pushes``."""
    units = tuple(part.strip() for part in text.split(","))
    if ",".join(units) not in METRICS:
        raise InputError(f"--metric takes one of {', '.join(METRICS)}, not {text[:40]!r}")
    return Metric(units)
