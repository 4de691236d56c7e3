"""Every encoding family against the breadth-first oracle on tiny levels."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from corpus import HAND_MADE, UNSOLVABLE, multi_box_corpus, random_corpus
from helpers import assert_replays, level_of
from oracle import bfs_box_moves, bfs_moves, bfs_pushes, bfs_slides

from sokoasp import SolveConfig, Status, load_level, solve
from sokoasp.asp.encodings import ENCODINGS
from sokoasp.asp.horizon_loops import bound_and_start, first_horizon, start_scale
from sokoasp.asp.session import Session
from sokoasp.asp.strategies import STRATEGIES, Soundness
from sokoasp.config import Clock
from sokoasp.sokoban.analysis import nearest_goal_slides

ROOT = Path(__file__).resolve().parents[2]
THESIS_EXAMPLE = ROOT / "instances" / "thesis_example.lp"
SOLVABLE = {**{k: v for k, v in HAND_MADE.items()}, **random_corpus(16)}
OPTIMAL_INCREMENTAL = [e.name for e in ENCODINGS.values() if e.incremental and e.proves_optimum]
MOVE_FIXED = [e.name for e in ENCODINGS.values() if not e.incremental and e.unit == "move"]
SATISFICING = [e.name for e in ENCODINGS.values() if not e.proves_optimum]


@pytest.mark.parametrize("encoding", OPTIMAL_INCREMENTAL)
@pytest.mark.parametrize("name", sorted(SOLVABLE))
def test_incremental_finds_a_plan_optimal_in_its_unit(encoding: str, name: str) -> None:
    """Move families: the fewest moves; push families: the fewest pushes (and moves no fewer)."""
    text = SOLVABLE[name]
    level = level_of(text)
    result = solve(level, SolveConfig(encoding=encoding, max_horizon=30))
    pushes = ENCODINGS[encoding].unit == "push"
    assert result.status is Status.SOLVED_OPTIMAL, result.message
    assert result.optimal_for == ("pushes" if pushes else "moves")
    if pushes:
        assert result.pushes == bfs_pushes(text)
        assert result.moves >= bfs_moves(text)
    else:
        assert result.moves == bfs_moves(text)
    assert_replays(level, result.plan)


@pytest.mark.parametrize("encoding", SATISFICING)
@pytest.mark.parametrize("name", sorted(SOLVABLE))
def test_satisficing_families_find_valid_plans_and_claim_optimality_only_when_true(encoding: str, name: str) -> None:
    text = SOLVABLE[name]
    level = level_of(text)
    result = solve(level, SolveConfig(encoding=encoding, max_horizon=30))
    assert result.status.solved and result.pushes >= bfs_pushes(text)
    if result.status is Status.SOLVED_OPTIMAL:
        assert result.pushes == bfs_pushes(text)
    assert_replays(level, result.plan)


@pytest.mark.parametrize("encoding", MOVE_FIXED)
@pytest.mark.parametrize("name", sorted(SOLVABLE))
def test_fixed_horizon_plan_at_optimum_and_none_below(encoding: str, name: str) -> None:
    text = SOLVABLE[name]
    level = level_of(text)
    optimum = bfs_moves(text)
    found = solve(level, SolveConfig(encoding=encoding, horizon=optimum))
    assert found.status is Status.SOLVED and found.moves == optimum
    assert_replays(level, found.plan)
    for shorter in range(optimum):
        result = solve(level, SolveConfig(encoding=encoding, horizon=shorter))
        assert result.status is Status.NO_PLAN_AT_HORIZON, (shorter, result.plan)


@pytest.mark.parametrize("encoding", list(ENCODINGS))
def test_already_solved_level_gives_empty_plan(encoding: str) -> None:
    level = level_of(HAND_MADE["solved-already"])
    result = solve(level, SolveConfig(encoding=encoding, horizon=0))
    assert result.status.solved and result.plan == "" and result.moves == 0


@pytest.mark.parametrize("name", sorted(UNSOLVABLE))
def test_statically_unsolvable_levels_are_proven(name: str) -> None:
    assert bfs_moves(UNSOLVABLE[name]) is None
    result = solve(level_of(UNSOLVABLE[name]), SolveConfig())
    assert result.status is Status.UNSOLVABLE and result.plan is None


def test_no_plan_up_to_horizon_is_not_called_unsolvable() -> None:
    text = HAND_MADE["two-boxes"]
    result = solve(level_of(text), SolveConfig(max_horizon=bfs_moves(text) - 1))
    assert result.status is Status.NO_PLAN_UP_TO_HORIZON
    assert result.horizon == bfs_moves(text) - 1


def test_min_horizon_above_optimum_is_not_reported_optimal() -> None:
    text = HAND_MADE["turn-corner"]
    result = solve(level_of(text), SolveConfig(min_horizon=bfs_moves(text) + 2))
    assert result.status is Status.SOLVED  # found, but optimality is not proven
    assert_replays(level_of(text), result.plan)


# The fewest slides (6) lie above push-macro's bound (4), and 3x its start scale (2) is 6.
ABOVE_THE_BOUND = "#######\n#  #@##\n#. $  #\n#$    #\n#    ##\n#  .  #\n#######\n"


@pytest.mark.parametrize("encoding", ["push", "push-macro"])
def test_a_start_factor_probes_the_bound_in_push_macro_only_and_keeps_a_plan_found_there(encoding: str) -> None:
    text = HAND_MADE["two-boxes"]  # a plan at the bound, in pushes and in slides
    level = level_of(text)
    bound = first_horizon(level, ENCODINGS[encoding])
    assert bound == (bfs_slides(text) if encoding == "push-macro" else bfs_pushes(text))
    ahead = solve(level, SolveConfig(encoding=encoding, start_factor=3, max_horizon=30))
    assert ahead.status.solved
    assert ahead.horizon == bound if encoding == "push-macro" else ahead.horizon >= 3 * bound  # push: no probe
    assert_replays(level, ahead.plan)
    assert (ahead.status is Status.SOLVED_OPTIMAL) == (ahead.pushes == bfs_pushes(text) == ahead.horizon)


def test_a_start_factor_starts_above_the_bound_when_the_probe_finds_no_plan() -> None:
    level = level_of(ABOVE_THE_BOUND)
    family = ENCODINGS["push-macro"]
    bound = first_horizon(level, family)
    start = 3 * start_scale(level, family, bound)
    fewest = bfs_slides(ABOVE_THE_BOUND)
    assert fewest is not None and bound < fewest <= start
    ahead = solve(level, SolveConfig(encoding="push-macro", start_factor=3, max_horizon=40))
    assert ahead.status is Status.SOLVED and ahead.horizon >= start  # not optimal: horizons were skipped
    assert_replays(level, ahead.plan)
    nothing_tried = solve(level, SolveConfig(encoding="push-macro", start_factor=3, max_horizon=start - 1))
    assert nothing_tried.status is Status.NO_PLAN_UP_TO_HORIZON and nothing_tried.plan is None
    assert nothing_tried.horizon == bound  # the probe refuted the bound; the skipped horizons are not refuted


def test_horizons_skipped_by_a_late_start_are_not_called_refuted() -> None:
    """push takes exactly one push per step: a refuted horizon says nothing about shorter plans."""
    text = HAND_MADE["two-boxes"]  # no plan of exactly 5 pushes
    level = level_of(text)
    optimum = bfs_pushes(text)
    result = solve(level, SolveConfig(encoding="push", min_horizon=optimum + 1, max_horizon=optimum + 1))
    assert result.status is Status.NO_PLAN_UP_TO_HORIZON
    assert result.horizon == first_horizon(level, ENCODINGS["push"]) - 1 < optimum, result.message


def test_thesis_example_has_23_moves_in_plain() -> None:
    loaded = load_level(THESIS_EXAMPLE)
    assert loaded.horizon == 23
    assert solve(loaded.level, SolveConfig(encoding="plain", horizon=23)).status is Status.SOLVED


@pytest.mark.slow
def test_thesis_example_optimum_matches_oracle() -> None:
    from sokoasp.board.xsb import write_level

    loaded = load_level(THESIS_EXAMPLE)
    assert bfs_moves(write_level(loaded.level), limit=5_000_000) == 23
    assert solve(loaded.level, SolveConfig(encoding="plain", horizon=22)).status is Status.NO_PLAN_AT_HORIZON
    result = solve(loaded.level, SolveConfig(encoding="incremental"))
    assert result.status is Status.SOLVED_OPTIMAL and result.moves == 23


@pytest.mark.parametrize("encoding", [e.name for e in ENCODINGS.values() if e.incremental])
def test_max_horizon_below_the_lower_bound_is_respected(encoding: str) -> None:
    level = level_of(HAND_MADE["two-boxes"])
    below = first_horizon(level, ENCODINGS[encoding]) - 1
    assert below >= 1
    result = solve(level, SolveConfig(encoding=encoding, max_horizon=below))
    assert result.status is Status.NO_PLAN_UP_TO_HORIZON and result.plan is None and result.horizon == below


def test_a_search_limit_is_not_mistaken_for_no_plan() -> None:
    text = HAND_MADE["two-boxes"]
    result = solve(level_of(text), SolveConfig(clingo_args=("--solve-limit=1",)))
    assert result.status is Status.TIMEOUT and result.plan is None


def assert_a_plan_at_the_oracles_horizon_and_none_below(encoding: str, strategies: tuple[str, ...],
                                                       oracle: Callable[[str], int | None]) -> None:
    """On every small level, the family asked for exactly the oracle's fewest steps finds a plan
    (no fewer pushes than the push optimum, replayed) and finds none below."""
    for name, text in sorted(SOLVABLE.items()):
        level = level_of(text)
        optimum = oracle(text)
        assert optimum is not None, name
        exact = SolveConfig(encoding=encoding, strategies=strategies, min_horizon=optimum, max_horizon=optimum)
        found = solve(level, exact)
        assert found.status.solved and found.horizon == optimum, (name, found.message)
        assert found.pushes >= bfs_pushes(text)
        assert_replays(level, found.plan)
        below = solve(level, SolveConfig(encoding=encoding, strategies=strategies, max_horizon=optimum - 1))
        assert below.status is Status.NO_PLAN_UP_TO_HORIZON, name


MACRO_STRATEGIES = [s.name for s in STRATEGIES.values() if "push-macro" in s.encodings and s.soundness is Soundness.KEEPS_OPTIMAL]


@pytest.mark.parametrize("strategies", [(), *[(name,) for name in MACRO_STRATEGIES]])
def test_macro_family_has_a_plan_at_the_fewest_slides_and_none_below(strategies: tuple[str, ...]) -> None:
    """The macro family asked for exactly the oracle's fewest slides finds a plan (so strategies
    that keep optimal plans keep the slide-optimal ones) and none below."""
    assert_a_plan_at_the_oracles_horizon_and_none_below("push-macro", strategies, bfs_slides)


def test_pushes_that_return_to_an_earlier_state_are_cut_from_a_plan() -> None:
    from sokoasp.sokoban.pushes import Push, expand_pushes, without_cycles

    text = "######\n#    #\n#@$ .#\n######\n"
    level = level_of(text)
    right, left = Push((2, 2), (1, 0)), Push((3, 2), (-1, 0))
    detour = [right, left, right, Push((3, 2), (1, 0))]  # away and back, then to the goal
    assert_replays(level, expand_pushes(level, detour))
    shortened = without_cycles(level, detour)
    assert len(shortened) == 2 == bfs_pushes(text)
    assert_replays(level, expand_pushes(level, shortened))


@pytest.mark.parametrize("name", sorted(SOLVABLE))
def test_parallel_macro_family_needs_no_more_steps_than_the_fewest_slides(name: str) -> None:
    """Every sequence of slides is a parallel plan (one slide per step), so the parallel macro
    family finds a plan within the oracle's fewest slides; its pushes are no fewer than the optimum."""
    text = SOLVABLE[name]
    level = level_of(text)
    result = solve(level, SolveConfig(encoding="push-macro-parallel", max_horizon=bfs_slides(text)))
    assert result.status.solved and result.horizon <= bfs_slides(text), (name, result.message)
    assert result.pushes >= bfs_pushes(text)
    assert_replays(level, result.plan)


