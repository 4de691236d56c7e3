"""Traps (sokoasp/traps.py): a state is proven dead when no push (pull) sequence from it ever
puts one more box on a goal (by the breadth-first oracle), every state proven dead is
unsolvable, dead groups and frozen boxes pruned on the way prove more, the proofs include some
that the pattern tests miss, and a stage turns away an end state found dead by a proof made
before."""

from __future__ import annotations

import pytest
from helpers import level_of
from oracle import push_closure
from test_deadlocks import corpus_states, solvable

from sokoasp.board.level import Level
from sokoasp.config import MOST_STATES, Clock, SolveConfig
from sokoasp.phases.staged.search import StagedSearch
from sokoasp.phases.staged.stage_ends import StageEnds, StageGoal, state_nogood
from sokoasp.phases.staged.stage_session import StageSession
from sokoasp.sokoban.analysis import dead_squares
from sokoasp.sokoban.deadlocks import dead_fence, dead_freeze, dead_group
from sokoasp.sokoban.pushes import StagePlan
from sokoasp.sokoban.traps import Traps, neighbourhoods

# The empty goal at the top right can be filled only by a box pushed from the square left of it,
# the player on the filled goal at the top left; the box there can leave only for the corner
# (the player cannot get round it), which kills it. Two of three boxes are placed, the third
# never: no box is frozen, no corral or group of boxes is dead.
TRAP = """\
#######
# * . #
##  # #
##  $ #
#*@   #
#######
"""


def improves(state: Level, pulls: bool) -> bool:
    """The oracle: some push (pull) sequence from ``state`` reaches more boxes on goals."""
    placed = len(state.boxes & state.goals)
    closure = push_closure(set(state.floor), state.boxes, state.player, pulls=pulls)
    return any(len(placement & state.goals) > placed for placement, _ in closure)


@pytest.mark.parametrize("pulls", [False, True])
def test_a_state_from_which_no_box_more_reaches_a_goal_is_proven_dead_and_every_state_proven_dead_is_unsolvable(pulls: bool) -> None:
    """Pruning dead groups and frozen boxes proves more: without it the sample gives 478 proofs
    forwards and 71 backwards (532 and 145 with it)."""
    proven = 0
    for state in corpus_states(pulls)[:: 2 if pulls else 12]:  # a sample: the oracle takes a while
        traps = Traps(state, pulls)
        dead = traps.prove_dead(state, MOST_STATES)
        if state.boxes <= state.goals:
            assert not dead  # solved: no box more to place, and not dead
        elif not improves(state, pulls):
            assert dead, sorted(state.boxes)  # exhausted: no state with a box more
        if dead:
            assert not solvable(state, pulls), sorted(state.boxes)
            proven += 1
    assert proven >= (100 if pulls else 500)


def test_a_whole_proof_proves_exactly_the_states_from_which_not_every_box_reaches_a_goal() -> None:
    """A ``whole`` proof (the room stages': every box placed, not one more) searches on until
    it runs out of states, so on tiny levels it proves a state dead just when the oracle finds
    no plan from it, placed boxes or not."""
    proven = 0
    for state in corpus_states(False)[::15]:  # a sample: the oracle takes a while
        dead = Traps(state, pulls=False, whole=True).prove_dead(state, MOST_STATES)
        assert dead == (not solvable(state)), sorted(state.boxes)
        proven += dead
    assert proven >= 400  # 439 of the sample's 561 states are dead


def placeable(state: Level, boxes: frozenset) -> bool:
    """The oracle for a part: some push sequence puts ``boxes`` alone on goals."""
    return any(placement <= state.goals for placement, _ in push_closure(set(state.floor), boxes, state.player))


def test_a_neighbourhood_of_boxes_that_cannot_all_be_placed_alone_proves_its_state_dead() -> None:
    """Part proofs (``dead_part``): a box and those within two squares of it, the other boxes
    taken away. On the three-box states of a sample of the tiny corpus, every state proven so
    is unsolvable by the oracle, and so is the part alone; most of the dead ones are proven."""
    proven = dead = 0
    for state in corpus_states(False)[::10]:
        if not neighbourhoods(state.boxes):
            continue
        part = Traps(state, pulls=False, whole=True).dead_part(state, MOST_STATES)
        unsolvable = not solvable(state)
        assert part is None or (unsolvable and not placeable(state, part)), sorted(state.boxes)
        proven += part is not None
        dead += unsolvable
    assert proven >= 300 and proven >= 0.9 * dead  # 358 of the 367 dead


