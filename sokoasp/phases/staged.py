"""Staged solving: a chain of short clingo searches in the push families, each putting one more
box on a goal, with backtracking and an end game in Python (``sokoasp.asp.staged``). ASP; may
lose solutions (a goal agenda is incomplete), never optimal. When it ends without a plan it
reports the farthest state it reached and, backwards, the state nearest the start."""

from __future__ import annotations

from dataclasses import dataclass

from sokoasp.asp.staged import check_stage_strategies, solve_staged
from sokoasp.board.level import Level
from sokoasp.phases.base import PhaseContext, PhaseOutcome
from sokoasp.result import PhaseReport

NAME = "staged"


@dataclass(frozen=True)
class Settings:
    seconds: float = 25.0  # one more box per stage: levels with many boxes need tens of seconds


def run(level: Level, context: PhaseContext) -> PhaseOutcome:
    outcome = solve_staged(level, context.config, context.clock, context.seconds, context.progress)
    note = outcome.describe(len(level.boxes))
    if outcome.plan is None:
        context.progress(note)
    return PhaseOutcome(outcome.plan, PhaseReport(NAME, note, outcome.farthest or "", outcome.home_board(level)))


check = check_stage_strategies
