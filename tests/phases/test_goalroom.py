"""Goal-room macros: the room, its packing order, the simpler level, and plans mapped back."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from corpus import HAND_MADE
from helpers import assert_replays, level_of
from oracle import bfs_pushes, region
from test_cli import run, write

from sokoasp import SolveConfig, Status, solve
from sokoasp import pipeline as driver
from sokoasp.board.level import DIRECTIONS, Level, add
from sokoasp.board.simulator import replay
from sokoasp.board.xsb import write_level
from sokoasp.config import Clock, PhaseRun, PhaseSettings
from sokoasp.phases import goal_room as goal_room_phase
from sokoasp.phases import parse_phases
from sokoasp.phases import staged as staged_phase
from sokoasp.phases.base import PhaseContext
from sokoasp.phases.staged import stage_families
from sokoasp.phases.staged.search import StagedOutcome
from sokoasp.result import Result
from sokoasp.sokoban.breadth_first import player_region, region_from
from sokoasp.sokoban.rooms.packing import GoalRoom, closable_rooms, closing, find_goal_room, goal_rooms, packing_macros, two_entrance_rooms

# Levels from David W. Skinner's Microban (1-based numbers in the collection).
MICROBAN = {
    16: """\
 ####
 #  ####
 #     ##
## ##   #
#. .# @$##
#   # $$ #
#  .#    #
##########
""",
    87: """\
     ####
######  #
#       #
#  ... .#
##$######
# $  #
#   $###
##  $  #
 ## @  #
  ######
""",
    97: """\
   ####
   #  ########
#### $ $.....#
#   $   ######
#@### ###
#  $  #
# $ # #
## #  #
 #    #
 ######
""",
    75: """\
 #######
## ....#
#   ######
#   $ $ @#
###  $ $ #
  ###    #
    ######
""",
    138: """\
  ####
###  #
#    ###
# # . .#
# @ ...####
# # # #   ##
#   # $$   #
#####  $ $ #
    ##$ # ##
     #    #
     ######
""",
    139: """\
 ####
##  ####
#   ...#
#   ...#
#   # ##
#   #@ #### ####
##### $   ###  #
    #  ##$ $   #
   ###     $$  #
   # $  ##   ###
   #    ######
   ######
""",
}
WITH_ROOMS = [16, 87, 97]  # goal rooms that one-box macros fill (so can 75's, but its simpler level has no plan)

# The goals are a bend: down from the entrance, then right. The box must go down first and be
# pushed right from the left, so the far goal (9, 6) fills first and the player walks out each time.
BEND = """\
##########
#        #
# $ $ $  #
#@       #
####### ##
    #   .#
    #  ..#
    #    #
    ######
