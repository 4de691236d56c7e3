"""Strategies: the soundness each claims, that each is loaded and fires, and the registry."""

from __future__ import annotations

import clingo
import pytest
from corpus import HAND_MADE, random_corpus
from helpers import assert_keeps_shortest_horizon, assert_replays, count_plans, level_of
from oracle import bfs_moves, bfs_pushes

from sokoasp import SolveConfig, Status, solve
from sokoasp.asp.encodings import ENCODINGS, get_encoding
from sokoasp.asp.level_facts import program_facts
from sokoasp.asp.session import encoding_paths
from sokoasp.asp.strategies import STRATEGIES, Soundness, strategy_paths
from sokoasp.errors import InputError
from sokoasp.sokoban.analysis import dead_squares

CORPUS = {**HAND_MADE, **random_corpus(10, seed=4)}
# A level on which every thesis strategy changes the ground program and the search.
SHOWCASE = "#######\n#     #\n# $$  #\n#  @ .#\n#    .#\n#######\n"


def pairs(soundness: Soundness) -> list[tuple[str, str]]:
    return [(s.name, e) for s in STRATEGIES.values() if s.soundness is soundness for e in s.encodings]


def fast_enough(encoding: str, name: str) -> bool:
    """The fixed-horizon split encoding is very slow beyond a dozen moves; keep the default run short."""
    return encoding != "split" or bfs_moves(CORPUS[name]) <= 8


@pytest.mark.parametrize("strategy,encoding", pairs(Soundness.KEEPS_OPTIMAL))
def test_optimal_strategies_keep_the_optimum(strategy: str, encoding: str) -> None:
    for name, text in CORPUS.items():
        if not fast_enough(encoding, name):
            continue
        level = level_of(text)
        pushes = ENCODINGS[encoding].unit == "push"
        optimum = bfs_pushes(text) if pushes else bfs_moves(text)
        config = SolveConfig(encoding=encoding, strategies=(strategy,), horizon=optimum, max_horizon=30)
        result = solve(level, config)
        length = result.pushes if pushes else result.moves
        exact = ENCODINGS[encoding].proves_optimum
        assert result.status.solved and (length == optimum if exact else length >= optimum), (name, result.message)
        assert_replays(level, result.plan)
        if ENCODINGS[encoding].incremental and ENCODINGS[encoding].proves_optimum:
            assert result.status is Status.SOLVED_OPTIMAL


@pytest.mark.parametrize("strategy,encoding", [(s, e) for s, e in pairs(Soundness.KEEPS_OPTIMAL)
                                                 if e in ("push-jump", "push-macro")])
def test_optimal_strategies_keep_the_shortest_horizon_of_jump_families(strategy: str, encoding: str) -> None:
    """push-jump's and push-macro's plans are not optimal, but their horizons are: the fewest
    pushes (slides) admit a plan and one fewer does not."""
    for text in CORPUS.values():
        assert_keeps_shortest_horizon(text, encoding, (strategy,))


def test_straight_slides_remove_the_pieces_of_a_long_slide() -> None:
    """Pushing a box 3 squares down a corridor within 3 steps: as 1, 2 or 3 slides (1 + 2 + 1
    answers, idle steps at the end) without the strategy, only the single slide with it."""
    text = "#######\n#@$  .#\n#######\n"
    assert count_plans(text, "push-macro", (), 3) == 4
    assert count_plans(text, "push-macro", ("straight",), 3) == 1


@pytest.mark.parametrize("encoding", ["incremental", "plain"])
def test_forbidden_fields_of_the_thesis_lose_a_solvable_level(encoding: str) -> None:
    text = HAND_MADE["ff-trap"]
    optimum = bfs_moves(text)
    assert optimum is not None
    base = solve(level_of(text), SolveConfig(encoding=encoding, horizon=optimum, max_horizon=optimum + 4))
    pruned = solve(level_of(text), SolveConfig(encoding=encoding, strategies=("ff",), horizon=optimum,
                                               max_horizon=optimum + 4))
    assert base.status.solved
    assert not pruned.status.solved
    assert STRATEGIES["ff"].soundness is Soundness.MAY_LOSE


def test_ff_on_the_thesis_corpus_where_it_is_harmless() -> None:
    """FF is not always wrong: where it does not misfire, its plans are still optimal and valid."""
    text = HAND_MADE["two-boxes"]
    result = solve(level_of(text), SolveConfig(strategies=("ff",)))
    assert result.status is Status.SOLVED  # a may-lose strategy never claims optimality
    assert result.moves == bfs_moves(text)


@pytest.mark.parametrize(
    "strategy,encoding",
    [(s.name, e) for s in STRATEGIES.values() if not s.combination for e in ("incremental", "plain", "push")
     if e in s.encodings],
)
def test_each_strategy_is_loaded_and_prunes(strategy: str, encoding: str) -> None:
    level = level_of(SHOWCASE)
    horizon = bfs_pushes(SHOWCASE) if encoding == "push" else bfs_moves(SHOWCASE)
    config = SolveConfig(encoding=encoding, horizon=horizon, max_horizon=horizon)
    base = solve(level, config)
    pruned = solve(level, SolveConfig(**{**config.__dict__, "strategies": (strategy,)}))
    assert base.status.solved and pruned.status.solved
    keys = ("rules", "atoms", "choices", "conflicts")
    assert [base.stats[k] for k in keys] != [pruned.stats[k] for k in keys]


@pytest.mark.parametrize(
    "strategy,encoding",
    [(s.name, e) for s in STRATEGIES.values() if not s.combination for e in s.encodings if e.startswith("split")],
)
def test_split_strategy_files_change_the_ground_program(strategy: str, encoding: str) -> None:
    level = level_of(HAND_MADE["two-boxes"])
    config = SolveConfig(encoding=encoding, horizon=11, max_horizon=11)
    base = solve(level, config)
    pruned = solve(level, SolveConfig(**{**config.__dict__, "strategies": (strategy,)}))
    assert base.stats["rules"] != pruned.stats["rules"]


