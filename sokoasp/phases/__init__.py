"""The phases: ways of finding a plan before (or instead of) the ASP horizon loop. ``PHASES`` is
the one list the pipeline, the CLI, the grid, the portfolio, the docs and the tests read; a new
phase is one module here plus one line below, or a package's entry point in the group
``sokoasp.phases`` naming a ``Phase`` (docs/extending.md). A run lists its phases in order
(``SolveConfig.phases``), each with a budget in work units (``sokoasp.config.Meter``); the first
plan wins, and the horizon loop runs after the last. A phase's module is imported when a run
names the phase, so a run imports only the phases it runs."""

from __future__ import annotations

from sokoasp.config import PhaseRun, SolveConfig, read_settings, read_work
from sokoasp.errors import InputError
from sokoasp.phases.base import Phase, PhaseContext, PhaseOutcome
from sokoasp.registry import Registry, of_type

SHIPPED = (
    Phase("box-search", "python", True, "every box's pushes, best first by the cheapest box-goal matching, deadlocks and PI-corrals cut",
          "sokoasp.phases.box_search"),
    Phase("fewest-pushes", "python", True, "A* over every box's pushes by pushes made plus the cheapest box-goal "
          "matching, deadlocks and PI-corrals cut", "sokoasp.phases.fewest_pushes", optimal="pushes"),
    Phase("feature-search", "python", True, "a box along a route to any square as one move, one state of each feature "
          "cell (goals filled, player regions) in turn, after FESS", "sokoasp.phases.feature_search"),
    Phase("room-search", "python", False, "the same with goal-room entries as macros, for goals in a room with 1-3 entrances",
          "sokoasp.phases.room_search"),
    Phase("goal-room", "asp", False, "the level with its goal room packed by goal macros, or room stages box by box",
          "sokoasp.phases.goal_room"),
    Phase("staged", "asp", False, "stages of short plans, one more box on a goal each, with an end game in Python",
          "sokoasp.phases.staged", checks_strategies=True, uses_idle_loop_time=True),
)
PHASES: Registry[Phase] = Registry("phase", "sokoasp.phases", lambda: SHIPPED, from_plugin=of_type(Phase, "phase"))

__all__ = ["PHASES", "Phase", "PhaseContext", "PhaseOutcome", "check_phases", "checks_strategies", "loop_config", "parse_phase",
           "parse_phases"]

SPELLING = "NAME[=WORK][:KEY=VALUE,...]"


def parse_phase(given: str | dict[str, object]) -> PhaseRun:
    """A phase run from its text, ``NAME[=WORK][:KEY=VALUE,...]`` (``staged=250k:families=
    push-macro+pull-route,end-game=off``), or from a TOML table with ``name``, ``work`` and the
    settings as keys. The budget counts work units (``sokoasp.config.read_work``); the settings
    are those of the phase."""
    if isinstance(given, dict):
        table = dict(given)
        name, work = table.pop("name", None), table.pop("work", None)
        if not isinstance(name, str):
            raise InputError(f"a phase table needs a name (one of {', '.join(PHASES)}), not {given!r}")
        return phase_run(name, work, table)
    if not isinstance(given, str):
        raise InputError(f"a phase is {SPELLING} or a table, not {given!r}")
    head, _, knobs = given.strip().partition(":")
    name, _, work = head.partition("=")
    pairs = [item.partition("=") for item in knobs.split(",")] if knobs else []
    if any(not key.strip() or not sign for key, sign, _ in pairs):
        raise InputError(f"phase {name!r}: settings are KEY=VALUE pairs joined by commas, not {knobs!r}")
    return phase_run(name.strip(), work.strip() or None, {key.strip(): value.strip() for key, _, value in pairs})


def phase_run(name: str, work: object, settings: dict[str, object]) -> PhaseRun:
    phase = PHASES.get_member(name)
    budget = phase.default_work if work is None else read_work(work, f"phase {name!r}")
    return PhaseRun(name, budget, read_settings(phase.settings, settings, name))


def parse_phases(given: list | tuple) -> tuple[PhaseRun, ...]:
    """Phase runs from their texts or tables, each phase at most once."""
    runs = tuple(parse_phase(item) for item in given)
    names = [run.name for run in runs]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise InputError(f"phase {twice[0]!r} is given twice: each phase runs at most once")
    return runs


def check_phases(config: SolveConfig) -> None:
    """Refuse phases that cannot run in ``config`` (raises InputError), before any work starts."""
    parse_phases([str(run) for run in config.phases])
    for run in config.phases:
        phase = PHASES[run.name]
        phase.check(config, phase.settings_of(run))


def loop_config(config: SolveConfig) -> SolveConfig:
    """The configuration of the horizon loop after the phases of ``config``, as each phase
    leaves it (a phase may keep strategies that serve it alone out of the loop)."""
    for run in config.phases:
        phase = PHASES[run.name]
        config = phase.loop_config(config, phase.settings_of(run))
    return config


def checks_strategies(config: SolveConfig) -> bool:
    """Whether a phase of ``config`` decides which strategies it may name."""
    return any(PHASES[run.name].checks_strategies for run in config.phases)