def test_the_neighbourhoods_of_boxes_are_a_box_and_those_within_two_squares_fewer_than_all() -> None:
    boxes = frozenset({(1, 1), (3, 3), (4, 1), (8, 8)})
    assert neighbourhoods(boxes) == [frozenset({(1, 1), (3, 3)}), frozenset({(3, 3), (4, 1)}),
                                     frozenset({(1, 1), (3, 3), (4, 1)})]
    assert neighbourhoods(frozenset({(1, 1), (2, 2)})) == []  # all of them: the whole proof's


def test_a_trap_the_pattern_tests_miss_is_proven_with_every_state_it_took_up_and_a_search_cut_short_proves_nothing() -> None:
    state = level_of(TRAP)
    assert not (dead_fence(state) or dead_group(state) or dead_freeze(state)) and not state.boxes & dead_squares(state)
    charged: list[int] = []
    traps = Traps(state, pulls=False, charge=charged.append)
    assert not traps.prove_dead(state, 0)  # no states: no search
    assert not traps.prove_dead(state, 1)  # out of states
    assert traps.tried[traps.key(state)] == 1 and not traps.dead and charged == [1]
    assert not traps.prove_dead(state, 1)  # no search with no more states than one that met its limit
    assert traps.prove_dead(state, MOST_STATES)
    assert traps.proofs == 1 and len(traps.dead) > 1
    assert len(charged) == 2 and sum(charged) == traps.states > 1
    later = Level(state.floor, (state.boxes - {(4, 3)}) | {(3, 3)}, state.goals, (4, 3))  # the box at (4, 3) pushed left
    assert traps.known_dead(later) and not solvable(state)


def test_a_stage_turns_away_an_end_state_proven_dead_before() -> None:
    state = level_of(TRAP)
    traps = Traps(state, pulls=False)
    ends = StageEnds(state, StageGoal(2), reverse=False, traps=traps)
    ends.horizon = 3
    assert ends.nogood(state) is None
    assert traps.prove_dead(state, MOST_STATES)
    assert ends.nogood(state) == state_nogood(state, 3)


@pytest.mark.parametrize("careful", [False, True])
def test_the_search_skips_a_careless_stage_that_ends_in_a_trap_and_tries_the_next_end_state(monkeypatch, careful: bool) -> None:
    """Scripted stages: the first ends in the trap, the next in the solved state. A careless end
    state is proven a trap and the search goes on to the next end state without a stage from
    the trap; a careful one (it passed the fillability tests) is searched from as before."""
    trap = level_of(TRAP)
    start = Level(trap.floor, (trap.boxes - {(4, 3)}) | {(3, 3)}, trap.goals, trap.player)
    solved = Level(trap.floor, trap.goals, trap.goals, (2, 4))
    asked: list[tuple[Level, StageGoal]] = []

    def scripted(self, state: Level, goal: StageGoal, start: int = 1):
        asked.append((state, goal))
        after, moves = (trap, "l") if len(asked) == 1 else (solved, "r")
        return (StagePlan(moves=moves), after), start, careful

    monkeypatch.setattr(StagedSearch, "stage", scripted)
    search = StagedSearch(SolveConfig(encoding="push-macro"), Clock(), lambda message: None)
    search.began -= 10**6  # scripted stages do no work: give the proofs' share (trap_time_share) work to spend
    plan = search.one_pass(start)
    if careful:
        assert plan == "lr" and [state for state, _ in asked] == [start, trap] and search.outcome.traps == 0
    else:
        assert plan == "r" and [state for state, _ in asked] == [start, start] and search.outcome.traps == 1
        assert asked[1][1].other_than == (trap,)


def test_a_trap_proof_gets_half_a_stage_budget_and_never_more_than_the_pass_or_the_proofs_share_has_left(monkeypatch) -> None:
    import sokoasp.phases.staged.search as staged

    asked: list[int] = []
    monkeypatch.setattr(Traps, "prove_dead", lambda self, state, states: asked.append(states) or False)
    trap = level_of(TRAP)
    search = StagedSearch(SolveConfig(encoding="push-macro"), Clock(), lambda message: None)
    search.session = StageSession(trap, search.config, Clock())
    search.stage_work = 40_000
    search.clock.charge(10**6)  # the proofs' share: 100,000 states
    search.pass_end = search.clock.worked() + 600_000
    assert not search.trapped(trap)
    search.pass_end = search.clock.worked() + 5_000
    assert not search.trapped(trap)
    search.pass_end = search.clock.worked() - 10_000
    assert not search.trapped(trap)
    search.pass_end = search.clock.worked() + 600_000
    search.session.traps.states = 99_000  # proofs took 99,000 states of the share of 100,000
    assert not search.trapped(trap)
    search.session.traps.states = 200_000
    assert not search.trapped(trap)
    assert asked == [staged.SCHEDULE.trap_share * 40_000, 5_000, 0, 1_000, 0]