"""


def microban(number: int) -> Level:
    return level_of(MICROBAN[number])


def test_a_bent_room_is_packed_by_macros_and_its_simpler_level_is_a_corridor() -> None:
    level = level_of(BEND)
    room = find_goal_room(level)
    assert room is not None
    inside = add(room.entrance, room.direction)
    assert inside in level.floor and room.entrance not in level.goals
    corridor = [add(room.entrance, (k * room.direction[0], k * room.direction[1])) for k in range(1, 4)]
    assert room.level.goals == frozenset(add(cell, room.shift) for cell in corridor)
    assert room.level.boxes == frozenset(add(box, room.shift) for box in level.boxes)
    assert room.level.player == add(level.player, room.shift)
    assert not room.level.floor & frozenset(add(goal, room.shift) for goal in level.goals - set(corridor))
    assert play_macros(level, room) == level.goals


def play_macros(level: Level, room: GoalRoom) -> frozenset:
    """Play the macros in order on the room alone (the rest of the level does not change while
    the player is inside): each starts with a box pushed in from the entrance, every push is
    one the player can walk to and make (the level's other boxes stand outside, beyond the
    entrance), and after each macro but the last the player can walk out again. The boxes in the
    room at the end."""
    inside = add(room.entrance, room.direction)
    back = add(room.entrance, (-room.direction[0], -room.direction[1]))
    boxes: set = set()
    player = back
    for number, macro in enumerate(room.macros, start=1):
        assert macro[0].box == room.entrance and macro[0].delta == room.direction and inside not in boxes
        boxes.add(room.entrance)
        for push in macro:
            stand, target = add(push.box, (-push.delta[0], -push.delta[1])), add(push.box, push.delta)
            assert push.box in boxes and stand in player_region(level.floor, boxes, player)
            assert target in level.floor and target not in boxes
            boxes.discard(push.box)
            boxes.add(target)
            player = push.box
        assert room.entrance not in boxes  # a box may cross the entrance inside a macro, never stay
        if number < len(room.macros):
            assert room.entrance in player_region(level.floor, boxes, player)
            player = back
    return frozenset(boxes)


def test_a_plan_for_the_simpler_level_replays_on_the_level_itself() -> None:
    level = level_of(BEND)
    result = solve(level, SolveConfig(encoding="push", strategies=("dead",), phases=(PhaseRun("goal-room", 300_000),)))
    assert result.status is Status.SOLVED  # never called optimal
    assert result.report("goal-room").note.startswith("a plan for the level with macros")
    assert_replays(level, result.plan)
    room = find_goal_room(level)
    assert room is not None
    simpler = bfs_pushes(write_level(room.level))
    assert simpler is not None and result.pushes is not None
    assert result.pushes >= bfs_pushes(BEND)


@pytest.mark.parametrize("number", WITH_ROOMS)
def test_goal_room_plans_replay_on_microban(number: int) -> None:
    level = microban(number)
    result = solve(level, SolveConfig(encoding="push-macro", strategies=("dead", "freeze"), time_limit=60,
                                      phases=(PhaseRun("goal-room", 200_000),)))
    assert result.status is Status.SOLVED, result.message
    assert result.report("goal-room").note.startswith("a plan")
    assert replay(level, result.plan or "").ok


def test_goal_macros_may_lose_every_solution_and_the_level_is_then_solved_as_it_is() -> None:
    """Microban 75: the boxes must be turned round in the room's wide end before they go in, so
    the simpler level, with a bare corridor of goals, has no plan at all."""
    level = microban(75)
    room = find_goal_room(level)
    assert room is not None
    assert bfs_pushes(write_level(room.level)) is None and bfs_pushes(write_level(level)) is not None
    result = solve(level, SolveConfig(encoding="push", strategies=("dead", "bound"), phases=(PhaseRun("goal-room", 10_000),)))
    assert result.status is Status.SOLVED_OPTIMAL and result.pushes == bfs_pushes(write_level(level))
    assert result.report("goal-room").note.startswith("no plan for the level with macros")


@pytest.mark.parametrize("number", [138, 139])
def test_a_room_that_needs_boxes_parked_gets_macros_that_park_them(number: int) -> None:
    """No order of one-box macros fills these rooms, so the macros come from a search of the
    room's states: some macro moves a box that came in before it."""
    level = microban(number)
    room = find_goal_room(level)
    assert room is not None
    stand = add(room.entrance, (-room.direction[0], -room.direction[1]))
    assert packing_macros(level, goal_rooms_by_entrance(level)[room.entrance], room.entrance, stand) == ()
    assert play_macros(level, room) == level.goals
    assert any(moves_a_box_already_in(macro) for macro in room.macros)


def moves_a_box_already_in(macro: tuple) -> bool:
    """Whether a macro pushes a box other than the one it brings in."""
    new = macro[0].box
    for push in macro:
        if push.box != new:
            return True
        new = add(new, push.delta)
    return False


def goal_rooms_by_entrance(level: Level) -> dict:
    return dict(goal_rooms(level))


def test_parking_macros_solve_microban_138_through_its_simpler_level() -> None:
    level = microban(138)
    config = SolveConfig(encoding="push-macro", strategies=("dead", "freeze", "bound"), start_factor=3,
                         max_horizon=400, time_limit=60, phases=(PhaseRun("goal-room", 300_000),))
    result = solve(level, config)
    assert result.status is Status.SOLVED and result.report("goal-room").note.startswith("a plan"), result.message
    assert_replays(level, result.plan)


def test_levels_without_a_room_macros_can_fill_are_solved_as_they_are() -> None:
    level = level_of(HAND_MADE["two-boxes"])
    assert find_goal_room(level) is None  # no square cuts the goals off
    result = solve(level, SolveConfig(encoding="push", strategies=("dead", "bound"), phases=(PhaseRun("goal-room", 50_000),)))
    assert result.status is Status.SOLVED_OPTIMAL
    assert result.report("goal-room").note == "none that goal macros can fill"


def test_a_failed_goal_room_phase_leaves_the_level_outcome_intact(monkeypatch: pytest.MonkeyPatch) -> None:
    """The simpler level proves nothing about the level: a proof there is not reported here."""
    level = level_of(BEND)
    room = find_goal_room(level)
    assert room is not None
    stuck = level_of("#####\n#@ $#\n#. ##\n#####\n")  # the box is in a corner: no plan
    monkeypatch.setattr(goal_room_phase, "find_goal_room", lambda _: GoalRoom(room.entrance, room.direction, room.macros,
                                                                     stuck, (0, 0)))
    result = solve(level, SolveConfig(encoding="push", strategies=("dead", "bound"), phases=(PhaseRun("goal-room", 100_000),)))
    assert result.status is Status.SOLVED_OPTIMAL and result.pushes == bfs_pushes(BEND)
    assert result.report("goal-room").note.startswith("no plan for the level with macros")
    assert "proven unsolvable" in result.report("goal-room").note


