"""Corral and group deadlocks (sokoasp/deadlocks.py): every fence or group of boxes the tests
report is a real deadlock (no push sequence from the state puts every box on a goal, by the
breadth-first oracle), in both directions, and the tests find some that the lone-box tests
pass."""

from __future__ import annotations

from itertools import combinations

import pytest
from corpus import multi_box_corpus
from helpers import level_of
from hypothesis import given
from hypothesis import strategies as st
from oracle import parse, push_closure, region
from test_push_search import reachable_pull_states

from sokoasp.board.level import Level
from sokoasp.board.simulator import replay
from sokoasp.phases.staged.stage_ends import StageEnds, StageGoal, atom, boxes_nogood, state_nogood
from sokoasp.sokoban.analysis import dead_squares, lone_box_distances
from sokoasp.sokoban.deadlocks import (
    NEAR,
    LiveStates,
    box_groups,
    cannot_all_reach_goals,
    dead_fence,
    dead_freeze,
    dead_group,
    every_goal_taken_greedily,
    fence_is_dead,
    frozen_boxes,
    goals_filled_first,
    group_sides,
    near_triples,
    placed_one_by_one,
    player_side,
    pockets,
)
from sokoasp.sokoban.end_game import pushed_moves
from sokoasp.sokoban.pairs import pair_is_dead
from sokoasp.sokoban.push_search import SearchLimits, Stop, Target, matching, push_search

CORPUS = multi_box_corpus(24, seed=11)

# Three boxes round the pocket in the left corner: none is on a dead square or frozen, yet
# none can move except into the pocket's corner.
POCKET = """\
#######
#..   #
#    @#
##$   #
## $  #
## $ .#
#######
"""


def every_state(text: str) -> list[Level]:
    floor, boxes, goals, player = parse(text)
    return [Level(frozenset(floor), placement, goals, cell)
            for (placement, _), cell in push_closure(floor, boxes, player).items()]


# States known to be dead, by level and direction: every state a dead state reaches is dead.
KNOWN_DEAD: dict[tuple[frozenset, frozenset, bool], set[tuple[frozenset, tuple[int, int]]]] = {}


def solvable(state: Level, pulls: bool = False) -> bool:
    """The oracle: some push (``pulls``: pull) sequence puts every box on a goal."""
    floor = set(state.floor)
    dead = KNOWN_DEAD.setdefault((state.floor, state.goals, pulls), set())
    if (state.boxes, min(region(floor, state.boxes, state.player))) in dead:
        return False
    closure = push_closure(floor, state.boxes, state.player, pulls=pulls)
    if any(placement == state.goals for placement, _ in closure):
        return True
    dead.update(closure)
    return False


def test_three_boxes_round_a_pocket_are_a_deadlock_the_static_tests_miss() -> None:
    level = level_of(POCKET)
    assert not level.boxes & dead_squares(level)
    assert dead_fence(level) == {(2, 3), (3, 4), (3, 5)}
    assert not solvable(level)
    opened = level_of(POCKET.replace("## $ .#", "##   .#").replace("#..   #", "#.    #"))
    assert dead_fence(opened) is None and solvable(opened)


def test_a_fence_is_searched_once_for_states_that_differ_only_away_from_it() -> None:
    level = level_of(POCKET.replace("#..   #", "#.. .$#"))
    elsewhere = level_of(POCKET.replace("#..   #", "#..$. #").replace("#    @#", "#  @  #"))
    assert player_side(level.floor, dead_fence(level) or frozenset(), level.player) == (1, 1)
    fence_is_dead.cache_clear()
    assert dead_fence(level) == dead_fence(elsewhere) == {(2, 3), (3, 4), (3, 5)}
    assert fence_is_dead.cache_info().misses == 1 and fence_is_dead.cache_info().hits == 1
    assert not solvable(level) and not solvable(elsewhere)


