"""How a stage search spends its work budget: the schedule the staged search (``sokoasp.phases.staged.search``)
and the room stages (``sokoasp.phases.staged.room_stages``) share, each with its own defaults."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StageSchedule:
    """Passes from the start with a growing stage budget (iterative broadening with restarts):
    many cheap tries first, long stages later, so a larger budget first runs the passes of a
    smaller one. Budgets in work units (``sokoasp.config.Meter``)."""

    first_stage_work: int = 1_500  # a stage's work in the first pass, whatever the budget; each pass doubles it
    pass_stages: int = 16  # a pass ends after this many stage budgets: a depth-first pass otherwise backtracks for ever
    width: int = 3  # end states (sets of filled goals) a stage tries before the search backtracks
    final_stage_times: int = 4  # the stage whose plan ends the search gets this many stage budgets: the last box needs the longest plan
    trap_share: float = 0.5  # a trap proof may take this share of a stage budget (and no more than the pass has left)
    trap_time_share: float = 0.1  # all trap proofs together at most this share of the search's work so far
    review_share: float = 0.25  # room stages: a pass that does not fill the room gets proofs for this share of its work


STAGED = StageSchedule()
ROOM_STAGES = StageSchedule(first_stage_work=3_000)  # a room stage asks for a whole entry: longer stages from the start
