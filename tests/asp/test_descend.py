"""Proofs from above (``--descend``, driver.run_descending) against the breadth-first push
optimum: push-jump asked a horizon above the optimum, then one push fewer than each plan found,
ends with a push-optimal plan, replayed, and called optimal only with strategies that keep
optimal plans; asked below the optimum it refutes that horizon."""

from __future__ import annotations

import pytest
from corpus import HAND_MADE, multi_box_corpus, random_corpus
from helpers import assert_replays, level_of
from oracle import bfs_pushes

from sokoasp import SolveConfig, Status, solve
from sokoasp.errors import InputError

SOLVABLE = {**HAND_MADE, **random_corpus(10), **multi_box_corpus(8, seed=44)}
KEEPS_OPTIMAL = ("dead", "freeze", "bound", "pairs")


@pytest.mark.parametrize("name", sorted(SOLVABLE))
def test_descending_ends_at_the_push_optimum(name: str) -> None:
    text = SOLVABLE[name]
    optimum = bfs_pushes(text)
    assert optimum is not None
    level = level_of(text)
    asked: list[str] = []
    config = SolveConfig(encoding="push-jump", strategies=KEEPS_OPTIMAL, max_horizon=optimum + 6, descend=True)
    found = solve(level, config, progress=asked.append)
    assert found.status is Status.SOLVED_OPTIMAL and found.optimal_for == "pushes", (name, found.message)
    assert found.pushes == optimum
    assert_replays(level, found.plan)
    assert asked[0].startswith(f"horizon {optimum + 6}: plan found")
    refuted = [line for line in asked if ": no plan" in line]
    assert refuted in ([], [asked[-1]]) and all(line.startswith(f"horizon {optimum - 1}:") for line in refuted)


@pytest.mark.parametrize("name", ["two-boxes", "turn-corner", "both-ways"])
def test_descending_below_the_optimum_refutes_that_horizon(name: str) -> None:
    text = HAND_MADE[name]
    optimum = bfs_pushes(text)
    assert optimum is not None and optimum > 1
    config = SolveConfig(encoding="push-jump", strategies=KEEPS_OPTIMAL, max_horizon=optimum - 1, descend=True)
    found = solve(level_of(text), config)
    assert found.status is Status.NO_PLAN_UP_TO_HORIZON and found.horizon == optimum - 1 and found.plan is None


def test_a_plan_under_strategies_that_may_lose_solutions_is_not_called_optimal() -> None:
    text = HAND_MADE["two-boxes"]
    config = SolveConfig(encoding="push-jump", strategies=("tunnel",), max_horizon=10, descend=True)
    found = solve(level_of(text), config)
    assert found.status is Status.SOLVED and found.optimal_for is None
    assert_replays(level_of(text), found.plan)


@pytest.mark.parametrize("encoding", ["push", "push-macro", "incremental"])
def test_descending_needs_push_jump(encoding: str) -> None:
    """push asks for exactly h pushes at horizon h, and push-macro counts slides: a refuted
    horizon below a plan says nothing of its pushes."""
    with pytest.raises(InputError, match="--descend needs"):
        solve(level_of(HAND_MADE["two-boxes"]), SolveConfig(encoding=encoding, descend=True))


def test_the_cli_descends_and_refuses_descend_with_the_portfolio(tmp_path) -> None:
    from test_cli import run, write

    path = str(write(tmp_path, "two.sok", HAND_MADE["two-boxes"]))
    optimum = bfs_pushes(HAND_MADE["two-boxes"])
    code, out = run("solve", "-e", "push-jump", "-s", "dead", "-s", "bound", "--descend", "--max-horizon", "9", path)
    assert code == 0 and "solved (optimal) in pushes" in out and f"pushes: {optimum} " in out
    code, out = run("race", "--descend", path)
    assert code != 0 and "--descend" in out and "Traceback" not in out
    code, out = run("solve", "-e", "push", "--descend", path)
    assert code != 0 and "--descend needs" in out and "Traceback" not in out
