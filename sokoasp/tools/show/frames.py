"""The states a plan passes through, for every renderer: replayed step by step by the
simulator's rules, stopping at the first illegal step (which is reported, not hidden)."""

from __future__ import annotations

from dataclasses import dataclass

from sokoasp.board.level import Cell, Level
from sokoasp.board.simulator import apply_step, check_step


@dataclass(frozen=True)
class Frame:
    step: int  # moves done so far
    pushes: int
    player: Cell
    boxes: frozenset[Cell]
    letter: str = ""  # the move that led here


@dataclass(frozen=True)
class Playback:
    level: Level
    plan: str
    frames: list[Frame]
    problem: str = ""  # why the plan stopped early, '' if every step was legal
    solved: bool = False


def play(level: Level, plan: str, every: str = "move") -> Playback:
    """Frames after each move (``every="move"``) or each push (``"push"``), plus the start."""
    player, boxes = level.player, set(level.boxes)
    frames = [Frame(0, 0, player, frozenset(boxes))]
    pushes = 0
    for index, letter in enumerate(plan, start=1):
        problem = check_step(level, player, boxes, letter)
        if problem:
            frames.append(Frame(index - 1, pushes, player, frozenset(boxes)))
            return Playback(level, plan, dedupe(frames), f"step {index} ({letter!r}): {problem}")
        player, pushed = apply_step(player, boxes, letter)
        pushes += pushed
        if every == "move" or letter.isupper() or index == len(plan):
            frames.append(Frame(index, pushes, player, frozenset(boxes), letter))
    return Playback(level, plan, frames, "", frozenset(boxes) == level.goals)


def dedupe(frames: list[Frame]) -> list[Frame]:
    out: list[Frame] = []
    for frame in frames:
        if not out or out[-1] != frame:
            out.append(frame)
    return out
