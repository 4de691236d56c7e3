"""Feature search: the whole level by the feature-space search in Python (FESS-like,
``sokoasp.sokoban.feature_search``): open states grouped by boxes off the goals and player regions,
one state of each group in turn, the cheapest box-goal matching first within a group, a box
moved along a route to any square it reaches alone as one move; states with a dead square, a
dead group or a frozen box off the goals cut. Not ASP, never optimal; complete within its budget
(a unit per state taken up, a fifth per route state; it proves a level unsolvable when it
searches every state)."""

from __future__ import annotations

from sokoasp.board.level import Level
from sokoasp.phases.base import PhaseContext, PhaseOutcome, SearchSettings
from sokoasp.result import PhaseReport
from sokoasp.sokoban.end_game import pushed_moves
from sokoasp.sokoban.feature_search import feature_search
from sokoasp.sokoban.push_search import Stop

NAME = "feature-search"
WORK = 100_000  # units: as the box search, whose units cost about as much


Settings = SearchSettings


def run(level: Level, context: PhaseContext) -> PhaseOutcome:
    settings = context.settings
    assert isinstance(settings, Settings)
    found = feature_search(level, context.clock.allow(settings.states), context.clock.deadline())
    context.clock.charge(found.states)
    if found.stop is Stop.FOUND:
        note = f"the whole plan by the feature-space search in Python (not ASP), {found.states} states"
        plan: str | None = pushed_moves(level, found.moves)
    elif found.stop is Stop.EXHAUSTED:
        note, plan = "no plan by the feature-space search (it proved none exists: every state without a deadlock searched)", None
    else:
        note, plan = f"no plan by the feature-space search (stopped after {found.states} states)", None
    context.progress(f"feature search: {note}")
    return PhaseOutcome(plan, PhaseReport(NAME, note))
