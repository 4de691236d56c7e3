"""Corral pruning (the `corral` strategy): it keeps every push-optimal and slide-optimal plan
(breadth-first answers on random levels with several boxes), and the plans it returns obey the
PI-corral rule, checked by replaying them with a corral test written in Python."""

from __future__ import annotations

import pytest
from corpus import multi_box_corpus
from helpers import assert_keeps_shortest_horizon, assert_replays, level_of
from oracle import STEPS, bfs_pushes, parse, region

from sokoasp import SolveConfig, Status, solve

CORPUS = multi_box_corpus(24, seed=11)


def pi_corral_boxes(floor: set, boxes: frozenset, goals: frozenset, player: tuple) -> frozenset | None:
    """The boxes of an unfinished PI-corral of the whole unreachable area, or None if there is none."""
    reach = region(floor, boxes, player)
    inside = floor - boxes - reach
    corral = frozenset(b for b in boxes if any((b[0] + dx, b[1] + dy) in inside for dx, dy in STEPS.values()))
    if not (inside & goals or corral - goals):
        return None
    for (x, y) in corral:
        for dx, dy in STEPS.values():
            behind, target = (x - dx, y - dy), (x + dx, y + dy)
            possible = behind in floor and behind not in (corral | inside) and target in floor and target not in corral
            if possible and (target not in inside or behind not in reach):
                return None
    return corral


def pushes_in_pi_states(text: str, plan: str) -> tuple[int, int]:
    """(states with a PI-corral where the plan pushes, of them those where it pushes a corral box)."""
    floor, boxes, goals, player = parse(text)
    seen = obeyed = 0
    for move in plan:
        dx, dy = STEPS[move.lower()]
        nxt = (player[0] + dx, player[1] + dy)
        if move.isupper():
            corral = pi_corral_boxes(floor, boxes, goals, player)
            if corral is not None:
                seen += 1
                obeyed += nxt in corral
            boxes = (boxes - {nxt}) | {(nxt[0] + dx, nxt[1] + dy)}
        player = nxt
    return seen, obeyed


def test_corral_keeps_every_push_optimum_and_follows_the_rule() -> None:
    pi_states = 0
    for name, text in CORPUS.items():
        level = level_of(text)
        result = solve(level, SolveConfig(encoding="push", strategies=("corral",), max_horizon=20))
        assert result.status is Status.SOLVED_OPTIMAL, (name, result.message)
        assert result.pushes == bfs_pushes(text), name
        assert_replays(level, result.plan)
        seen, obeyed = pushes_in_pi_states(text, result.plan or "")
        assert seen == obeyed, f"{name}: a push outside a PI-corral"
        pi_states += seen
    assert pi_states >= 5  # the corpus really exercises the rule


@pytest.mark.parametrize("encoding", ["push-jump", "push-macro"])
def test_corral_keeps_the_shortest_horizon_of_the_jump_families(encoding: str) -> None:
    for text in CORPUS.values():
        assert_keeps_shortest_horizon(text, encoding, ("corral",))


def test_a_corral_whose_inward_push_is_blocked_by_an_outside_box_is_not_pruned() -> None:
    # The box at (2,2) can only go left, into the goal pocket, but the player cannot get behind
    # it until the box at (3,2) is pushed down: not a PI-corral (the wiki's "P" fails), so
    # pushing that other box first must stay allowed.
    text = "#######\n###  ##\n#.$$  #\n###.@ #\n#######\n"
    assert bfs_pushes(text) == 2
    floor, boxes, goals, player = parse(text)
    assert pi_corral_boxes(floor, boxes, goals, player) is None
    result = solve(level_of(text), SolveConfig(encoding="push", strategies=("corral",), max_horizon=6))
    assert result.status is Status.SOLVED_OPTIMAL and result.pushes == 2


def test_a_corral_whose_box_can_also_go_outwards_is_not_pruned() -> None:
    # Found by random search: without the wiki's "I" condition (every push of a corral box
    # goes inwards) corral pruning loses this level.
    text = "########\n# @ $ .#\n# #  $ #\n#  # .##\n#  .$  #\n########\n"
    assert bfs_pushes(text) == 4
    result = solve(level_of(text), SolveConfig(encoding="push", strategies=("corral",), max_horizon=8))
    assert result.status is Status.SOLVED_OPTIMAL and result.pushes == 4
