"""Room stages: goal rooms with two entrances, their packing entries, and the stage search."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest
from helpers import assert_replays, level_of
from oracle import bfs_pushes
from test_deadlocks import solvable
from test_goalroom import MICROBAN as GOAL_ROOM_LEVELS

from sokoasp import SolveConfig, Status, solve
from sokoasp.asp.bands import CONTROL_STEPS, RANDOM_DECISIONS
from sokoasp.board.level import Cell, Level
from sokoasp.board.simulator import replay
from sokoasp.board.xsb import read_levels
from sokoasp.config import Clock, PhaseRun
from sokoasp.phases.staged.room_stages import EntryEnds, Refusal, RoomStages, solve_room_stages
from sokoasp.sokoban.pushes import Push, expand_pushes, fewest_pushes
from sokoasp.sokoban.rooms.entrances import EntranceRoom, find_entrance_room, inside_of, next_entries
from sokoasp.sokoban.rooms.filling import can_come_to, doom, end_boxes, play_pushes, shut_out
from sokoasp.sokoban.rooms.packing import find_goal_room, goal_rooms, two_entrance_rooms
from sokoasp.sokoban.traps import neighbourhoods

# Five goals behind two entrances, (3, 2) and (3, 3). The goal at the top of the column is
# filled from below, so the player must get round the box through the room's lower row; the
# lower row's goals are filled last, through the lower entrance. No corridor stands for the room
# (goalroom.find_goal_room: neither entrance alone fills it).
TWO_DOORS = """\
#########
#.#     #
#.. $$$ #
#.. $ $ #
###    @#
#########
"""

MICROBAN = Path(__file__).resolve().parents[3] / "shared" / "levels" / "microban_i.sok"
XSOKOBAN = MICROBAN.with_name("xsokoban_90.sok")
needs_shared = pytest.mark.skipif(not MICROBAN.exists(), reason="needs ../shared/levels")


def xsokoban(number: int) -> Level:
    return read_levels(XSOKOBAN.read_text(), str(XSOKOBAN))[number - 1]


def fill_by_entries(level: Level, room: EntranceRoom) -> frozenset[Cell]:
    """The room's boxes after every entry, each box put on its entrance with the player on the
    square behind it, the room holding only the boxes of the entries before."""
    boxes: frozenset[Cell] = frozenset()
    for entry in room.order:
        push = entry.pushes[0]
        behind = (entry.entrance[0] - push.delta[0], entry.entrance[1] - push.delta[1])
        after = play_pushes(level.floor, boxes | {entry.entrance}, behind, list(entry.pushes))
        assert after is not None, entry
        boxes = after[0]
    return boxes


def test_a_room_with_two_doors_is_filled_through_both() -> None:
    level = level_of(TWO_DOORS)
    assert find_goal_room(level) is None
    room = find_entrance_room(level)
    assert room is not None
    assert {entry.entrance for entry in room.order} == {(3, 2), (3, 3)}
    assert fill_by_entries(level, room) == level.goals
    assert room.order[0].pushes[-1].box == (1, 2)  # the top of the column first, pushed up from below


def test_the_entries_offered_next_are_those_after_which_some_order_fills_the_rest() -> None:
    """Against trying every order of the goals left (not the backward greedy): from every set of
    filled goals the entries reach, an inside square is offered exactly when a box pushed in
    there can fill some goal after which an order of one-box entries fills the rest."""
    level = level_of(TWO_DOORS)
    room = find_entrance_room(level)
    assert room is not None

    def fills(filled: frozenset[Cell], goal: Cell, way: tuple[Cell, Cell]) -> bool:
        entrance, stand = way
        walk_out = entrance if len(filled) + 1 < len(room.goals) else None
        pushes = fewest_pushes(room.room | {entrance, stand}, filled, entrance, stand, goal, walk_out)
        return pushes is not None and room.open(way, filled)

    @functools.cache
    def completes(filled: frozenset[Cell]) -> bool:
        return filled == room.goals or any(fills(filled, goal, way) and completes(filled | {goal})
                                           for goal in room.goals - filled for way in room.ways)

    seen, todo = {frozenset()}, [frozenset[Cell]()]
    while todo:
        filled = todo.pop()
        offered = next_entries(room, filled)
        expected = {inside_of(way) for way in room.ways
                    for goal in room.goals - filled if fills(filled, goal, way) and completes(filled | {goal})}
        assert set(offered) == expected, filled
        for entry in offered.values():
            assert completes(filled | {entry.goal})
            if filled | {entry.goal} not in seen:
                seen.add(filled | {entry.goal})
                todo.append(filled | {entry.goal})
    assert room.goals in seen and len(seen) > len(room.goals) + 1  # more than the one packing order


def test_room_stages_solve_a_room_with_two_doors_and_the_plan_replays() -> None:
    level = level_of(TWO_DOORS)
    plan, note, _ = solve_room_stages(level, SolveConfig(encoding="push-macro"), (), Clock(limit=60))
    assert_replays(level, plan)
    assert note.startswith("room stages: 5 boxes in")
    optimum = bfs_pushes(TWO_DOORS)
    assert optimum is not None and plan is not None and sum(c.isupper() for c in plan) >= optimum


def test_room_stages_asked_in_narrow_bands_of_horizons_fill_the_room(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each horizon is asked in the control of its band (sokoasp.asp.bands), each switched to the
    stage's state and entries; with bands of one and two pushes the stages use all three
    controls, none grounds past its band, and the plan still fills the room and replays."""
    import sokoasp.asp.bands

    monkeypatch.setattr(sokoasp.asp.bands, "CONTROL_STEPS", (1, 2))
    level = level_of(TWO_DOORS)
    room = find_entrance_room(level)
    assert room is not None
    stages = RoomStages(level, room, SolveConfig(encoding="push"), Clock(limit=60), "push")
    pushes = stages.run()
    assert pushes is not None
    assert_replays(level, expand_pushes(level, pushes))
    assert [control.session.steps for control in stages.bands.made()][:2] == [1, 2]
    assert len(stages.bands.made()) == 3


