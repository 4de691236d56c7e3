"""What a shorter plan means: moves, pushes, one of them first and the other to break ties, or
(``pareto``) shorter in one and longer in neither; and the clingo families that find the exact
optimum of a window in each."""

from __future__ import annotations

from dataclasses import dataclass

from sokoasp.board.simulator import count_pushes
from sokoasp.errors import InputError

UNITS = ("moves", "pushes")
METRICS = ("moves", "pushes", "pushes,moves", "moves,pushes", "pareto")
PARETO = ("pushes", "moves")  # the units of ``pareto``, in the order their windows are asked


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
    """Units compared in order (``pushes,moves``: fewer pushes, then fewer moves), or with
    ``pareto`` each on its own: a plan is better when no unit is longer and one is shorter."""

    units: tuple[str, ...]
    pareto: bool = False

    @property
    def name(self) -> str:
        return "pareto" if self.pareto else ",".join(self.units)

    def cost(self, plan: str) -> tuple[int, ...]:
        return tuple(cost_in(unit, plan) for unit in self.units)

    def better(self, plan: str, than: str) -> bool:
        """Whether ``plan`` is shorter than ``than`` in this metric."""
        mine, theirs = self.cost(plan), self.cost(than)
        if self.pareto:
            return mine != theirs and all(a <= b for a, b in zip(mine, theirs, strict=True))
        return mine < theirs

    @property
    def families(self) -> tuple[Family, ...]:
        """The families asked for each window, the first unit's first."""
        return tuple(FAMILIES[unit] for unit in self.units)


def cost_in(unit: str, plan: str) -> int:
    return len(plan) if unit == "moves" else count_pushes(plan)


def read_metric(text: str) -> Metric:
    """``moves``, ``pushes``, ``pushes,moves``, ``moves,pushes`` or ``pareto``."""
    units = tuple(part.strip() for part in text.split(","))
    if ",".join(units) not in METRICS:
        raise InputError(f"--metric takes one of {', '.join(METRICS)}, not {text[:40]!r}")
    return Metric(PARETO, pareto=True) if units == ("pareto",) else Metric(units)
