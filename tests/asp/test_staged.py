"""Staged solving (``--staged``, sokoasp/phases/staged/search.py): the stage goal of encodings/subgoal.lp is
exact (breadth-first optima for "at least k boxes on goals"), stages avoid the end states they
are told to, and the joined plans replay; staged solving is never called optimal."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import clingo
import pytest
from corpus import HAND_MADE, multi_box_corpus
from helpers import assert_replays, level_of
from oracle import bfs_box_moves, bfs_pushes, bfs_slides, fewest_box_moves, fills_around, parse
from test_cli import run, write
from test_deadlocks import solvable

from sokoasp import SolveConfig, Status, solve
from sokoasp.asp.bands import CONTROL_STEPS, RANDOM_DECISIONS
from sokoasp.asp.encodings import encodings_dir
from sokoasp.asp.models import PlanExtractor
from sokoasp.asp.reverse_facts import turned_round
from sokoasp.asp.session import horizons
from sokoasp.board.level import Level
from sokoasp.board.simulator import replay
from sokoasp.board.xsb import write_level
from sokoasp.config import Clock, PhaseRun
from sokoasp.errors import ExitCode
from sokoasp.phases import parse_phases
from sokoasp.phases.staged import stage_families
from sokoasp.phases.staged.search import SCHEDULE, StagedOutcome, StagedSearch, solve_staged, stage_config
from sokoasp.phases.staged.stage_ends import StageEnds, StageGoal, read_stage, state_after
from sokoasp.phases.staged.stage_session import StageSession, StartExternals, plan_stage
from sokoasp.sokoban.breadth_first import player_region
from sokoasp.sokoban.deadlocks import dead_fence, dead_group
from sokoasp.sokoban.push_search import fillable
from sokoasp.sokoban.pushes import StagePlan

CORPUS = multi_box_corpus(16, seed=5)


def placed(text: str) -> int:
    level = level_of(text)
    return len(level.boxes & level.goals)


def not_dead(level: Level) -> Callable[[frozenset, frozenset], bool]:
    """The oracle's test of an end state (boxes, player's region): no corral or group deadlock,
    which every stage turns away (their soundness: tests/sokoban/test_deadlocks.py)."""
    def accept(boxes: frozenset, reach: frozenset) -> bool:
        state = Level(level.floor, boxes, level.goals, min(reach))
        return dead_fence(state) is None and dead_group(state) is None
    return accept


@pytest.mark.parametrize("name", sorted(CORPUS))
@pytest.mark.parametrize("encoding,oracle", [("push", bfs_pushes), ("push-macro", bfs_slides),
                                             ("push-route", bfs_box_moves)])
def test_a_stage_plan_is_shortest_for_its_goal_count(name: str, encoding: str, oracle) -> None:
    """push gives the fewest pushes that leave at least k boxes on goals in a state with no
    corral or group deadlock, for every k above the count at the start (no strategies: nothing
    else may be pruned); push-macro and push-route, whose horizons grow by half, at least the
    fewest slides (box moves, to any state) and no more than the first horizon that admits
    them."""
    text = CORPUS[name]
    level = level_of(text)
    for need in range(placed(text) + 1, len(level.goals) + 1):
        optimum = oracle(text, placed=need, accept=not_dead(level)) if encoding == "push" else oracle(text, placed=need)
        plan = plan_stage(level, StageGoal(need), SolveConfig(encoding=encoding, max_horizon=40), Clock())
        assert plan is not None and optimum is not None
        after = state_after(level, plan)
        assert len(after.boxes & after.goals) >= need
        if encoding == "push":
            assert sum(c.isupper() for c in plan) == optimum, (need, plan)
        else:
            first_admitting = min(h for h in horizons(1, 40, jumps=True) if h >= optimum)
            steps = plan_slides(plan) if encoding == "push-macro" else plan_box_moves(level, plan)
            assert optimum <= steps <= first_admitting, (need, plan)


@pytest.mark.parametrize("name", sorted(CORPUS)[:10])
def test_one_session_serves_stages_from_any_state_and_for_any_goal_count(name: str) -> None:
    """A StageSession switched to new start states and goal counts gives the breadth-first
    optima (to end states with no corral or group deadlock), as a session of their own does:
    the grounding kept between stages holds for every stage. The start states are those after
    each push of a whole plan (all of them solvable)."""
    level = level_of(CORPUS[name])
    session = StageSession(level, SolveConfig(encoding="push", max_horizon=40), Clock())
    found = session.plan(level, StageGoal(len(level.goals)), Clock())
    whole = found[0].moves if found else ""
    starts = [state_after(level, whole[:end]) for end in range(len(whole)) if whole[end - 1].isupper() or end == 0]
    for state in starts:
        text = write_level(state)
        for need in range(placed(text) + 1, len(level.goals) + 1):
            found = session.plan(state, StageGoal(need), Clock())
            assert found is not None
            plan, after = found
            assert after == state_after(state, plan.moves)
            assert sum(c.isupper() for c in plan.moves) == bfs_pushes(text, placed=need, accept=not_dead(level)), (need, text)


# Two rows of floor: the box at the left of the top row is thirty pushes from its goal, the one
# below one push from its own.
TWO_ROWS = """\
##################################
#@$                             .#
# $.                             #
##################################
"""


def test_stages_are_asked_in_a_control_for_their_band_of_horizons() -> None:
    """The horizons up to 8 are asked in one control, those up to 27 in a second, the longer
    ones in a third (each made when first needed); a session gives the breadth-first optimum
    either way, and no control grounds more than its band."""
    level = level_of(TWO_ROWS)
    far, farther = (Level(level.floor, frozenset({(x, 1), (3, 2)}), level.goals, (x - 1, 1)) for x in (21, 2))
    near = Level(level.floor, frozenset({(2, 2), (32, 1)}), level.goals, (1, 2))
    session = StageSession(level, SolveConfig(encoding="push", max_horizon=40), Clock())
    for state in (near, far, near, farther, far, near):
        found = session.plan(state, StageGoal(2), Clock())
        assert found is not None
        assert sum(c.isupper() for c in found[0].moves) == bfs_pushes(write_level(state), placed=2)
    assert bfs_pushes(write_level(far), placed=2) == 11 and bfs_pushes(write_level(farther), placed=2) == 30
    assert CONTROL_STEPS == (8, 27)
    assert [control.session.steps if control else None for control in session.bands.controls] == [8, 27, 30]


def test_a_session_whose_clock_ran_out_while_grounding_gives_no_answer() -> None:
    """clingo reads a negative wait as "wait until done": a stage whose time was spent in
    grounding once ran on for 20 s (Microban 99). The session must stop at its clock instead."""
    level = level_of(CORPUS[sorted(CORPUS)[0]])
    session = StageSession(level, SolveConfig(encoding="push", max_horizon=40), Clock())
    lean = session.lean.session
    lean.ground_up_to(8)
    session.lean.switch(level, StageGoal(len(level.goals)))
    lean.clock = Clock(limit=-1.0)
    assert lean.solve() is None
    lean.clock = Clock()
    assert lean.solve() is not None  # the same solve call answers with time left


def plan_box_moves(level: Level, plan: str) -> int:
    """Box moves in a LURD plan: runs of pushes of one box, walks in between allowed (each run
    takes one box along a route with the others standing still)."""
    boxes, player = set(level.boxes), level.player
    count, last = 0, None
    for letter in plan:
        dx, dy = {"l": (-1, 0), "r": (1, 0), "u": (0, -1), "d": (0, 1)}[letter.lower()]
        player = (player[0] + dx, player[1] + dy)
        if letter.isupper():
            count += player != last
            last = (player[0] + dx, player[1] + dy)
            boxes.remove(player)
            boxes.add(last)
    return count


def plan_slides(plan: str) -> int:
    """Slides in a LURD plan: runs of pushes in one direction with no walk in between (they move
    one box in a line, so the plan is a plan of that many slides)."""
    count, previous = 0, ""
    for letter in plan:
        if letter.isupper() and letter != previous:
            count += 1
        previous = letter
    return count


@pytest.mark.parametrize("name", sorted(CORPUS)[:8])
def test_a_stage_avoids_the_end_states_it_is_given(name: str) -> None:
    level = level_of(CORPUS[name])
    config = SolveConfig(encoding="push-macro", max_horizon=40)
    need = len(level.boxes & level.goals) + 1
    first = state_after(level, plan_stage(level, StageGoal(need), config, Clock()) or "")
    second_plan = plan_stage(level, StageGoal(need, avoid=(first,)), config, Clock())
    if second_plan is not None:
        second = state_after(level, second_plan)
        region = player_region(level.floor, second.boxes, second.player)
        assert second.boxes != first.boxes or first.player not in region
    third_plan = plan_stage(level, StageGoal(need, other_than=(first,)), config, Clock())
    if third_plan is not None:
        third = state_after(level, third_plan)
        assert third.boxes & third.goals != first.boxes & first.goals


# Filling the goal next to the boxes first (one push) walls off the other goal for good.
ENTRANCE_FIRST = """\
#######
#..$  #
###$  #
  #  @#
  #####