def test_room_stages_passes_after_the_first_make_random_decisions_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Randomized restarts, as the staged search's: the first pass searches as clasp does by
    default, each later pass makes a share of random decisions seeded by its number, in the
    controls made before it and in those made later."""
    level = level_of(TWO_DOORS)
    room = find_entrance_room(level)
    assert room is not None
    stages = RoomStages(level, room, SolveConfig(encoding="push-macro"), Clock(limit=60), "push-macro")
    solver = stages.bands.first.session.control.configuration.solver
    seen: list[tuple[str, float]] = []

    def search(self: RoomStages, k: int, boxes: frozenset[Cell], player: Cell) -> list[Push] | None:
        seen.append((solver.seed, float(solver.rand_freq)))
        self.clock.charge(100)  # a pass's work
        return [] if len(seen) == 3 else None

    monkeypatch.setattr(RoomStages, "search", search)
    assert stages.run() == []
    assert [freq > 0 for _, freq in seen] == [False, True, True]
    assert [seed for seed, _ in seen[1:]] == ["2", "3"]
    later = stages.bands.control(CONTROL_STEPS[-1] + 1, Clock(), lambda control: None).session.control.configuration.solver
    assert later.seed == "3" and float(later.rand_freq) == RANDOM_DECISIONS


def test_room_stages_end_when_a_pass_does_no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pass that asks nothing (no entry it could make) would repeat itself: the stages end
    there, with no time limit too, where a budget in work would never run out."""
    level = level_of(TWO_DOORS)
    room = find_entrance_room(level)
    assert room is not None
    stages = RoomStages(level, room, SolveConfig(encoding="push-macro"), Clock(), "push-macro")
    passes: list[int] = []
    monkeypatch.setattr(RoomStages, "search", lambda self, k, boxes, player: passes.append(k))
    assert stages.run() is None and passes == [0]


def test_a_stage_plan_pushes_one_box_in_at_an_offered_entry_by_the_encoding_alone() -> None:
    """room-stage.lp itself (Python accepting every model): the plan ends with exactly one box
    newly on an inside square, one of those offered, and none on another."""
    level = level_of(TWO_DOORS)
    room = find_entrance_room(level)
    assert room is not None
    stages = RoomStages(level, room, SolveConfig(encoding="push-macro"), Clock(limit=30), "push-macro")
    stages.pass_end = stages.clock.worked() + 300_000
    options = next_entries(room, frozenset())
    anything = (next(iter(options.values())), (level.boxes, level.player))
    pushes = stages.stage(options, level.boxes, level.player, EntryEnds(level.boxes, lambda _: anything))
    assert pushes is not None
    pushed_in = (end_boxes(level.boxes, pushes) - level.boxes) & room.insides
    assert len(pushed_in) == 1 and pushed_in <= set(options)


