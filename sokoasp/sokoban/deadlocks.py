"""Deadlocks of a few boxes, proven by searching those boxes alone with every other box taken away
(sound: the pushes of those boxes in any plan from the state are a plan of the smaller problem).

- ``dead_fence``: corral deadlocks (the Sokoban wiki's name): boxes that fence off floor the
  player cannot reach and cannot all be brought onto goals; when the fence alone leaves the
  pocket open, the boxes touching it join, ring by ring, up to ``CORRAL_BOXES``.
- ``dead_group``: group deadlocks (Rolling Stone's pattern search): any two boxes, and three
  near each other, at least one off the goals, that cannot all reach goals.
- ``dead_freeze`` (pushes only): boxes that can never move again (the freeze strategy's test)
  are walls for good; a state is dead when one stands off a goal, or when some goals have fewer
  boxes that could reach them round those walls than there are goals.

Each search first places the boxes one at a time, the others as walls (``placed_one_by_one``:
such a plan is a plan of the group), and searches them together only when that fails; it gives
up (the state passes) at its state limit. Searches are cached by boxes, player side and pocket,
and the group searches of a floor stop at states an earlier one found live (``LiveStates``).
With ``pulls`` the same holds for the reverse search."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations

from sokoasp.board.level import DIRECTIONS, Cell, Level, add
from sokoasp.sokoban import kernel
from sokoasp.sokoban.analysis import goal_layers, lone_box_distances
from sokoasp.sokoban.bitboard import board_of, floor_mask, least_cell
from sokoasp.sokoban.breadth_first import player_region
from sokoasp.sokoban.pairs import pair_is_dead, pair_never_dead
from sokoasp.sokoban.push_search import Moves, SearchLimits, Stop, Target, matching, push_search, stand_after

CORRAL_BOXES = 5  # fences of more boxes are not searched
CORRAL_STATES = 2_000  # the search of one fence gives up after this many states
GROUP_STATES = 300  # the search of one group of boxes gives up after this many states (dead groups need far fewer)
ONE_BY_ONE_SEARCHES = 3  # placed_one_by_one tries at most this many lone-box searches a group
ONE_BY_ONE_STATES = 100  # and gives each up after this many states
LIVE_KEPT = 100_000  # live group states remembered per floor (about 20 MB); beyond, groups are searched afresh
NEAR = 2  # three boxes form a group when two of their pairs stand this near (in rows and columns)
AROUND = tuple((dx, dy) for dx in range(-NEAR, NEAR + 1) for dy in range(-NEAR, NEAR + 1) if dx or dy)


def dead_fence(state: Level, pulls: bool = False) -> frozenset[Cell] | None:
    """The boxes of a corral deadlock in ``state`` (``pulls``: boxes are pulled), or None when
    the test finds none."""
    region = player_region(state.floor, state.boxes, state.player)
    for pocket in pockets(state.floor, state.boxes | region):
        for fence in fences(state.boxes, touching(state.boxes, pocket)):
            side = player_side(state.floor, fence, state.player)
            if fence_is_dead(state.floor, state.goals, fence, side, pocket, pulls):
                return fence
    return None


def player_side(floor: frozenset[Cell], boxes: frozenset[Cell], player: Cell) -> Cell:
    """The least square the player can walk to with only ``boxes`` on ``floor``: the player's
    side of them, all a search of those boxes alone depends on (states that differ elsewhere
    pose the same question)."""
    board = board_of(floor)
    region = board.flood(floor_mask(floor) & ~board.mask(boxes), board.bit(player))
    return board.cell(region & -region)


def touching(boxes: frozenset[Cell], cells: frozenset[Cell]) -> frozenset[Cell]:
    """The boxes next to one of ``cells`` (in a row or column), or on one."""
    return frozenset(box for box in boxes if box in cells or any(add(box, d) in cells for d in DIRECTIONS.values()))


def fences(boxes: frozenset[Cell], fence: frozenset[Cell]) -> Iterator[frozenset[Cell]]:
    """``fence``, then the fence with the boxes that touch it, ring by ring, while it has at most
    ``CORRAL_BOXES`` boxes. A box that only shields the fence from the player (it stands in the
    mouth of the tunnel that leads round to it) seals the pocket too, and any subset of the
    state's boxes is as sound a relaxation as the fence alone (taking boxes away only adds plans)."""
    while len(fence) <= CORRAL_BOXES:
        yield fence
        ring = touching(boxes, fence)
        if ring == fence:
            return
        fence = ring


