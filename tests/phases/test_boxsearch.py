"""The search of every box in Python before any ASP (sokoasp/boxsearch.py, ``--search``): a plan
exactly where the breadth-first oracle finds one, replayed; its matching order checked against
every assignment; and in the driver a phase whose plan is never called optimal, and after which
the other phases run when it finds none."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from corpus import HAND_MADE, multi_box_corpus, random_level
from helpers import assert_replays, level_of
from oracle import bfs_pushes
from test_cli import run, write

from sokoasp import SolveConfig, Status, solve
from sokoasp.board.simulator import count_pushes
from sokoasp.config import Clock, PhaseRun
from sokoasp.errors import ExitCode
from sokoasp.phases import box_search as box_search_phase
from sokoasp.phases.box_search import search_plan
from sokoasp.sokoban.analysis import INFINITY, lone_box_distances
from sokoasp.sokoban.bitboard import board_of
from sokoasp.sokoban.push_search import MatchingGuide

CORPUS = multi_box_corpus(16, seed=75)


def unsolvable_corpus(count: int, seed: int) -> dict[str, str]:
    """Random levels of 2-3 boxes that the breadth-first oracle proves unsolvable."""
    rng = random.Random(seed)
    levels: dict[str, str] = {}
    while len(levels) < count:
        width, height, boxes = rng.choice([(5, 4, 2), (5, 5, 2), (6, 4, 3)])
        text = random_level(rng, width, height, boxes)
        if text is not None and bfs_pushes(text, limit=20_000) is None:
            levels[f"unsolvable-{len(levels)}"] = text
    return levels


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_the_search_finds_a_plan_that_replays(name: str) -> None:
    level = level_of(CORPUS[name])
    plan, note = search_plan(level, Clock())
    assert_replays(level, plan)
    assert plan is not None and count_pushes(plan) >= bfs_pushes(CORPUS[name])
    assert "search of every box in Python (not ASP)" in note


@pytest.mark.parametrize("text", sorted(unsolvable_corpus(8, seed=75).values()))
def test_on_an_unsolvable_level_the_search_finds_none_and_says_it_searched_every_state(text: str) -> None:
    plan, note = search_plan(level_of(text), Clock())
    assert plan is None
    assert "it proved none exists" in note


def test_a_search_cut_short_says_when_it_stopped() -> None:
    plan, note = search_plan(level_of(CORPUS[sorted(CORPUS)[0]]), Clock(), states=1)
    assert plan is None and "stopped after" in note


@pytest.mark.parametrize("name", sorted(CORPUS)[:8])
def test_the_guide_is_the_cheapest_assignment_of_boxes_to_goals(name: str) -> None:
    """``MatchingGuide.cost`` against every assignment of the boxes to the goals, for the start
    and for each single push of a box."""
    level = level_of(CORPUS[name])
    guide = MatchingGuide(level.floor, level.goals, False)
    tables = {goal: lone_box_distances(level.floor, frozenset([goal])) for goal in level.goals}
    board = board_of(level.floor)
    placements = [level.boxes] + [(level.boxes - {box}) | {to} for box in level.boxes for to in level.floor - level.boxes]
    for boxes in placements:
        cheapest = min(sum(tables[goal].get(box, INFINITY) for box, goal in zip(sorted(boxes), order, strict=True))
                       for order in itertools.permutations(sorted(level.goals)))
        assert guide.cost(boxes, board.mask(boxes)) == min(cheapest, INFINITY)


def test_a_plan_of_the_search_phase_is_never_called_optimal() -> None:
    level = level_of(HAND_MADE["two-boxes"])
    result = solve(level, SolveConfig(encoding="push", strategies=("dead", "freeze", "bound"), phases=(PhaseRun("box-search", 300_000),)))
    assert result.status is Status.SOLVED
    assert "search of every box in Python" in result.message and result.report("box-search") is not None
    assert_replays(level, result.plan)


def test_when_the_search_finds_none_the_horizon_loop_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(box_search_phase, "search_plan", lambda *_: (None, "no plan by the search (stopped)"))
    level = level_of(HAND_MADE["two-boxes"])
    result = solve(level, SolveConfig(encoding="push", strategies=("dead", "freeze", "bound"), phases=(PhaseRun("box-search", 300_000),)))
    assert result.status is Status.SOLVED_OPTIMAL and result.pushes == bfs_pushes(HAND_MADE["two-boxes"])
    assert result.report("box-search").note == "no plan by the search (stopped)"


def test_solve_search_prints_the_phase(tmp_path: Path) -> None:
    path = write(tmp_path, "two.sok", HAND_MADE["two-boxes"])
    code, out = run("solve", "-e", "push", "--phase", "box-search=300k", str(path))
    assert code == ExitCode.SOLVED
    assert "status:     solved (not proven optimal): the whole plan by the search of every box in Python (not ASP)" in out


def test_the_portfolio_refuses_a_search_of_its_own(tmp_path: Path) -> None:
    path = write(tmp_path, "two.sok", HAND_MADE["two-boxes"])
    code, out = run("race", "--phase", "box-search=50k", str(path))
    assert code == ExitCode.USAGE and "--phase" in out
