"""Example images for a grid report: solved plans drawn with the show renderer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sokoasp.board.level import Level
from sokoasp.board.loading import load_level
from sokoasp.errors import SokoaspError
from sokoasp.tools.show.frames import play
from sokoasp.tools.show.picture import animate, picture


def level_of_row(row: dict[str, Any]) -> Level:
    """The level a row ran on, from its instance name (``file`` or ``file#number``)."""
    name = row["instance"]
    path, _, number = name.rpartition("#") if "#" in name else (name, "", "")
    return load_level(Path(path), number or None).level


def example_images(rows: list[dict[str, Any]], out: Path, count: int) -> list[Path]:
    """For the ``count`` hardest solved instances (longest plans), the end state (PNG) and the
    plan (GIF, one frame per push) of the configuration that solved them fastest."""
    best: dict[str, dict[str, Any]] = {}
    for row in rows:
        if row["solved"] and row.get("plan"):
            known = best.get(row["instance_hash"])
            if known is None or row["total_time"] < known["total_time"]:
                best[row["instance_hash"]] = row
    chosen = sorted(best.values(), key=lambda r: (-(r["pushes"] or 0), r["instance"]))[:count]
    written: list[Path] = []
    for number, row in enumerate(chosen, start=1):
        try:
            level = level_of_row(row)
        except SokoaspError:
            continue  # the level file moved since the grid ran: skip its picture
        playback = play(level, row["plan"], every="push")
        stem = out / f"example-{number}"
        written.append(picture(playback, stem.with_suffix(".png")))
        written.append(animate(playback, stem.with_suffix(".gif")))
    return written