def pockets(floor: frozenset[Cell], blocked: frozenset[Cell] | set[Cell]) -> list[frozenset[Cell]]:
    """The connected parts of ``floor`` less ``blocked``, each sorted into the list by its least
    cell (flooded as bits of ``board_of(floor)``)."""
    board = board_of(floor)
    parts = board.parts(floor_mask(floor) & ~board.mask(blocked))
    return sorted((frozenset(board.cells(part)) for part in parts), key=min)


@lru_cache(maxsize=65_536)
def fence_is_dead(floor: frozenset[Cell], goals: frozenset[Cell], fence: frozenset[Cell], side: Cell,
                  pocket: frozenset[Cell], pulls: bool) -> bool:
    """True when the boxes of ``fence`` alone (every other box taken away, the player on the
    ``side`` of them) cannot all be moved onto goals; the search gives up when the player gets
    into ``pocket`` or after ``CORRAL_STATES`` states. Cached: the stages meet the same fences
    in state after state."""
    return cannot_all_reach_goals(floor, goals, fence, side, pulls, CORRAL_STATES, pocket)


def cannot_all_reach_goals(floor: frozenset[Cell], goals: frozenset[Cell], boxes: frozenset[Cell], player: Cell,
                           pulls: bool, limit: int, escape: frozenset[Cell] = frozenset(),
                           live: LiveStates | None = None) -> bool:
    """True when ``boxes``, alone on ``floor``, cannot all be moved onto ``goals`` (``pulls``: by
    pulls); False when they can, or the player gets into ``escape``, or the search meets
    ``limit`` states first. With ``live`` (kept for these goals, ``pulls`` and ``limit``, no
    ``escape``), the search stops at a state an earlier one found live, and tells it those it finds."""
    distance = lone_box_distances(floor, goals, pulls)
    if any(box not in distance for box in boxes):
        return True  # a box on a dead square (the dead strategy prunes these already)
    start = None if live is None else live.key(boxes, player)
    if live is not None and start in live.states:
        return False
    moves = placed_one_by_one(floor, goals, boxes, player, distance, pulls)
    if moves is None:
        found = push_search(floor, boxes, player, distance, Target(goals, escape=escape), pulls,
                            SearchLimits(limit, newest_first=True, live=None if live is None else live.states))
        if found.stop is Stop.EXHAUSTED:
            return True
        moves = found.moves
    if live is not None and start is not None:
        live.learn(start, boxes, moves)
    return False


class LiveStates:
    """States of a few boxes alone on ``floor`` (boxes, player region, as bits of
    ``board_of(floor)``) from which the group search of ``cannot_all_reach_goals`` cannot end
    dead: the boxes reach the goals, or more than its limit of states. A search that reaches one
    is live too, so it stops there with the answer it would have given at its end; the answers
    stay exactly those of searches without it. Holds at most ``LIVE_KEPT`` states."""

    def __init__(self, floor: frozenset[Cell], pulls: bool) -> None:
        self.board, self.open_squares, self.pulls, self.floor = board_of(floor), floor_mask(floor), pulls, floor
        self.states: set[tuple[int, int]] = set()

    def key(self, boxes: frozenset[Cell] | set[Cell], player: Cell) -> tuple[int, int]:
        boxes_mask = self.board.mask(boxes)
        return boxes_mask, self.board.flood(self.open_squares & ~boxes_mask, self.board.bit(player))

    def learn(self, start: tuple[int, int], boxes: frozenset[Cell], moves: Moves) -> None:
        """Keeps ``start``, found live, and the states along ``moves`` from it (a path to the
        goals; none when the search stopped at its limit or at a live state)."""
        if len(self.states) + len(moves) >= LIVE_KEPT:
            return
        self.states.add(start)
        compiled = kernel.path_keys(self.floor, boxes, moves, self.pulls)
        if compiled is not None:
            self.states.update(compiled)
            return
        now = set(boxes)
        for before, after in moves:
            now.remove(before)
            now.add(after)
            self.states.add(self.key(now, stand_after(before, after, self.pulls)))


@lru_cache(maxsize=8)
def live_groups(floor: frozenset[Cell], goals: frozenset[Cell], pulls: bool) -> LiveStates:
    """The live states of group searches on ``floor`` towards ``goals`` (``GROUP_STATES``), kept
    for the last 8 floors and goals (at most about 200 MB in all)."""
    return LiveStates(floor, pulls)


