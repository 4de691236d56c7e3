"""Exact reference answers for tiny levels, independent of sokoasp's solver code.

``bfs_moves`` is a breadth-first search over (player, boxes) states: the fewest player
moves. ``bfs_pushes`` searches over (boxes, player region) states: the fewest pushes;
``bfs_slides`` the fewest slides (one box pushed one or more squares in a straight line).
Both take plain XSB text so they share nothing with the package but the file format.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

STEPS = {"l": (-1, 0), "u": (0, -1), "r": (1, 0), "d": (0, 1)}


def parse(text: str) -> tuple[set, frozenset, frozenset, tuple]:
    floor, boxes, goals, player = set(), set(), set(), None
    for y, row in enumerate(text.strip("\n").splitlines()):
        for x, ch in enumerate(row):
            if ch != "#":
                floor.add((x, y))
            if ch in "$*":
                boxes.add((x, y))
            if ch in ".*+":
                goals.add((x, y))
            if ch in "@+":
                player = (x, y)
    # only what the player can reach by walking and pushing matters; outside spaces are not floor
    inside, todo = {player}, [player]
    while todo:
        cx, cy = todo.pop()
        for dx, dy in STEPS.values():
            n = (cx + dx, cy + dy)
            if n in floor and n not in inside:
                inside.add(n)
                todo.append(n)
    return inside, frozenset(boxes), frozenset(goals), player


def bfs_moves(text: str, limit: int = 200_000) -> int | None:
    """Fewest moves, or None if unsolvable (raises if the state space exceeds ``limit``)."""
    floor, boxes, goals, player = parse(text)
    start = (player, boxes)
    seen = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        pos, bx = state
        if bx == goals:
            return seen[state]
        for dx, dy in STEPS.values():
            nxt = (pos[0] + dx, pos[1] + dy)
            if nxt not in floor:
                continue
            nb = bx
            if nxt in bx:
                beyond = (nxt[0] + dx, nxt[1] + dy)
                if beyond not in floor or beyond in bx:
                    continue
                nb = (bx - {nxt}) | {beyond}
            new = (nxt, nb)
            if new not in seen:
                seen[new] = seen[state] + 1
                if len(seen) > limit:
                    raise RuntimeError("state space too large for the oracle")
                queue.append(new)
    return None


def region(floor: set, boxes: frozenset, player: tuple) -> frozenset:
    inside, todo = {player}, [player]
    while todo:
        cx, cy = todo.pop()
        for dx, dy in STEPS.values():
            n = (cx + dx, cy + dy)
            if n in floor and n not in boxes and n not in inside:
                inside.add(n)
                todo.append(n)
    return frozenset(inside)


def bfs_pushes(text: str, limit: int = 200_000, slides: bool = False, placed: int | None = None,
               accept: Callable[[frozenset, frozenset], bool] = lambda boxes, reach: True) -> int | None:
    """Fewest pushes (with ``slides``: fewest straight slides), or None if unsolvable. With
    ``placed``: the fewest that leave at least that many boxes on goals, in a state (box
    placement, player's region) that ``accept`` takes."""
    floor, boxes, goals, player = parse(text)
    start_region = region(floor, boxes, player)
    start = (boxes, min(start_region))
    seen = {start: 0}
    queue = deque([(boxes, start_region)])
    while queue:
        bx, reach = queue.popleft()
        depth = seen[(bx, min(reach))]
        if (bx == goals) if placed is None else len(bx & goals) >= placed and accept(bx, reach):
            return depth
        for box in bx:
            for dx, dy in STEPS.values():
                if (box[0] - dx, box[1] - dy) not in reach:
                    continue
                at = box
                while (at[0] + dx, at[1] + dy) in floor and (at[0] + dx, at[1] + dy) not in bx:
                    behind, at = at, (at[0] + dx, at[1] + dy)
                    nb = (bx - {box}) | {at}
                    nreach = region(floor, nb, behind)
                    key = (nb, min(nreach))
                    if key not in seen:
                        seen[key] = depth + 1
                        if len(seen) > limit:
                            raise RuntimeError("state space too large for the oracle")
                        queue.append((nb, nreach))
                    if not slides:
                        break
    return None


def bfs_slides(text: str, limit: int = 200_000, placed: int | None = None) -> int | None:
    return bfs_pushes(text, limit, slides=True, placed=placed)


def push_closure(floor: set, boxes: frozenset, player: tuple, limit: int = 20_000, pulls: bool = False,
                 edges: dict | None = None) -> dict:
    """Every box placement reachable by pushing (``pulls``: by pulling), with one square of the
    player's region in it (one entry per placement and region), keyed by (placement, least square
    of the region); ``edges``, if given, receives each key's set of keys one move on."""
    start_region = region(floor, boxes, player)
    found = {(boxes, min(start_region)): player}
    queue = deque([(boxes, start_region)])
    while queue:
        bx, reach = queue.popleft()
        for box in bx:
            for dx, dy in STEPS.values():
                to = (box[0] + dx, box[1] + dy)
                # a push: the player behind the box steps onto its square; a pull: the player
                # ahead of the box steps on, the box following onto the player's square
                if pulls:
                    stand, after = to, (to[0] + dx, to[1] + dy)
                    room = after in floor and after not in bx
                else:
                    stand, after, room = (box[0] - dx, box[1] - dy), box, True
                if room and stand in reach and to in floor and to not in bx:
                    nb = (bx - {box}) | {to}
                    nreach = region(floor, nb, after)
                    if edges is not None:
                        edges.setdefault((bx, min(reach)), set()).add((nb, min(nreach)))
                    if (nb, min(nreach)) not in found:
                        found[(nb, min(nreach))] = after
                        if len(found) > limit:
                            raise RuntimeError("state space too large for the oracle")
                        queue.append((nb, nreach))
    return found


def solvable_keys(floor: set, boxes: frozenset, goals: frozenset, player: tuple, limit: int = 20_000,
                  pulls: bool = False) -> set:
    """The keys of ``push_closure`` (placement, least square of the player's region) from which
    some pushes (``pulls``: pulls) put a box on every goal."""
    edges: dict = {}
    found = push_closure(floor, boxes, player, limit, pulls, edges)
    before: dict = {}
    for key, after in edges.items():
        for other in after:
            before.setdefault(other, set()).add(key)
    solved = {key for key in found if key[0] == goals}
    queue = deque(solved)
    while queue:
        for key in before.get(queue.popleft(), ()):
            if key not in solved:
                solved.add(key)
                queue.append(key)
    return solved


def fills_around(floor: set, boxes: frozenset, goals: frozenset, player: tuple, limit: int = 20_000,
                 pulls: bool = False) -> bool:
    """Whether pushes (``pulls``: pulls) that never move a box standing on a goal can put a box
    on every goal."""
    fixed = boxes & goals
    placements = push_closure(floor - fixed, boxes - fixed, player, limit, pulls)
    return any(bx == goals - fixed for bx, _ in placements)


def bfs_box_moves(text: str, limit: int = 200_000, placed: int | None = None) -> int | None:
    """Fewest box moves, or None if unsolvable: a box move takes one box along any sequence of
    its own pushes, the player walking round it and the other boxes staying put. With
    ``placed``: the fewest that leave at least that many boxes on goals."""
    floor, boxes, goals, player = parse(text)
    return fewest_box_moves(floor, boxes, goals, [player], placed, limit)


def fewest_box_moves(floor: set, boxes: frozenset, goals: frozenset, players: list, placed: int | None,
                     limit: int = 200_000, pulls: bool = False) -> int | None:
    """``bfs_box_moves`` from the player on any of ``players``; ``pulls``: boxes are pulled."""
    seen: dict = {}
    queue: deque = deque()
    for player in players:
        key = (boxes, min(region(floor, boxes, player)))
        if key not in seen:
            seen[key] = 0
            queue.append((boxes, player))
    while queue:
        bx, me = queue.popleft()
        depth = seen[(bx, min(region(floor, bx, me)))]
        if (bx == goals) if placed is None else len(bx & goals) >= placed:
            return depth
        for box in bx:
            for to, stand in one_box_routes(floor, bx - {box}, box, me, pulls):
                nb = (bx - {box}) | {to}
                key = (nb, min(region(floor, nb, stand)))
                if key not in seen:
                    seen[key] = depth + 1
                    if len(seen) > limit:
                        raise RuntimeError("state space too large for the oracle")
                    queue.append((nb, stand))
    return None


def one_box_routes(floor: set, others: frozenset, box: tuple, player: tuple, pulls: bool = False) -> set:
    """Every (box square, player square) reachable by walking and pushing (``pulls``: pulling)
    this box alone."""
    found, todo = {(box, player)}, [(box, player)]
    while todo:
        at, me = todo.pop()
        for dx, dy in STEPS.values():
            step = (me[0] + dx, me[1] + dy)
            if step not in floor or step in others:
                continue
            moves = []
            if step != at:
                moves.append((at, step))  # a walk
                if pulls and (me[0] - dx, me[1] - dy) == at:
                    moves.append((me, step))  # a pull: the box follows onto the player's square
            elif not pulls:
                moves.append(((at[0] + dx, at[1] + dy), at))  # a push
                if moves[0][0] not in floor or moves[0][0] in others:
                    continue
            for nxt in moves:
                if nxt not in found:
                    found.add(nxt)
                    todo.append(nxt)
    return found
