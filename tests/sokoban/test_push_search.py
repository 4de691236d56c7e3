"""The fillable test of staged solving (sokoasp/filling.py) is a relaxation: it passes every
state whose empty goals can be filled by pushes that leave the boxes on goals where they are
(checked by a breadth-first search over pushes with those boxes as walls), and it rejects
states that cannot."""

from __future__ import annotations

import random

import pytest
from corpus import multi_box_corpus, random_level
from helpers import level_of
from oracle import fills_around, parse, push_closure

from sokoasp.board.level import Level
from sokoasp.errors import InputError
from sokoasp.sokoban.analysis import lone_box_distances
from sokoasp.sokoban.bitboard import board_of, floor_mask
from sokoasp.sokoban.push_search import (
    JOINT_BOXES,
    GoalOrder,
    SearchLimits,
    Stop,
    Target,
    each_box_reaches_a_goal,
    fillable,
    fills_jointly,
    push_search,
    reached_squares,
)

CORPUS = multi_box_corpus(24, seed=11)


def reachable_states(text: str) -> list[Level]:
    """Every state reachable by pushing (one per placement and player region) with a box on a
    goal and one off, built from the oracle's own parse."""
    floor, boxes, goals, player = parse(text)
    states = [Level(frozenset(floor), placement, goals, cell)
              for (placement, _), cell in push_closure(floor, boxes, player).items()]
    return [state for state in states if state.boxes & state.goals and state.boxes - state.goals]


def fills(state: Level, pulls: bool = False) -> bool:
    return fills_around(set(state.floor), state.boxes, state.goals, state.player, pulls=pulls)


def reachable_pull_states(text: str) -> list[Level]:
    """The same for the level turned round (the reverse search): boxes pulled from the goals,
    the start squares as goals, the player starting on each free square in turn."""
    floor, boxes, goals, _ = parse(text)
    states: dict[tuple, Level] = {}
    for player in sorted(set(floor) - goals):
        for (placement, _), cell in push_closure(floor, goals, player, pulls=True).items():
            states[(placement, cell)] = Level(frozenset(floor), placement, boxes, cell)
    return [state for state in states.values() if state.boxes & state.goals and state.boxes - state.goals]


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_fillable_passes_every_state_whose_empty_goals_can_be_filled_around_the_full_ones(name: str) -> None:
    for state in reachable_states(CORPUS[name]):
        if fills(state):
            assert fillable(state), sorted(state.boxes)


def test_fillable_rejects_states_that_cannot_be_filled_around_the_full_ones() -> None:
    rejected = [state for text in CORPUS.values() for state in reachable_states(text) if not fillable(state)]
    assert len(rejected) > 100
    assert not any(fills(state) for state in rejected[::10])


SEALED = """\
#######
#.*   #
###$  #
  #  @#
  #####
"""


@pytest.mark.parametrize("pulls", [False, True])
def test_the_joint_search_answers_as_the_oracle_does(pulls: bool) -> None:
    """Where fills_jointly answers, it is exact: the breadth-first oracle's answer on every
    reachable state of the corpus (pushes, and the level turned round with pulls); it answers
    for most of them, and it turns down states each box alone would pass."""
    texts = sorted(CORPUS)[:12] if pulls else sorted(CORPUS)
    states = [state for name in texts for state in (reachable_pull_states if pulls else reachable_states)(CORPUS[name])]
    answered = [(state, joint_answer(state, pulls)) for state in states]
    answered = [(state, answer) for state, answer in answered if answer is not None]
    assert len(answered) > len(states) / 2
    assert all(answer == fills(state, pulls) for state, answer in answered)
    assert any(not answer and each_box_reaches_a_goal(state, pulls) for state, answer in answered)


def joint_answer(state: Level, pulls: bool = False) -> bool | None:
    """fills_jointly's answer: True, False, or None when it searched nothing or was cut short."""
    joint = fills_jointly(state, pulls)
    return None if joint is None else joint.answer


def test_two_boxes_that_block_each_other_fail_though_each_alone_would_pass() -> None:
    """Along the top wall each box alone can be pushed onto its goal, the player standing where
    the other box is; together neither can move along the wall, and no push moves them off it."""
    pair = level_of("#######\n#.$$ .#\n#     #\n#  @  #\n#######\n")
    assert each_box_reaches_a_goal(pair) and not fills(pair)
    assert joint_answer(pair) is False and not fillable(pair)
    apart = level_of("#######\n#.$ $.#\n#     #\n#  @  #\n#######\n")
    assert joint_answer(apart) is True and fillable(apart) and fills(apart)


def test_the_joint_search_leaves_many_boxes_to_the_stages() -> None:
    count = JOINT_BOXES + 1
    rows = ["#" * (count + 4), "#@" + " " * (count + 1) + "#", "# " + "$" * count + " #", "# " + "." * count + " #",
            "#" * (count + 4)]
    many = level_of("\n".join(rows) + "\n")
    assert fills_jointly(many) is None and fillable(many)