def placed_one_by_one(floor: frozenset[Cell], goals: frozenset[Cell], boxes: frozenset[Cell], player: Cell,
                      distance: dict[Cell, int], pulls: bool, searches: int = ONE_BY_ONE_SEARCHES) -> Moves | None:
    """The moves of a plan that brings ``boxes`` onto goals one at a time, each alone with the
    others standing as walls, a placed box a wall on its goal (``pulls``: by pulls): a plan of
    the group, so ``cannot_all_reach_goals`` answers False without searching the boxes together.
    Most groups the stages test are not dead, and two lone-box searches cost far less than one
    over both boxes. Each box aims first at the goals to fill
    first (``goals_filled_first``), then at any: placed on the nearest goal, a box often shuts
    a goal room's inner goals off from the others. None when no such order is found within
    ``searches`` lone-box searches in all (each of at most ``ONE_BY_ONE_STATES`` states).
    Pulled boxes aim at any goal (start square) at once: packing layers are worked out for
    pushes."""
    left = searches

    def place(floor: frozenset[Cell], goals: frozenset[Cell], boxes: frozenset[Cell], player: Cell) -> Moves | None:
        nonlocal left
        if not boxes:
            return ()
        first = goals if pulls else goals_filled_first(floor, goals)
        aims = [(first, lone_box_distances(floor, first, pulls)), (goals, distance)] if first != goals else [(goals, distance)]
        for box in sorted(boxes, key=lambda cell: (distance[cell], cell)):
            for targets, to_targets in aims:
                if box not in to_targets:
                    continue
                if left <= 0:
                    return None
                left -= 1
                others = boxes - {box}
                free = floor - others
                found = push_search(free, frozenset({box}), player, to_targets, Target(targets & free), pulls,
                                    SearchLimits(ONE_BY_ONE_STATES, newest_first=True))
                if found.stop is not Stop.FOUND:
                    continue
                goal, stand = placed_at(box, player, list(found.moves), pulls)
                rest = place(floor - {goal}, goals - {goal}, others, stand)
                if rest is not None:
                    return found.moves + rest
        return None

    return place(floor, goals, boxes, player)


@lru_cache(maxsize=65_536)
def goals_filled_first(floor: frozenset[Cell], goals: frozenset[Cell]) -> frozenset[Cell]:
    """The goals of the deepest packing layer (``analysis.goal_layers``: a goal area is filled
    from the deepest layer out), or every goal when the goals cannot be emptied by pulling."""
    layers = goal_layers(floor, goals)
    if not layers:
        return goals
    deepest = max(layers.values())
    return frozenset(goal for goal, layer in layers.items() if layer == deepest)


def placed_at(box: Cell, player: Cell, path: list[tuple[Cell, Cell]], pulls: bool) -> tuple[Cell, Cell]:
    """The goal a lone box's moves ``path`` end on, and where the player stands then."""
    if not path:
        return box, player  # on a goal already
    before, after = path[-1]
    return after, stand_after(before, after, pulls)


def dead_group(state: Level, pulls: bool = False,
               moved: frozenset[Cell] | None = None) -> tuple[frozenset[Cell], frozenset[Cell] | None] | None:
    """A few boxes of ``state``, at least one off the goals, that cannot all be moved onto goals
    even with every other box taken away (``pulls``: boxes are pulled), and the player squares
    from which that holds (None: from every square); or None: any two boxes, then three that
    stand near each other. With ``moved``, only groups holding one of those boxes: a group that
    stood the same in the state before, the player on its side then as now (walking and moving
    other boxes never takes the player across it), was looked at there."""
    for group in box_groups(sorted(state.boxes), moved):
        if state.goals.issuperset(group) or (len(group) == 2 and not pulls
                                             and pair_never_dead(state.floor, state.goals, (group[0], group[1]))):
            continue
        sides = group_sides(state.floor, group)
        side = next((least for least, cells in sides if state.player in cells), sides[-1][0])
        if group_is_dead(state.floor, state.goals, group, side, pulls):
            dead = [index for index, (least, _) in enumerate(sides)
                    if group_is_dead(state.floor, state.goals, group, least, pulls)]
            if len(dead) == len(sides):
                return frozenset(group), None
            return frozenset(group), frozenset().union(*(side_cells(state.floor, group, sides, i) for i in dead))
    return None


