"""Goal room: a level whose goals lie in a room with one entrance is solved with that room packed
by goal macros (each box pushed in goes straight on to its goal, in a packing order found
backwards; Rolling Stone, YASS): the simpler level goes through the phases after this one and
the horizon loop, its stages forwards only. Where no corridor can stand for the room (two or
three entrances needed), the budget goes to room stages (``sokoasp.phases.staged.room_stages``). May lose
solutions, never optimal; a level without such a room leaves at once."""

from __future__ import annotations

from dataclasses import replace

from sokoasp.board.level import Level
from sokoasp.config import SolveConfig
from sokoasp.phases import staged
from sokoasp.phases.base import PhaseContext, PhaseOutcome
from sokoasp.phases.staged.room_stages import solve_room_stages
from sokoasp.result import PhaseReport
from sokoasp.sokoban.pushes import pushes_plan
from sokoasp.sokoban.rooms.packing import find_goal_room

NAME = "goal-room"
WORK = 60_000  # the level with macros is small: most goal-room levels take a few thousand units


def run(level: Level, context: PhaseContext) -> PhaseOutcome:
    room = find_goal_room(level)
    if room is None:
        return by_room_stages(level, context)
    simpler = context.solve(room.level, room_config(context), clock=context.clock)
    if not simpler.status.solved or simpler.plan is None:
        note = f"no plan for the level with macros within its budget ({simpler.status.value})"
        context.progress(f"goal room: {note}")
        return PhaseOutcome(None, PhaseReport(NAME, note))
    closed = "" if room.closed is None else f", its other entrance {room.closed} closed"
    note = f"a plan for the level with macros ({len(room.macros)} goals entered at {room.entrance}{closed})"
    return PhaseOutcome(pushes_plan(level, room.real_pushes(simpler.plan)), PhaseReport(NAME, note), simpler.stats)


def by_room_stages(level: Level, context: PhaseContext) -> PhaseOutcome:
    """Room stages within the phase's budget: the room may need two or three entrances."""
    plan, note, farthest = solve_room_stages(level, context.config, staged.stage_families(context.config), context.clock)
    context.progress(f"goal room: {note}")
    return PhaseOutcome(plan, PhaseReport(NAME, note, farthest if plan is None else ""))


def room_config(context: PhaseContext) -> SolveConfig:
    """The configuration for the level with macros (run on the phase's clock): the phases after
    this one, and its stages in the forward families of the configuration alone (backward ones
    only if it has no other)."""
    simpler = replace(context.config, phases=context.later)
    settings = staged.settings_in(simpler)
    if settings is None:
        return simpler
    forwards = staged.forwards_only(simpler, settings)
    return replace(simpler, phases=tuple(replace(run, settings=forwards) if run.name == staged.NAME else run for run in simpler.phases))