def test_parallel_macro_slides_two_independent_boxes_in_one_step() -> None:
    text = "########\n#@$   .#\n# ######\n# $   .#\n########\n"
    result = solve(level_of(text), SolveConfig(encoding="push-macro-parallel", max_horizon=4))
    assert result.status.solved and result.horizon == 1 and result.pushes == 8
    assert_replays(level_of(text), result.plan)


def test_parallel_macro_keeps_slides_that_touch_the_same_square_in_separate_steps() -> None:
    """One step could slide the left box through (3,2) to (5,2) and the lower box up onto (3,2),
    but only in that order: forall-step semantics needs two steps."""
    text = "########\n#      #\n#@$. . #\n#  $   #\n#      #\n########\n"
    result = solve(level_of(text), SolveConfig(encoding="push-macro-parallel", max_horizon=4))
    assert result.status.solved and result.horizon == 2
    assert_replays(level_of(text), result.plan)


ROUTE_CASES = [(encoding, strategies) for encoding in ("push-route", "pull-route")
               for strategies in [(), *[(s.name,) for s in STRATEGIES.values()
                                        if encoding in s.encodings and s.soundness is Soundness.KEEPS_OPTIMAL]]]


@pytest.mark.parametrize(("encoding", "strategies"), ROUTE_CASES)
def test_route_families_have_a_plan_at_the_fewest_box_moves_and_none_below(encoding: str, strategies: tuple[str, ...]) -> None:
    """The route families (forwards and backwards) asked for exactly the oracle's fewest box
    moves find a plan (so their symmetry cuts and the strategies that keep optimal plans keep
    those plans) and none below."""
    assert_a_plan_at_the_oracles_horizon_and_none_below(encoding, strategies, bfs_box_moves)


