"""Proving the portfolio's plan push-optimal (``--prove``, sokoasp/prove.py), against
breadth-first push optima: a longer first plan is replaced by an optimal one, an optimal one is
proven, a proof out of time says so and keeps the plan, and only the portfolio takes --prove."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from corpus import HAND_MADE, UNSOLVABLE, multi_box_corpus
from helpers import assert_replays, level_of
from oracle import bfs_pushes
from test_cli import ROOT, run, write

from sokoasp import SolveConfig, Status, solve
from sokoasp.asp.strategies import Soundness, soundness_of
from sokoasp.board.loading import load_level
from sokoasp.errors import ExitCode
from sokoasp.portfolio.prove import FROM_ABOVE, FROM_BELOW, prove, provers, put_together
from sokoasp.portfolio.race import race

CORPUS = {**multi_box_corpus(6, seed=3), "two-boxes": HAND_MADE["two-boxes"], "turn-corner": HAND_MADE["turn-corner"]}
# One box, three pushes from its goal in an open room: plenty of room for longer plans.
ROOM = """\
########
#      #
#      #
# @$  .#
#      #
#      #
########
"""
DETOURS = SolveConfig(encoding="push-macro", min_horizon=6, max_horizon=30)  # six slides or more: six pushes or more


def test_the_provers_keep_every_optimal_plan_and_ask_up_to_one_push_fewer() -> None:
    """A refutation by a prover proves something only if its strategies cut no optimal plan;
    from above, push-jump's horizon admits every shorter plan."""
    below, above = provers(20)
    assert below == replace(FROM_BELOW, max_horizon=19) and above == replace(FROM_ABOVE, max_horizon=19)
    assert below.encoding == "push" and (above.encoding, above.descend) == ("push-jump", True)
    assert all(soundness_of(p.strategies) is Soundness.KEEPS_OPTIMAL for p in (below, above))


def test_a_longer_first_plan_gives_way_to_a_push_optimal_one() -> None:
    level = level_of(ROOM)
    first = race(level, (DETOURS,), time_limit=30)
    optimum = bfs_pushes(ROOM)
    assert first.status is Status.SOLVED and first.pushes > optimum  # the premise: a plan with detours
    proved = prove(level, first, 30, None)
    assert proved.status is Status.SOLVED_OPTIMAL and proved.optimal_for == "pushes"
    assert proved.pushes == optimum
    assert_replays(level, proved.plan)
    assert "a shorter plan is push-optimal" in proved.stats["proof"]
    # either prover may answer first (they race on the cores): from below (push) or from above (push-jump)
    assert proved.config["encoding"] in ("push", "push-jump") and proved.config["portfolio"] == first.config["portfolio"]
    assert proved.times["first_plan"] <= proved.times["total"]


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_the_portfolio_plan_proven_or_replaced_has_the_fewest_pushes(name: str) -> None:
    level = level_of(CORPUS[name])
    proved = prove(level, race(level, time_limit=30), 30, None)
    assert proved.status is Status.SOLVED_OPTIMAL and proved.optimal_for == "pushes"
    assert proved.pushes == bfs_pushes(CORPUS[name])
    assert_replays(level, proved.plan)


def test_a_proof_out_of_time_keeps_the_plan_and_says_how_far_it_got() -> None:
    level = load_level(ROOT / "instances" / "microban_1-5.sok", "1").level
    first = race(level, (DETOURS,), time_limit=30)
    assert first.status is Status.SOLVED
    proved = prove(level, first, 0.001, None)
    assert proved.status is Status.SOLVED and proved.optimal_for is None
    assert proved.plan == first.plan and proved.stats["proof"].startswith("not proven push-optimal: timeout")


@pytest.mark.parametrize(("name", "why"), [("solved-already", "solved already"), ("one-push", "lower bound")])
def test_a_plan_of_no_pushes_or_at_the_lower_bound_is_optimal_without_a_search(name: str, why: str) -> None:
    level = level_of(HAND_MADE[name])
    first = race(level, time_limit=30)
    first.status, first.optimal_for = Status.SOLVED, None  # as a satisficing member would report it
    proved = prove(level, first, 0.0, None)  # no time at all: no search
    assert proved.status is Status.SOLVED_OPTIMAL and why in proved.stats["proof"]


def test_a_result_without_a_plan_is_left_as_it_is() -> None:
    level = level_of(UNSOLVABLE["box-in-corner"])
    first = race(level, time_limit=30)
    assert prove(level, first, 30, None) is first and first.status is Status.UNSOLVABLE


def test_solve_prove_prints_the_proof_and_needs_the_portfolio(tmp_path: Path) -> None:
    path = write(tmp_path, "room.sok", ROOM)
    code, out = run("race", "--prove", "--time-limit", "30", str(path))
    assert code == ExitCode.SOLVED and "status:     solved (optimal) in pushes" in out
    assert f"pushes: {bfs_pushes(ROOM)} " in out and "proof:" in out and "first_plan" in out
    code, out = run("solve", "--prove", str(path))
    assert code == ExitCode.USAGE and "--prove" in out


@pytest.mark.parametrize("refuted_below", [0, 1])
def test_a_plan_from_above_is_optimal_when_the_loop_from_below_refuted_every_horizon_under_it(refuted_below: int) -> None:
    """Both provers out of time: the one from above with a shorter plan of its own, the one from
    below having refuted every horizon up to one push under that plan (or up to two under it)."""
    level = level_of(ROOM)
    optimum = bfs_pushes(ROOM)
    first = race(level, (DETOURS,), time_limit=30)
    above = solve(level, replace(provers(first.pushes)[1], max_horizon=optimum + 1))
    above.status, above.optimal_for = Status.SOLVED, None  # as if its last refutation ran out of time
    below = solve(level, replace(provers(first.pushes)[0], max_horizon=optimum - 1 - refuted_below))
    assert below.status is Status.NO_PLAN_UP_TO_HORIZON
    below.status = Status.TIMEOUT  # as if the loop ran out of time right after that horizon
    together = put_together(first, [above, below], 1.0)
    assert together.plan == above.plan and together.pushes == optimum < first.pushes
    assert_replays(level, together.plan)
    if refuted_below == 0:
        assert together.status is Status.SOLVED_OPTIMAL and "a shorter plan is push-optimal" in together.stats["proof"]
        assert together.stats["push_lower_bound"] == optimum
    else:
        assert together.status is Status.SOLVED and together.optimal_for is None
        assert f"no plan up to horizon {optimum - 2}" in together.stats["proof"]
        assert together.stats["push_lower_bound"] == optimum - 1  # what the refutations showed, kept by records
