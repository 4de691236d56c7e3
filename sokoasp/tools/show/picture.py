"""Pictures (PNG/SVG) and animations (GIF; MP4 where ffmpeg exists) with matplotlib."""

from __future__ import annotations

import shutil
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import animation, patches  # noqa: E402

from sokoasp.board.level import Level  # noqa: E402
from sokoasp.sokoban.analysis import dead_squares  # noqa: E402
from sokoasp.tools.show.frames import Frame, Playback  # noqa: E402

COLOURS = {"wall": "#5b4636", "floor": "#f3ead7", "dead": "#e3c9c9", "goal": "#3c9d5d", "box": "#c8893a",
           "box_on_goal": "#2f7d4a", "player": "#2b59c3", "bad": "#d62728"}


def draw(axes: plt.Axes, level: Level, frame: Frame, shade_dead: bool, caption: str, highlight: bool = False) -> None:
    axes.clear()
    axes.set_aspect("equal")
    axes.axis("off")
    dead = dead_squares(level) if shade_dead else frozenset()
    for x, y in level.walls:
        axes.add_patch(patches.Rectangle((x, -y), 1, 1, color=COLOURS["wall"]))
    for cell in level.floor:
        x, y = cell
        axes.add_patch(patches.Rectangle((x, -y), 1, 1, color=COLOURS["dead" if cell in dead else "floor"]))
        if cell in level.goals:
            axes.add_patch(patches.Circle((x + 0.5, -y + 0.5), 0.18, color=COLOURS["goal"]))
    for x, y in frame.boxes:
        colour = COLOURS["box_on_goal" if (x, y) in level.goals else "box"]
        axes.add_patch(patches.FancyBboxPatch((x + 0.12, -y + 0.12), 0.76, 0.76, boxstyle="round,pad=0.02",
                                              color=colour))
    px, py = frame.player
    axes.add_patch(patches.Circle((px + 0.5, -py + 0.5), 0.32, color=COLOURS["bad" if highlight else "player"]))
    axes.set_xlim(min(x for x, _ in level.walls), max(x for x, _ in level.walls) + 1)
    axes.set_ylim(-max(y for _, y in level.walls), -min(y for _, y in level.walls) + 1)
    axes.set_title(caption, fontsize=9, color=COLOURS["bad"] if highlight else "black")


def figure_for(level: Level) -> tuple[plt.Figure, plt.Axes]:
    walls = level.walls
    width = max(x for x, _ in walls) - min(x for x, _ in walls) + 1
    height = max(y for _, y in walls) - min(y for _, y in walls) + 1
    scale = min(0.5, 8 / max(width, height))
    return plt.subplots(figsize=(max(3.0, width * scale), max(2.5, height * scale + 0.4)))


def picture(playback: Playback, path: Path, shade_dead: bool = False) -> Path:
    """The level (or the end of a plan) as PNG or SVG, chosen by the suffix."""
    figure, axes = figure_for(playback.level)
    last = playback.frames[-1]
    draw(axes, playback.level, last, shade_dead, caption(playback, last), bool(playback.problem))
    figure.savefig(path, dpi=100, bbox_inches="tight")
    plt.close(figure)
    return path


def caption(playback: Playback, frame: Frame) -> str:
    text = playback.level.title or "level"
    if playback.plan:
        text += f"  move {frame.step}/{len(playback.plan)}  push {frame.pushes}"
    if playback.problem and frame is playback.frames[-1]:
        text += f"\nillegal {playback.problem}"
    return text


def animate(playback: Playback, path: Path, shade_dead: bool = False, fps: int = 6) -> Path:
    """One frame per state of the playback; GIF (Pillow) or MP4 (needs ffmpeg)."""
    if path.suffix.lower() == ".mp4" and not shutil.which("ffmpeg"):
        from sokoasp.errors import InputError

        raise InputError("MP4 needs ffmpeg on the PATH; write a .gif instead")
    figure, axes = figure_for(playback.level)
    frames = playback.frames

    def update(index: int) -> None:
        frame = frames[index]
        bad = bool(playback.problem) and index == len(frames) - 1
        draw(axes, playback.level, frame, shade_dead, caption(playback, frame), bad)

    movie = animation.FuncAnimation(figure, update, frames=len(frames), interval=1000 // fps)
    writer = animation.PillowWriter(fps=fps) if path.suffix.lower() == ".gif" else animation.FFMpegWriter(fps=fps)
    movie.save(path, writer=writer, dpi=80)
    plt.close(figure)
    return path