def test_the_goal_room_phase_takes_room_stages_where_no_corridor_stands_for_the_room() -> None:
    level = level_of(TWO_DOORS)
    config = SolveConfig(encoding="push-macro", strategies=("dead", "freeze"), max_horizon=60, phases=(PhaseRun("goal-room", 300_000),))
    result = solve(level, config)
    assert result.status is Status.SOLVED, result.message
    assert result.report("goal-room").note.startswith("room stages")
    assert_replays(level, result.plan)


def test_an_end_state_turned_away_names_squares_that_turn_away_every_end_state_with_them() -> None:
    """``after_entry`` on TWO_DOORS's first stage, the box pushed in through either entrance
    and the other four anywhere outside (200 samples each): a refusal that names fewer squares
    than the end state's boxes (a deadlock's, ``blame``) holds for the state and for every
    other end state with boxes on them and none on its empty squares (a few samples each).
    The oracle finds the boxes outside unable to all come in after the entry, the room's
    boxes as walls."""
    level = level_of(TWO_DOORS)
    room = find_entrance_room(level)
    assert room is not None
    stages = RoomStages(level, room, SolveConfig(encoding="push-macro"), Clock(limit=60), "push-macro")
    stages.stage_work, stages.began = 80_000, stages.began - 600_000  # the trap proofs get their share
    options = next_entries(room, frozenset())
    rng, named = random.Random(4), 0
    for inside, entry in options.items():
        push = entry.pushes[0]
        stand = (push.box[0] - push.delta[0], push.box[1] - push.delta[1])
        free = sorted(level.floor - room.room - {push.box, stand})
        for _ in range(200):
            others = frozenset(rng.sample(free, len(level.boxes) - 1))
            verdict = stages.after_entry(options, others | {push.box}, stand, [push])
            if not isinstance(verdict, Refusal) or len(verdict.squares) == len(level.boxes):
                continue
            named += 1
            on = {cell for cell, box in verdict.squares if box} - {inside}
            off = {cell for cell, box in verdict.squares if not box}
            left = [cell for cell in free if cell not in on | off]
            variants = [others] + [frozenset(on | set(rng.sample(left, len(others) - len(on)))) for _ in range(3)]
            for boxes in variants:
                after = play_pushes(level.floor, boxes | {push.box}, stand, list(entry.pushes))
                assert after is not None
                walls = after[0] & room.room
                outside = Level(level.floor - walls, after[0] - walls, level.goals - walls, after[1])
                assert not solvable(outside), (sorted(boxes), verdict)
    assert named >= 50


def test_room_stages_report_how_far_they_got_when_their_budget_runs_out() -> None:
    level = level_of(TWO_DOORS)
    plan, note, _ = solve_room_stages(level, SolveConfig(encoding="push-macro"), (), Clock(until=100))
    assert plan is None
    assert note.startswith("room stages: at best") and note.endswith("(3, 2), (3, 3)")


def test_a_room_that_needs_boxes_parked_has_no_entries() -> None:
    """Microban 138's room is filled only by parking boxes on the way (goalroom.room_plan); one
    box at a time, each straight to its goal, fills it through no entrance."""
    level = level_of(GOAL_ROOM_LEVELS[138])
    assert goal_rooms(level)
    assert find_entrance_room(level) is None


@needs_shared
def test_microban_153_is_packed_through_both_of_its_entrances() -> None:
    level = read_levels(MICROBAN.read_text(), str(MICROBAN))[152]
    room = find_entrance_room(level)
    assert room is not None
    assert {entry.entrance for entry in room.order} == {(3, 7), (3, 8)}
    assert fill_by_entries(level, room) == level.goals


@needs_shared
def test_an_entrance_whose_approach_needs_the_room_is_used_before_the_room_is_filled_across() -> None:
    """XSokoban 12: a box comes to the lower entrance (13, 10) down a corridor with the player
    behind it, and the player must go round through the room to push it on. Once the goals
    across the room are filled that way is closed, so its entries come first."""
    level = xsokoban(12)
    room = find_entrance_room(level)
    assert room is not None
    lower = next(way for way in room.ways if way[0] == (13, 10))
    across = room.goals - {(13, 8), (13, 9)}
    assert room.open(lower, frozenset()) and not room.open(lower, across)
    filled: frozenset[Cell] = frozenset()
    for entry in room.order:
        way = next(way for way in room.ways if way[0] == entry.entrance)
        assert room.open(way, filled), (entry, filled)
        filled |= {entry.goal}
    assert fill_by_entries(level, room) == level.goals


