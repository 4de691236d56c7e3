"""An independent Sokoban simulator that replays LURD plans.

Every plan any solver path reports goes through ``replay`` before it is called solved.
This module knows nothing about encodings or clingo on purpose.
"""

from __future__ import annotations

from dataclasses import dataclass

from sokoasp.board.level import DIRECTIONS, Cell, Level, add


@dataclass(frozen=True)
class Replay:
    """The outcome of replaying a plan: how far it got and what the board looks like."""

    ok: bool  # every move legal and every box on a goal at the end
    steps_done: int
    player: Cell
    boxes: frozenset[Cell]
    problem: str = ""

    @property
    def moves(self) -> int:
        return self.steps_done


def count_pushes(plan: str) -> int:
    return sum(1 for c in plan if c.isupper())


def replay(level: Level, plan: str) -> Replay:
    player, boxes = level.player, set(level.boxes)
    for index, letter in enumerate(plan):
        problem = check_step(level, player, boxes, letter)
        if problem:
            return Replay(False, index, player, frozenset(boxes), f"step {index + 1} ({letter!r}): {problem}")
        player, _ = apply_step(player, boxes, letter)
    final = frozenset(boxes)
    if final != level.goals:
        off = len(final - level.goals)
        return Replay(False, len(plan), player, final, f"plan ends with {off} box(es) off goals")
    return Replay(True, len(plan), player, final)


def apply_step(player: Cell, boxes: set[Cell], letter: str) -> tuple[Cell, bool]:
    """Make a legal step (``check_step`` found nothing): moves a pushed box in ``boxes``;
    returns the player's new cell and whether a box was pushed."""
    delta = DIRECTIONS[letter.lower()]
    player = add(player, delta)
    pushed = player in boxes
    if pushed:
        boxes.remove(player)
        boxes.add(add(player, delta))
    return player, pushed


def check_step(level: Level, player: Cell, boxes: set[Cell], letter: str) -> str:
    """Why this step is illegal, or '' if it is legal."""
    if letter.lower() not in DIRECTIONS:
        return "not one of l, u, r, d (walk) or L, U, R, D (push)"
    delta = DIRECTIONS[letter.lower()]
    target = add(player, delta)
    if target not in level.floor:
        return f"walks into a wall at {target}"
    pushing = target in boxes
    if pushing != letter.isupper():
        return "a push must be written in upper case, a walk in lower case"
    if pushing:
        beyond = add(target, delta)
        if beyond not in level.floor:
            return f"pushes the box at {target} into a wall"
        if beyond in boxes:
            return f"pushes the box at {target} into another box"
    return ""
