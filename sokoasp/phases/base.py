"""What every phase shares: the registry entry (``Phase``), what a phase is given
(``PhaseContext``) and what it returns (``PhaseOutcome``)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Literal, Protocol, TypeVar

from sokoasp.board.level import Level
from sokoasp.config import MOST_STATES, Clock, PhaseRun, PhaseSettings, Progress, SolveConfig
from sokoasp.result import PhaseReport, Result

Kind = TypeVar("Kind", bound=PhaseSettings)


def settings_as(kind: type[Kind], run: PhaseRun) -> Kind:
    """The settings of ``run`` as the phase's own type ``kind``: its own, or the defaults (a run
    built with the base type stands for them)."""
    return run.settings if isinstance(run.settings, kind) else kind()


class Solver(Protocol):
    """The pipeline's entry, as a phase calls it: a level, its configuration, and the clock it runs on."""

    def __call__(self, level: Level, config: SolveConfig, *, clock: Clock | None = None) -> Result: ...


@dataclass(frozen=True)
class PhaseContext:
    """A phase's run: the configuration, the phase's clock (the run's time limit and the phase's
    work budget on the run's meter: a phase ends when ``clock.expired()``), its ``settings`` (of
    the phase's own type), the phases after it, and the pipeline itself for a phase that solves a
    simpler level (``solve``: the pipeline's own entry, so no phase imports the pipeline)."""

    config: SolveConfig
    clock: Clock
    settings: PhaseSettings
    progress: Progress
    later: tuple[PhaseRun, ...]
    solve: Solver


@dataclass(frozen=True)
class SearchSettings(PhaseSettings):
    """The settings of a phase that is one search in Python (``Settings = SearchSettings``)."""

    states: int = MOST_STATES  # the search gives up after this many states, whatever its time (memory)


@dataclass(frozen=True)
class PhaseOutcome:
    """A phase's plan for the level (LURD moves from its start; None: none found), what it did,
    and the clingo statistics of the run that found the plan, where there was one."""

    plan: str | None
    report: PhaseReport
    stats: dict[str, object] = field(default_factory=dict)


def no_check(config: SolveConfig, settings: PhaseSettings) -> None:
    """A phase that runs in any configuration its strategies allow."""


def same_loop(config: SolveConfig, settings: PhaseSettings) -> SolveConfig:
    """A phase that leaves the horizon loop after it as the configuration has it."""
    return config


@dataclass(frozen=True)
class Phase:
    """A registry entry: one way of finding a plan before (or instead of) the horizon loop, held
    by ``module``, imported when the phase is parsed or runs. The module has ``WORK`` (its default
    budget in work units) and ``run``, and may have ``Settings`` (its settings' type), ``check``
    (refuses a configuration it cannot run in: raises InputError) and ``loop_config`` (the
    configuration of the horizon loop after it). ``complete``: it finds a plan whenever one
    exists, given its work budget. ``optimal``: the unit its plans are proven shortest in (None:
    its plans are never called optimal). ``checks_strategies``: its
    check decides which strategies the run may name (they may serve the phase rather than the
    loop). ``uses_idle_loop_time``: with a horizon loop after it that would ask no horizon (its
    first is above the maximum), it has no work budget but the time limit."""

    name: str
    kind: Literal["python", "asp"]
    complete: bool
    summary: str
    module: str
    checks_strategies: bool = False
    uses_idle_loop_time: bool = False
    optimal: Literal["moves", "pushes"] | None = None

    def code(self) -> ModuleType:
        return importlib.import_module(self.module)

    @property
    def default_work(self) -> int:
        work = self.code().WORK
        assert isinstance(work, int)
        return work

    @property
    def run(self) -> Callable[[Level, PhaseContext], PhaseOutcome]:
        run: Callable[[Level, PhaseContext], PhaseOutcome] = self.code().run
        return run

    @property
    def settings(self) -> type[PhaseSettings]:
        kind: type[PhaseSettings] = getattr(self.code(), "Settings", PhaseSettings)
        return kind

    @property
    def check(self) -> Callable[[SolveConfig, PhaseSettings], None]:
        check: Callable[[SolveConfig, PhaseSettings], None] = getattr(self.code(), "check", no_check)
        return check

    @property
    def loop_config(self) -> Callable[[SolveConfig, PhaseSettings], SolveConfig]:
        loop: Callable[[SolveConfig, PhaseSettings], SolveConfig] = getattr(self.code(), "loop_config", same_loop)
        return loop

    def settings_of(self, run: PhaseRun) -> PhaseSettings:
        """The settings of ``run``, a run of this phase: its own, or the defaults."""
        return settings_as(self.settings, run)

    @property
    def soundness(self) -> str:
        optimal = "never optimal" if self.optimal is None else f"optimal in {self.optimal}"
        return f"complete, {optimal}" if self.complete else f"may lose solutions, {optimal}"