"""


def live_squares(floor: frozenset, goals: frozenset, fixed: frozenset) -> set:
    """Squares from which a lone box can be pushed to a free goal, boxes in ``fixed`` being walls
    (pulled backwards from the free goals; written apart from the encoding it checks)."""
    floor = floor - fixed
    live = set(goals - fixed)
    frontier = list(live)
    while frontier:
        x, y = frontier.pop()
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            box, player = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
            if box in floor and player in floor and box not in live:
                live.add(box)
                frontier.append(box)
    return live


def all_live(level: Level, boxes: frozenset) -> bool:
    """Every box off a goal can still reach a free goal, the boxes on goals being walls."""
    return boxes - level.goals <= live_squares(level.floor, level.goals, boxes & level.goals)


def test_keeping_boxes_live_skips_the_stage_that_walls_off_a_goal() -> None:
    level = level_of(ENTRANCE_FIRST)
    config = SolveConfig(encoding="push")
    greedy = plan_stage(level, StageGoal(1), config, Clock())
    careful = plan_stage(level, StageGoal(1, keep_live=True), config, Clock())
    assert greedy is not None and careful is not None
    assert sum(c.isupper() for c in greedy) == 1 and sum(c.isupper() for c in careful) == 2
    assert all_live(level, state_after(level, careful).boxes)
    assert solve_staged(level, config, (config.encoding,), True, Clock(), lambda _: None).plan is not None


def test_the_goal_order_prunes_inside_the_solver(monkeypatch) -> None:
    """subgoal-order.lp alone keeps a stage asked to keep the order (``keep_order``) from filling
    the entrance goal first: with the driver's check of each end state switched off, the stage
    still takes two pushes."""
    level = level_of(ENTRANCE_FIRST)
    monkeypatch.setattr(StageEnds, "nogood", lambda self, end: None)
    config = SolveConfig(encoding="push")
    careless = plan_stage(level, StageGoal(1), config, Clock())
    ordered = plan_stage(level, StageGoal(1, keep_order=True), config, Clock())
    assert careless is not None and ordered is not None
    assert sum(c.isupper() for c in careless) == 1 and sum(c.isupper() for c in ordered) == 2


# Pushing the lower box up fills a goal in two pushes, but that goal is the player's only way
# into the room, to the square behind the other box. Both boxes still count as live for
# subgoal-live.lp, which ignores the player; filling.fillable does not. It is no deadlock: the
# box on the entrance can be pushed on into the room, walked round, and pushed back once the
# other box is home (with a room of two rows it could only go on up to the wall, a group
# deadlock that every stage turns away).
BEHIND_THE_ENTRANCE = """\
#######
#.  $ #
#     #
#     #
##.####
#  $  #
#  @  #
#######
"""


def test_keeping_goals_fillable_skips_the_stage_that_shuts_the_player_out() -> None:
    level = level_of(BEHIND_THE_ENTRANCE)
    config = SolveConfig(encoding="push")
    live = plan_stage(level, StageGoal(1, keep_live=True), config, Clock())
    careful = plan_stage(level, StageGoal(1, keep_live=True, keep_fillable=True), config, Clock())
    assert live is not None and careful is not None
    assert sum(c.isupper() for c in live) == 2 and sum(c.isupper() for c in careful) == 3
    floor, _, goals, _ = parse(BEHIND_THE_ENTRANCE)
    for plan, fills in ((live, False), (careful, True)):
        after = state_after(level, plan)
        assert fills_around(floor, after.boxes, goals, after.player) is fills
        assert dead_fence(after) is None and dead_group(after) is None and solvable(after)
    assert solve_staged(level, config, (config.encoding,), True, Clock(), lambda _: None).plan is not None


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_a_stage_that_keeps_boxes_live_is_shortest_among_live_end_states(name: str) -> None:
    """push with subgoal-live.lp gives the breadth-first fewest pushes to a state with at least
    k boxes on goals in which every other box can still reach a free goal (and no corral or
    group deadlock), for every k."""
    text = CORPUS[name]
    level = level_of(text)
    alive = not_dead(level)
    for need in range(placed(text) + 1, len(level.goals) + 1):
        optimum = bfs_pushes(text, placed=need, accept=lambda boxes, reach: all_live(level, boxes) and alive(boxes, reach))
        plan = plan_stage(level, StageGoal(need, keep_live=True), SolveConfig(encoding="push", max_horizon=40), Clock())
        if optimum is None:
            assert plan is None
            continue
        assert plan is not None, need
        after = state_after(level, plan)
        assert len(after.boxes & after.goals) >= need and all_live(level, after.boxes)
        assert sum(c.isupper() for c in plan) == optimum, (need, plan)


def stages_need(monkeypatch, least: int) -> None:
    """Every stage try with a budget under ``least`` units spends it and finds nothing (it runs
    out); the others search as they do."""
    plan_stage = StageSession.plan

    def needs(self, state, goal, clock, start=1):
        budget = clock.work_left()
        if budget is not None and budget < least:
            clock.charge(budget)
            self.ran_out = True
            return None
        return plan_stage(self, state, goal, clock, start)

    monkeypatch.setattr(StageSession, "plan", needs)


def test_a_pass_cut_short_is_followed_by_a_longer_one(monkeypatch) -> None:
    """Stages that need more than their budget (here: any under 8 units) find nothing: each pass
    is cut short and the next doubles the stage budget, until the stages are long enough."""
    stages_need(monkeypatch, 8)
    level = level_of(CORPUS[sorted(CORPUS)[0]])
    messages: list[str] = []
    search = StagedSearch(SolveConfig(encoding="push-macro"), Clock(until=50_000), messages.append, end_game=False)
    search.stage_work = 1
    plan = search.run(level)
    passes = [message for message in messages if "cut short; its next at" in message]
    assert len(passes) >= 2 and search.stage_work >= 8
    assert plan is not None and replay(level, plan).ok


def test_a_longer_budget_starts_with_the_same_passes() -> None:
    """The first stage budget does not depend on the phase's, so a larger budget first runs the
    passes a smaller one would (then goes on) instead of starting with longer stages."""
    searches = [StagedSearch(SolveConfig(encoding="push-macro"), Clock(until=budget), lambda _: None)
                for budget in (50_000, 3_000_000)]
    assert searches[0].stage_work == searches[1].stage_work


def test_a_pass_that_never_runs_out_of_stages_is_restarted(monkeypatch, no_end_game) -> None:
    """Stages that always find a plan but never get closer to the goal (a search that would
    wander deeper for the whole budget): each pass ends after pass_stages stage budgets and the
    next starts again from the start with twice the stage budget."""
    import sokoasp.phases.staged.search as staged

    def wander(self, state: Level, goal: StageGoal, start: int = 1):
        self.clock.charge(self.stage_work // 4)
        return (StagePlan(), state), start, True

    monkeypatch.setattr(StagedSearch, "stage", wander)
    level = level_of(CORPUS[sorted(CORPUS)[0]])
    messages: list[str] = []
    search = StagedSearch(SolveConfig(encoding="push-macro"), Clock(until=20_000), messages.append)
    search.stage_work = 100
    assert search.one_pass(level) is None
    assert staged.SCHEDULE.pass_stages * 100 <= search.clock.worked() <= staged.SCHEDULE.pass_stages * 100 + 25
    assert search.cut_short and not search.finished and search.stage_work == 200
    assert search.run(level) is None
    assert sum("cut short; its next at" in message for message in messages) >= 3


def test_passes_after_the_first_make_random_decisions_of_their_own(monkeypatch) -> None:
    """Randomized restarts: the first pass searches as clasp does by default; each later pass
    makes a share of random decisions, seeded by its number, so it does not walk the stage
    plans of the pass before again."""
    monkeypatch.setattr(StagedSearch, "stage", lambda self, state, goal, start=1: (None, start, False))
    level = level_of(CORPUS[sorted(CORPUS)[0]])
    search = StagedSearch(SolveConfig(encoding="push-macro"), Clock(), lambda message: None)
    search.one_pass(level)
    assert search.session is not None
    solver = search.session.lean.session.control.configuration.solver
    assert float(solver.rand_freq) == 0.0
    seeds = []
    for _ in range(2):
        search.one_pass(level)
        assert float(solver.rand_freq) == RANDOM_DECISIONS > 0
        seeds.append(solver.seed)
    assert seeds == ["2", "3"]
    deep = search.session.bands.control(CONTROL_STEPS[-1] + 1, Clock(), lambda control: None).session.control.configuration.solver
    assert deep.seed == "3" and float(deep.rand_freq) == RANDOM_DECISIONS  # a control made later: the pass's seed


def test_a_stage_with_no_answer_within_its_budget_cuts_the_pass_short(monkeypatch) -> None:
    """A stage that got no answer ran out of its budget (or clingo's wait returned a hair before
    the time limit), so the pass is cut short and a longer one follows (a pass taken for
    finished would end its family's search for good)."""
    from sokoasp.asp.session import Session

    monkeypatch.setattr(Session, "ask", lambda self, horizon, budget=None: None)
    level = level_of(CORPUS[sorted(CORPUS)[0]])
    search = StagedSearch(SolveConfig(encoding="push-macro"), Clock(), lambda message: None, end_game=False)
    assert search.one_pass(level) is None
    assert search.cut_short and not search.finished


def test_a_stage_that_finds_its_plan_or_is_refuted_did_not_run_out_of_its_budget(monkeypatch) -> None:
    """Only a stage with no answer within its budget counts as running out of it: one that finds its
    plan, or whose every horizon is refuted, leaves a pass that ends without a plan finished."""
    from sokoasp.asp.session import Session

    level = level_of(CORPUS[sorted(CORPUS)[0]])
    session = StageSession(level, SolveConfig(encoding="push-macro"), Clock())
    assert session.plan(level, StageGoal(1), Clock(until=300_000)) is not None
    assert not session.ran_out
    monkeypatch.setattr(Session, "ask", lambda self, horizon, budget=None: False)
    search = StagedSearch(SolveConfig(encoding="push-macro", max_horizon=3), Clock(), lambda message: None,
                          end_game=False)
    assert search.one_pass(level) is None
    assert not search.cut_short and search.finished


def test_stages_keep_only_strategies_that_hold_for_any_goal_count() -> None:
    config = SolveConfig(encoding="push-macro", strategies=("dead", "bound", "freeze", "corral", "pack"),
                         phases=(PhaseRun("staged", 50_000),))
    assert stage_config(config, "push-macro").strategies == ("dead", "freeze")


def test_stages_of_another_family_keep_the_strategies_it_supports() -> None:
    config = SolveConfig(encoding="push-route", strategies=("dead", "freeze", "bound", "guide"),
                         phases=parse_phases(["staged=50k:families=push-macro"]))
    stages = stage_config(config, "push-macro")
    assert stages.encoding == "push-macro" and stages.strategies == ("dead", "freeze", "guide")
    route = SolveConfig(encoding="push-route", strategies=("dead", "straight"), phases=(PhaseRun("staged", 50_000),))
    assert stage_config(route, "push-route").strategies == ("dead",)


def test_push_macro_stages_hand_over_to_a_push_route_loop(monkeypatch) -> None:
    """Stages of one family, and the horizon loop of another when they give up: both solve, and
    the result names the loop's family."""
    level = level_of(HAND_MADE["corridor"])
    config = SolveConfig(encoding="push-route", strategies=("dead", "freeze"))
    staged = solve(level, replace(config, phases=parse_phases(["staged=300k:families=push-macro"])))
    assert staged.status is Status.SOLVED and staged.message.startswith("staged search: a plan")
    assert_replays(level, staged.plan)
    stages_need(monkeypatch, 10**9)
    looped = solve(level, replace(config, phases=parse_phases(["staged=1k:families=push-macro"])))
    assert looped.status.solved and looped.config["encoding"] == "push-route"
    assert "staged search: no plan" in looped.report("staged").note
    assert_replays(level, looped.plan)


def test_each_phase_takes_the_strategies_its_family_supports() -> None:
    """Freeze serves push-macro stages though the pull-route loop has none; a strategy that
    serves neither phase, or freeze for pull-route without stages, is refused."""
    from sokoasp.errors import InputError
    from sokoasp.phases import loop_config
    from sokoasp.pipeline import check_config

    config = SolveConfig(encoding="pull-route", strategies=("dead", "freeze", "bound"),
                         phases=parse_phases(["staged=50k:families=push-macro"]))
    check_config(config)
    assert stage_config(config, "push-macro").strategies == ("dead", "freeze")
    assert loop_config(config).strategies == ("dead", "bound")
    with pytest.raises(InputError, match="supports neither the stages"):
        check_config(replace(config, strategies=("dead", "corral")))
    with pytest.raises(InputError, match="does not support encoding 'pull-route'"):
        check_config(replace(config, phases=()))
    level = level_of(HAND_MADE["corridor"])
    looped = solve(level, replace(config, phases=parse_phases(["staged=1k:families=push-macro"])))
    assert looped.status.solved and looped.config["strategies"] == ["dead", "freeze", "bound"]
    assert_replays(level, looped.plan)


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_staged_search_plans_replay_and_are_not_called_optimal(name: str) -> None:
    level = level_of(CORPUS[name])
    config = SolveConfig(encoding="push-macro", strategies=("dead", "freeze", "bound"), max_horizon=40)
    clock = Clock()
    outcome = solve_staged(level, config, (config.encoding,), True, clock, lambda _: None)
    assert outcome.plan is not None, outcome.describe(len(level.boxes))
    assert replay(level, outcome.plan).ok
    assert 0 < outcome.test_seconds <= clock.times()["total"]  # every stage plan's end state was tested
    assert outcome.describe(len(level.boxes)).endswith(f"; {outcome.test_seconds:.1f} s testing end states")
    result = solve(level, SolveConfig(encoding="push-macro", strategies=("dead", "freeze", "bound"), phases=(PhaseRun("staged", 300_000),)))
    assert result.status is Status.SOLVED and result.optimal_for is None
    assert result.message.startswith("staged search: a plan")
    assert_replays(level, result.plan)


def test_when_the_staged_search_fails_the_horizon_loop_still_runs(monkeypatch) -> None:
    """Stages that need more than the budget: they give up, and the push family's own loop finds
    the optimum."""
    stages_need(monkeypatch, 10**9)
    text = HAND_MADE["corridor"]
    result = solve(level_of(text), SolveConfig(encoding="push", strategies=("dead",), phases=(PhaseRun("staged", 1000),)))
    assert result.status is Status.SOLVED_OPTIMAL and result.pushes == bfs_pushes(text)
    assert "staged search: no plan" in result.report("staged").note


@pytest.mark.parametrize("options", [{"phases": (PhaseRun("staged", 50_000),)},
                                     {"phases": (PhaseRun("goal-room", 50_000), PhaseRun("staged", 50_000))},
                                     {"phases": (PhaseRun("staged", 50_000),), "start_factor": 3}])
def test_a_level_already_solved_is_proven_optimal_with_stages_asked_for(options: dict[str, object]) -> None:
    """Stages are never optimal, but an empty plan is: the horizon loop proves it at horizon 0."""
    level = level_of("#######\n#@ * *#\n#######")
    result = solve(level, replace(SolveConfig(encoding="push-macro", strategies=("dead", "freeze", "bound")), **options))
    assert result.status is Status.SOLVED_OPTIMAL and result.plan == "" and result.pushes == 0
    assert result.report("staged") is None


def test_staged_needs_a_push_family(tmp_path) -> None:
    path = str(write(tmp_path, "l.sok", HAND_MADE["corridor"]))
    code, out = run("solve", "-e", "incremental", "--phase", "staged=50k", path)
    assert code == ExitCode.INPUT_ERROR and "the staged phase needs a push family" in out and "Traceback" not in out
    code, out = run("solve", "-e", "fast-downward", "--phase", "staged=50k", path)
    assert code == ExitCode.INPUT_ERROR and "needs a push family" in out and "not 'fast-downward'" in out
    code, out = run("race", "--phase", "staged=50k", path)
    assert code == ExitCode.USAGE and "--phase" in out
    code, out = run("solve", "-e", "push-macro", "-s", "dead", "--phase", "staged=50k", path)
    assert code == ExitCode.SOLVED and "staged search: a plan" in out
    code, out = run("solve", "-e", "push-route", "--phase", "staged=50k:families=incremental", path)
    assert code == ExitCode.USAGE and "needs a push family" in out and "not 'incremental'" in out
    code, out = run("solve", "-e", "push-route", "--phase", "box-search=50k:families=push-macro", path)
    assert code == ExitCode.USAGE and "phase 'box-search' has no setting 'families'" in out
    code, out = run("solve", "-e", "push-macro", "--phase", "staged=50k:end-game", path)
    assert code == ExitCode.USAGE and "KEY=VALUE pairs" in out


def test_solve_shows_the_staged_search_once_and_apart_from_clingo_statistics(tmp_path) -> None:
    """With 1k units the stages rarely find a plan and the horizon loop solves the level; either
    way the staged search's note is printed once, on its own line or as the status message."""
    path = str(write(tmp_path, "l.sok", HAND_MADE["corridor"]))
    code, out = run("solve", "-e", "push", "-s", "dead", "--phase", "staged=1k", path)
    assert code == ExitCode.SOLVED
    noted = [line for line in out.splitlines() if "staged search" in line]
    assert len(noted) == 1 and noted[0].startswith(("staged:     staged search: no plan", "status:"))


def test_stage_families_take_turns_pass_by_pass(monkeypatch) -> None:
    """push-macro+push-route: each family searches with a session of its own, and the passes
    alternate, each family's stage budget doubling as it would alone; the plan replays."""
    import sokoasp.phases.staged.search as staged

    # first passes far too short: each is cut short
    monkeypatch.setattr(staged, "SCHEDULE", replace(staged.SCHEDULE, first_stage_work=1))
    stages_need(monkeypatch, 8)
    level = level_of(CORPUS[sorted(CORPUS)[0]])
    config = SolveConfig(encoding="push-macro", strategies=("dead", "straight"))
    messages: list[str] = []  # no end game from the start when a first stage is not found
    outcome = solve_staged(level, config, ("push-macro", "push-route"), False, Clock(), messages.append)
    passes = [m.split("a pass of ")[1] for m in messages if "a pass of" in m]
    families = [p.split(" ")[0] for p in passes]
    assert families[:4] == ["push-macro", "push-route", "push-macro", "push-route"], passes
    assert passes[0].split(";")[1] == passes[1].split(";")[1]  # the same stage budget in both
    assert outcome.plan is not None and replay(level, outcome.plan).ok


def test_several_stage_families_are_checked_each() -> None:
    """Every family of the turns must be a push family; a strategy serves the stages if
    one family supports it, and each family's stages keep only what it supports."""
    from sokoasp.errors import InputError
    from sokoasp.pipeline import check_config

    def with_families(families: str) -> SolveConfig:
        return replace(config, phases=parse_phases([f"staged=50k:families={families}"]))

    config = SolveConfig(encoding="pull-route", strategies=("dead", "freeze", "straight"))
    config = with_families("push-macro+push-route")
    check_config(config)
    assert stage_families(config) == ("push-macro", "push-route")
    assert stage_config(config, "push-macro").strategies == ("dead", "freeze", "straight")
    assert stage_config(config, "push-route").strategies == ("dead", "freeze")
    with pytest.raises(InputError, match="needs a push family"):
        check_config(with_families("push-macro+incremental"))
    assert stage_config(with_families("push-macro+pull-route"), "pull-route").strategies == ("dead",)
    with pytest.raises(InputError, match="unknown encoding 'push-mcaro'"):
        check_config(with_families("push-route+push-mcaro"))


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_backward_stages_give_plans_that_replay(name: str) -> None:
    """pull-route stages: from the boxes on the goals, one more box pulled onto a start square
    per stage; the routes, played back as pushes from the start, replay. The last stage must
    leave the player able to walk to its start square (else the replay would fail)."""
    level = level_of(CORPUS[name])
    config = SolveConfig(encoding="pull-route", strategies=("dead",), max_horizon=40)
    messages: list[str] = []
    outcome = solve_staged(level, config, (config.encoding,), True, Clock(), messages.append)
    assert outcome.plan is not None, outcome.describe(len(level.boxes))
    assert replay(level, outcome.plan).ok
    assert any("box route" in message for message in messages)


def test_a_backward_stage_is_fewest_pulls_onto_start_squares() -> None:
    """The first backward stage, the player starting anywhere: at least the breadth-first fewest
    box moves by pulls that put a box on a start square, and no more than the first horizon
    that admits them (pull-route's horizons grow by half)."""
    for name in sorted(CORPUS)[:6]:
        level = level_of(CORPUS[name])
        start = turned_round(level)
        session = StageSession(level, SolveConfig(encoding="pull-route", max_horizon=40), Clock())
        found = session.plan(start, StageGoal(1, player_anywhere=True), Clock())
        optimum = fewest_box_moves(set(level.floor), level.goals, level.boxes,
                                   sorted(level.floor - level.goals), placed=1, pulls=True)
        assert found is not None and optimum is not None
        plan, after = found
        assert len(after.boxes & after.goals) >= 1 and after.goals == level.boxes
        first_admitting = min(h for h in horizons(1, 40, jumps=True) if h >= optimum)
        assert optimum <= len(plan.routes) <= first_admitting and plan.moves == ""
        assert after.player not in after.boxes


def test_the_player_of_a_later_backward_stage_starts_where_the_last_one_left_it() -> None:
    """Only the first backward stage may put the player anywhere: from a state with the player
    shut in a pocket, a stage that needs the player elsewhere finds nothing."""
    # Turned round, the box on the goal at (4,1) is to be pulled left onto the start square
    # (3,1), the player stepping from (3,1) to (2,1). Shut in right of the box it cannot.
    level = level_of("#######\n# @$. #\n#######\n")
    session = StageSession(level, SolveConfig(encoding="pull-route", max_horizon=6), Clock())
    start = turned_round(level)
    assert session.plan(start, StageGoal(1, player_anywhere=True), Clock()) is not None
    shut_in = Level(start.floor, start.boxes, start.goals, (5, 1))
    assert session.plan(shut_in, StageGoal(1), Clock()) is None


def test_careful_backward_stages_end_where_the_start_squares_can_still_be_filled() -> None:
    """With keep_live and keep_fillable a first backward stage ends only where every other box
    can still be pulled to a free start square (filling.fillable with pulls); careless stages
    end elsewhere too."""
    ends = {True: [], False: []}
    for name in sorted(CORPUS):
        level = level_of(CORPUS[name])
        session = StageSession(level, SolveConfig(encoding="pull-route", max_horizon=40), Clock())
        for careful in (True, False):
            goal = StageGoal(1, keep_live=careful, keep_fillable=careful, player_anywhere=True)
            found = session.plan(turned_round(level), goal, Clock())
            if found is not None:
                ends[careful].append(fillable(found[1], pulls=True))
    assert ends[True] and all(ends[True])
    assert not all(ends[False]), ends


def test_a_backward_stage_that_places_every_box_leaves_the_player_able_to_walk_home() -> None:
    """A backward stage asked for one more box on a start square may place more; when it places
    them all, it must also leave the player able to walk home (else the search would go on from
    a state with nothing left to place). Every model at horizon 3 of a stage asked for one box."""
    # Home (2,1) is a pocket over the start square (2,2). A box pulled onto (2,2) from the
    # right leaves the player at (1,2), shut out; pulled up from (2,3) it leaves it at home.
    level = level_of("########\n##@#  ##\n# $    #\n#   .$.#\n########\n")
    session = StageSession(level, SolveConfig(encoding="pull-route", max_horizon=3), Clock())
    start = turned_round(level)
    session.lean.switch(start, StageGoal(1, player_anywhere=True))
    ends: list[Level] = []

    class EveryEnd(PlanExtractor):
        def on_model(self, model) -> bool:
            ends.append(read_stage(start, list(model.symbols(shown=True)), reverse=True)[1])
            self.found = True
            return True

    session.lean.session.extractor = EveryEnd()
    assert session.lean.session.ask(3)
    every_box_placed = [end for end in ends if end.boxes == end.goals]
    assert every_box_placed
    assert all(level.player in player_region(end.floor, end.boxes, end.player) for end in every_box_placed)
    assert any(len(end.boxes & end.goals) == 1 for end in ends)  # the stage still asks for one box only


def record_stage_tries(monkeypatch) -> list[tuple[StageGoal, int, str | None, int | None]]:
    """Every StageSession.plan call from now on: its goal, first horizon, moves found and
    work budget."""
    tries: list[tuple[StageGoal, int, str | None, int | None]] = []
    plan = StageSession.plan

    def recording(self, state, goal, clock, start=1):
        budget = clock.work_left()
        found = plan(self, state, goal, clock, start)
        tries.append((goal, start, None if found is None else found[0].moves, budget))
        return found

    monkeypatch.setattr(StageSession, "plan", recording)
    return tries


def test_a_stage_takes_the_careful_plan_and_asks_it_no_horizon_the_careless_try_refuted(monkeypatch) -> None:
    """The careless try runs first and its plan is the fallback; the careful plan is taken when
    there is one, and its try starts at the horizon where the careless one stopped. It still
    finds the careful plan that a careful try from horizon 1 finds."""
    level = level_of(BEHIND_THE_ENTRANCE)
    config = SolveConfig(encoding="push")
    alone = plan_stage(level, StageGoal(1, keep_live=True, keep_fillable=True), config, Clock())
    careless = plan_stage(level, StageGoal(1), config, Clock())
    assert alone is not None and careless is not None
    assert sum(c.isupper() for c in careless) < sum(c.isupper() for c in alone)
    tries = record_stage_tries(monkeypatch)
    search = StagedSearch(config, Clock(), lambda message: None)
    search.session = StageSession(level, config, Clock())
    found, _, careful = search.stage(level, StageGoal(1))
    assert found is not None and careful
    assert [(goal.keep_fillable, start) for goal, start, _, _ in tries] == [(False, 1), (True, sum(c.isupper() for c in careless))]
    assert found[0].moves == alone
    assert fillable(found[1])


def test_the_careless_try_keeps_the_filling_order(monkeypatch) -> None:
    """The careless try, whose plan a stage keeps when the careful try finds none, does not fill
    the entrance goal while the goal behind it is empty (Microban 143's last box took a
    40-push detour after a careless stage had done that): one push fills the entrance, two
    fill the goal behind it."""
    level = level_of(ENTRANCE_FIRST)
    config = SolveConfig(encoding="push")
    tries = record_stage_tries(monkeypatch)
    search = StagedSearch(config, Clock(), lambda message: None)
    search.session = StageSession(level, config, Clock())
    found, _, _ = search.stage(level, StageGoal(1))
    assert found is not None
    first, start, moves, _ = tries[0]
    assert first.keep_order and not first.keep_live and not first.keep_fillable and start == 1
    assert moves is not None and sum(c.isupper() for c in moves) == 2 == bfs_pushes(ENTRANCE_FIRST, placed=1) + 1


@pytest.mark.parametrize("ran_out", [False, True])
def test_a_stage_breaks_the_filling_order_only_when_the_ordered_try_finds_no_plan(monkeypatch, ran_out: bool) -> None:
    """When the careless try with the filling order finds no plan (at any horizon, or in its
    time), a careless try without it follows from horizon 1 (the refuted horizons held for the
    order only), and no careful try, which would keep the order too."""
    level = level_of(ENTRANCE_FIRST)
    config = SolveConfig(encoding="push")
    plan = StageSession.plan
    tries: list[StageGoal] = []

    def no_ordered_plan(self, state, goal, clock, start=1):
        tries.append(goal)
        if goal.keep_order:
            self.ran_out, self.stopped_at = ran_out, 5
            return None
        return plan(self, state, goal, clock, start)

    monkeypatch.setattr(StageSession, "plan", no_ordered_plan)
    search = StagedSearch(config, Clock(), lambda message: None)
    search.session = StageSession(level, config, Clock())
    found, refuted_below, careful = search.stage(level, StageGoal(1))
    assert found is not None and not careful
    assert [goal.keep_order for goal in tries] == [True, False]
    assert sum(c.isupper() for c in found[0].moves) == 1 == refuted_below


# Three boxes, one, two and three pushes from their goals: three first stages, each filling
# another goal.
THREE_GOALS = """\
##########
#        #
# $.     #
#        #
# $ .    #
#        #
# $  .   #
#   @    #
##########
"""


class RootStagesOnly(StagedSearch):
    """A staged search whose every first stage leads to a dead end: it tries each end state
    the root allows."""

    def search(self, state, home, first=True):
        return super().search(state, home, first) if first else None


def test_each_end_state_tried_from_a_state_starts_where_the_last_careless_try_stopped(monkeypatch) -> None:
    """The next end state from a state must differ from the last (and avoid it), so it has no
    careless plan below the horizon where the last careless try stopped: its try starts there
    and still finds the shortest stage plan for its goal."""
    level = level_of(THREE_GOALS)
    config = SolveConfig(encoding="push")
    recorded = record_stage_tries(monkeypatch)
    search = RootStagesOnly(config, Clock(), lambda message: None)
    assert search.one_pass(level) is None
    tries = [(goal, start, moves) for goal, start, moves, _ in recorded if not goal.keep_fillable]
    pushes = [sum(c.isupper() for c in moves or "") for _, _, moves in tries]
    assert [start for _, start, _ in tries] == [1] + pushes[:-1] and pushes == [1, 2, 3]
    for goal, start, moves in tries:
        alone = plan_stage(level, goal, config, Clock())
        assert moves is not None and alone is not None
        assert sum(c.isupper() for c in moves) == sum(c.isupper() for c in alone) >= start


def test_the_last_stage_gets_more_stage_budgets_than_the_others(monkeypatch, no_end_game) -> None:
    """The stage whose plan ends the search has final_stage_times stage budgets: its careless
    try gets half of them, every other stage's half of one."""
    level = level_of(THREE_GOALS)
    tries = record_stage_tries(monkeypatch)
    search = StagedSearch(SolveConfig(encoding="push"), Clock(), lambda message: None)
    plan_found = search.one_pass(level)
    assert plan_found is not None and replay(level, plan_found).ok
    careless = {goal.need: limit for goal, _, _, limit in tries if not goal.keep_fillable}
    assert sorted(careless) == [1, 2, 3]
    half = SCHEDULE.first_stage_work // 2
    assert careless[1] == careless[2] == half
    assert careless[3] == SCHEDULE.final_stage_times * half


def budget_of(config: SolveConfig, limit: float | None) -> Clock:
    """The stages' clock for two-boxes (push-macro bound 3, start scale 3) in a run with ``limit``."""
    from sokoasp.asp.encodings import get_encoding
    from sokoasp.pipeline import with_idle_loop_time

    work = config.work("staged")
    clock = Clock(limit=limit)
    return with_idle_loop_time(level_of(HAND_MADE["two-boxes"]), get_encoding(config.encoding), config, clock,
                               clock.within(work), lambda _: None)


def test_the_stages_keep_their_budget_when_the_loop_after_them_has_horizons_to_ask() -> None:
    config = SolveConfig(encoding="push-macro", start_factor=5, max_horizon=15, phases=(PhaseRun("staged", 20_000),))
    assert budget_of(config, 60.0).work_left() == 20_000
    assert budget_of(replace(config, max_horizon=10), None).work_left() == 20_000  # no limit: no time to hand on


def test_the_stages_take_the_time_a_loop_starting_above_its_maximum_would_leave_unused() -> None:
    from sokoasp.asp.horizon_loops import probe_work
    from sokoasp.config import WORK_PER_SECOND

    no_probe = SolveConfig(encoding="push-macro", start_factor=1, max_horizon=2,
                           phases=(PhaseRun("staged", 20_000),))  # starts at the bound, 3
    clock = budget_of(no_probe, 60.0)
    assert clock.work_left() is None and 59.5 < (clock.remaining() or 0) <= 60.0
    probing = SolveConfig(encoding="push-macro", start_factor=5, max_horizon=10,
                          phases=(PhaseRun("staged", 20_000),))  # 15 > 10, probes 3
    clock = budget_of(probing, 60.0)
    assert clock.work_left() is None and 59.5 < (clock.remaining() or 0) + probe_work(probing) / WORK_PER_SECOND <= 60.0


def test_a_run_whose_loop_cannot_start_gives_the_stages_all_its_time(monkeypatch) -> None:
    import sokoasp.phases.staged

    clocks: list[Clock] = []

    def record(level, config, families, end_game, clock, progress):
        clocks.append(clock)
        return StagedOutcome(None)

    monkeypatch.setattr(sokoasp.phases.staged, "solve_staged", record)
    level = level_of(HAND_MADE["two-boxes"])
    result = solve(level, SolveConfig(encoding="push-macro", max_horizon=2, time_limit=20.0, phases=(PhaseRun("staged", 10_000),)))
    assert result.status is Status.NO_PLAN_UP_TO_HORIZON
    assert result.message == "no plan up to horizon 2: every plan needs at least 3 steps (the proven lower bound)"
    assert len(clocks) == 1 and clocks[0].work_left() is None and 19.0 < (clocks[0].limit or 0) <= 20.0


def test_a_loop_whose_time_the_stages_spent_grounds_nothing(monkeypatch) -> None:
    import time

    import sokoasp.phases.staged

    def spend(level, config, families, end_game, clock, progress):
        time.sleep(1.05)  # past the run's limit
        return StagedOutcome(None)

    monkeypatch.setattr(sokoasp.phases.staged, "solve_staged", spend)
    level = level_of(HAND_MADE["two-boxes"])
    config = SolveConfig(encoding="push-macro", start_factor=5, max_horizon=10, time_limit=1.0, phases=(PhaseRun("staged", 5_000),))
    result = solve(level, config)  # the loop would probe the bound, 3, before its first horizon, 15 > 10
    assert result.status is Status.TIMEOUT and result.message == "no plan up to horizon 2"
    assert result.times["ground"] == 0.0 and result.times["total"] < 1.5


ONE_NEAR_ONE_FAR = """\
#######
#@$.  #
#   $ #
#  .  #
#######
"""


def test_a_failed_staged_search_keeps_the_way_to_its_farthest_state(no_end_game) -> None:
    """One push puts the first box on a goal; the second needs two, above the maximum horizon,
    so the search ends without a plan. The moves to the farthest state replay to it, and
    ``solve`` keeps the same moves in its stats (the next test: the CLI draws that state)."""
    level = level_of(ONE_NEAR_ONE_FAR)
    config = SolveConfig(encoding="push", max_horizon=1)
    outcome = solve_staged(level, config, (config.encoding,), True, Clock(), lambda _: None)
    assert outcome.plan is None and outcome.most_placed == 1
    assert outcome.farthest is not None
    reached = replay(level, outcome.farthest)
    assert reached.steps_done == len(outcome.farthest) and len(reached.boxes & level.goals) == 1
    result = solve(level, replace(config, phases=(PhaseRun("staged", 100_000),)))
    assert result.report("staged").farthest == outcome.farthest


def test_solve_draws_the_farthest_state_of_failed_stages(tmp_path, no_end_game) -> None:
    path = str(write(tmp_path, "l.sok", ONE_NEAR_ONE_FAR))
    code, out = run("solve", "-e", "push", "--phase", "staged=100k", "--max-horizon", "1", path)
    assert code != ExitCode.SOLVED
    lines = out.splitlines()
    head = next(k for k, line in enumerate(lines) if line.startswith("farthest:"))
    assert "the stages got 1 of 2 boxes on goals in" in lines[head]
    assert lines[head + 1].strip() == "#######" and lines[head + 2].strip() == "# @*  #"


def test_failed_backward_stages_draw_the_state_nearest_the_start(tmp_path) -> None:
    """Backward stages allowed no step at all stop where they start, every box on a goal: that
    state is their nearest to the start, drawn on the level (its goals) in the stats, and the
    CLI shows it."""
    level = level_of(ONE_NEAR_ONE_FAR)
    config = SolveConfig(encoding="pull-route", max_horizon=0)
    outcome = solve_staged(level, config, (config.encoding,), True, Clock(), lambda _: None)
    assert outcome.plan is None and outcome.most_home == 0 and outcome.nearest_home is not None
    assert outcome.nearest_home.boxes == level.goals
    rows = outcome.home_board(level).splitlines()
    assert rows[1].count("*") == rows[3].count("*") == 1 and "$" not in "".join(rows)
    result = solve(level, replace(config, phases=(PhaseRun("staged", 100_000),)))
    assert result.report("staged").home == outcome.home_board(level)
    code, out = run("solve", "-e", "pull-route", "--phase", "staged=100k", "--max-horizon", "0",
                    str(write(tmp_path, "l.sok", ONE_NEAR_ONE_FAR)))
    lines = out.splitlines()
    head = next(k for k, line in enumerate(lines) if line.startswith("backwards:"))
    assert code != ExitCode.SOLVED and [line.strip() for line in lines[head + 1:head + 6]] == rows


def test_a_box_pushed_away_and_back_counts_as_moved_for_the_group_test() -> None:
    # A group standing where it stood at the stage's start need not have stood still: its box
    # may have left and come back with the player now on its other side, where it is dead.
    level = level_of("#######\n#    .#\n# @$  #\n#     #\n#######\n")
    (box,) = level.boxes
    moves = "RurrdL"  # push the box right, walk round it, push it back
    end = state_after(level, moves)
    assert end.boxes == level.boxes and end.player != level.player
    pushed_onto = StagePlan(moves=moves).moved_onto(level)
    assert pushed_onto == {(box[0] + 1, box[1]), box}
    routes = (((1, 1), (2, 3), None), ((2, 3), (4, 4), (3, 4)))
    assert StagePlan(routes=routes).moved_onto(level) == {(2, 3), (4, 4)}


def test_the_start_externals_switch_to_each_state_assigning_only_what_changed() -> None:
    floor = frozenset((x, y) for x in range(4) for y in range(3))
    control = clingo.Control()
    control.add("base", [], "".join(f"init(field({x},{y}))." for x, y in sorted(floor)))
    control.load(str(encodings_dir() / "stage-start.lp"))
    control.ground([("base", [])])
    start = StartExternals(control, floor)
    states = [({(0, 0), (1, 1)}, (3, 2)), ({(0, 0), (2, 1)}, (1, 1)), ({(2, 1), (3, 0)}, None), ({(1, 2)}, (0, 0))]
    for boxes, player in states:
        start.switch(frozenset(boxes), player)
        with control.solve(yield_=True) as handle:
            model = next(iter(handle)).symbols(atoms=True)
        placed = [symbol.arguments[0].arguments for symbol in model
                  if symbol.name == "init" and symbol.arguments[0].name == "at"]  # init(at(Kind,X,Y))
        assert {(x.number, y.number) for kind, x, y in placed if kind.number == 1} == boxes
        assert {(x.number, y.number) for kind, x, y in placed if kind.number == 0} == ({player} if player else set())
