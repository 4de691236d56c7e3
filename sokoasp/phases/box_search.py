"""Box search: the whole level by a best-first search in Python over the pushes of every box
(``sokoasp.sokoban.box_search``), in the order of the cheapest box-goal matching, deadlocked
states cut. Not ASP, never optimal; complete within its seconds and state limit (it proves a
level unsolvable when it has searched every state)."""

from __future__ import annotations

from dataclasses import dataclass

from sokoasp.board.level import Level
from sokoasp.config import PhaseSettings
from sokoasp.phases.base import PhaseContext, PhaseOutcome
from sokoasp.result import PhaseReport
from sokoasp.sokoban.box_search import SEARCH_STATES, search_plan

NAME = "box-search"
SECONDS = 10.0  # most small levels are solved in well under a second; hard ones need the ASP phases


@dataclass(frozen=True)
class Settings(PhaseSettings):
    states: int = SEARCH_STATES  # the search gives up after this many states, whatever its time (memory)


def run(level: Level, context: PhaseContext) -> PhaseOutcome:
    settings = context.settings
    assert isinstance(settings, Settings)
    plan, note = search_plan(level, context.seconds, settings.states)
    context.progress(f"box search: {note}")
    return PhaseOutcome(plan, PhaseReport(NAME, note))
