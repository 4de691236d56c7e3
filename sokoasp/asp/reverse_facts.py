"""The level turned round for the reverse route family (encodings/pull-route.lp).

Backwards, the boxes start on the goals and are pulled to their start squares (the targets),
and the player may start anywhere, since a forward plan may end with the player anywhere; the
backward plan must end with the player able to walk to its start square (``player_home/2``).
``dead/2`` are the squares a pulled box can never leave for a start square: those a lone box
cannot be pushed to from any start square, and the forward dead squares (no pull from a goal
reaches them anyway). Python plays the backward steps in reverse order as push routes
(``pushes.reverse_route_pushes``).
"""

from __future__ import annotations

from sokoasp.board.facts import field_pools
from sokoasp.board.level import Cell, Level
from sokoasp.sokoban.analysis import dead_squares, lone_box_distances


def pushed_distances(level: Level) -> dict[Cell, int]:
    """The squares a lone box can be pushed to from one of the start squares of the boxes, with
    the fewest pushes from the nearest: backwards, the fewest pulls back to a start square."""
    return lone_box_distances(level.floor, level.boxes, pulls=True)


def reverse_dead_squares(level: Level, distances: dict[Cell, int]) -> frozenset[Cell]:
    """The squares a pulled box may not stand on: off ``pushed_distances``, or dead forwards."""
    return level.floor - (frozenset(distances) - dead_squares(level))


def turned_round(level: Level) -> Level:
    """The level turned round as a state (the start of a backward staged search): the boxes on
    the goals, the start squares as goals. Its player square is a stand-in: the first backward
    stage lets the player start on any free square (``stage_ends.StageGoal.player_anywhere``), as a
    forward plan may end anywhere."""
    player = level.player if level.player not in level.goals else min(level.floor - level.goals)
    return Level(level.floor, level.goals, level.boxes, player, level.title)


def reverse_facts(level: Level) -> str:
    """The facts pull-route.lp reads: the floor, boxes on the goals, targets on the start
    squares, the player's start square, the backward dead squares, and ``dist/3``, the fewest
    pulls from each live square back to a start square (read by the guide strategy)."""
    lines = [f"init(field({pools}))." for pools in field_pools(level.floor)]
    lines += [f"init(at({n},{x},{y}))." for n, (x, y) in enumerate(sorted(level.goals), start=1)]
    lines += [f"init(target({x},{y}))." for x, y in sorted(level.boxes)]
    lines.append(f"player_home({level.player[0]},{level.player[1]}).")
    distances = pushed_distances(level)
    dead = reverse_dead_squares(level, distances)
    lines += [f"dead({x},{y})." for x, y in sorted(dead)]
    lines += [f"dist({x},{y},{d})." for (x, y), d in sorted(distances.items()) if (x, y) not in dead]
    return "\n".join(lines) + "\n"
