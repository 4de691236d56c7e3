"""A Level as the ASP facts the encodings read: the thesis's init/1 facts plus static facts.

Static facts (computed in Python by ``analysis``) are read only by the strategies:
``dead(X,Y)`` dead squares, ``segment(S,X,Y)`` / ``segment_goals(S,K)`` wall segments,
``dist(X,Y,D)`` the fewest pushes from a live square to its nearest goal, ``slides(X,Y,D)``
the same in straight slides (the macro family's steps), ``pack_layer(X,Y,L)`` the goal
area's packing layers.
The text is generated from a validated Level, never copied from a user's file.
"""

from __future__ import annotations

from sokoasp.board.facts import write_facts
from sokoasp.board.level import Level
from sokoasp.sokoban.analysis import dead_squares, nearest_goal_distances, nearest_goal_slides, packing_layers, wall_segments


def init_facts(level: Level) -> str:
    """The init/1 facts and #const dimX/dimY (no horizon: the horizon loop sets it)."""
    return write_facts(level.with_title(""))


def static_facts(level: Level) -> str:
    lines = [f"dead({x},{y})." for x, y in sorted(dead_squares(level))]
    for number, segment in enumerate(wall_segments(level), start=1):
        lines += [f"segment({number},{x},{y})." for x, y in sorted(segment)]
        lines.append(f"segment_goals({number},{len(segment & level.goals)}).")
    lines += [f"dist({x},{y},{d})." for (x, y), d in sorted(nearest_goal_distances(level).items())]
    lines += [f"slides({x},{y},{d})." for (x, y), d in sorted(nearest_goal_slides(level).items())]
    lines += [f"pack_layer({x},{y},{layer})." for (x, y), layer in sorted(packing_layers(level).items())]
    return "\n".join(lines) + "\n"


def program_facts(level: Level) -> str:
    return init_facts(level) + static_facts(level)