@needs_shared
def test_room_stages_solve_xsokoban_12() -> None:
    """Before approaches were checked, room stages filled the room across first and then found
    no way in for the last two boxes (13 of 15 in)."""
    level = xsokoban(12)
    plan, note, _ = solve_room_stages(level, SolveConfig(encoding="push-macro"), (), Clock(limit=60))
    assert plan is not None, note
    assert_replays(level, plan)


@needs_shared
def test_a_room_with_three_entrances_is_taken_when_none_with_fewer_is() -> None:
    """XSokoban 58: no room with one or two entrances; its goals lie behind three squares, and
    entries through all three fill it."""
    level = xsokoban(58)
    assert find_goal_room(level) is None
    fewer = [(room, frozenset({entrance})) for entrance, room in goal_rooms(level)]
    fewer += [(room, pair) for pair, room in two_entrance_rooms(level).items()]
    assert not fewer  # no square or pair of squares cuts the goals off
    room = find_entrance_room(level)
    assert room is not None
    assert room.entrances == [(2, 6), (5, 1), (5, 2)]
    assert {entry.entrance for entry in room.order} == set(room.entrances)
    assert fill_by_entries(level, room) == level.goals


@needs_shared
def test_room_stages_that_run_out_of_budget_keep_the_way_to_their_farthest_state() -> None:
    """XSokoban 41: room stages bring 13 of its 15 boxes in within a second or two, and no
    further. The moves kept replay to a state with as many boxes in as the note says."""
    level = xsokoban(41)
    plan, note, farthest = solve_room_stages(level, SolveConfig(encoding="push-macro"), (), Clock(until=50_000))
    assert plan is None and note.startswith("room stages: at best ")
    most_in = int(note.removeprefix("room stages: at best ").split()[0])
    assert most_in >= 1 and farthest
    reached = replay(level, farthest)
    assert reached.steps_done == len(farthest) and len(reached.boxes & level.goals) == most_in


@needs_shared
def test_a_box_that_can_no_longer_come_in_through_an_entrance_left_to_use_is_shut_out() -> None:
    """XSokoban 41 with the left column and the bottom row filled: the two goals left are filled
    down the right entrance's column, with the player above it, which a box from the pocket
    below the corridor cannot have (the player's way up is the column itself), and the left
    entrance leads to no goal any more. At the start every box can still come in."""
    level = xsokoban(41)
    room = find_entrance_room(level)
    assert room is not None
    late = frozenset(level.goals - {(11, 10), (11, 11)}) | {(14, 11), (16, 12)}
    assert shut_out(room, late) == (14, 11)
    assert shut_out(room, level.boxes) is None
    one_left = (late - {(1, 8)}) | {(15, 8)}  # the left entrance still leads to a goal
    assert shut_out(room, one_left) is None
    assert fewest_pushes(level.floor, late - {(14, 11)}, (14, 11), (11, 11), (11, 10), None) is None  # by search too


# XSokoban 59 after 12 of its 16 boxes came in (room stages): the four boxes left in
# the level's right half can each still come in alone, but not all four.
FOUR_LEFT = """\
################
#   #  # # ##  #
# # #         $###
# #    ###### $  ###
#   #  #****#  $$  #
## ## ##*.**#      #
#      #*.**## ## ##
#      #*.+*#      #
#       #  #  ###  #
#####              #
    # #    #  #   ##
    ###############
"""


def stages_at(number: int, board: str, inside: int) -> tuple[Level, Level, RoomStages]:
    """XSokoban ``number``, the state ``board`` of it with ``inside`` boxes in the room (one no
    pattern test and no lone box turns away: ``is_dead``, ``shut_out``), and room stages for
    the level whose trap proofs have a minute's share of the search's time."""
    level = xsokoban(number)
    state = read_levels(board, f"XSokoban {number}, {inside} in")[0]
    assert state.floor == level.floor
    room = find_entrance_room(level)
    assert room is not None and len(state.boxes & room.room) == inside
    assert doom(state) is None and shut_out(room, state.boxes) is None
    stages = RoomStages(level, room, SolveConfig(encoding="push-macro"), Clock(limit=60), "push-macro")
    stages.began -= 600_000
    return level, state, stages


@needs_shared
def test_an_entry_after_which_the_boxes_outside_cannot_all_come_in_is_turned_away() -> None:
    """No pattern test and no lone box tells (``is_dead``, ``shut_out``); a whole trap proof of
    the level without the room's boxes does (the breadth-first oracle agrees: the slow test
    below)."""
    level, state, stages = stages_at(59, FOUR_LEFT, inside=12)
    assert stages.trapped(state.boxes, state.player)
    assert not stages.trapped(level.boxes, level.player)  # the level's start: the proof meets its time limit