def test_a_failed_goal_room_phase_counts_its_grounding_and_solving(monkeypatch: pytest.MonkeyPatch) -> None:
    level = level_of(BEND)
    room = find_goal_room(level)
    assert room is not None
    whole_level = driver.solve

    def slow_room(asked: Level, config: SolveConfig, progress: object = None, clock: Clock | None = None) -> Result:
        if asked == room.level:
            assert clock is not None  # the phase's
            clock.ground, clock.solve = clock.ground + 50.0, clock.solve + 70.0
            return Result(Status.TIMEOUT, times={"ground": 50.0, "solve": 70.0, "total": 120.0})
        return whole_level(asked, config)

    monkeypatch.setattr(driver, "solve", slow_room)
    config = SolveConfig(encoding="push", strategies=("dead", "bound"), phases=(PhaseRun("goal-room", 100_000),))
    result = whole_level(level, config)
    assert result.status is Status.SOLVED_OPTIMAL
    assert result.times["ground"] >= 50.0 and result.times["solve"] >= 70.0


def test_the_level_with_macros_gets_forward_stages_and_the_level_itself_all_its_families(
        monkeypatch: pytest.MonkeyPatch) -> None:
    level = level_of(BEND)
    room = find_goal_room(level)
    assert room is not None
    families: list[tuple[Level, tuple[str, ...]]] = []

    def no_plan(staged_level: Level, config: SolveConfig, stage_families: tuple[str, ...], *_: object) -> StagedOutcome:
        families.append((staged_level, stage_families))
        return StagedOutcome(None)

    monkeypatch.setattr(staged_phase, "solve_staged", no_plan)
    config = SolveConfig(encoding="push-macro", strategies=("dead",), max_horizon=1,
                         phases=parse_phases(["goal-room=50k", "staged=50k:families=push-macro+pull-route"]))
    result = solve(level, config)
    assert result.status is Status.NO_PLAN_UP_TO_HORIZON, result.message
    assert families == [(room.level, ("push-macro",)), (level, ("push-macro", "pull-route"))]


def test_a_level_with_macros_keeps_backward_stages_when_they_are_all_it_has() -> None:
    config = SolveConfig(encoding="push-macro", phases=parse_phases(["goal-room=50k", "staged=50k:families=pull-route"]))
    simpler = goal_room_phase.room_config(PhaseContext(config, Clock(), PhaseSettings(), lambda _: None, config.phases[1:], solve))
    assert stage_families(simpler) == ("pull-route",)
    assert simpler.work("goal-room") is None and simpler.phase("staged") is not None


def test_goal_room_is_refused_with_the_portfolio(tmp_path: Path) -> None:
    code, out = run("race", "--phase", "goal-room=50k", str(write(tmp_path, "l.sok", BEND)))
    assert code != 0 and "--phase" in out and "Traceback" not in out


# BEND with a second way into the room, down the column x = 5. Closing a square of that column
# leaves BEND's way in, down x = 7; closing one of x = 7 instead would leave no goal that a box
# can reach (a box pushed down x = 5 can never be pushed right: the player cannot get round it).
TWO_WAYS_IN = """\
##########
#        #
# $ $ $  #
#@       #
##### # ##
    #   .#
    #  ..#
    #    #
    ######
"""


def test_a_room_with_two_entrances_is_packed_through_one_with_the_other_closed() -> None:
    level = level_of(TWO_WAYS_IN)
    assert goal_rooms(level) == []  # no one square cuts the goals off
    closable = closable_rooms(level)
    assert closable and all(closed[0] == 5 and entrance[0] == 7 for closed, entrance, _ in closable)
    assert [len(room) for _, _, room in closable] == sorted(len(room) for _, _, room in closable)
    room = find_goal_room(level)
    assert room is not None and room.closed is not None and room.closed[0] == 5
    assert add(room.closed, room.shift) not in room.level.floor
    assert play_macros(level, room) == level.goals
    result = solve(level, SolveConfig(encoding="push", strategies=("dead",), phases=(PhaseRun("goal-room", 300_000),)))
    assert result.status is Status.SOLVED and result.report("goal-room").note.startswith("a plan for the level with macros")
    assert_replays(level, result.plan)
    optimum = bfs_pushes(TWO_WAYS_IN)
    assert optimum is not None and result.pushes is not None and result.pushes >= optimum


