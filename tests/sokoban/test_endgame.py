"""The end game of staged solving (sokoasp/endgame.py): the last few boxes by push (or pull)
search, checked against the breadth-first oracle and by replay: a plan around the boxes on
goals where one exists, else one that moves them too where the state can be solved at all."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace

import pytest
from helpers import level_of
from oracle import parse, region, solvable_keys
from test_cli import run
from test_push_search import CORPUS, SEALED, fills, reachable_pull_states, reachable_states

from sokoasp import SolveConfig
from sokoasp.board.level import Level
from sokoasp.board.simulator import replay
from sokoasp.config import Clock
from sokoasp.errors import ExitCode
from sokoasp.phases.staged import search as staged
from sokoasp.phases.staged.search import StagedSearch, solve_staged
from sokoasp.sokoban import end_game as endgame
from sokoasp.sokoban.end_game import END_GAME_BOXES, END_GAME_STATES, FEW_BOXES_SHARE, FEW_BOXES_STATES, Finish, budget, finish


def around_the_placed(state: Level) -> Level:
    """``state`` with its boxes on goals made walls: a plan that solves it never moves them."""
    fixed = state.boxes & state.goals
    return Level(state.floor - fixed, state.boxes - fixed, state.goals - fixed, state.player)


def solvable_states(text: str, pulls: bool = False) -> Callable[[Level], bool]:
    """The breadth-first oracle over every reachable state of ``text`` at once (``pulls``: of the
    level turned round, the player starting on each free square): whether some pushes (pulls)
    from a state put a box on every goal."""
    floor, boxes, goals, player = parse(text)
    if pulls:
        keys = set().union(*(solvable_keys(floor, goals, boxes, start, pulls=True) for start in sorted(set(floor) - goals)))
    else:
        keys = solvable_keys(floor, boxes, goals, player)
    return lambda state: (state.boxes, min(region(floor, state.boxes, state.player))) in keys


FOUR_IN_A_ROOM = "#######\n#@    #\n# $$$ #\n# .$. #\n#  .. #\n#######\n"


@pytest.mark.parametrize("name", sorted(CORPUS)[:12] + ["four"])
def test_the_end_game_finds_a_plan_exactly_when_the_oracle_can(name: str) -> None:
    """On every reachable state of the corpus (and of a four-box level) with a box on a goal
    and at most ``END_GAME_BOXES`` off: a plan exactly where the breadth-first oracle solves
    the state. Where the boxes on goals can stay put, the plan leaves them there (it replays
    with them as walls); where they cannot, it moves them, and it was needed at least once."""
    text = FOUR_IN_A_ROOM if name == "four" else CORPUS[name]
    states = [state for state in reachable_states(text) if len(state.boxes - state.goals) <= END_GAME_BOXES]
    assert states
    solvable = solvable_states(text)
    moved_a_placed_box = 0
    for state in states:
        end = finish(state, END_GAME_STATES).plan
        assert (end is not None) == solvable(state)
        if end is not None:
            around = fills(state)
            assert replay(around_the_placed(state) if around else state, end.moves).ok
            moved_a_placed_box += not around
    assert name != "four" or moved_a_placed_box > 0


@pytest.mark.parametrize("name", sorted(CORPUS)[:6])
def test_backwards_the_end_game_pulls_exactly_when_the_oracle_can(name: str) -> None:
    """The same for the level turned round: the boxes pulled onto the free start squares, one
    legal pull per route (replayed with the oracle's own walk), the boxes on start squares left
    in place wherever the oracle can do without moving them."""
    states = [state for state in reachable_pull_states(CORPUS[name]) if len(state.boxes - state.goals) <= END_GAME_BOXES]
    assert states
    solvable = solvable_states(CORPUS[name], pulls=True)
    for state in states:
        end = finish(state, END_GAME_STATES, reverse=True).plan
        assert (end is not None) == solvable(state)
        if end is not None:
            assert replay_pulls(state, end.routes, keep_placed=fills(state, pulls=True))[0] == state.goals


def test_the_end_game_moves_a_box_off_its_goal_when_it_must() -> None:
    """The box on the goal at the room's mouth seals the goal behind it: the end game pushes it
    in and the other box after it."""
    sealed = level_of(SEALED)
    assert not fills(sealed)
    end = finish(sealed, END_GAME_STATES).plan
    assert end is not None and replay(sealed, end.moves).ok


def test_the_search_of_every_box_stops_at_its_state_limit() -> None:
    """The sealed room needs the search of every box: within ``states`` it finds the plan, with
    one state it gives up."""
    sealed = level_of(SEALED)
    assert finish(sealed, FEW_BOXES_STATES).plan is not None
    assert finish(sealed, 1).plan is None


def test_a_level_of_few_boxes_gives_its_end_game_a_share_of_the_work_left() -> None:
    """Many boxes: a stage's work, at most the usual states. At most END_GAME_BOXES boxes (the
    whole level is an end game): a share of the stages' work left where that is more, at most
    more states."""
    assert budget(END_GAME_BOXES + 1, 2_000, 20_000) == 2_000
    assert budget(END_GAME_BOXES + 1, 10**9, 10**9) == END_GAME_STATES
    assert budget(END_GAME_BOXES, 2_000, 20_000) == FEW_BOXES_SHARE * 20_000
    assert budget(1, 8_000, 4_000) == 8_000
    assert budget(1, 8_000, float("inf")) == FEW_BOXES_STATES
    assert FEW_BOXES_STATES > END_GAME_STATES


def test_backwards_the_end_game_leaves_the_player_able_to_walk_home() -> None:
    """Where a plan leaves the player shut out of a square, a plan asked to end with the
    player able to walk there does (on the corpus's reachable states, at least once)."""
    asked = 0
    for name in sorted(CORPUS)[:12]:
        for state in reachable_pull_states(CORPUS[name]):
            end = finish(state, END_GAME_STATES, reverse=True).plan
            if end is None:
                continue
            boxes, player = replay_pulls(state, end.routes, keep_placed=False)
            home = min(set(state.floor) - boxes - region(set(state.floor), boxes, player), default=None)
            homeward = None if home is None else finish(state, END_GAME_STATES, reverse=True, home=home).plan
            if homeward is not None:
                asked += 1
                boxes, player = replay_pulls(state, homeward.routes, keep_placed=False)
                assert boxes == state.goals and home in region(set(state.floor), boxes, player)
    assert asked > 0


def replay_pulls(state: Level, routes: tuple, keep_placed: bool = True) -> tuple[frozenset, tuple]:
    """The boxes and the player after routes of one pull each, every pull checked: the player
    walks to the square the box comes onto, and steps back onto a free square (``keep_placed``:
    and never moves a box that stood on a goal)."""
    floor, boxes, player = set(state.floor), frozenset(state.boxes), state.player
    for lift, drop, stand in routes:
        step = (drop[0] - lift[0], drop[1] - lift[1])
        assert lift in boxes and abs(step[0]) + abs(step[1]) == 1
        assert not keep_placed or lift not in state.goals & state.boxes
        assert drop in region(floor, boxes, player) and stand == (drop[0] + step[0], drop[1] + step[1])
        assert stand in floor and stand not in boxes
        boxes, player = boxes - {lift} | {drop}, stand
    return boxes, player


def row_of(count: int) -> str:
    """A row of ``count`` boxes above a row of as many goals, the player above them."""
    rows = ["#" * (count + 4), "#@" + " " * (count + 1) + "#", "# " + "$" * count + " #", "#" + " " * (count + 2) + "#",
            "# " + "." * count + " #", "#" * (count + 4)]
    return "\n".join(rows) + "\n"


ROW_OF_MORE = row_of(END_GAME_BOXES + 1)  # one box more than the end game takes


def test_the_end_game_leaves_many_boxes_and_a_spent_clock_to_the_stages() -> None:
    many = level_of(ROW_OF_MORE)
    assert finish(many, END_GAME_STATES).plan is None
    few = level_of("#######\n#.$ $.#\n#     #\n#  @  #\n#######\n")
    assert finish(few, END_GAME_STATES).plan is not None and finish(few, END_GAME_STATES, deadline=0.0).plan is None


def test_the_stages_end_by_the_end_game_after_a_stage_of_their_own() -> None:
    """One box more than the end game takes: the stages place at least one before it may take
    the rest; the joined plan replays and the outcome says how many boxes the end game placed."""
    level = level_of(ROW_OF_MORE)
    config = SolveConfig(encoding="push-macro", strategies=("dead", "freeze"), max_horizon=40)
    messages: list[str] = []
    outcome = solve_staged(level, config, (config.encoding,), True, Clock(), messages.append)
    assert outcome.plan is not None and replay(level, outcome.plan).ok
    assert 1 <= outcome.end_game <= END_GAME_BOXES and outcome.stages_solved >= len(level.boxes) - END_GAME_BOXES
    assert f"the last {outcome.end_game} by the end game's search" in outcome.describe(len(level.boxes))
    assert any(message.startswith("end game:") for message in messages)


@pytest.mark.parametrize("family", ["push-macro", "pull-route"])
def test_the_stages_end_by_the_end_game_in_either_direction(family: str) -> None:
    """Forwards and backwards (the player must end able to walk home), the joined plan replays
    from the start."""
    level = level_of(ROW_OF_MORE)
    config = SolveConfig(encoding=family, strategies=("dead",), max_horizon=40)
    outcome = solve_staged(level, config, (config.encoding,), True, Clock(), lambda _: None)
    assert outcome.plan is not None and replay(level, outcome.plan).ok and outcome.end_game >= 1


def test_without_the_end_game_every_stage_is_planned_by_clingo(tmp_path) -> None:
    """The staged phase's setting end-game=off: one stage plan per box, and the result says
    nothing of an end game; with it, the same level ends by it."""
    path = tmp_path / "row.sok"
    path.write_text(ROW_OF_MORE)
    code, out = run("solve", "-e", "push-macro", "-s", "dead", "--phase", "staged=300k:end-game=off", str(path))
    assert code == ExitCode.SOLVED and "staged search: a plan after" in out and "end game" not in out
    code, out = run("solve", "-e", "push-macro", "-s", "dead", "--phase", "staged=300k", str(path))
    assert code == ExitCode.SOLVED and "by the end game's search in Python" in out
    config = SolveConfig(encoding="push-macro", strategies=("dead",), max_horizon=40)
    outcome = solve_staged(level_of(ROW_OF_MORE), config, (config.encoding,), False, Clock(), lambda _: None)
    assert outcome.end_game == 0 and outcome.stages_solved >= len(level_of(ROW_OF_MORE).boxes)


def test_a_level_of_few_boxes_gets_its_first_stage_from_clingo() -> None:
    """Clingo first: with three boxes the end game could solve the level alone, yet the first
    stage is planned by clingo, as clingo finds it."""
    level = level_of("#######\n#@    #\n# $$$ #\n#     #\n# ... #\n#######\n")
    config = SolveConfig(encoding="push-macro", strategies=("dead", "freeze"), max_horizon=40)
    outcome = solve_staged(level, config, (config.encoding,), True, Clock(), lambda _: None)
    assert outcome.plan is not None and replay(level, outcome.plan).ok
    assert outcome.stages_solved >= 1 and outcome.end_game <= 2


def no_stage_from_clingo(monkeypatch) -> None:
    """Every stage comes back empty, as when clingo finds none in its time."""
    monkeypatch.setattr(StagedSearch, "stage", lambda self, state, goal, start=1: (None, start, False))


def test_without_a_first_stage_from_clingo_the_end_game_takes_the_level_from_the_start(monkeypatch) -> None:
    """A forward pass whose first stage clingo does not find hands the level to the end game
    from the start: its plan replays and the result says the whole plan came from it."""
    no_stage_from_clingo(monkeypatch)
    level = level_of(FOUR_IN_A_ROOM)
    config = SolveConfig(encoding="push-macro", strategies=("dead", "freeze"), max_horizon=40)
    outcome = solve_staged(level, config, (config.encoding,), True, Clock(), lambda _: None)
    assert outcome.plan is not None and replay(level, outcome.plan).ok
    assert outcome.stages_solved == 0 and outcome.end_game == len(level.boxes) and outcome.end_game_from_start
    assert "the whole plan by the end game's search in Python" in outcome.describe(len(level.boxes))


@pytest.mark.parametrize("change", ["no end game", "backwards", "too many boxes off the goals"])
def test_the_end_game_takes_a_level_from_the_start_only_forwards_and_with_few_boxes_off(monkeypatch, change: str) -> None:
    """Backwards (the player's start square in the solved state is unknown), with end-game=off,
    or with more boxes off the goals than it takes, no end game runs from the start."""
    no_stage_from_clingo(monkeypatch)
    level = level_of(ROW_OF_MORE if change == "too many boxes off the goals" else FOUR_IN_A_ROOM)
    config = SolveConfig(encoding="pull-route" if change == "backwards" else "push-macro", strategies=("dead",),
                         max_horizon=40)
    outcome = solve_staged(level, config, (config.encoding,), change != "no end game", Clock(), lambda _: None)
    assert outcome.plan is None and outcome.end_game == 0


def test_with_no_box_on_a_goal_the_search_of_every_box_goes_on_where_the_first_meets_its_limit(monkeypatch) -> None:
    """From the start (no box on a goal) the first search is the search of every box without its
    prune: cut at its state limit, the second goes on with the states it was given. With a box
    on a goal the first search's limit ends the end game, as before."""
    monkeypatch.setattr(endgame, "END_GAME_STATES", 2)
    level = level_of(FOUR_IN_A_ROOM)
    assert not level.boxes & level.goals
    end = finish(level, FEW_BOXES_STATES).plan
    assert end is not None and replay(level, end.moves).ok
    one_placed = level_of("######\n#@   #\n# *$ #\n#   .#\n######\n")
    assert finish(one_placed, FEW_BOXES_STATES).plan is None
    monkeypatch.setattr(endgame, "END_GAME_STATES", 50_000)
    end = finish(one_placed, FEW_BOXES_STATES).plan
    assert end is not None and replay(one_placed, end.moves).ok


def test_an_end_game_is_searched_again_only_when_its_states_ran_out(monkeypatch) -> None:
    """A search that ended within its states is not repeated; one cut short is, once a later
    pass gives it more; each is charged to the search's meter."""
    calls: list[int] = []

    def short_finish(state: Level, states: int, reverse: bool = False, home: object = None,
                     deadline: float = 0.0) -> Finish:
        calls.append(states)
        return Finish(None, states if cut_short else 7)

    monkeypatch.setattr(staged, "finish", short_finish)
    search = StagedSearch(SolveConfig(encoding="push-macro"), Clock(), lambda _: None)
    search.session = SimpleNamespace(reverse=False)  # type: ignore[assignment]
    ended, cut = level_of("#######\n#.$ $.#\n#     #\n#  @  #\n#######\n"), level_of(ROW_OF_MORE)
    cut_short = False
    assert search.end_game(ended, None) is None and search.end_game(ended, None) is None
    assert len(calls) == 1 and search.clock.worked() == 7
    cut_short = True
    search.stage_work = 500
    assert search.end_game(cut, None) is None and search.end_game(cut, None) is None
    assert calls[1:] == [500] and search.clock.worked() == 507
    search.stage_work = 1000
    assert search.end_game(cut, None) is None and calls[2:] == [1000]
