"""The phases: ways of finding a plan before (or instead of) the ASP horizon loop. ``PHASES`` is
the one list the pipeline, the CLI, the grid, the portfolio, the docs and the tests read; a new
phase is one module here plus one line below. A run lists its phases in order
(``SolveConfig.phases``); the first plan wins, and the horizon loop runs after the last."""

from __future__ import annotations

from sokoasp.config import PhaseRun, SolveConfig
from sokoasp.errors import InputError
from sokoasp.phases import box_search, goal_room, room_search, staged
from sokoasp.phases.base import Phase, PhaseContext, PhaseOutcome

PHASES: dict[str, Phase] = {phase.name: phase for phase in (
    Phase(box_search.NAME, "python", True, box_search.Settings.seconds,
          "every box's pushes, best first by the cheapest box-goal matching, deadlocks cut", box_search.run),
    Phase(room_search.NAME, "python", False, room_search.Settings.seconds,
          "the same with goal-room entries as macros, for goals in a room with 1-3 entrances", room_search.run),
    Phase(goal_room.NAME, "asp", False, goal_room.Settings.seconds,
          "the level with its goal room packed by goal macros, or room stages box by box", goal_room.run),
    Phase(staged.NAME, "asp", False, staged.Settings.seconds,
          "stages of short plans, one more box on a goal each, with an end game in Python", staged.run,
          check=staged.check, uses_idle_loop_time=True),
)}

__all__ = ["PHASES", "Phase", "PhaseContext", "PhaseOutcome", "check_phases", "parse_phase", "parse_phases"]


def parse_phase(text: str) -> PhaseRun:
    """``NAME`` or ``NAME=SECONDS`` (a registry name; seconds above 0, finite): a phase run."""
    name, _, seconds = text.strip().partition("=")
    if name not in PHASES:
        raise InputError(f"unknown phase {name!r}: choose from {', '.join(PHASES)} (see `sokoasp phases`)")
    if not seconds:
        return PhaseRun(name, PHASES[name].default_seconds)
    try:
        value = float(seconds)
    except ValueError:
        raise InputError(f"phase {name!r}: seconds must be a number, not {seconds!r}") from None
    if not 0 < value < 1e7:  # also refuses nan and inf
        raise InputError(f"phase {name!r}: seconds must be above 0 and below 10^7, not {seconds}")
    return PhaseRun(name, value)


def parse_phases(texts: list[str] | tuple[str, ...]) -> tuple[PhaseRun, ...]:
    """Phase runs from their texts, each phase at most once."""
    runs = tuple(parse_phase(text) for text in texts)
    names = [run.name for run in runs]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise InputError(f"phase {twice[0]!r} is given twice: each phase runs at most once")
    return runs


def check_phases(config: SolveConfig) -> None:
    """Refuse phases that cannot run in ``config`` (raises InputError), before any work starts."""
    parse_phases([str(run) for run in config.phases])
    for run in config.phases:
        PHASES[run.name].check(config)
