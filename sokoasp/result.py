"""The result of one solver run: a status that never blurs outcomes, the plan, and numbers."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any

from sokoasp.errors import ExitCode


class Status(str, Enum):
    SOLVED_OPTIMAL = "solved (optimal)"
    SOLVED = "solved (not proven optimal)"
    NO_PLAN_UP_TO_HORIZON = "no plan up to horizon"
    NO_PLAN_AT_HORIZON = "no plan at this exact horizon"  # fixed-horizon encodings
    UNSOLVABLE = "proven unsolvable"
    TIMEOUT = "timeout"
    MEMORY_OUT = "memory out"
    ERROR = "error"

    @property
    def solved(self) -> bool:
        return self in (Status.SOLVED_OPTIMAL, Status.SOLVED)

    @property
    def exit_code(self) -> ExitCode:
        return {
            Status.SOLVED_OPTIMAL: ExitCode.SOLVED,
            Status.SOLVED: ExitCode.SOLVED,
            Status.NO_PLAN_UP_TO_HORIZON: ExitCode.NO_PLAN_UP_TO_HORIZON,
            Status.NO_PLAN_AT_HORIZON: ExitCode.NO_PLAN_UP_TO_HORIZON,
            Status.UNSOLVABLE: ExitCode.UNSOLVABLE,
            Status.TIMEOUT: ExitCode.TIMEOUT,
            Status.MEMORY_OUT: ExitCode.MEMORY_OUT,
            Status.ERROR: ExitCode.ERROR,
        }[self]


@dataclass(frozen=True)
class PhaseReport:
    """What one phase before the horizon loop did (``sokoasp.phases``), in a line: ``farthest``
    holds the moves to the farthest state it reached and ``home`` a board it reached backwards,
    where it reports them."""

    phase: str
    note: str
    farthest: str = ""
    home: str = ""


@dataclass
class Result:
    status: Status
    plan: str | None = None
    moves: int | None = None
    pushes: int | None = None
    horizon: int | None = None  # last horizon solved (in the family's time steps)
    optimal_for: str | None = None  # "moves" or "pushes" when optimality is proven
    times: dict[str, float] = field(default_factory=dict)  # ground, solve, total (seconds)
    stats: dict[str, Any] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)
    message: str = ""
    found_by: str | None = None  # the phase whose plan this is; None: the horizon loop (or no plan)
    phases: list[PhaseReport] = field(default_factory=list)  # what the phases before the loop did, in order

    def report(self, phase: str) -> PhaseReport | None:
        """The last report of ``phase``, if it ran."""
        return next((report for report in reversed(self.phases) if report.phase == phase), None)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["status"] = self.status.value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        data = dict(data)
        data["status"] = Status(data["status"])
        data["phases"] = [PhaseReport(**report) for report in data.get("phases", [])]
        return cls(**data)
