"""The geometry of filling a goal room box by box (room stages, ``sokoasp.phases.staged.
room_stages``), free of clingo: which squares inside the entrances still lead to an empty goal,
which boxes outside can still come in, the deadlocks that doom a state, and pushes played on a
board. Each question is answered exactly for the relaxation it names (a lone box, the player
anywhere), so a "no" is sound."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache

from sokoasp.board.level import DIRECTIONS, Cell, Level, add
from sokoasp.sokoban.breadth_first import player_region
from sokoasp.sokoban.deadlocks import dead_fence, dead_freeze, dead_group
from sokoasp.sokoban.pushes import Push, fewest_pushes
from sokoasp.sokoban.rooms.entrances import EntranceRoom, inside_of


@dataclass(frozen=True)
class Doom:
    """A deadlock's squares: every state with boxes on ``boxes`` and none on ``empty`` is dead,
    with the player on the side of them it stands on when ``player`` is set (the test searched
    from there), wherever it stands when not."""

    boxes: frozenset[Cell]
    empty: frozenset[Cell] = frozenset()
    player: bool = False


def doom(state: Level) -> Doom | None:
    """A corral, group or freeze deadlock in ``state`` (sokoasp.sokoban.deadlocks), or None."""
    fence = dead_fence(state)
    if fence is not None:
        return Doom(fence, player=True)
    group = dead_group(state)
    if group is not None:
        return Doom(group[0], player=group[1] is not None)
    frozen = dead_freeze(state)
    return None if frozen is None else Doom(*frozen)


def outside_state(level: Level, room: EntranceRoom, boxes: frozenset[Cell], player: Cell) -> Level:
    """The boxes outside the room as a level of their own: the room's boxes are walls and the
    goals left empty are its goals (trap proofs of it tell whether they can all come in)."""
    inside = boxes & room.room
    return Level(level.floor - inside, boxes - inside, room.goals - inside, player)


def shut_out(room: EntranceRoom, boxes: frozenset[Cell]) -> Cell | None:
    """A box outside the room that can no longer come in through an entrance that still leads to
    an unfilled goal (``usable_insides``), or None. Pushed alone, the boxes in the room as walls
    and the player starting anywhere: other boxes and the goals filled later only
    block more, and room stages bring every box in."""
    inside = boxes & room.room
    usable = usable_insides(room, inside & room.goals)
    coming = can_come_to(room.floor, inside, usable)
    return next((box for box in sorted(boxes - room.room) if box not in coming), None)


@lru_cache(maxsize=4096)
def usable_insides(room: EntranceRoom, filled: frozenset[Cell]) -> frozenset[Cell]:
    """The squares inside the entrances from which a box pushed in can still reach an unfilled
    goal, with the goals ``filled`` as walls, through ways a box can still come to
    (``EntranceRoom.open``, as ``next_entries`` asks). Entries after these fills use no other:
    filling more goals only adds walls, and a way's approach only closes."""
    ways = [way for way in room.ways if room.open(way, filled)]
    return frozenset(inside_of(way) for way in ways
                     if any(fewest_pushes(room.room | set(way), filled, way[0], way[1], goal, None) for goal in room.goals - filled))


@lru_cache(maxsize=4096)
def can_come_to(floor: frozenset[Cell], walls: frozenset[Cell], targets: frozenset[Cell]) -> frozenset[Cell]:
    """The squares from which a lone box can be pushed onto one of ``targets``, ``walls`` as
    walls and the player starting anywhere: a search backwards, by walks and pulls, from each
    target with the player on every square (one search for every box)."""
    free = floor - walls
    starts = [(target, player) for target in targets for player in free if player != target]
    seen = set(starts)
    queue = deque(starts)
    while queue:
        box, player = queue.popleft()
        for delta in DIRECTIONS.values():
            step = add(player, delta)
            if step not in free:
                continue
            if step != box:
                earlier = (box, step)  # the player walked from step to player
            elif add(player, (-delta[0], -delta[1])) in free:
                earlier = (player, add(player, (-delta[0], -delta[1])))  # pushed from behind: box was on player
            else:
                continue
            if earlier not in seen:
                seen.add(earlier)
                queue.append(earlier)
    return frozenset(box for box, _ in seen)


def end_boxes(boxes: frozenset[Cell], pushes: list[Push]) -> frozenset[Cell]:
    moved = set(boxes)
    for push in pushes:
        moved.discard(push.box)
        moved.add(add(push.box, push.delta))
    return frozenset(moved)


def play_pushes(floor: frozenset[Cell], boxes: frozenset[Cell], player: Cell,
                pushes: list[Push]) -> tuple[frozenset[Cell], Cell] | None:
    """The boxes and the player after ``pushes``, the player walking to each; None when one
    cannot be made."""
    now = set(boxes)
    for push in pushes:
        stand, beyond = add(push.box, (-push.delta[0], -push.delta[1])), add(push.box, push.delta)
        if push.box not in now or beyond not in floor or beyond in now or stand not in player_region(floor, now, player):
            return None
        now.remove(push.box)
        now.add(beyond)
        player = push.box
    return frozenset(now), player