def test_a_room_with_one_entrance_comes_before_any_closing() -> None:
    room = find_goal_room(level_of(BEND))
    assert room is not None and room.closed is None


@pytest.mark.parametrize("name", sorted(HAND_MADE) + sorted(MICROBAN))
def test_the_rooms_with_two_entrances_are_every_pair_of_squares_that_cuts_the_goals_off(name: str) -> None:
    """Against trying every pair of free squares off the goals: the pairs that cut off a room
    holding every goal, no box and not the player, where neither square alone does."""
    level = level_of(HAND_MADE.get(name) or MICROBAN[int(name)])
    outside = level.boxes | {level.player}

    def room_without(cells: set) -> frozenset | None:
        room = region_from(level.floor - cells, frozenset(), [min(level.goals)])
        return room if level.goals <= room and not room & outside else None

    expected = {}
    for first, second in itertools.combinations(sorted(level.floor - level.goals - outside), 2):
        room = room_without({first, second})
        if room is not None and room_without({first}) is None and room_without({second}) is None:
            expected[frozenset({first, second})] = room
    assert two_entrance_rooms(level) == expected


# XSokoban 44 (Thinking Rabbit's level, as in ../shared/levels/xsokoban_90.sok). Its nine goals
# form a room with several ways in and no box fills them one at a time through any one of them:
# the room is packed through (14, 7) with (11, 9) made a wall, by macros that park boxes.
XSOKOBAN_44 = """\
 #####
 #   #
 # # #######
 #      $@######
 # $ ##$ ###   #
 # #### $    $ #
 # ##### #  #$ ####
##  #### ##$      #
#  $#  $  # ## ## #
#         # #...# #
######  ###  ...  #
     #### # #...# #
          # ### # #
          #       #
          #########
"""


def test_a_closed_room_that_needs_boxes_parked_gets_macros_that_park_them() -> None:
    level = level_of(XSOKOBAN_44)
    assert goal_rooms(level) == []
    room = find_goal_room(level)
    assert room is not None and room.closed == (11, 9) and room.entrance == (14, 7)
    closed = closing(level, room.closed)
    stand = add(room.entrance, (-room.direction[0], -room.direction[1]))
    assert packing_macros(closed, room_of(room, closed), room.entrance, stand) == ()
    assert play_macros(closed, room) == level.goals
    assert any(moves_a_box_already_in(macro) for macro in room.macros)


def room_of(room: GoalRoom, level: Level) -> frozenset:
    return region_from(level.floor - {room.entrance}, frozenset(), [add(room.entrance, room.direction)])


@pytest.mark.parametrize("name", ["microban-138", "microban-139", pytest.param("xsokoban-44", marks=pytest.mark.slow)])  # 44: a minute
def test_parking_macros_are_the_fewest_pushes_that_fill_the_room(name: str) -> None:
    """Against a breadth-first search of the room's states on sets of squares, with a box
    allowed onto any square of the room."""
    level = level_of(XSOKOBAN_44) if name == "xsokoban-44" else microban(int(name.split("-")[1]))
    room = find_goal_room(level)
    assert room is not None
    closed = level if room.closed is None else closing(level, room.closed)
    assert sum(len(macro) for macro in room.macros) == fewest_room_pushes(room, room_of(room, closed), level.goals)


def fewest_room_pushes(room: GoalRoom, inside: frozenset, goals: frozenset) -> int:
    """Breadth-first, on sets: the fewest pushes that fill the empty room from its entrance."""
    floor = set(inside | {room.entrance})
    seen = {(frozenset(), min(region(floor, frozenset(), room.entrance)))}
    frontier, pushes = [(frozenset(), room.entrance)], 0
    while not any(boxes == goals for boxes, _ in frontier):
        assert frontier, "the room cannot be filled"
        pushes += 1
        after = []
        for boxes, player in frontier:
            reach = region(floor, boxes, player)
            moves = [(box, d) for box in boxes for d in DIRECTIONS.values() if add(box, (-d[0], -d[1])) in reach]
            moves += [(room.entrance, room.direction)] if room.entrance in reach and len(boxes) < len(goals) else []
            for box, d in moves:
                target = add(box, d)
                if target in inside and target not in boxes:
                    moved = (boxes - {box}) | {target}
                    key = (moved, min(region(floor, moved, box)))
                    if key not in seen:
                        seen.add(key)
                        after.append((moved, box))
        frontier = after
    return pushes
