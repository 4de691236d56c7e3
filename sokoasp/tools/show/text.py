"""Terminal rendering: XSB characters, optionally coloured, one board per frame."""

from __future__ import annotations

from sokoasp.board.level import Level
from sokoasp.board.xsb import board_lines
from sokoasp.tools.show.frames import Frame, Playback


def board_text(level: Level, frame: Frame) -> str:
    """The board in one frame of a playback, without the empty rows above an offset floor."""
    lines = board_lines(Level(level.floor, frame.boxes, level.goals, frame.player))
    while lines and not lines[0]:
        lines.pop(0)
    return "\n".join(lines)


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