def test_every_registered_strategy_file_exists() -> None:
    for strategy in STRATEGIES.values():
        for encoding in strategy.encodings:
            for path in strategy_paths((strategy.name,), encoding):
                text = path.read_text()
                assert text.startswith(f"%! strategy: {strategy.name}\n") or strategy.combination, f"{path} opens with its header"
                assert "% Soundness, as the header claims:" in text, f"{path} says why its claim holds"


def test_combinations_load_each_file_once() -> None:
    paths = strategy_paths(("type2", "clutter", "type1"), "incremental")
    assert len(paths) == len(set(paths)) == 4


def test_unsupported_combination_is_refused() -> None:
    unsupported = [(s.name, e) for s in STRATEGIES.values() for e in ENCODINGS if e not in s.encodings]
    if not unsupported:
        pytest.skip("every strategy supports every encoding")
    strategy, encoding = unsupported[0]
    with pytest.raises(InputError, match="does not support"):
        solve(level_of(HAND_MADE["one-push"]), SolveConfig(encoding=encoding, strategies=(strategy,), horizon=1))


def test_symmetry_cuts_not_proven_together_are_refused() -> None:
    with pytest.raises(InputError, match="not proven to keep an optimal plan together"):
        solve(level_of(HAND_MADE["one-push"]), SolveConfig(encoding="push", strategies=("corral", "commute")))


@pytest.mark.parametrize("strategy,encoding", pairs(Soundness.MAY_LOSE))
def test_strategies_that_may_lose_never_claim_optimality(strategy: str, encoding: str) -> None:
    for name, text in CORPUS.items():
        if not fast_enough(encoding, name) or not ENCODINGS[encoding].incremental:
            continue
        level = level_of(text)
        result = solve(level, SolveConfig(encoding=encoding, strategies=(strategy,), max_horizon=30))
        assert result.status is not Status.SOLVED_OPTIMAL
        if result.status.solved:
            assert_replays(level, result.plan)
        else:
            assert result.status is Status.NO_PLAN_UP_TO_HORIZON and "may lose" in result.message


GOAL_ROOM = "######\n#  $ #\n# @$ #\n#$####\n#.#\n#.#\n#.#\n###\n"
TUNNEL = "##########\n#    #   #\n#@$      #\n#    ## .#\n##########\n"


def test_packing_layers_fill_a_goal_corridor_from_the_inside() -> None:
    from sokoasp.sokoban.analysis import packing_layers

    assert packing_layers(level_of(GOAL_ROOM)) == {(1, 4): 1, (1, 5): 2, (1, 6): 3}


def test_packing_layers_are_empty_when_the_goals_cannot_be_emptied_by_pulling() -> None:
    from sokoasp.sokoban.analysis import packing_layers

    assert packing_layers(level_of("#####\n# $@#\n#.###\n###\n")) == {}


@pytest.mark.parametrize("encoding", ["push", "push-jump"])
def test_tunnel_pushes_on_through_a_tunnel_and_finds_the_optimum(encoding: str) -> None:
    level = level_of(TUNNEL)
    config = SolveConfig(encoding=encoding, max_horizon=20)
    base = solve(level, config)
    tunnel = solve(level, SolveConfig(**{**config.__dict__, "strategies": ("tunnel",)}))
    assert tunnel.status is Status.SOLVED and tunnel.pushes == bfs_pushes(TUNNEL) == base.pushes
    assert tunnel.stats["rules"] > base.stats["rules"]  # the tunnel constraints were grounded
    assert_replays(level, tunnel.plan)


PACKING = "#######\n#     #\n# $$$ #\n#@    #\n##.####\n #.#\n #.#\n ###\n"


@pytest.mark.parametrize("encoding", ["push", "push-jump"])
def test_pack_fills_a_goal_corridor_from_the_inside_at_the_optimum(encoding: str) -> None:
    """May-lose in general; on a goal corridor it must keep the breadth-first push optimum."""
    from sokoasp.sokoban.analysis import packing_layers

    level = level_of(PACKING)
    assert len(set(packing_layers(level).values())) == 3  # the corridor gives three layers
    base = solve(level, SolveConfig(encoding=encoding, max_horizon=30))
    packed = solve(level, SolveConfig(encoding=encoding, strategies=("pack",), max_horizon=30))
    assert packed.status is Status.SOLVED and packed.pushes == bfs_pushes(PACKING)
    assert packed.stats["rules"] > base.stats["rules"]  # the packing constraints were grounded
    assert_replays(level, packed.plan)


def test_freeze_marks_exactly_the_squares_between_two_dead_squares() -> None:
    """both_dead/4 (freeze) holds for a square whose two neighbours on an axis are both dead;
    the rule is written so that gringo looks its atoms up (it once took 17 s on a large level)."""
    level = level_of("########\n#@ $   #\n#      #\n#  .#  #\n#      #\n########\n")
    dead = dead_squares(level)
    control = clingo.Control(["--warn=none"])
    for path in [*encoding_paths(get_encoding("push")), *strategy_paths(("freeze",), "push")]:
        control.load(str(path))
    control.add("base", [], program_facts(level))
    control.ground([("base", [])])
    found = {tuple(a.number for a in atom.symbol.arguments) for atom in control.symbolic_atoms.by_signature("both_dead", 4)}
    expected = {(x, y, dx, dy) for x, y in level.floor for dx, dy in ((1, 0), (0, 1))
                if (x + dx, y + dy) in dead and (x - dx, y - dy) in dead}
    assert found == expected and len(expected) > 4
