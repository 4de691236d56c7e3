"""Box search: the whole level by a best-first search in Python over the pushes of every box
from the start (the end game's search of every box, ``end_game.moving_every_box``), in the order
of the cheapest box-goal matching, states with a box on a dead square, a dead group or a frozen
box off the goals cut. Not ASP, never optimal; complete within its budget (one work unit per
state; it proves a level unsolvable when it searches every state)."""

from __future__ import annotations

from sokoasp.board.level import Level
from sokoasp.config import MOST_STATES, Clock
from sokoasp.phases.base import PhaseContext, PhaseOutcome, SearchSettings
from sokoasp.result import PhaseReport
from sokoasp.sokoban.end_game import moving_every_box, pushed_moves
from sokoasp.sokoban.push_search import Stop

NAME = "box-search"
WORK = 100_000  # states: most small levels need a few thousand; hard ones are for the ASP phases


Settings = SearchSettings


def run(level: Level, context: PhaseContext) -> PhaseOutcome:
    settings = context.settings
    assert isinstance(settings, Settings)
    plan, note = search_plan(level, context.clock, settings.states)
    context.progress(f"box search: {note}")
    return PhaseOutcome(plan, PhaseReport(NAME, note))


def search_plan(level: Level, clock: Clock, states: int = MOST_STATES) -> tuple[str | None, str]:
    """The moves of a plan for ``level`` by the search of every box (None when it finds none
    within ``states`` and the clock's budget, which it is charged), and what it did, for the result."""
    found = moving_every_box(level, clock.deadline(), False, None, clock.allow(states), matching=True)
    clock.charge(found.states)
    if found.stop is Stop.EXHAUSTED:
        return None, "no plan by the search of every box in Python (it proved none exists: every state without a deadlock searched)"
    if found.stop is Stop.DEADLINE:
        return None, f"no plan by the search of every box in Python (the time limit came after {found.states} states)"
    if found.stop is not Stop.FOUND:
        return None, f"no plan by the search of every box in Python (stopped after {found.states} states)"
    return pushed_moves(level, found.moves), f"the whole plan by the search of every box in Python (not ASP), {found.states} states"