def side_cells(floor: frozenset[Cell], group: tuple[Cell, ...], sides: tuple[tuple[Cell, frozenset[Cell]], ...],
               index: int) -> frozenset[Cell]:
    """The squares of the ``index``-th of ``group_sides`` (the largest: what the others leave)."""
    if index < len(sides) - 1:
        return sides[index][1]
    return floor.difference(group, *(cells for _, cells in sides))


@lru_cache(maxsize=65_536)
def group_sides(floor: frozenset[Cell], group: tuple[Cell, ...]) -> tuple[tuple[Cell, frozenset[Cell]], ...]:
    """The parts of ``floor`` that ``group`` splits it into, each as (its least cell, its cells),
    smallest first (ties by least cell), the largest last with no cells listed (a square in no
    other part is in it). Cached: the stages ask for the same groups in state after state."""
    board = board_of(floor)
    parts = sorted((part.bit_count(), least_cell(floor, part), part)
                   for part in board.parts(floor_mask(floor) & ~board.mask(set(group))))
    return tuple((least, frozenset(board.cells(part))) for _, least, part in parts[:-1]) + ((parts[-1][1], frozenset()),)


def box_groups(boxes: list[Cell], moved: frozenset[Cell] | None = None) -> Iterator[tuple[Cell, ...]]:
    """Every two of ``boxes`` (sorted), then every three two of whose pairs stand near each
    other, in the order of ``combinations``; with ``moved``, only those holding one of them
    (found from those boxes: the searches ask after every push, with one box moved)."""
    if moved is None:
        yield from combinations(boxes, 2)
        yield from near_triples(boxes)
        return
    yield from sorted({(box, other) if box < other else (other, box) for box in moved for other in boxes if other != box})
    yield from near_triples(boxes, moved)


def near_triples(boxes: list[Cell], moved: frozenset[Cell] | None = None) -> list[tuple[Cell, ...]]:
    """The triples of ``box_groups``: one box near both others (two near pairs share a box),
    found from each box's near neighbours (the squares ``NEAR`` round it that hold a box) instead
    of from every triple (32 boxes: 4,960); with ``moved``, those holding one of them: it is the
    centre, or near the centre."""
    present = set(boxes)

    def neighbours(box: Cell) -> list[Cell]:
        return [cell for dx, dy in AROUND if (cell := (box[0] + dx, box[1] + dy)) in present]

    triples: set[tuple[Cell, ...]] = set()
    for centre in boxes if moved is None else sorted(moved):
        close = neighbours(centre)
        triples.update(tuple(sorted((centre, a, b))) for a, b in combinations(close, 2))
        if moved is not None:
            for middle in close:  # the centre near the moved box
                triples.update(tuple(sorted((centre, middle, other))) for other in neighbours(middle) if other != centre)
    return sorted(triples)


@lru_cache(maxsize=65_536)
def group_is_dead(floor: frozenset[Cell], goals: frozenset[Cell], group: tuple[Cell, ...], player: Cell,
                  pulls: bool) -> bool:
    """``cannot_all_reach_goals`` for the boxes of ``group``, cached: the stages meet the same
    groups in state after state. Two boxes pushed are looked up in the level's two-box table
    (``pairs.alive_pairs``, searched once for the floor and goals): exact, where the group's
    own search gives up after ``GROUP_STATES``."""
    if len(group) == 2 and not pulls:
        return pair_is_dead(floor, goals, (group[0], group[1]), player)
    return cannot_all_reach_goals(floor, goals, frozenset(group), player, pulls, GROUP_STATES,
                                  live=live_groups(floor, goals, pulls))


AXES = ((1, 0), (0, 1))


def frozen_boxes(state: Level) -> frozenset[Cell]:
    """The boxes of ``state`` that can never move again: what is left when boxes that can move
    along an axis (both neighbours floor without a box, or with a box that can move, and not
    both dead squares) are taken out until none is left to take (encodings/strategies/freeze)."""
    axes, boxes = box_axes(state.floor, state.goals), state.boxes
    stuck = [box for box in boxes if not any(ahead not in boxes and behind not in boxes for ahead, behind in axes[box])]
    movable = set(boxes.difference(stuck))
    grown = True
    while grown:
        grown = False
        for box in stuck:
            if box not in movable and any((ahead not in boxes or ahead in movable) and (behind not in boxes or behind in movable)
                                          for ahead, behind in axes[box]):
                movable.add(box)
                grown = True
    return boxes - movable


