"""Two-box deadlocks (sokoasp/pairs.py, the pairs strategy): the table against a forward
search of each two-box problem, and the strategy against breadth-first push optima."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations
from pathlib import Path

import clingo
import pytest
from corpus import multi_box_corpus
from helpers import assert_replays, level_of
from oracle import bfs_pushes

from sokoasp import SolveConfig, Status, solve
from sokoasp.asp.encodings import ENCODINGS
from sokoasp.asp.session import Session
from sokoasp.asp.strategies import STRATEGIES
from sokoasp.board.level import DIRECTIONS, Level, add
from sokoasp.board.loading import load_level
from sokoasp.config import Clock
from sokoasp.sokoban.analysis import lone_box_distances, push_lower_bound
from sokoasp.sokoban.deadlocks import cannot_all_reach_goals
from sokoasp.sokoban.pairs import (
    PairSides,
    pair_is_dead,
    pair_lower_bound,
    pair_never_dead,
    pair_table,
    push_bound,
    relevant_pairs,
)

MICROBAN = Path(__file__).resolve().parents[3] / "shared" / "levels" / "microban_i.sok"
needs_shared = pytest.mark.skipif(not MICROBAN.exists(), reason="needs ../shared/levels")


def check_against_forward_search(level: Level) -> tuple[int, int]:
    """For each relevant pair of live squares and each side of it that touches a box, whether
    the table calls it dead must match a forward search of the two boxes alone (the player on
    that side). Returns how many pairs the table calls dead from every side, and from some."""
    table = pair_table(level)
    sides = PairSides(level.floor)
    live = lone_box_distances(level.floor, level.goals)
    for a, b in relevant_pairs(level):
        if a not in live or b not in live:
            continue
        near = {add(box, delta) for box in (a, b) for delta in DIRECTIONS.values()} & level.floor - {a, b}
        for side in sides.of((a, b)):
            touching = {cell for cell in near if side & sides.board.bit(cell)}
            if touching:
                said = (a, b) in table.dead or touching <= table.dead_sides.get((a, b), frozenset())
                truth = cannot_all_reach_goals(level.floor, level.goals, frozenset({a, b}), min(touching), False, 10**6)
                assert said == truth, (a, b, min(touching), said, truth)
    return len(table.dead), len(table.dead_sides)


def test_the_table_agrees_with_a_forward_search_of_each_two_box_problem() -> None:
    dead, one_sided = 0, 0
    for text in multi_box_corpus(12, seed=5).values():
        counts = check_against_forward_search(level_of(text))
        dead, one_sided = dead + counts[0], one_sided + counts[1]
    assert dead > 0 and one_sided > 0  # both kinds were checked


@needs_shared
@pytest.mark.parametrize("number", ["3", "17", "40"])
def test_the_table_agrees_with_a_forward_search_on_microban(number: str) -> None:
    check_against_forward_search(load_level(MICROBAN, number).level)


def test_two_boxes_that_need_the_same_goal_are_dead_though_neither_is_frozen() -> None:
    """Two boxes in a dead-end corridor whose one goal is at its end: each can reach it alone."""
    table = pair_table(level_of("########\n#@ $ $.#\n#  #####\n#.##\n####\n"))
    assert ((3, 1), (5, 1)) in table.dead


def first_pushes(text: str, strategies: tuple[str, ...]) -> int:
    """The states one push can lead to that the push encoding and ``strategies`` allow (the
    goal switched off)."""
    session = Session(level_of(text), ENCODINGS["push"], SolveConfig(encoding="push", strategies=strategies), Clock())
    control = session.control
    control.configuration.solve.models = 0
    control.ground([("base", []), ("step", [clingo.Number(1)])])
    with control.solve(yield_=True) as handle:
        return sum(1 for _ in handle)


def test_the_strategy_forbids_a_state_with_two_boxes_on_a_dead_pair() -> None:
    """The one push there is leaves two boxes that need the same goal: allowed without the
    strategy, forbidden with it (the table's pair, written as facts and read by pairs/push.lp)."""
    text = "#########\n#@ $  $.#\n#  ######\n#.##\n####\n"
    assert ((4, 1), (6, 1)) in pair_table(level_of(text)).dead
    assert first_pushes(text, ()) == 1
    assert first_pushes(text, ("pairs",)) == 0
    assert first_pushes(text, ("dead", "freeze")) == 1  # what the older deadlock tests miss


def test_a_dead_pair_at_the_start_proves_the_level_unsolvable() -> None:
    """Each box alone could reach a goal, but the player cannot get past the first to the second."""
    text = "########\n#@$$ ..#\n########\n"
    result = solve(level_of(text), SolveConfig(encoding="push", max_horizon=10))
    assert result.status is Status.UNSOLVABLE and "(2, 1) and (3, 1)" in result.message
    assert bfs_pushes(text) is None


@pytest.mark.parametrize("name,text", sorted(multi_box_corpus(16, seed=23).items()))
def test_the_push_optimum_is_kept(name: str, text: str) -> None:
    level = level_of(text)
    result = solve(level, SolveConfig(encoding="push", strategies=("dead", "freeze", "bound", "pairs"), max_horizon=20))
    assert result.status is Status.SOLVED_OPTIMAL and result.pushes == bfs_pushes(text), name
    assert_replays(level, result.plan)


def test_the_pair_bound_is_exact_on_two_boxes_and_a_lower_bound_on_more() -> None:
    """With two boxes the table is the whole level, so its pushes are the optimum; with more,
    never above it, and sometimes above the cheapest box-goal matching."""
    exact, above_matching = 0, 0
    for text in multi_box_corpus(30, seed=7).values():
        level = level_of(text)
        optimum = bfs_pushes(text)
        assert optimum is not None
        if len(level.boxes) == 2:
            assert pair_lower_bound(level) == optimum, text
            exact += 1
        assert push_bound(level) <= optimum, text
        above_matching += pair_lower_bound(level) > push_lower_bound(level)
    assert exact > 0 and above_matching > 0


@needs_shared
def test_the_bound_strategy_refutes_a_horizon_below_the_pair_bound_without_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Microban 92: each box's pushes to its nearest goal sum to 20, the pair bound is 37. At
    36 pushes the start state already breaks the bound with the pairs' extra pushes: refuted
    with no choice made. Without the extras (the same strategy file, no pair_extra facts) the
    solver has to search."""
    level = load_level(MICROBAN, "92").level
    bound = pair_lower_bound(level)
    assert bound > sum(lone_box_distances(level.floor, level.goals)[box] for box in level.boxes) + 10

    def refute() -> tuple[bool | None, int]:
        session = Session(level, ENCODINGS["push"], SolveConfig(encoding="push", strategies=("bound",)), Clock())
        outcome = session.ask(bound - 1, budget=30_000)
        return outcome, int(session.control.statistics["solving"]["solvers"]["choices"])

    assert refute() == (False, 0)
    shipped = STRATEGIES["bound"]
    monkeypatch.setitem(STRATEGIES, "bound", replace(shipped, files=tuple(replace(f, facts="") for f in shipped.files)))
    outcome, choices = refute()
    assert outcome is None or choices > 0


def test_a_pair_never_dead_is_dead_from_no_side_and_every_other_from_some() -> None:
    """``pair_never_dead`` says what asking ``pair_is_dead`` from every side of the pair says."""
    never = some = 0
    for text in multi_box_corpus(12, seed=5).values():
        level = level_of(text)
        sides = PairSides(level.floor)
        live = sorted(lone_box_distances(level.floor, level.goals))
        for pair in combinations(live, 2):
            dead_somewhere = any(pair_is_dead(level.floor, level.goals, pair, min(cells))
                                 for cells in map(sides.board.cells, sides.of(pair)))
            assert pair_never_dead(level.floor, level.goals, pair) is not dead_somewhere, (text, pair)
            never += not dead_somewhere
            some += dead_somewhere
    assert never > 100 and some > 100
