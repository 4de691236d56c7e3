"""The classical-planning reference: PDDL export and Fast Downward as a grid encoding."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from corpus import HAND_MADE
from helpers import assert_replays, level_of
from oracle import bfs_moves
from test_cli import run

from sokoasp import SolveConfig, Status, solve
from sokoasp.board.pddl import plan_from_pddl, problem

FAST_DOWNWARD = importlib.util.find_spec("up_fast_downward") is not None


def test_pddl_problem_lists_cells_boxes_and_goals() -> None:
    text = problem(level_of(HAND_MADE["two-boxes"]), "two boxes")
    assert "(define (problem two-boxes)" in text
    assert text.count("(box ") == 4  # two in the initial state, two in the goal
    assert "(adj c_1_2 c_2_2 r)" in text and "(player c_1_2)" in text


def test_pddl_plans_become_lurd() -> None:
    assert plan_from_pddl("(move c_1_2 c_1_1 u)\n(push c_1_1 c_2_1 c_3_1 r)\n; cost = 2\n") == "uR"


def test_export_command(tmp_path: Path) -> None:
    source = tmp_path / "l.sok"
    source.write_text(HAND_MADE["corridor"])
    code, out = run("export", "--pddl", str(source), str(tmp_path / "pddl"))
    assert code == 0 and (tmp_path / "pddl" / "domain.pddl").exists() and (tmp_path / "pddl" / "l.pddl").exists()


@pytest.mark.skipif(not FAST_DOWNWARD, reason="needs sokoasp[classical]")
@pytest.mark.parametrize("name", ["turn-corner", "two-boxes", "corridor", "both-ways"])
def test_fast_downward_finds_move_optimal_plans(name: str) -> None:
    level = level_of(HAND_MADE[name])
    result = solve(level, SolveConfig(encoding="fast-downward", time_limit=60))
    assert result.status is Status.SOLVED_OPTIMAL and result.moves == bfs_moves(HAND_MADE[name])
    assert_replays(level, result.plan)


@pytest.mark.skipif(not FAST_DOWNWARD, reason="needs sokoasp[classical]")
def test_fast_downward_proves_unsolvable() -> None:
    # a frozen 2x2 block of boxes: every box is live and a matching exists, so sokoasp's
    # static analysis cannot tell; the planner's exhausted search proves it
    text = "#######\n#@    #\n# $$ .#\n# $$ .#\n#   ..#\n#######\n"
    assert bfs_moves(text) is None
    from sokoasp.sokoban.analysis import unsolvable_reason

    assert unsolvable_reason(level_of(text)) == ""
    result = solve(level_of(text), SolveConfig(encoding="fast-downward", time_limit=60))
    assert result.status is Status.UNSOLVABLE