def test_one_route_takes_a_box_round_a_corner_with_the_player_walking_round_it() -> None:
    """Up, then right: the player must walk round the box between the two pushes."""
    text = "######\n#   .#\n# $  #\n# @  #\n######\n"
    result = solve(level_of(text), SolveConfig(encoding="push-route", max_horizon=1))
    assert result.status.solved and result.horizon == 1 and result.pushes == bfs_pushes(text) == 3
    assert_replays(level_of(text), result.plan)


def test_pull_route_ends_with_the_player_in_its_start_region() -> None:
    """The player starts shut in the left column. Pulled back from the goals, the boxes reach
    their start squares in fewer box moves with the player ending elsewhere; the forward plan
    needs the player's start region (found by a random search with that condition cut out)."""
    text = "########\n#  #   #\n#@# $  #\n# .$.  #\n########\n"
    level = level_of(text)
    result = solve(level, SolveConfig(encoding="pull-route", max_horizon=bfs_box_moves(text)))
    assert result.status.solved and result.horizon == bfs_box_moves(text) == 4
    assert_replays(level, result.plan)


def test_a_pulled_route_that_cannot_be_pushed_back_is_refused_not_trusted() -> None:
    from sokoasp.errors import SokoaspError
    from sokoasp.sokoban.pushes import reverse_route_pushes

    level = level_of("#######\n#@$#  #\n#  # .#\n#######\n")
    with pytest.raises(SokoaspError, match="no route for the box at"):
        reverse_route_pushes(level, [((2, 1), (5, 2), (4, 2))])


