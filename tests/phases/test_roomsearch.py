"""The search of every box with goal-room entries as macros (sokoasp/roomsearch.py,
``--room-search``): plans that replay on random levels whose goals fill a room, never fewer
pushes than the breadth-first optimum; an entry taken whole and its box left on its goal; a box
parked in the room, which shuts the entries until it is pushed out again; in the driver a phase
whose plan is never called optimal, after which the other phases run when it finds none; and
Microban 153, which needs that parking (slow)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from corpus import HAND_MADE
from helpers import assert_replays, level_of
from oracle import bfs_pushes
from test_cli import run, write
from test_roomstages import MICROBAN, TWO_DOORS, needs_shared

from sokoasp import SolveConfig, Status, solve
from sokoasp.board.simulator import count_pushes
from sokoasp.board.xsb import read_levels
from sokoasp.config import Clock, PhaseRun
from sokoasp.errors import ExitCode
from sokoasp.phases import room_search
from sokoasp.phases import room_search as room_search_phase
from sokoasp.phases.room_search import PARKED_COST, RoomMacroSearch, room_search_plan
from sokoasp.portfolio.members import default_members, members_for
from sokoasp.sokoban.rooms.entrances import find_entrance_room


def room_level(rng: random.Random) -> str | None:
    """A random board whose goals fill column 1 (all of it, or all but its top), walled off from
    the rest but at one or two squares of column 2, with inner walls and boxes to the right."""
    width, height = rng.choice([(5, 3), (6, 3), (5, 4)])
    goals = {(1, y) for y in range(rng.choice([1, 2]), height + 1)}
    doors = set(rng.sample(range(1, height + 1), rng.choice([1, 2])))
    walls = {(2, y) for y in range(1, height + 1) if y not in doors} | ({(1, 1)} - goals)
    inner = [(x, y) for y in range(1, height + 1) for x in range(3, width + 1)]
    walls |= {cell for cell in inner if rng.random() < 0.12}
    free = [cell for cell in inner if cell not in walls]
    if len(free) < len(goals) + 3:
        return None
    player, *boxes = rng.sample(free, len(goals) + 1)
    symbol = {player: "@", **{box: "$" for box in boxes}, **{goal: "." for goal in goals}}
    return "".join("".join("#" if x in (0, width + 1) or y in (0, height + 1) or (x, y) in walls
                           else symbol.get((x, y), " ") for x in range(width + 2)) + "\n"
                   for y in range(height + 2))


def room_corpus(count: int, seed: int) -> dict[str, str]:
    """Random levels with such a room that the breadth-first oracle solves."""
    rng = random.Random(seed)
    levels: dict[str, str] = {}
    while len(levels) < count:
        text = room_level(rng)
        if text is None or find_entrance_room(level_of(text)) is None:
            continue
        try:
            solvable = bfs_pushes(text, limit=20_000) is not None
        except RuntimeError:  # too large for the oracle
            continue
        if solvable:
            levels[f"room-{len(levels)}"] = text
    return levels


CORPUS = room_corpus(12, seed=76)


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_the_room_search_finds_a_plan_that_replays(name: str) -> None:
    level = level_of(CORPUS[name])
    plan, note = room_search_plan(level, Clock())
    assert_replays(level, plan)
    assert plan is not None and count_pushes(plan) >= bfs_pushes(CORPUS[name])
    assert "with goal-room macros in Python (not ASP)" in note


def test_a_level_without_such_a_room_is_left_at_once() -> None:
    level = level_of(HAND_MADE["two-boxes"])
    assert find_entrance_room(level) is None
    assert room_search_plan(level, Clock()) == (None, "no goal room that entries fill, for the search with room macros")


def test_a_search_cut_short_says_when_it_stopped() -> None:
    plan, note = room_search_plan(level_of(TWO_DOORS), Clock(), states=1)
    assert plan is None and "stopped after" in note


def test_an_entry_is_taken_whole_and_its_box_stays_on_its_goal() -> None:
    level = level_of(TWO_DOORS)
    room = find_entrance_room(level)
    assert room is not None
    search = RoomMacroSearch(level, room)
    # a box on the upper entrance, the player where it pushes from: the push in is the whole entry
    boxes = frozenset({(3, 2), (5, 2), (6, 2), (6, 3)})
    region = search.board.flood(search.open_squares & ~search.board.mask(boxes), search.board.bit((4, 2)))
    entries = [move for move in search.moves(boxes, frozenset(), region) if move[3]]
    assert len(entries) == 1
    pushes, goal, _, _ = entries[0]
    assert pushes[0] == ((3, 2), (2, 2)) and goal == room.order[0].goal and pushes[-1][1] == goal
    assert len(pushes) > 1  # on past the square inside
    # a box on a filled goal is never moved again
    placed = boxes - {(3, 2)} | {goal}
    region = search.board.flood(search.open_squares & ~search.board.mask(placed), search.board.bit((3, 2)))
    assert all(pushes[0][0] != goal for pushes, *_ in search.moves(placed, frozenset({goal}), region))


def test_a_box_parked_in_the_room_shuts_the_entries_until_it_is_pushed_out() -> None:
    level = level_of(TWO_DOORS)
    room = find_entrance_room(level)
    assert room is not None and {(3, 2), (3, 3)} == set(room.entrances)
    search = RoomMacroSearch(level, room)
    # a box parked just inside the upper entrance, the player behind it in the room, a box on the lower entrance
    boxes = frozenset({(2, 2), (3, 3), (5, 2), (6, 2), (6, 3)})
    region = search.board.flood(search.open_squares & ~search.board.mask(boxes), search.board.bit((1, 2)))
    moves = search.moves(boxes, frozenset(), region)
    assert not any(entry for *_, entry in moves)  # no entry while a box stands in the room
    assert ((((2, 2), (3, 2)),), (3, 2), (2, 2), False) in moves  # the parked box may be pushed out again
    assert search.cost(boxes, frozenset()) - search.cost(boxes - {(2, 2)}, frozenset()) == PARKED_COST
    # out on the entrance, with the room empty, it comes in again as an entry
    out = frozenset({(3, 2), (5, 2), (6, 2), (6, 3)})
    region = search.board.flood(search.open_squares & ~search.board.mask(out), search.board.bit((4, 3)))
    assert any(entry and pushes[0] == ((3, 2), (2, 2)) for pushes, _, _, entry in search.moves(out, frozenset(), region))


def test_a_plan_of_the_room_search_phase_is_never_called_optimal() -> None:
    level = level_of(TWO_DOORS)
    result = solve(level, SolveConfig(encoding="push", strategies=("dead", "freeze"), phases=(PhaseRun("room-search", 300_000),)))
    assert result.status is Status.SOLVED
    assert "goal-room macros" in result.message and result.report("room-search") is not None
    assert_replays(level, result.plan)


def test_when_the_room_search_finds_none_the_other_phases_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(room_search_phase, "room_search_plan", lambda level, clock: (None, "no plan by the room search (stopped)"))
    level = level_of(TWO_DOORS)
    result = solve(level, SolveConfig(encoding="push", strategies=("dead", "freeze", "bound"), phases=(PhaseRun("room-search", 300_000),)))
    assert result.status is Status.SOLVED_OPTIMAL and result.pushes == bfs_pushes(TWO_DOORS)
    assert result.report("room-search").note == "no plan by the room search (stopped)"


def test_solve_room_search_prints_the_phase(tmp_path: Path) -> None:
    path = write(tmp_path, "doors.sok", TWO_DOORS)
    code, out = run("solve", "-e", "push", "--phase", "room-search=300k", str(path))
    assert code == ExitCode.SOLVED
    assert "status:     solved (not proven optimal): the whole plan by the search of every box with goal-room macros" in out


def test_the_portfolio_refuses_a_room_search_of_its_own(tmp_path: Path) -> None:
    path = write(tmp_path, "doors.sok", TWO_DOORS)
    code, out = run("race", "--phase", "room-search=50k", str(path))
    assert code == ExitCode.USAGE and "--phase" in out


@pytest.mark.parametrize("limit", [None, 60.0, 300.0])
def test_the_first_member_alone_searches_with_room_macros_first(limit: float | None) -> None:
    first, *others = members_for(limit)
    assert first.work("room-search") == room_search.WORK == default_members()[0].work("room-search")
    assert all(member.work("room-search") is None for member in others)


@pytest.mark.slow
@needs_shared
def test_microban_153_is_solved_by_parking_a_box_in_its_room() -> None:
    level = read_levels(MICROBAN.read_text(), str(MICROBAN))[152]
    plan, note = room_search_plan(level, Clock())
    assert_replays(level, plan)
    assert "goal-room macros" in note