@lru_cache(maxsize=256)
def box_axes(floor: frozenset[Cell], goals: frozenset[Cell]) -> dict[Cell, tuple[tuple[Cell, Cell], ...]]:
    """Each square's axes along which a box there could move, boxes aside: its two neighbours
    on the axis, both floor and not both dead squares (cached per floor: the searches ask
    ``frozen_boxes`` after every push)."""
    live = lone_box_distances(floor, goals)
    table: dict[Cell, tuple[tuple[Cell, Cell], ...]] = {}
    for square in floor:
        sides = ((add(square, axis), (square[0] - axis[0], square[1] - axis[1])) for axis in AXES)
        table[square] = tuple((ahead, behind) for ahead, behind in sides
                              if ahead in floor and behind in floor and (ahead in live or behind in live))
    return table


def dead_freeze(state: Level) -> tuple[frozenset[Cell], frozenset[Cell]] | None:
    """(boxes, empty): every state with boxes on ``boxes`` and none on ``empty`` is dead, as
    this one is (see the module's note on frozen goals); or None. Pushes only."""
    frozen = frozen_boxes(state)
    if not frozen:
        return None
    if not frozen <= state.goals:
        return frozen, frozenset()  # a frozen box off the goals
    sources, reaching = goal_sources(state.floor, state.goals, frozen)
    area = area_short_of_boxes(sources, state.boxes - frozen, reaching)
    if area is None:
        return None
    return frozen | (state.boxes & area), area - state.boxes


def every_goal_taken_greedily(edges: dict[Cell, list[Cell]], goals: int) -> bool:
    """Whether giving each box in turn the first goal on its list not yet taken takes all
    ``goals``: then a matching of every goal exists, found without augmenting paths."""
    taken: set[Cell] = set()
    for reached in edges.values():
        goal = next((goal for goal in reached if goal not in taken), None)
        if goal is not None:
            taken.add(goal)
    return len(taken) == goals


@lru_cache(maxsize=4096)
def goal_sources(floor: frozenset[Cell], goals: frozenset[Cell], frozen: frozenset[Cell]
                 ) -> tuple[dict[Cell, frozenset[Cell]], dict[Cell, list[Cell]]]:
    """With ``frozen`` boxes as walls: each goal left empty with the squares a lone box reaches it
    from, and each square with the goals it reaches (cached: a search meets the same frozen boxes
    in state after state; never change what it returns)."""
    free = floor - frozen
    sources = {goal: frozenset(lone_box_distances(free, frozenset({goal}))) for goal in sorted(goals - frozen)}
    reaching: dict[Cell, list[Cell]] = {}
    for goal, cells in sources.items():
        for cell in cells:
            reaching.setdefault(cell, []).append(goal)
    return sources, reaching


def area_short_of_boxes(sources: dict[Cell, frozenset[Cell]], boxes: frozenset[Cell],
                        reaching: dict[Cell, list[Cell]]) -> frozenset[Cell] | None:
    """The sources of some goals that hold fewer boxes than there are goals (a box reaches a
    goal from the goal's ``sources``; ``reaching``: the goals each square reaches, in that order),
    or None when each goal can have a box of its own. A box outside those squares can never get
    into them (it could reach a goal from there), so the boxes in them now are all those goals
    will ever get. Found from a maximum matching: the goals that alternating paths reach from a
    goal left without a box (Hall's theorem)."""
    edges = {box: reaching.get(box, []) for box in sorted(boxes)}
    if every_goal_taken_greedily(edges, len(sources)):
        return None  # most states: no augmenting paths needed to match every goal
    owner = matching(edges)
    unmatched = [goal for goal in sources if goal not in owner]
    if not unmatched:
        return None
    goal_of = {box: goal for goal, box in owner.items()}
    short, todo = {unmatched[0]}, [unmatched[0]]
    while todo:
        for box in sorted(boxes & sources[todo.pop()]):
            mate = goal_of.get(box)
            if mate is not None and mate not in short:
                short.add(mate)
                todo.append(mate)
    area = frozenset().union(*(sources[goal] for goal in short))
    return area if len(boxes & area) < len(short) else None
