"""Terminal rendering: XSB characters, optionally coloured, one board per frame."""

from __future__ import annotations

from ..level import Level
from ..xsb import cell_char
from .frames import Frame, Playback


def board_text(level: Level, frame: Frame) -> str:
    state = Level(level.floor, frame.boxes, level.goals, frame.player) if frame.boxes != level.boxes or \
        frame.player != level.player else level
    walls = level.walls
    rows = []
    for y in range(min(y for _, y in walls), max(y for _, y in walls) + 1):
        row = "".join(cell_char(state, (x, y), walls) for x in range(0, max(x for x, _ in walls) + 1))
        rows.append(row.rstrip())
    return "\n".join(rows)


def ascii_playback(playback: Playback, every_frame: bool = False) -> str:
    frames = playback.frames if every_frame else [playback.frames[0], playback.frames[-1]][: 2 if playback.plan else 1]
    parts = []
    for frame in frames:
        label = f"move {frame.step}/{len(playback.plan)}, push {frame.pushes}" if playback.plan else "start"
        parts.append(f"-- {label}\n{board_text(playback.level, frame)}")
    if playback.problem:
        parts.append(f"!! illegal {playback.problem}")
    elif playback.plan:
        parts.append("-- solved" if playback.solved else "-- the plan ends with boxes off goals")
    return "\n".join(parts)
