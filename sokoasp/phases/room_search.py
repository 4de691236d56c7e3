"""Room search: on a level whose goals lie in a room with one to three entrances, a best-first
search in Python over every box's pushes where a push in at an entrance is the whole entry to
the next goal of the packing order (``sokoasp.sokoban.room_search``). Not ASP, never optimal;
may lose solutions (a box on a filled goal never moves again). A level without such a room
leaves at once."""

from __future__ import annotations

from sokoasp.board.level import Level
from sokoasp.phases.base import PhaseContext, PhaseOutcome
from sokoasp.result import PhaseReport
from sokoasp.sokoban.room_search import room_search_plan

NAME = "room-search"
SECONDS = 40.0  # a level that needs a parked box takes tens of seconds; others finish early


def run(level: Level, context: PhaseContext) -> PhaseOutcome:
    plan, note = room_search_plan(level, context.seconds)
    context.progress(f"room search: {note}")
    return PhaseOutcome(plan, PhaseReport(NAME, note))