def near(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= NEAR


@given(st.sets(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=12))
def test_the_near_triples_are_the_triples_with_two_near_pairs(boxes: set[tuple[int, int]]) -> None:
    ordered = sorted(boxes)
    brute = [group for group in combinations(ordered, 3) if sum(near(a, b) for a, b in combinations(group, 2)) >= 2]
    assert near_triples(ordered) == brute


@given(st.sets(st.tuples(st.integers(0, 7), st.integers(0, 7)), min_size=1, max_size=12), st.data())
def test_the_groups_of_moved_boxes_are_those_of_every_box_that_hold_one(boxes: set[tuple[int, int]],
                                                                       data: st.DataObject) -> None:
    ordered = sorted(boxes)
    moved = frozenset(data.draw(st.sets(st.sampled_from(ordered), min_size=1, max_size=2)))
    every = [group for group in box_groups(ordered) if not moved.isdisjoint(group)]
    assert list(box_groups(ordered, moved)) == every


# The player below cannot get back into the room: the two boxes on the goals in the tunnel hold
# each other, and the room's box, which could reach its goal alone, is shut in with no player.
# The room's box and the tunnel's mouth alone leave the tunnel open; the box behind the mouth
# seals it. Freeze misses it (a lone box reaches the room's goal, the player anywhere), and so
# does the group test (the room's box is too far from the tunnel for a group of three).
SHUT_IN = """\
#########
#       #
#       #
#   . $ #
###*#####
###*#####
###  @  #
#########
"""


def test_a_box_that_shields_the_fence_from_the_player_joins_it() -> None:
    level = level_of(SHUT_IN)
    assert dead_fence(level) == {(6, 3), (3, 4), (3, 5)}
    assert not solvable(level)
    assert not level.boxes & dead_squares(level)
    assert dead_freeze(level) is None and dead_group(level) is None
    opened = level_of(SHUT_IN.replace("###*#####\n###  @", "### #####\n###  @"))  # the mouth's box alone
    assert dead_fence(opened) is None and solvable(opened)


# Microban 143 as a stage left it: the box at the top of the corridor can only be pushed down
# from the room above it, and the player below gets into the room only by pushing it up, after
# which no box can come out again: the goal at the bottom stays empty. In the stage, a box went
# down the corridor and another came up onto its square; the pair with the room's goal box is
# dead with the player below, not with the player above, where the stage started.
OPENED_IN_VAIN = """\
####
#  ####
#     #
# *#$ #
#  # ##
# *  #
#### #
   # #
   #.#
   #@#
   ###
"""


def test_a_group_on_squares_it_held_at_the_stage_start_is_tested_when_a_box_moved_onto_one() -> None:
    end = level_of(OPENED_IN_VAIN)
    start = level_of(OPENED_IN_VAIN.replace("#     #", "#   @ #").replace("#@#", "# #"))
    assert start.boxes == end.boxes and not solvable(end) and solvable(start)
    assert dead_group(start) is None and dead_fence(end) is None  # the fence opens: the corral test passes it
    ends = StageEnds(start, StageGoal(3), reverse=False)
    ends.horizon = 4
    nogoods = ends.nogoods(end, frozenset({(4, 3)}))
    assert nogoods and all(nogood[:2] == boxes_nogood(frozenset({(2, 5), (4, 3)}), 4, None) for nogood in nogoods)
    assert ends.nogoods(end, frozenset()) == []  # a group no box moved onto was tested at the start


def corpus_states(pulls: bool) -> list[Level]:
    """Every state reachable on the corpus levels (``pulls``: by pulls, on the first twelve)."""
    names = sorted(CORPUS)[:12] if pulls else sorted(CORPUS)
    return [state for name in names for state in (reachable_pull_states if pulls else every_state)(CORPUS[name])]


def test_pockets_are_the_parts_a_flood_square_by_square_finds() -> None:
    """The bit floods of ``pockets`` split the floor less the boxes as a square-by-square flood
    does, each part once, in the order of their least squares."""
    split = 0
    for state in corpus_states(False)[::7]:
        parts, left = [], set(state.floor - state.boxes)
        while left:
            parts.append(frozenset(region(set(state.floor), state.boxes, min(left))))
            left -= parts[-1]
        assert pockets(state.floor, state.boxes) == parts
        split += len(parts) > 1
    assert split > 10


@pytest.mark.parametrize("pulls", [False, True])
def test_every_fence_found_is_a_deadlock(pulls: bool) -> None:
    fenced = [state for state in corpus_states(pulls) if dead_fence(state, pulls) is not None]
    assert len(fenced) >= (30 if pulls else 500)
    assert not any(solvable(state, pulls) for state in fenced)
    assert sum(not state.boxes & dead_squares(state) for state in fenced) >= (0 if pulls else 100)  # no box on a dead square


def test_a_stage_turns_away_an_end_state_with_a_dead_fence_wherever_the_other_boxes_are() -> None:
    level = level_of(POCKET.replace("#..   #", "#.. . #").replace("#    @#", "#   $@#"))
    ends = StageEnds(level, StageGoal(1), reverse=False)
    ends.horizon = 4
    nogood = ends.nogood(level)
    assert nogood == state_nogood(level, 4, frozenset({(2, 3), (3, 4), (3, 5)}))
    assert nogood is not None and len(nogood) == 4  # the fence's three boxes and the player's side, not the fourth box


@pytest.mark.parametrize("pulls", [False, True])
def test_every_group_found_is_a_deadlock_and_some_pass_the_other_tests(pulls: bool) -> None:
    grouped = [state for state in corpus_states(pulls) if dead_group(state, pulls) is not None]
    assert len(grouped) >= (200 if pulls else 5000)
    assert not any(solvable(state, pulls) for state in grouped)
    missed = [state for state in grouped if dead_fence(state, pulls) is None and not state.boxes & dead_squares(state)]
    assert len(missed) >= (50 if pulls else 500)  # no fence, no box on a dead square


# The two boxes against the top wall can only be pushed along it, and the one goal there is
# the only goal either can reach: each alone can, both cannot, though no box stands on a dead
# square, none is frozen and no floor is fenced off.
FACING = """\
#########
#  $.$  #
#   @   #
#.   $ .#
#########
"""


def test_two_boxes_that_need_the_same_goal_are_a_group_deadlock_and_its_nogood_holds_them_alone() -> None:
    level = level_of(FACING)
    assert not level.boxes & dead_squares(level) and dead_fence(level) is None
    assert dead_group(level) == ({(3, 1), (5, 1)}, None)  # dead wherever the player stands
    moved = dead_group(level, moved=frozenset({(5, 3)}))  # only groups holding a box that moved:
    assert moved is not None and (5, 3) in moved[0]  # the pair with the third box, which stands near
    assert not solvable(level)
    before = level_of(FACING.replace("#  $.$  #", "#  $. $ #"))  # the stage pushed the right box left
    ends = StageEnds(before, StageGoal(1), reverse=False)
    ends.horizon = 2
    assert ends.nogoods(level, frozenset({(5, 1)})) == [boxes_nogood(frozenset({(3, 1), (5, 1)}), 2, None)]  # not the third box
    one_left = level_of(FACING.replace("#  $.$  #", "#  $.   #").replace("#.   $ .#", "#. $  $.#"))
    assert dead_group(one_left) is None and solvable(one_left)


def test_a_group_dead_from_some_sides_only_names_the_squares_it_is_dead_from() -> None:
    """Taken alone, the group cannot be finished with the player on those squares (the state's
    own among them), and can with the player on any other free square (by the oracle)."""
    checked = 0
    for name in sorted(CORPUS):
        for state in every_state(CORPUS[name]):
            group = dead_group(state)
            if group is None or group[1] is None:
                continue
            boxes, players = group
            assert state.player in players
            for cell in sorted(state.floor - boxes):
                assert solvable_alone(state, boxes, cell) is (cell not in players)
            checked += 1
            if checked == 40:
                return
    pytest.fail(f"only {checked} groups dead from some sides only")


def solvable_alone(state: Level, boxes: frozenset, player: tuple[int, int]) -> bool:
    """The oracle: with only ``boxes`` on the board and the player on ``player``, some push
    sequence puts each of them on a goal."""
    closure = push_closure(set(state.floor), boxes, player)
    return any(placement <= state.goals for placement, _ in closure)


# A goal room packed round its last goal (right of the block): the boxes on the goals can never
# move again, and the last goal can only be filled from the square above it, which no box can
# get to. The box below could still reach that goal alone (no dead square, no group or corral
# deadlock), so only the frozen boxes tell.
SEALED = """\
########
#    ###
#***  ##
#***.###
#***#  #
#  $   #
#   @  #
########
"""


def test_frozen_boxes_that_seal_a_goal_are_a_deadlock_wherever_the_other_box_is() -> None:
    level = level_of(SEALED)
    found = dead_freeze(level)
    assert found is not None
    boxes, empty = found
    assert empty == {(4, 3), (4, 2)} and boxes <= level.goals and len(boxes) == 9
    assert not solvable(level) and not level.boxes & dead_squares(level)
    assert dead_fence(level) is None and dead_group(level) is None
    ends = StageEnds(level, StageGoal(1), reverse=False)
    ends.horizon = 3
    assert ends.nogoods(level, frozenset()) == [boxes_nogood(boxes, 3, None) + [(atom("box", cell, 3), False) for cell in sorted(empty)]]
    filled_from_above = level_of(SEALED.replace("#***  ##", "#***$ ##").replace("#  $   #", "#      #"))
    assert dead_freeze(filled_from_above) is None  # a box stands where it can be pushed onto the goal


# Open floor with goals along a wall and dead corners: boxes freeze against walls, dead squares
# and each other in many ways.
OPEN_ROOM = level_of("""\
########
#. $ # #
#.  $  #
#  #   #
#. $   #
#   #  #
#     @#
########
""")


@given(st.sets(st.sampled_from(sorted(OPEN_ROOM.floor - {OPEN_ROOM.player})), max_size=14))
def test_the_frozen_boxes_are_those_the_freeze_rule_never_frees(boxes: set[tuple[int, int]]) -> None:
    """``frozen_boxes`` against the rule written out plainly: a box is freed when along some
    axis both neighbours are floor, each without a box or with a freed one, and not both dead
    squares; the boxes never freed are frozen."""
    state = OPEN_ROOM.moved(frozenset(boxes), OPEN_ROOM.player)
    dead, freed, grown = dead_squares(state), set[tuple[int, int]](), True
    while grown:
        grown = False
        for x, y in sorted(boxes - freed):
            for ahead, behind in (((x + 1, y), (x - 1, y)), ((x, y + 1), (x, y - 1))):
                if all(side in state.floor and (side not in boxes or side in freed) for side in (ahead, behind)) \
                        and not (ahead in dead and behind in dead):
                    freed.add((x, y))
                    grown = True
                    break
    assert frozen_boxes(state) == boxes - freed


def test_every_frozen_deadlock_found_holds_wherever_the_other_boxes_are() -> None:
    """Each (boxes, empty) pattern found makes every reachable state of its level that holds it
    unsolvable (by the oracle); most patterns are a frozen box off the goals (the freeze
    strategy's deadlock), and many others are goals short of boxes, some with boxes that could
    reach them, too few."""
    goal_cases = with_boxes = 0
    for name in sorted(CORPUS):
        states = every_state(CORPUS[name])
        patterns = {}
        for state in states:
            pattern = dead_freeze(state)
            if pattern is not None:
                patterns[pattern] = state
                frozen = frozen_boxes(state)
                goal_cases += frozen <= state.goals
                with_boxes += frozen <= state.goals and pattern[0] != frozen
        holding = {s for (boxes, empty) in patterns for s in states if boxes <= s.boxes and s.boxes.isdisjoint(empty)}
        good = solvable_keys(states[0])
        assert all((key(s) in good) == solvable(s) for s in states[:: max(1, len(states) // 10)]), name
        assert set(patterns.values()) <= holding, name
        assert not any(key(s) in good for s in holding), name
    assert goal_cases >= 100 and with_boxes >= 50, (goal_cases, with_boxes)


def key(state: Level) -> tuple:
    return state.boxes, min(region(set(state.floor), state.boxes, state.player))


def solvable_keys(level: Level) -> set:
    """The oracle for every state of a level at once: the (boxes, least square of the player's
    region) states from which pushes put every box on a goal, pulled back from the goal states."""
    floor = set(level.floor)
    return {key for cell in sorted(floor - level.goals) for key in push_closure(floor, level.goals, cell, pulls=True)}


@pytest.mark.parametrize("pulls", [False, True])
def test_groups_placed_one_by_one_are_those_a_search_of_all_their_boxes_can_place(pulls: bool) -> None:
    """``placed_one_by_one`` (each box alone, the others as walls) answers for most groups that
    are not dead, and never for one that is: its plan is a plan of the whole group, so
    ``cannot_all_reach_goals`` says what the search of every box of the group says."""
    shortcut = joint_only = 0
    for state in corpus_states(pulls)[::5]:
        distance = lone_box_distances(state.floor, state.goals, pulls)
        for group in combinations(sorted(state.boxes), 2):
            boxes = frozenset(group)
            if any(box not in distance for box in boxes):
                continue
            placed = push_search(state.floor, boxes, state.player, distance, Target(state.goals), pulls, SearchLimits(100_000)).answer
            assert placed is not None
            if placed_one_by_one(state.floor, state.goals, boxes, state.player, distance, pulls) is not None:
                assert placed, (state, group)
                shortcut += 1
            else:
                joint_only += placed
            assert cannot_all_reach_goals(state.floor, state.goals, boxes, state.player, pulls, 100_000) is not placed
    assert shortcut > 5 * joint_only and joint_only > 0


@pytest.mark.parametrize("pulls", [False, True])
def test_group_searches_that_share_their_live_states_answer_as_searches_alone(pulls: bool) -> None:
    """A search that stops at a state an earlier search found live (``LiveStates``) gives the
    answer it would give alone, the state limit included (a small one, so that it counts)."""
    limit, known, answers = 40, 0, 0
    lives: dict[tuple, LiveStates] = {}
    for state in corpus_states(pulls)[::3]:
        live = lives.setdefault((state.floor, state.goals), LiveStates(state.floor, pulls))
        for size in (2, 3):
            for group in combinations(sorted(state.boxes), size):
                boxes = frozenset(group)
                known += live.key(boxes, state.player) in live.states
                alone = cannot_all_reach_goals(state.floor, state.goals, boxes, state.player, pulls, limit)
                assert cannot_all_reach_goals(state.floor, state.goals, boxes, state.player, pulls, limit,
                                              live=live) is alone, (state, group)
                answers += 1
    assert answers > (400 if pulls else 5000) and known > answers // 10


# A goal corridor entered from the right: the first box must go to its inner end, (1, 1);
# on (2, 1), the goal it reaches first, it would shut the other out.
GOAL_CORRIDOR = """\
#######
#.. $ #
### $ #
  #@  #
  #####
"""


def test_boxes_placed_one_by_one_fill_a_goal_corridor_from_its_inner_end() -> None:
    level = level_of(GOAL_CORRIDOR)
    assert goals_filled_first(level.floor, level.goals) == {(1, 1)}
    distance = lone_box_distances(level.floor, level.goals)
    found = push_search(level.floor, level.boxes, level.player, distance, Target(level.goals), False, SearchLimits(10_000))
    assert found.stop is Stop.FOUND and replay(level, pushed_moves(level, found.moves)).ok
    placed = placed_one_by_one(level.floor, level.goals, level.boxes, level.player, distance, False)
    assert placed is not None and replay(level, pushed_moves(level, placed)).ok


def test_every_goal_is_filled_first_where_the_goals_cannot_be_emptied_by_pulling() -> None:
    level = level_of("#####\n#*@.#\n## $#\n#####\n")  # no room to step back from (1, 1)
    assert goals_filled_first(level.floor, level.goals) == level.goals == {(1, 1), (3, 1)}



def test_the_two_box_table_answers_as_the_search_of_the_two_boxes_alone() -> None:
    """``group_is_dead`` looks two boxes up in the level's table (``pairs.pair_is_dead``): on every
    pair of squares of small levels, from every side, the answer of a search with no state limit."""
    checked = 0
    for text in multi_box_corpus(12, seed=3).values():
        level = level_of(text)
        live = sorted(lone_box_distances(level.floor, level.goals))
        for pair in combinations(live, 2):
            for least, _ in group_sides(level.floor, pair):
                searched = cannot_all_reach_goals(level.floor, level.goals, frozenset(pair), least, False, 10**6)
                assert pair_is_dead(level.floor, level.goals, pair, least) is searched, (text, pair, least)
                checked += 1
    assert checked > 500


def test_the_sides_of_a_group_are_the_parts_it_splits_the_floor_into_smallest_first() -> None:
    """``group_sides`` lists the parts a square-by-square flood finds round each group (``pockets``),
    smallest first, ties by least square, the largest last without its squares."""
    split = 0
    for state in corpus_states(False)[::11]:
        for group in [*combinations(sorted(state.boxes), 2), *combinations(sorted(state.boxes), 3)]:
            parts = sorted(pockets(state.floor, set(group)), key=lambda part: (len(part), min(part)))
            expected = tuple((min(part), part) for part in parts[:-1]) + ((min(parts[-1]), frozenset()),)
            assert group_sides(state.floor, group) == expected, (state, group)
            split += len(parts) > 1
    assert split > 20


@given(st.lists(st.lists(st.integers(0, 5), max_size=4), min_size=1, max_size=6))
def test_goals_taken_greedily_are_matched_by_the_augmenting_paths_too(lists: list[list[int]]) -> None:
    """``every_goal_taken_greedily`` only says yes where a matching of every goal exists."""
    edges = {(box, 0): [(goal, 9) for goal in dict.fromkeys(reached)] for box, reached in enumerate(lists)}
    goals = {goal for reached in edges.values() for goal in reached}
    if every_goal_taken_greedily(edges, len(goals)):
        assert len(matching(edges)) == len(goals)
