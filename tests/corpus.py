"""Tiny levels with exact answers: hand-made ones and seeded random ones (XSB text)."""

from __future__ import annotations

import random

from oracle import bfs_moves, bfs_pushes

HAND_MADE = {
    "one-push": "#####\n#@$.#\n#####\n",
    "solved-already": "#####\n#@* #\n#####\n",
    "turn-corner": "######\n#@   #\n# $  #\n#  . #\n######\n",
    "two-boxes": "######\n#    #\n#@$$ #\n#  ..#\n######\n",
    "corridor": "#######\n#@ $ .#\n## ####\n#######\n",
    "walk-around": "#####\n#.  #\n#$  #\n#  @#\n#####\n",
    "both-ways": "#######\n#.$ $.#\n#  @  #\n#######\n",
    # listing 4.6's forbidden fields mark this 1-high corridor, though the box can pass it
    "ff-trap": "#######\n#@ $ .#\n#######\n",
}

UNSOLVABLE = {
    "box-in-corner": "#####\n#$ .#\n# @ #\n#####\n",
    "blocked-pair": "######\n#@$$.#\n#   .#\n######\n",
}


def random_level(rng: random.Random, width: int, height: int, boxes: int) -> str | None:
    """A random closed board with some inner walls; None if it is not a valid level."""
    cells = [(x, y) for y in range(1, height + 1) for x in range(1, width + 1)]
    walls = {c for c in cells if rng.random() < 0.15}
    free = [c for c in cells if c not in walls]
    if len(free) < 2 * boxes + 1:
        return None
    picks = rng.sample(free, 2 * boxes + 1)
    player, box_cells, goal_cells = picks[0], set(picks[1 : boxes + 1]), set(picks[boxes + 1 :])
    rows = []
    for y in range(0, height + 2):
        row = ""
        for x in range(0, width + 2):
            c = (x, y)
            if x in (0, width + 1) or y in (0, height + 1) or c in walls:
                row += "#"
            elif c == player:
                row += "@"
            elif c in box_cells:
                row += "$"
            elif c in goal_cells:
                row += "."
            else:
                row += " "
        rows.append(row)
    return "\n".join(rows) + "\n"


def random_corpus(count: int, seed: int = 2018, max_moves: int = 14) -> dict[str, str]:
    """``count`` solvable random levels whose optimum is 1..max_moves moves."""
    rng = random.Random(seed)
    levels: dict[str, str] = {}
    while len(levels) < count:
        width, height, boxes = rng.choice([(3, 3, 1), (4, 3, 1), (4, 4, 1), (4, 3, 2), (4, 4, 2)])
        text = random_level(rng, width, height, boxes)
        if text is None:
            continue
        optimum = bfs_moves(text)
        if optimum is not None and 1 <= optimum <= max_moves:
            levels[f"random-{len(levels)}"] = text
    return levels


def multi_box_corpus(count: int, seed: int) -> dict[str, str]:
    """Solvable random levels with 2-3 boxes and inner walls (corrals are common), push optimum 2..12."""
    rng = random.Random(seed)
    levels: dict[str, str] = {}
    while len(levels) < count:
        width, height, boxes = rng.choice([(5, 4, 2), (5, 5, 2), (6, 4, 3), (5, 5, 3)])
        text = random_level(rng, width, height, boxes)
        if text is None:
            continue
        try:
            optimum = bfs_pushes(text, limit=20_000)
        except RuntimeError:
            continue
        if optimum is not None and 2 <= optimum <= 12:
            levels[f"multi-box-{len(levels)}"] = text
    return levels
