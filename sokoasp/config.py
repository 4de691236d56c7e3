"""The configuration of one run (encoding, strategies, horizon bounds, phases, limits) and its
clock. A configuration is a value: the pipeline, the grid and the portfolio build it, the phases
and the horizon loop read it."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata

DEFAULT_MAX_HORIZON = 200

Progress = Callable[[str], None]


@dataclass(frozen=True)
class PhaseRun:
    """One phase of a run (a name of ``sokoasp.phases.PHASES``) and its seconds."""

    name: str
    seconds: float

    def __str__(self) -> str:
        return f"{self.name}={self.seconds:g}"


def has_stages(phases: tuple[PhaseRun, ...]) -> bool:
    """Whether ``phases`` plan in stages (the staged phase is among them)."""
    return any(run.name == "staged" for run in phases)


@dataclass(frozen=True)
class SolveConfig:
    encoding: str = "incremental"
    strategies: tuple[str, ...] = ()
    horizon: int | None = None  # fixed-horizon encodings
    min_horizon: int = 0  # incremental encodings
    start_factor: int = 1  # incremental encodings: first horizon = start_factor x the start scale
    max_horizon: int = DEFAULT_MAX_HORIZON
    time_limit: float | None = None  # seconds; soft (solving only)
    clingo_args: tuple[str, ...] = ()
    phases: tuple[PhaseRun, ...] = ()  # run in this order before the horizon loop; the first plan wins
    stage_encoding: str | None = None  # the family of the stages, or several in turn: "push-macro+push-route"
    end_game: bool = True  # stages: the last few boxes by a search in Python (sokoasp.sokoban.end_game)
    interleave: int = 1  # jump families: how many horizons are asked in turn (1: one after another)
    descend: bool = False  # push-jump: max_horizon first, then one push fewer than each plan, to a refutation

    @property
    def stage_families(self) -> tuple[str, ...]:
        """The push families the stages of a staged search run in, taking turns pass by pass
        (default: the encoding's own)."""
        return tuple(self.stage_encoding.split("+")) if self.stage_encoding else (self.encoding,)

    def seconds(self, phase: str) -> float | None:
        """The seconds of ``phase`` in this run, or None if it does not run."""
        return next((run.seconds for run in self.phases if run.name == phase), None)

    def has_stages(self) -> bool:
        """Whether a phase of this run plans in stages (staged solving)."""
        return has_stages(self.phases)

    def describe(self) -> dict[str, object]:
        return {
            "encoding": self.encoding,
            "strategies": list(self.strategies),
            "horizon": self.horizon,
            "min_horizon": self.min_horizon,
            "start_factor": self.start_factor,
            "max_horizon": self.max_horizon,
            "time_limit": self.time_limit,
            "clingo_args": list(self.clingo_args),
            "phases": [str(run) for run in self.phases],
            "stage_encoding": self.stage_encoding,
            "end_game": self.end_game,
            "interleave": self.interleave,
            "descend": self.descend,
            "clingo": version_of("clingo"),
            "sokoasp": version_of("sokoasp"),
        }


def version_of(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:  # running from a source tree that is not installed
        return "unknown"


@dataclass
class Clock:
    """Seconds since the run began, grounding and solving time, and the time limit."""

    start: float = field(default_factory=time.perf_counter)
    ground: float = 0.0
    solve: float = 0.0
    limit: float | None = None

    def remaining(self) -> float | None:
        if self.limit is None:
            return None
        return self.limit - (time.perf_counter() - self.start)

    def expired(self) -> bool:
        left = self.remaining()
        return left is not None and left <= 0

    def capped(self, seconds: float) -> float:
        """``seconds``, or the time left if that is less."""
        left = self.remaining()
        return seconds if left is None else min(seconds, left)

    def add(self, other: Clock) -> None:
        """Count another clock's grounding and solving time as this one's."""
        self.ground += other.ground
        self.solve += other.solve

    def times(self) -> dict[str, float]:
        total = time.perf_counter() - self.start
        return {"ground": round(self.ground, 4), "solve": round(self.solve, 4), "total": round(total, 4)}
