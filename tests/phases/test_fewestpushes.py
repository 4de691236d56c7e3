"""The fewest-pushes phase (A* in Python): through the driver, a plan with exactly the
breadth-first fewest pushes, called optimal in pushes and found by the phase; unsolvable levels
proven so; a run cut short says so, with the lower bound it proved, and the loop goes on."""

from __future__ import annotations

import pytest
from corpus import multi_box_corpus
from helpers import assert_replays, level_of
from oracle import bfs_pushes

from sokoasp import SolveConfig, Status, solve
from sokoasp.config import PhaseRun
from sokoasp.phases import PHASES, parse_phase

CORPUS = multi_box_corpus(16, seed=77)
PHASE = (PhaseRun("fewest-pushes", 100_000),)


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_the_plan_has_the_fewest_pushes_and_is_called_optimal_in_pushes(name: str) -> None:
    level = level_of(CORPUS[name])
    result = solve(level, SolveConfig(encoding="push", phases=PHASE))
    assert_replays(level, result.plan)
    assert result.status is Status.SOLVED_OPTIMAL and result.optimal_for == "pushes"
    assert result.found_by == "fewest-pushes" and result.pushes == bfs_pushes(CORPUS[name])


# unsolvable (the oracle says so below) though no box stands on a dead square and no two boxes
# are dead together, so the driver's own tests leave them to the phases
SEARCHED_UNSOLVABLE = ["#######\n#  .. #\n#.   ##\n#$$ .##\n# $$  #\n## @  #\n#######\n",
                       "#######\n# #@# #\n##. $ #\n# #$  #\n#     #\n##.$ .#\n#######\n",
                       "########\n#  @#  #\n#   $ ##\n# # $$.#\n# ..  ##\n########\n"]


@pytest.mark.parametrize("text", SEARCHED_UNSOLVABLE)
def test_on_an_unsolvable_level_the_phase_proves_that_none_exists(text: str) -> None:
    assert bfs_pushes(text) is None
    result = solve(level_of(text), SolveConfig(encoding="push", phases=PHASE, max_horizon=0))
    assert result.plan is None and "it proved none exists" in result.phases[0].note


def test_a_phase_cut_short_says_how_far_it_got_and_the_loop_goes_on() -> None:
    text = CORPUS[max(CORPUS, key=lambda name: bfs_pushes(CORPUS[name]) or 0)]
    result = solve(level_of(text), SolveConfig(encoding="push", phases=(parse_phase("fewest-pushes:states=3"),)))
    assert "stopped after 3 states; no plan has fewer than" in result.phases[0].note
    assert result.found_by is None and result.pushes == bfs_pushes(text)  # the push family's loop: optimal too


def test_only_the_fewest_pushes_phase_claims_optimal_plans() -> None:
    assert {phase.name: phase.optimal for phase in PHASES.values() if phase.optimal} == {"fewest-pushes": "pushes"}