def test_a_goal_behind_a_filled_entrance_goal_fails() -> None:
    sealed = level_of(SEALED)
    assert not fillable(sealed) and not fills(sealed)
    opened = level_of(SEALED.replace(".*", "*."))
    assert fillable(opened)


def test_a_box_that_needs_the_player_on_a_filled_goal_fails() -> None:
    """The box can only go up, pushed from the square below it: there is a filled goal."""
    stuck = level_of("#####\n#.  #\n#$  #\n#* @#\n#####\n")
    assert not fillable(stuck) and not fills(stuck)
    assert fillable(level_of("#####\n#.  #\n#$ *#\n#  @#\n#####\n"))


def blocking_pairs(state: Level, pulls: bool = False) -> list:
    """The state's own blocking pairs: a goal order started at the state itself."""
    return GoalOrder(state, pulls).pairs(state)


def levels_with_blocking_pairs(count: int, seed: int) -> dict[str, str]:
    """Random boards (solvable or not) whose goals have at least one blocking pair."""
    rng = random.Random(seed)
    levels: dict[str, str] = {}
    while len(levels) < count:
        text = random_level(rng, *rng.choice([(5, 4, 2), (5, 5, 2), (6, 4, 3), (5, 5, 3)]))
        try:
            if text is not None and blocking_pairs(level_of(text)) and reachable_states(text):
                levels[f"paired-{len(levels)}"] = text
        except InputError:
            continue  # a box or goal the player's floor does not reach
    return levels


PAIRED = levels_with_blocking_pairs(12, seed=3)


def breaks_a_pair(state: Level, pairs: list) -> bool:
    """Goal g filled while goal h is empty, for some blocking pair (g, h)."""
    return any(g in state.boxes and h not in state.boxes for g, h in pairs)


@pytest.mark.parametrize("name", sorted(PAIRED))
def test_no_state_that_can_be_filled_breaks_a_blocking_pair_of_its_own(name: str) -> None:
    """The goal order of a state (``blocking_pairs``) only cuts the states that fail fillable
    and that a breadth-first search cannot fill around the full goals. The pairs a staged
    search keeps (``GoalOrder.pairs``, kept from the search's start and widened where a box
    went beyond what the start's boxes reach; subgoal-order.lp gets their part without cycles,
    ``GoalOrder.order``) are part of them."""
    level = level_of(PAIRED[name])
    order = GoalOrder(level, pulls=False)
    for state in reachable_states(PAIRED[name]):
        pairs = blocking_pairs(state)
        assert set(order.pairs(state)) <= set(pairs)
        if breaks_a_pair(state, pairs):
            assert not fillable(state) and not fills(state), sorted(state.boxes)


def test_blocking_pairs_cut_states() -> None:
    assert blocking_pairs(level_of(SEALED)) == [((2, 1), (1, 1))]
    cut = sum(1 for text in PAIRED.values() for state in reachable_states(text) if breaks_a_pair(state, blocking_pairs(state)))
    assert cut > 20


def test_reached_squares_leave_out_pockets_no_box_can_be_pushed_into() -> None:
    level = level_of("######\n# #  #\n#@$ .#\n######\n")
    assert reached_squares(level.floor, level.boxes, pulls=False) == {(1, 2), (2, 2), (3, 2), (4, 2)}


# With the upper goal filled, the lower one takes a box only from the left, along the bottom row,
# and no box can ever get into the bottom row: only the pocket rule finds the pair.
BOTTOM_ROW = """\
#######
##    #
# ###.#
#   $$#
# @  .#
#######
"""


def test_squares_no_box_can_reach_are_no_way_in() -> None:
    level = level_of(BOTTOM_ROW)
    assert (4, 4) not in reached_squares(level.floor, level.boxes, pulls=False)
    assert ((5, 2), (5, 4)) in blocking_pairs(level)
    upper_filled = Level(level.floor, frozenset({(5, 2), (4, 3)}), level.goals, (2, 4))
    assert not fills(upper_filled)


@pytest.mark.parametrize("name", sorted(CORPUS)[:12])
def test_with_pulls_fillable_passes_every_state_whose_start_squares_can_be_filled(name: str) -> None:
    for state in reachable_pull_states(CORPUS[name]):
        if fills(state, pulls=True):
            assert fillable(state, pulls=True), sorted(state.boxes)


def test_with_pulls_fillable_rejects_states_that_cannot_be_filled() -> None:
    states = [state for text in CORPUS.values() for state in reachable_pull_states(text)]
    rejected = [state for state in states if not fillable(state, pulls=True)]
    assert len(rejected) > 20
    assert not any(fills(state, pulls=True) for state in rejected[::5])
    assert any(not fillable(state) for state in states if fillable(state, pulls=True))  # pulls are not pushes


