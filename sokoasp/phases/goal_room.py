"""Goal room: a level whose goals lie in a room with one entrance is solved with that room packed
by goal macros (each box pushed in goes straight on to its goal, in a packing order found
backwards; Rolling Stone, YASS): the simpler level goes through the phases after this one and
the horizon loop, its stages forwards only. Where no corridor can stand for the room (two or
three entrances needed), the seconds go to room stages (``sokoasp.phases.staged.room_stages``). May lose
solutions, never optimal; a level without such a room leaves at once."""

from __future__ import annotations

from dataclasses import replace

from sokoasp.board.level import Level
from sokoasp.config import Clock, SolveConfig
from sokoasp.phases import staged
from sokoasp.phases.base import PhaseContext, PhaseOutcome
from sokoasp.phases.staged.room_stages import solve_room_stages
from sokoasp.result import PhaseReport
from sokoasp.sokoban.pushes import pushes_plan
from sokoasp.sokoban.rooms.packing import find_goal_room

NAME = "goal-room"
SECONDS = 10.0  # the level with macros is small: most goal-room levels take under a second


def run(level: Level, context: PhaseContext) -> PhaseOutcome:
    room = find_goal_room(level)
    if room is None:
        return by_room_stages(level, context)
    simpler = context.solve(room.level, room_config(context))
    context.clock.ground += simpler.times.get("ground", 0.0)
    context.clock.solve += simpler.times.get("solve", 0.0)
    if not simpler.status.solved or simpler.plan is None:
        note = f"no plan for the level with macros in {context.seconds:g} s ({simpler.status.value})"
        context.progress(f"goal room: {note}")
        return PhaseOutcome(None, PhaseReport(NAME, note))
    closed = "" if room.closed is None else f", its other entrance {room.closed} closed"
    note = f"a plan for the level with macros ({len(room.macros)} goals entered at {room.entrance}{closed})"
    return PhaseOutcome(pushes_plan(level, room.real_pushes(simpler.plan)), PhaseReport(NAME, note), simpler.stats)


def by_room_stages(level: Level, context: PhaseContext) -> PhaseOutcome:
    """Room stages for up to the phase's seconds: the room may need two or three entrances."""
    stages_clock = Clock(limit=context.seconds)
    plan, note, farthest = solve_room_stages(level, context.config, staged.stage_families(context.config), stages_clock)
    context.clock.add(stages_clock)
    context.progress(f"goal room: {note}")
    return PhaseOutcome(plan, PhaseReport(NAME, note, farthest if plan is None else ""))


def room_config(context: PhaseContext) -> SolveConfig:
    """The configuration for the level with macros: the phase's seconds long, the phases after
    this one, and its stages in the forward families of the configuration alone (backward ones
    only if it has no other)."""
    simpler = replace(context.config, phases=context.later, time_limit=context.seconds)
    settings = staged.settings_in(simpler)
    if settings is None:
        return simpler
    forwards = staged.forwards_only(simpler, settings)
    return replace(simpler, phases=tuple(replace(run, settings=forwards) if run.name == staged.NAME else run for run in simpler.phases))