# XSokoban 32 after 7 of its 15 boxes came in (room stages): the four boxes in the
# pocket below the room, three in a row and one two squares below, can never all come out.
POCKET_OF_FOUR = """\
      ####
  #####  #
 ##      #
##   $## ###
#     #    #
#### ##    #
 #**.*#   $#
 #**.*#    #
 #*+..     ##
 #... #  $$ #
 ######$$$  #
      #   ###
      #$ ##
      #  #
      ####
"""


@needs_shared
def test_a_neighbourhood_of_boxes_outside_that_cannot_all_come_in_is_proven_so_alone() -> None:
    """A part proof (the four boxes of the pocket, the others taken away) turns the state away
    in a fraction of a whole proof's states; no pattern test or lone box tells."""
    _, state, stages = stages_at(32, POCKET_OF_FOUR, inside=7)
    stages.stage_work = 80_000  # proofs get a share of the stage budget: a later pass's
    found = stages.trapped(state.boxes, state.player)
    assert found is not None and sorted(found.boxes) == [(7, 10), (7, 12), (8, 10), (9, 10)]
    (traps,) = stages.traps.values()
    assert [sorted(part) for part, _ in traps.dead_parts] == [sorted(found.boxes)]


@needs_shared
def test_a_review_after_a_pass_proves_a_state_on_its_way_dead_and_later_passes_turn_it_away_at_once() -> None:
    """A pass that does not fill the room leaves its way to its most boxes in to a review:
    trap proofs of each state after an entry, the first first, outside the stages' share of
    time. The dead state found is turned away by ``trapped`` with no time of its own."""
    level, state, stages = stages_at(32, POCKET_OF_FOUR, inside=7)
    stages.began = stages.clock.worked() + 10**9  # the stages' own proofs get no states
    assert stages.trapped(state.boxes, state.player) is None
    stages.review([(frozenset(level.boxes), level.player), (state.boxes, state.player)], 20_000)
    found = stages.trapped(state.boxes, state.player)
    assert found is not None and sorted(found.boxes) == [(7, 10), (7, 12), (8, 10), (9, 10)]
    assert stages.reviewed > 0
    assert stages.trapped(level.boxes, level.player) is None  # the start is not dead: its proof proved nothing


@needs_shared
def test_a_part_proven_dead_before_is_found_with_no_states_whatever_parts_come_before_it() -> None:
    """A review's proof is of use later only if a state that holds the same part is turned
    away at once, although its other boxes make new parts that are searched first."""
    _, state, stages = stages_at(32, POCKET_OF_FOUR, inside=7)
    outside, traps = stages.outside(state.boxes, state.player)
    part = traps.dead_part(outside, 100_000)
    assert part is not None
    later, _ = stages.outside((state.boxes - {(5, 3)}) | {(9, 6)}, state.player)  # (9, 6) beside (10, 6)
    assert neighbourhoods(later.boxes)[0] == frozenset({(9, 6), (10, 6)})
    assert traps.dead_part(later, 0) == part


@pytest.mark.slow  # two to four minutes
def test_the_boxes_left_outside_xsokoban_59s_room_cannot_all_come_in() -> None:
    """The oracle for the test above: with the room's boxes as walls, no push sequence fills
    the four goals left."""
    assert bfs_pushes(FOUR_LEFT.replace("*", "#")) is None


@pytest.mark.parametrize("walls", [frozenset(), frozenset({(2, 2), (1, 3)}), frozenset({(4, 2), (5, 3)})])
def test_the_squares_a_lone_box_can_come_from_are_those_a_forward_search_finds(walls: frozenset[Cell]) -> None:
    """can_come_to searches backwards once for all boxes; a forward search per box and per side
    the player starts on must find the same squares."""
    level = level_of(TWO_DOORS)
    targets = frozenset({(1, 1), (3, 3)})
    free = level.floor - walls
    forward = {box for box in free for delta in ((0, 1), (0, -1), (1, 0), (-1, 0))
               if (side := (box[0] + delta[0], box[1] + delta[1])) in free
               and any(fewest_pushes(level.floor, walls, box, side, target, None) is not None for target in targets)}
    assert can_come_to(level.floor, walls, targets) == frozenset(forward | (targets & free))
    assert forward and forward != free  # neither nothing nor everything