def test_with_pulls_blocking_pairs_only_cut_states_that_fail() -> None:
    for text in CORPUS.values():
        turned = level_of(text)
        turned = Level(turned.floor, turned.goals, turned.boxes, turned.player)
        order = GoalOrder(turned, pulls=True)
        for state in reachable_pull_states(text):
            if breaks_a_pair(state, order.pairs(state)):
                assert not fillable(state, pulls=True) and not fills(state, pulls=True)


# Microban I 153 (David W. Skinner). Backwards, boxes are pulled from the goal column to the start
# squares, and a box reaches column 4 only by way of the middle room and back along row 2.
MICROBAN_153 = """\
#############
#.# @#  #   #
#.#$$   # $ #
#.#  # $#   #
#.# $#  # $##
#.#  # $#  #
#.# $#  # $#
#..  # $   #
#..  #  #  #
############
"""


def test_the_goal_order_leaves_out_goals_that_shut_each_other_out() -> None:
    """From the goal column, (7, 3) filled shuts out (7, 5) and (7, 5) filled shuts out (7, 3):
    no order of the two exists until a box stands elsewhere, so the order (``GoalOrder.order``)
    leaves them out; it keeps the door (3, 2), after every other start square, and has no
    cycle."""
    level = level_of(MICROBAN_153)
    turned = Level(level.floor, level.goals, level.boxes, (3, 8))
    order = GoalOrder(turned, pulls=True)
    pairs, kept = set(order.pairs(turned)), set(order.order(turned))
    assert {((7, 3), (7, 5)), ((7, 5), (7, 3))} <= pairs - kept
    assert {((3, 2), other) for other in turned.goals - {(3, 2)}} <= kept
    placed: set = set()
    while len(placed) < len(turned.goals):  # a topological order of the kept pairs exists
        ready = [goal for goal in turned.goals - placed if all(h in placed for g, h in kept if g == goal)]
        assert ready
        placed.add(ready[0])


@pytest.mark.parametrize("pulls", [False, True])
@pytest.mark.parametrize("newest_first", [False, True])
def test_every_region_the_push_search_takes_up_is_one_piece_of_the_floor(pulls: bool, newest_first: bool) -> None:
    """push_search floods a state's region from the region before it where it can
    (``Board.ring_joined``): each region it records is exactly the player's region of its boxes
    (every state reachable: it asks for one box more than there are)."""
    checked = 0
    for text in CORPUS.values():
        state = level_of(text)
        distance = lone_box_distances(state.floor, state.goals, pulls)
        if any(box not in distance for box in state.boxes):
            continue
        outcome = push_search(state.floor, state.boxes, state.player, distance, Target(state.goals, need=len(state.boxes) + 1),
                              pulls, SearchLimits(100_000, newest_first=newest_first, proof=True))
        assert outcome.stop is Stop.EXHAUSTED and outcome.moves == () and outcome.states == len(outcome.seen) > 0
        seen = outcome.seen
        board = board_of(state.floor)
        open_squares = floor_mask(state.floor)
        for boxes, region in seen:
            assert board.flood(open_squares & ~boxes, region & -region) == region
            checked += 1
    assert checked > (500 if pulls else 2000)


def test_a_matching_kept_up_push_by_push_is_the_whole_matching_of_each_state() -> None:
    """``MatchingGuide`` matches a state one push from a matched one by one augmenting step
    (``Assignment.with_row``): on random walks of boxes over a level, each is the cheapest
    matching of the whole state, every assignment tried (unreachable targets too); and so is the
    whole Hungarian algorithm's (``analysis.minimum_matching``)."""
    from itertools import permutations

    from sokoasp.sokoban.analysis import INFINITY, minimum_matching
    from sokoasp.sokoban.push_search import MatchingGuide

    rng = random.Random(7)
    corpus = multi_box_corpus(8, seed=11)
    for name in sorted(corpus):
        level = level_of(corpus[name])
        guide = MatchingGuide(level.floor, level.goals, False)
        board, squares = board_of(level.floor), sorted(level.floor)
        boxes = level.boxes
        guide.cost(boxes, board.mask(boxes))
        for _ in range(60):
            source = rng.choice(sorted(boxes))
            to = rng.choice([square for square in squares if square not in boxes])
            after = (boxes - {source}) | {to}
            found = guide.cost(after, board.mask(after), board.mask(boxes), source, to)
            matrix = [guide.costs[box] for box in sorted(after)]
            tried = min(sum(matrix[row][column] for row, column in enumerate(order)) for order in permutations(range(len(matrix))))
            assert found == min(tried, INFINITY) == minimum_matching(matrix), (name, sorted(after))
            boxes = after
