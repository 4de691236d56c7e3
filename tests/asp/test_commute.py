"""Commuting pushes (the `commute` strategy): the push plans it keeps are exactly those with no
two pushes in a row that commute and stand in the wrong order (counted against an enumeration
written in Python), and beside the state-based strategies the prover uses it keeps every push
optimum (breadth-first answers on random levels with several boxes). The same for push-macro's
slides: the plans kept, and the fewest slides beside the stages' strategies."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

from corpus import multi_box_corpus
from helpers import assert_replays, count_plans, level_of
from oracle import STEPS, bfs_pushes, bfs_slides, parse, region

from sokoasp import SolveConfig, Status, solve

CORPUS = multi_box_corpus(24, seed=11)

Cell = tuple[int, int]
Push = tuple[Cell, Cell]  # the box's square, the direction
Slide = tuple[Cell, Cell, int]  # the box's square, the direction, how many squares
State = tuple[frozenset, frozenset]  # boxes, the player's region


def apply(floor: set, state: State, push: Push) -> State | None:
    """The state after ``push``, or None if it is not legal in ``state``."""
    boxes, reach = state
    (x, y), (dx, dy) = push
    target = (x + dx, y + dy)
    if (x, y) not in boxes or (x - dx, y - dy) not in reach or target not in floor or target in boxes:
        return None
    moved = (boxes - {(x, y)}) | {target}
    return moved, region(floor, moved, (x, y))


def legal_pushes(floor: set, state: State) -> Iterator[tuple[Push, State]]:
    for box in sorted(state[0]):
        for delta in STEPS.values():
            after = apply(floor, state, (box, delta))
            if after is not None:
                yield (box, delta), after


def plans(floor: set, start: State, goals: frozenset, pushes: int) -> Iterator[list[tuple[Push, State]]]:
    """Every sequence of exactly ``pushes`` legal pushes that ends with every box on a goal,
    each push with the state before it."""
    def extend(state: State, done: list[tuple[Push, State]]) -> Iterator[list[tuple[Push, State]]]:
        if len(state[0] - goals) > pushes - len(done):  # each box off a goal needs a push
            return
        if len(done) == pushes:
            if state[0] == goals:
                yield done
            return
        for push, after in legal_pushes(floor, state):
            yield from extend(after, [*done, (push, state)])
    yield from extend(start, [])


def out_of_order(move: Callable, floor: set, before: State, first: Any, second: Any) -> bool:
    """``second`` moves a box on a square before ``first``'s, and the two made the other way
    round are legal and end in the same state (boxes and player's region); ``move`` is ``apply``
    (pushes) or ``slide`` (slides)."""
    if not second[0] < first[0]:
        return False
    both = move(floor, before, first)
    swapped = move(floor, before, second)
    swapped = move(floor, swapped, first) if swapped is not None else None
    assert both is not None
    return swapped is not None and swapped == move(floor, both, second)


def canonical(move: Callable, floor: set, plan: list[tuple[Any, State]]) -> bool:
    return not any(out_of_order(move, floor, before, first, second)
                   for (first, before), (second, _) in itertools.pairwise(plan))


def assert_commute_keeps_the_canonical_plans(encoding: str, move: Callable, enumerate_plans: Callable,
                                             horizons: Callable[[int], tuple[int, ...]], fewest: Callable,
                                             most: int) -> None:
    """On every corpus level whose optimum (``fewest``) is at most ``most``: at each of its
    ``horizons``, the encoding has as many plans as the enumeration, and with commute as many as
    the enumeration's canonical ones; commute cuts somewhere."""
    cut_somewhere = False
    checked = 0
    for name, text in CORPUS.items():
        optimum = fewest(text)
        assert optimum is not None
        if optimum > most:
            continue
        floor, boxes, goals, player = parse(text)
        start = (boxes, region(floor, boxes, player))
        for horizon in horizons(optimum):
            every = list(enumerate_plans(floor, start, goals, horizon))
            kept = sum(canonical(move, floor, plan) for plan in every)
            assert count_plans(text, encoding, (), horizon) == len(every), (name, horizon)
            assert count_plans(text, encoding, ("commute",), horizon) == kept, (name, horizon)
            cut_somewhere |= kept < len(every)
            checked += 1
    assert checked >= 10 and cut_somewhere


def test_commute_keeps_exactly_the_plans_without_a_commuting_pair_out_of_order() -> None:
    assert_commute_keeps_the_canonical_plans(  # optimum and two more: keeps the enumeration short
        "push", apply, plans, lambda optimum: (optimum, optimum + 2) if optimum < 6 else (optimum,), bfs_pushes, 6)


def test_commute_with_the_provers_strategies_keeps_every_push_optimum() -> None:
    for name, text in CORPUS.items():
        level = level_of(text)
        config = SolveConfig(encoding="push", strategies=("dead", "freeze", "bound", "commute"), max_horizon=20)
        result = solve(level, config)
        assert result.status is Status.SOLVED_OPTIMAL, (name, result.message)
        assert result.pushes == bfs_pushes(text), name
        assert_replays(level, result.plan)


def slide(floor: set, state: State, move: Slide) -> State | None:
    """The state after the slide ``move`` (the player follows the box), or None if it is not
    legal in ``state``."""
    boxes, reach = state
    (x, y), (dx, dy), squares = move
    way = [(x + k * dx, y + k * dy) for k in range(1, squares + 1)]
    if (x, y) not in boxes or (x - dx, y - dy) not in reach or any(c not in floor or c in boxes for c in way):
        return None
    moved = (boxes - {(x, y)}) | {way[-1]}
    return moved, region(floor, moved, (x + (squares - 1) * dx, y + (squares - 1) * dy))


def legal_slides(floor: set, state: State) -> Iterator[tuple[Slide, State]]:
    for box in sorted(state[0]):
        for delta in STEPS.values():
            squares = 1
            while (after := slide(floor, state, (box, delta, squares))) is not None:
                yield (box, delta, squares), after
                squares += 1


def slide_plans(floor: set, start: State, goals: frozenset, most: int) -> Iterator[list[tuple[Slide, State]]]:
    """Every sequence of at most ``most`` legal slides that ends with every box on a goal (a
    horizon of push-macro: idle steps at the end), each slide with the state before it."""
    def extend(state: State, done: list[tuple[Slide, State]]) -> Iterator[list[tuple[Slide, State]]]:
        if state[0] == goals:
            yield done
        if len(done) < most and len(state[0] - goals) <= most - len(done):
            for move, after in legal_slides(floor, state):
                yield from extend(after, [*done, (move, state)])
    yield from extend(start, [])


def test_commute_keeps_exactly_the_slide_plans_without_a_commuting_pair_out_of_order() -> None:
    assert_commute_keeps_the_canonical_plans(
        "push-macro", slide, slide_plans, lambda fewest: (fewest, fewest + 1), bfs_slides, 4)


def test_commute_with_the_stages_strategies_keeps_the_fewest_slides() -> None:
    strategies = ("dead", "freeze", "straight", "commute")
    for name, text in CORPUS.items():
        fewest = bfs_slides(text)
        assert fewest is not None
        assert count_plans(text, "push-macro", strategies, fewest) > 0, name
        assert fewest == 0 or count_plans(text, "push-macro", strategies, fewest - 1) == 0, name