def test_a_route_the_other_boxes_block_is_refused_not_trusted() -> None:
    from sokoasp.errors import SokoaspError
    from sokoasp.sokoban.pushes import route_pushes

    level = level_of("#######\n#@$#  #\n#  # .#\n#######\n")
    with pytest.raises(SokoaspError, match="no route"):
        route_pushes(level, [((2, 1), (4, 2), (3, 2))])


def test_pull_route_reads_the_pulls_back_to_a_start_square_as_its_distances() -> None:
    """Turned round, the guide's dist/3 counts pulls back to the boxes' start squares: pushes
    from the nearest start square forwards."""
    from sokoasp.asp.reverse_facts import reverse_facts

    text = "########\n#@$   .#\n#  $  .#\n########\n"
    facts = set(reverse_facts(level_of(text)).split("\n"))
    assert {"dist(2,1,0).", "dist(3,2,0).", "dist(3,1,1).", "dist(6,1,4).", "dist(6,2,3)."} <= facts
    assert not any(f.startswith("dist(1,") for f in facts)  # corners: dead squares have no distance


def test_the_guide_orders_the_pull_route_search() -> None:
    """With the guide the reverse search makes other choices (the heuristic fires), and its
    horizon loop stops at the same horizon (a heuristic prunes nothing)."""
    level = load_level(ROOT / "instances" / "microban_1-5.sok", "3").level
    plain = solve(level, SolveConfig(encoding="pull-route", max_horizon=30))
    guided = solve(level, SolveConfig(encoding="pull-route", strategies=("guide",), max_horizon=30))
    assert plain.status.solved and guided.status.solved and guided.horizon == plain.horizon
    assert_replays(level, guided.plan)
    assert plain.stats["choices"] != guided.stats["choices"]


