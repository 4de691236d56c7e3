"""Fewest pushes: the whole level by A* in Python over the pushes of every box
(``sokoban.push_optimal``): pushes made plus the cheapest box-goal matching first, dead states
cut, only the pushes into a PI-corral where one stands. Not ASP; its plan has the fewest pushes
(walks between pushes are shortest walks, not the fewest moves overall); complete within its
budget (one work unit per state; it proves a level unsolvable when it searches every state)."""

from __future__ import annotations

from sokoasp.board.level import Level
from sokoasp.phases.base import PhaseContext, PhaseOutcome, SearchSettings
from sokoasp.result import PhaseReport
from sokoasp.sokoban.analysis import INFINITY
from sokoasp.sokoban.push_optimal import fewest_pushes
from sokoasp.sokoban.push_search import Stop

NAME = "fewest-pushes"
WORK = 500_000  # states: Microban-sized levels settle within a few hundred thousand, about 1 GB at most

Settings = SearchSettings

NOTES = {
    Stop.EXHAUSTED: "no plan by the A* over pushes in Python (it proved none exists: every state without a deadlock searched)",
    Stop.DEADLINE: "no plan by the A* over pushes in Python (the time limit came after {states} states; "
                   "no plan has fewer than {bound} pushes)",
    Stop.STATE_LIMIT: "no plan by the A* over pushes in Python (stopped after {states} states; no plan has fewer "
                      "than {bound} pushes)",
    Stop.FOUND: "the fewest pushes by the A* over pushes in Python (not ASP), {states} states",
}


def run(level: Level, context: PhaseContext) -> PhaseOutcome:
    settings = context.settings
    assert isinstance(settings, Settings)
    found = fewest_pushes(level, INFINITY, context.clock.allow(settings.states), context.clock.deadline())
    context.clock.charge(found.states)
    note = NOTES[found.stop].format(states=found.states, bound=found.lower_bound)
    context.progress(f"fewest pushes: {note}")
    return PhaseOutcome(found.lurd(level), PhaseReport(NAME, note))
