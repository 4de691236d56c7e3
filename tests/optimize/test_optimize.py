"""The plan optimizer against the exact optimum: never a plan that fails replay or is longer than
its input, never one below the breadth-first optimum, and the optimum reached from deliberately
bad plans (random detours and undone pushes before an optimal rest) on most tiny levels."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path

import pytest
from corpus import HAND_MADE, multi_box_corpus, random_corpus
from helpers import level_of
from oracle import bfs_moves, bfs_pushes
from test_cli import run

from sokoasp import SolveConfig, load_level, solve
from sokoasp.board.level import DIRECTIONS, Level
from sokoasp.board.simulator import apply_step, check_step, replay
from sokoasp.board.xsb import write_level
from sokoasp.errors import ExitCode, InputError
from sokoasp.optimizer import optimize, windows
from sokoasp.optimizer.metric import cost_in

ROOT = Path(__file__).resolve().parents[2]
LEVELS = {name: HAND_MADE[name] for name in ("turn-corner", "two-boxes", "walk-around", "both-ways")} | random_corpus(10, seed=88) \
    | multi_box_corpus(8, seed=88)


def bad_plan(level: Level, seed: int, detour: int = 8) -> str | None:
    """Random legal steps (pushes among them) from the start, then a move-optimal rest, or None
    when the random steps made the level unsolvable."""
    rng = random.Random(seed)
    player, boxes, steps = level.player, set(level.boxes), ""
    for _ in range(detour):
        legal = [letter for letter in "lurdLURD" if not check_step(level, player, boxes, letter)]
        letter = rng.choice(legal)
        player, _ = apply_step(player, boxes, letter)
        steps += letter
    rest = solve(Level(level.floor, frozenset(boxes), level.goals, player), SolveConfig(encoding="incremental",
                                                                                        strategies=("dead",),
                                                                                        max_horizon=60))
    return None if rest.plan is None else steps + rest.plan


@cache
def bad_plans() -> list[tuple[str, Level, str]]:
    """(level text, level, a bad plan of it) for each level of ``LEVELS`` that keeps a plan."""
    found = [(text, level_of(text), bad_plan(level_of(text), index)) for index, text in enumerate(LEVELS.values())]
    return [(text, level, given) for text, level, given in found if given is not None]


@pytest.mark.parametrize("metric", ["moves", "pushes"])
def test_the_optimizer_never_lengthens_and_reaches_the_exact_optimum_on_most_levels(metric: str) -> None:
    reached = tried = 0
    for text, level, given in bad_plans():
        tried += 1
        outcome = optimize(level, given, metric, work=200_000)
        optimum = bfs_moves(text) if metric == "moves" else bfs_pushes(text)
        assert replay(level, outcome.plan).ok
        assert optimum is not None and optimum <= cost_in(metric, outcome.plan) <= cost_in(metric, given)
        if outcome.whole_proven:
            assert cost_in(metric, outcome.plan) == optimum, write_level(level)
        reached += cost_in(metric, outcome.plan) == optimum
    assert tried >= 10 and reached >= 0.8 * tried, (reached, tried)


def test_with_pushes_first_the_whole_search_proves_the_push_optimum_of_every_tiny_level() -> None:
    proven = 0
    for text, level, given in bad_plans():
        outcome = optimize(level, given, "pushes,moves", work=200_000)
        optimum = bfs_pushes(text)
        assert outcome.lower_bound is not None and outcome.lower_bound <= optimum  # type: ignore[operator]
        assert outcome.whole_proven and cost_in("pushes", outcome.plan) == optimum, write_level(level)
        assert outcome.found_by_search == (cost_in("pushes", given) > optimum)  # type: ignore[operator]
        proven += 1
    assert proven >= 10


def test_a_metric_of_moves_first_searches_no_pushes() -> None:
    level = level_of(HAND_MADE["two-boxes"])
    given = bad_plan(level, 3)
    assert given is not None
    assert optimize(level, given, "moves", work=20_000).lower_bound is None


def test_pareto_never_lengthens_either_unit_and_shortens_most_bad_plans() -> None:
    shorter = tried = 0
    for _, level, given in bad_plans():
        tried += 1
        outcome = optimize(level, given, "pareto", work=200_000)
        assert replay(level, outcome.plan).ok
        assert cost_in("pushes", outcome.plan) <= cost_in("pushes", given) and len(outcome.plan) <= len(given)
        shorter += outcome.plan != given
    assert tried >= 10 and shorter >= 0.8 * tried, (shorter, tried)


def test_a_lexicographic_metric_never_trades_the_first_unit_for_the_second() -> None:
    level = level_of(HAND_MADE["two-boxes"])
    given = bad_plan(level, 3)
    assert given is not None
    outcome = optimize(level, given, "pushes,moves", work=200_000)
    before, after = (cost_in("pushes", given), len(given)), (cost_in("pushes", outcome.plan), len(outcome.plan))
    assert after <= before and after[0] == bfs_pushes(HAND_MADE["two-boxes"])


def test_the_same_budget_gives_the_same_plan() -> None:
    level = level_of(HAND_MADE["two-boxes"])
    given = bad_plan(level, 3)
    assert given is not None
    first, second = optimize(level, given, "moves", work=20_000), optimize(level, given, "moves", work=20_000)
    assert (first.plan, first.work, first.windows_tried) == (second.plan, second.work, second.windows_tried)


def test_a_plan_that_does_not_solve_the_level_is_an_input_error() -> None:
    level = level_of(HAND_MADE["one-push"])
    with pytest.raises(InputError, match="does not solve the level"):
        optimize(level, "l", "moves")
    with pytest.raises(InputError, match="--metric takes one of"):
        optimize(level, "R", "boxes")


def test_the_command_prints_before_after_and_what_was_proven(tmp_path) -> None:
    path = tmp_path / "l.sok"
    path.write_text(HAND_MADE["turn-corner"])
    level = level_of(HAND_MADE["turn-corner"])
    given = bad_plan(level, 1)
    assert given is not None and all(letter in DIRECTIONS or letter.lower() in DIRECTIONS for letter in given)
    code, out = run("optimize", "--plan", given, "--metric", "moves", str(path))
    assert code == 0 and f"before:     {len(given)} moves" in out and "whole plan: proven optimal in moves" in out
    assert f"after:      {bfs_moves(HAND_MADE['turn-corner'])} moves" in out
    code, out = run("optimize", str(path))
    assert code == ExitCode.INPUT_ERROR and "give the plan to shorten" in out


def test_race_optimize_keeps_the_unit_its_plan_was_proven_optimal_in() -> None:
    path = ROOT / "instances" / "microban_1-5.sok"
    code, out = run("race", "--optimize", "5", "--json", "-l", "3", str(path))
    result = json.loads(out)
    done = result["stats"]["optimized"]
    assert code == 0 and replay(load_level(path, "3").level, result["plan"]).ok
    first = done["metric"].split(",")[0]
    assert first == (result["optimal_for"] or "pushes")
    assert result[first] <= done[f"{first}_before"]


def test_a_stopped_optimizer_prints_the_best_plan_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    level_file = ROOT / "instances" / "microban_1-5.sok"
    level = load_level(level_file, "3").level
    given = bad_plan(level, 2)
    assert given is not None
    solve_window, asked = windows.solve_window, []

    def stopped_at_the_third(*args: object, **kwargs: object) -> windows.Answer:
        asked.append(1)
        if len(asked) == 3:
            raise KeyboardInterrupt  # as Ctrl-C in the middle of a window's solve
        return solve_window(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(windows, "solve_window", stopped_at_the_third)
    code, out = run("optimize", "--plan", given, "--metric", "moves", "-l", "3", str(level_file))
    plan = next(line.split()[-1] for line in out.splitlines() if line.startswith("plan:"))
    assert code == 130 and "stopped:    interrupted" in out
    assert replay(level, plan).ok and len(plan) <= len(given)


def test_a_race_whose_optimizer_is_stopped_prints_its_plan_and_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    level_file = ROOT / "instances" / "microban_1-5.sok"

    def stopped(*args: object, **kwargs: object) -> windows.Answer:
        raise KeyboardInterrupt  # Ctrl-C in the first window's solve

    monkeypatch.setattr(windows, "solve_window", stopped)
    code, out = run("race", "--optimize", "5", "--json", "-l", "3", str(level_file))
    result = json.loads(out)
    assert code == 130 and result["stats"]["optimized"]["stopped"] == "interrupted"
    assert replay(load_level(level_file, "3").level, result["plan"]).ok