def test_the_slide_bound_matches_boxes_to_goals_and_never_exceeds_the_fewest_slides() -> None:
    """push-macro's first horizon is the cheapest box-goal matching on lone-box slides: never
    above the breadth-first fewest slides, and above the nearest-goal sum where boxes share
    their nearest goal."""
    levels = {**HAND_MADE, **multi_box_corpus(40, seed=11)}
    stronger = 0
    for name, text in levels.items():
        level, fewest = level_of(text), bfs_slides(text)
        assert fewest is not None, name
        bound = first_horizon(level, ENCODINGS["push-macro"])
        assert bound <= fewest, name
        nearest = nearest_goal_slides(level)
        stronger += bound > sum(nearest[box] for box in level.boxes)
    assert stronger >= 3


def test_push_macro_starts_at_the_matching_bound_and_scales_its_start_factor_by_the_nearest_goal_sum() -> None:
    """Two boxes whose nearest goal is the same one: the matching bound counts a slide more
    than the nearest-goal sum. 1x starts at the bound (no proven-empty horizon is asked),
    3x at three times the sum (the scale the start factors were measured with)."""
    text = "#######\n#   . #\n##$   #\n# .$@ #\n##    #\n#######\n"
    level = level_of(text)
    bound, fewest = first_horizon(level, ENCODINGS["push-macro"]), bfs_slides(text)
    assert nearest_goal_slides(level)[(2, 2)] == nearest_goal_slides(level)[(3, 3)] == 1  # both: goal (2, 3)
    assert bound == 3 == fewest
    assert start_scale(level, ENCODINGS["push-macro"], bound) == 2
    session = Session(level, ENCODINGS["push-macro"], SolveConfig(encoding="push-macro"), Clock())
    assert bound_and_start(session, SolveConfig(encoding="push-macro")) == (3, 3)
    assert bound_and_start(session, SolveConfig(encoding="push-macro", start_factor=3)) == (3, 6)
    result = solve(level, SolveConfig(encoding="push-macro"))
    assert result.status.solved and result.horizon == fewest  # the first horizon asked has a plan
