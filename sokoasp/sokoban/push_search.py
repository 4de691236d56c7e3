"""Push searches in Python: can the empty goals still be filled while the filled ones stay put
(``fillable``, ``fills_jointly``), and the best-first search over pushes the box searches, the
end game and the trap proofs share (``push_search``).

``fillable`` treats the boxes on filled goals as walls: each box off a goal needs an empty goal of
its own that it can be pushed to alone. A relaxation: a failed test proves that a filled goal must
be emptied again (``tests/sokoban/test_push_search.py`` checks it against a breadth-first search). With at
most ``JOINT_BOXES`` boxes off the goals, ``fills_jointly`` searches their pushes together, which
also finds boxes that only block each other; it gives up after ``JOINT_STATES`` states (the state
then passes). With ``pulls``, the same for the reverse search (the level turned round)."""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache

from sokoasp.board.level import DIRECTIONS, Cell, Level, add
from sokoasp.sokoban import kernel
from sokoasp.sokoban.analysis import INFINITY, Assignment, lone_box_distances
from sokoasp.sokoban.bitboard import board_of, floor_mask
from sokoasp.sokoban.breadth_first import links_back
from sokoasp.sokoban.corrals import pi_corral

JOINT_BOXES = 3  # fills_jointly searches when at most this many boxes are off the goals
JOINT_STATES = 2_000  # and gives up after this many states
ROUTE_STATES_PER_UNIT = 5  # a route search's state (one flood, no deadlock test) costs about a fifth of a state taken up

Prune = Callable[[frozenset[Cell], Cell, Cell], bool]  # (boxes, player, the box just moved) -> dead, never searched on
Moves = tuple[tuple[Cell, Cell], ...]  # pushes (or pulls) as (box square before, after)


def stand_after(before: Cell, after: Cell, pulls: bool) -> Cell:
    """Where the player stands once a box moved from ``before`` to ``after`` (``pulls``: pulled)."""
    return (2 * after[0] - before[0], 2 * after[1] - before[1]) if pulls else before


class Stop(Enum):
    """Why a push search ended."""

    FOUND = "found"  # it reached the target
    EXHAUSTED = "exhausted"  # every state searched: the target cannot be reached
    STATE_LIMIT = "state limit"
    DEADLINE = "deadline"
    LIVE = "live"  # it took up a state of ``SearchLimits.live``: the target, or the state limit, lies beyond


@dataclass(frozen=True)
class Target:
    """Where a push search must arrive: ``need`` boxes (None: every box) on ``squares`` and the
    player able to walk to ``home`` (if given), or the player able to walk into ``escape``."""

    squares: frozenset[Cell]
    need: int | None = None
    escape: frozenset[Cell] = frozenset()
    home: Cell | None = None

    def enough(self, start: frozenset[Cell]) -> int:
        """The boxes on ``squares`` that end a search from ``start``."""
        return len(start) if self.need is None else self.need

    def cuts_corrals(self, limits: SearchLimits, pulls: bool) -> bool:
        """Whether the search applies its PI-corral cut: asked for, and sound (pushes that must
        bring every box onto a target)."""
        return limits.corrals and not pulls and self.need is None and not self.escape


@dataclass(frozen=True)
class SearchOutcome:
    """A push search's end: why it stopped, the moves from the start to the state found (when
    ``FOUND``), and the (boxes, player region) of the states taken up, as bits of
    ``board_of(free)`` (a proof of the states it exhausted)."""

    stop: Stop
    moves: Moves = ()
    seen: set[tuple[int, int]] = field(default_factory=set)
    routes: int = 0  # states of the route searches a macro search made besides (``feature_search``)
    taken: int | None = None  # the states taken up, where ``seen`` is not kept (the compiled search)

    @property
    def answer(self) -> bool | None:
        """True: found; False: proven unreachable; None: cut short."""
        return True if self.stop is Stop.FOUND else False if self.stop is Stop.EXHAUSTED else None

    @property
    def states(self) -> int:
        """The search's work: the states taken up, and those of its route searches at
        ``ROUTE_STATES_PER_UNIT`` a unit."""
        return search_work(len(self.seen) if self.taken is None else self.taken, self.routes)


def search_work(taken: int, routes: int) -> int:
    """Work units of a search that took up ``taken`` states and searched ``routes`` route states."""
    return taken + routes // ROUTE_STATES_PER_UNIT


UNREACHABLE = SearchOutcome(Stop.EXHAUSTED)  # a box that cannot reach a target alone: nothing to search


def fillable(state: Level, pulls: bool = False) -> bool:
    """False when the empty goals of ``state`` cannot all be filled without moving a box that
    stands on a goal; True when they may be (``pulls``: boxes are pulled, not pushed)."""
    if not each_box_reaches_a_goal(state, pulls):
        return False
    joint = fills_jointly(state, pulls)
    return joint is None or joint.answer is not False


def each_box_reaches_a_goal(state: Level, pulls: bool = False) -> bool:
    """Each box off the goals has an empty goal of its own that it can be moved to alone."""
    free = state.floor - (state.goals & state.boxes)
    empty = sorted(state.goals - state.boxes)
    reaches: dict[Cell, list[Cell]] = {}
    for box in sorted(state.boxes - state.goals):
        start = (box, lone_box_region(free, box, state.player))
        reaches[box] = [goal for goal in empty if start in states_onto(free, goal, pulls)]
    return len(matching(reaches)) == len(reaches)


def fills_jointly(state: Level, pulls: bool = False, limit: int = JOINT_STATES, deadline: float = math.inf,
                  home: Cell | None = None, most_boxes: int = JOINT_BOXES) -> SearchOutcome | None:
    """Whether moving only the boxes off the goals (those on goals are walls) can fill every
    empty goal: a best-first search over (boxes, player region) states, nearest to the goals
    first (``push_search``; with ``home``, the player must also be able to walk there at the
    end), within ``limit`` states and ``deadline``. None when more than ``most_boxes`` boxes are
    off the goals (nothing searched)."""
    fixed = state.goals & state.boxes
    free, targets, start = state.floor - fixed, state.goals - fixed, state.boxes - fixed
    if len(start) > most_boxes:
        return None
    distance = lone_box_distances(free, targets, pulls)
    if any(box not in distance for box in start):
        return UNREACHABLE
    return push_search(free, start, state.player, distance, Target(targets, home=home), pulls,
                       SearchLimits(limit, deadline))


@dataclass(frozen=True)
class SearchLimits:
    """How a push search is bounded and ordered: at most ``states`` states, until the clock
    (``time.perf_counter``) passes ``deadline``; ``prune`` calls a state dead (taken up, counted
    for nothing, not searched on); ``newest_first`` takes states as near the goals depth first
    along a plateau (a plan sooner where the order does not matter, as in a search run to the
    end); a ``guide`` orders states by their cheapest box-target matching; ``corrals`` tries only
    the pushes into a PI-corral where there is one (``corrals.pi_corral``), applied only where that
    is sound: pushes that must bring every box onto a target (no ``need``, no ``escape``). The box
    searches ask for it; the small group searches do not (their states rarely hold a corral, and
    the test would cost more than it cuts). ``live`` holds states (boxes, player region, as bits of
    ``board_of(free)``) known to lead to the target or to more than ``states`` states: the search
    stops on taking one up (``Stop.LIVE``): from there it could never end ``EXHAUSTED``.
    ``proof``: the outcome's ``seen`` holds the states taken up also where the compiled search
    (``kernel``) runs, which keeps only their count otherwise (the Python keeps both)."""

    states: int
    deadline: float = math.inf
    prune: Prune | None = None
    newest_first: bool = False
    guide: MatchingGuide | None = None
    corrals: bool = False
    live: set[tuple[int, int]] | None = None
    proof: bool = False


STOPS = (Stop.FOUND, Stop.EXHAUSTED, Stop.STATE_LIMIT, Stop.DEADLINE, Stop.LIVE)  # by the kernel's stop codes


def push_search(free: frozenset[Cell], start: frozenset[Cell], player: Cell, distance: dict[Cell, int],
                target: Target, pulls: bool, limits: SearchLimits) -> SearchOutcome:
    """``python_push_search``, in the compiled kernel where it is built and applies (the same
    outcome, moves and work; ``kernel``)."""
    guide = limits.guide
    raw = kernel.search(free, start, player, distance, target.squares, target.enough(start), target.escape, target.home, pulls,
                        limits.states, limits.deadline, limits.prune, limits.newest_first, target.cuts_corrals(limits, pulls),
                        limits.live, None if guide is None else guide.cost_bytes, limits.proof)
    if raw is None:
        return python_push_search(free, start, player, distance, target, pulls, limits)
    stop, moves, taken, seen = raw
    return SearchOutcome(STOPS[stop], tuple(moves or ()), set() if seen is None else seen, taken=taken)


def python_push_search(free: frozenset[Cell], start: frozenset[Cell], player: Cell, distance: dict[Cell, int],
                       target: Target, pulls: bool, limits: SearchLimits) -> SearchOutcome:
    """Moving the boxes ``start`` (``pulls``: by pulls) on ``free``, never onto a square missing
    from ``distance``, to the ``target``: a best-first search over (boxes, player region) states,
    least summed ``distance`` first, within ``limits``. A state's region is flooded when the
    state is taken up, not when it is found: a search that heads straight for the goals floods a
    few of the states it finds (the flood is most of its time). States as near the goals are
    taken up in the order found (or newest first). With a guide (every box to a target of its
    own), a state is taken up in the order of its cheapest box-target matching instead: the
    summed distance, a lower bound on it, orders the states found, and a state whose matching is
    higher when it comes up goes back with that; of states with the same matching, those whose
    summed distance equals it (no target counted for two boxes) come up first."""
    board = board_of(free)
    targets, guide, deadline, newest_first = target.squares, limits.guide, limits.deadline, limits.newest_first
    live = limits.live
    open_squares, on_targets, escape_mask = floor_mask(free), board.mask(targets), board.mask(target.escape)
    home_mask = 0 if target.home is None else board.bit(target.home)
    enough, corrals = target.enough(start), target.cuts_corrals(limits, pulls)
    fill_all = on_targets.bit_count() == len(start)
    seen: set[tuple[int, int]] = set()  # (boxes, player region) of the states taken up, as bits
    taken: set[tuple[int, int]] = set()  # (boxes, player square) of those states, as bits
    found = 0
    # (boxes, player) bits -> the state before and the move (box square before, after); None at the start
    came: dict[tuple[int, int], tuple[tuple[int, int], tuple[Cell, Cell]] | None] = {(board.mask(start), board.bit(player)): None}
    # (priority, whether it is settled (the guide asked), order found, summed distance, boxes before the move, as
    #  bits, the player's square, the box moved and the square it moved to, the latter as a bit, the player's
    #  region before it moved); a state's boxes are built when it is taken up (most states found never are)
    summed = sum(distance[box] for box in start)
    todo: list[tuple[int, bool, int, int, frozenset[Cell], int, int, Cell | None, Cell | None, int, int]] = [
        (summed, True, found, summed, start, board.mask(start), board.bit(player), None, None, 0, 0)]
    steps = move_table(free, pulls)
    while todo:
        entry = heapq.heappop(todo)
        priority, settled, _, summed, boxes, boxes_mask, stand, source, moved, moved_bit, before = entry
        if (boxes_mask, stand) in taken:
            continue
        if moved is not None:
            boxes = (boxes - {source}) | {moved}
        if not settled and guide is not None:
            parent = None if source is None else boxes_mask ^ moved_bit ^ board.bit(source)
            matched = guide.cost(boxes, boxes_mask, parent, source, moved)
            if matched >= INFINITY:
                continue  # no box-target matching: no plan from here
            if matched > priority:
                found += 1
                heapq.heappush(todo, (matched, True, found, summed, *entry[4:]))
                continue
        taken.add((boxes_mask, stand))
        walkable = open_squares & ~boxes_mask
        # squares still in the player's region: the region before, if the box moved onto a square out of it, or
        # less that square where the square does not cut it (Board.ring_joined); the flood then starts nearly done
        known = before if not before & moved_bit else before & ~moved_bit if board.ring_joined(walkable, moved_bit) else 0
        region = board.flood(walkable, stand | known)
        if (boxes_mask, region) in seen:
            continue
        if len(seen) >= limits.states:
            return SearchOutcome(Stop.STATE_LIMIT, seen=seen)
        if deadline < math.inf and time.perf_counter() > deadline:
            return SearchOutcome(Stop.DEADLINE, seen=seen)
        seen.add((boxes_mask, region))
        if moved is not None and limits.prune is not None and limits.prune(boxes, board.cell(stand), moved):
            continue
        if ((boxes_mask & on_targets).bit_count() >= enough and region & home_mask == home_mask) or region & escape_mask:
            return SearchOutcome(Stop.FOUND, tuple(links_back(came, (boxes_mask, stand))), seen)
        if live is not None and (boxes_mask, region) in live:
            return SearchOutcome(Stop.LIVE, seen=seen)
        corral = pi_corral(board, open_squares, region, boxes_mask, on_targets, fill_all) if corrals else None
        into = -1 if corral is None else corral[1]  # the squares a push may go to
        for box in sorted(boxes) if corral is None else board.cells(corral[0]):
            box_bit, box_distance = board.bit(box), summed - distance[box]
            for to, to_bit, stand_bit, needs, blocked_by in steps[box]:
                if needs & region and not blocked_by & boxes_mask and to_bit & into and to in distance:
                    moved_mask = boxes_mask ^ box_bit | to_bit
                    if (moved_mask, stand_bit) not in taken:
                        found += 1
                        came.setdefault((moved_mask, stand_bit), ((boxes_mask, stand), (box, to)))
                        after = box_distance + distance[to]
                        heapq.heappush(todo, (after, guide is None, -found if newest_first else found, after,
                                              boxes, moved_mask, stand_bit, box, to, to_bit, region))
    return SearchOutcome(Stop.EXHAUSTED, seen=seen)


class MatchingGuide:
    """The order of a search of every box (``push_search``'s ``guide``): each state's cheapest
    matching of its boxes to targets of their own, on the fewest moves of each box alone to each
    target (Junghanns & Schaeffer's lower bound). Where several boxes are nearest to one target,
    the summed distance counts that target for each; the matching sends all but one elsewhere,
    which keeps many-box searches off the plateaus of the summed distance.

    A state one push from a state already matched is matched incrementally: the moved box's
    row is matched again from the other's assignment and potentials (``Assignment.with_row``, one
    augmenting step of the Hungarian algorithm, n^2 instead of n^3). The assignments kept are
    bounded by ``KEPT_ASSIGNMENTS`` (memory); a state whose parent's was dropped is matched whole."""

    def __init__(self, free: frozenset[Cell], targets: frozenset[Cell], pulls: bool) -> None:
        tables = [lone_box_distances(free, frozenset([target]), pulls) for target in sorted(targets)]
        self.costs: dict[Cell, list[int]] = {cell: [table.get(cell, INFINITY) for table in tables] for cell in free}
        self.known: dict[int, int] = {}  # the boxes, as bits -> their matching
        self.targets = len(tables)
        self.compiled: dict[tuple[int, int], bytes] = {}  # cost_bytes, by board
        self.assignments: dict[int, tuple[tuple[Cell, ...], Assignment]] = {}  # the boxes, as bits -> rows, assignment

    def cost(self, boxes: frozenset[Cell], boxes_mask: int, before: int | None = None, source: Cell | None = None,
             moved: Cell | None = None) -> int:
        """The cheapest matching of ``boxes`` (``boxes_mask`` as bits) to the targets; INFINITY if
        none. ``before``: the boxes, as bits, before the box on ``source`` moved to ``moved``."""
        if boxes_mask in self.known:
            return self.known[boxes_mask]
        parent = None if before is None else self.assignments.get(before)
        if parent is not None and source is not None and moved is not None:
            rows, assignment = parent
            row = rows.index(source)
            rows = (*rows[:row], moved, *rows[row + 1:])
            matrix = [self.costs[box] for box in rows]
            assignment = assignment.with_row(row, matrix)
        else:
            rows = tuple(sorted(boxes))
            matrix = [self.costs[box] for box in rows]
            assignment = Assignment.solve(matrix)
        if len(self.assignments) >= KEPT_ASSIGNMENTS:
            self.assignments.clear()
        self.assignments[boxes_mask] = rows, assignment
        self.known[boxes_mask] = assignment.total(matrix)
        return self.known[boxes_mask]

    def cost_bytes(self, stride: int, squares: int) -> bytes:
        """``costs`` for the compiled kernel: one int32 a square and target (kept: a guide's
        searches share one board)."""
        if (stride, squares) not in self.compiled:
            self.compiled[stride, squares] = kernel.costs_bytes(self.costs, stride, squares, self.targets, INFINITY)
        return self.compiled[stride, squares]


KEPT_ASSIGNMENTS = 100_000  # about 1 KB each: a search of a million states keeps the latest tenth


# A move of one box: its square after the move, and as bits that square, the player's square after the move,
# the square the player must reach first and the squares that must hold no box
Move = tuple[Cell, int, int, int, int]


@lru_cache(maxsize=4096)
def move_table(free: frozenset[Cell], pulls: bool) -> MoveTable:
    """Each square's pushes (``pulls``: pulls) on ``free`` (``MoveTable``), cached per floor."""
    return MoveTable(free, pulls)


class MoveTable(dict[Cell, tuple[Move, ...]]):
    """Each square's pushes (``pulls``: pulls) on ``free``, in the order of ``DIRECTIONS``, the
    walls already left out: the inner loop of ``push_search`` then asks two bit tests. A move
    needs the player on its square to reach and no box on its squares to keep clear. A square's
    moves are worked out when first asked for: a small search on a floor of its own (a group's
    box alone, the others as walls) asks for a few squares of hundreds. A square off ``free``
    has none to ask for (KeyError)."""

    def __init__(self, free: frozenset[Cell], pulls: bool) -> None:
        super().__init__()
        self.free, self.pulls, self.board = free, pulls, board_of(free)

    def __missing__(self, box: Cell) -> tuple[Move, ...]:
        if box not in self.free:
            raise KeyError(box)
        free, bit = self.free, self.board.bit
        steps: list[Move] = []
        for delta in DIRECTIONS.values():
            ahead = add(box, delta)
            behind = add(ahead, delta) if self.pulls else (box[0] - delta[0], box[1] - delta[1])
            if ahead not in free or behind not in free:
                continue
            if self.pulls:  # the player steps back from ahead to behind, the box following it onto ahead
                steps.append((ahead, bit(ahead), bit(behind), bit(ahead), bit(ahead) | bit(behind)))
            else:  # the player from behind pushes the box onto ahead, stepping onto its square
                steps.append((ahead, bit(ahead), bit(box), bit(behind), bit(ahead)))
        self[box] = moves = tuple(steps)
        return moves


class GoalOrder:
    """The blocking pairs of the states of one staged search. A state's pair (g, h): while a box
    stays on goal g, no box of the state off the goals can be pushed (``pulls``: pulled) onto
    goal h, alone, the player anywhere: with g a wall, h is beyond reach of every box still to
    be placed. A state with g filled and h empty fails ``fillable``, whatever else it holds:
    more walls reach less. They come from the squares each box still to be placed can reach
    with g a wall: those reached from the search's start (``GoalOrder(state).pairs(state)``
    gives a state's own pairs exactly), and for a box that has gone where none of them reaches
    (past g, while it was empty), those reached from its square, each search kept for the
    stages after."""

    def __init__(self, start: Level, pulls: bool) -> None:
        self.floor, self.goals, self.pulls = start.floor, start.goals, pulls
        sources = start.boxes - start.goals
        self.from_start = {goal: reached_squares(start.floor - {goal}, sources, pulls) for goal in start.goals}
        self.from_square: dict[tuple[Cell, Cell], frozenset[Cell]] = {}

    def pairs(self, state: Level) -> list[tuple[Cell, Cell]]:
        """The blocking pairs of ``state``, or fewer: a box that has gone where the start's
        boxes reach it may reach less from there."""
        pairs: list[tuple[Cell, Cell]] = []
        for goal in sorted(self.goals):
            reached = self.from_start[goal]
            for box in sorted(state.boxes - state.goals - reached):
                reached = reached | self.reached_from(goal, box)
            pairs += [(goal, other) for other in sorted(self.goals - {goal}) if other not in reached]
        return pairs

    def order(self, state: Level) -> list[tuple[Cell, Cell]]:
        """The pairs of ``state`` that make an order: those on a cycle left out. Goals that
        shut each other out (g after h, h after g) cannot both be filled by the boxes where
        they stand now; some box must first go where it reaches the other. The order leaves
        such goals to the search."""
        pairs = self.pairs(state)
        after: dict[Cell, set[Cell]] = {goal: set() for goal in self.goals}
        for goal, other in pairs:
            after[goal].add(other)
        return [(goal, other) for goal, other in pairs if goal not in reachable(after, other)]

    def reached_from(self, goal: Cell, box: Cell) -> frozenset[Cell]:
        if (goal, box) not in self.from_square:
            self.from_square[goal, box] = reached_squares(self.floor - {goal}, frozenset({box}), self.pulls)
        return self.from_square[goal, box]


def reachable(edges: dict[Cell, set[Cell]], start: Cell) -> set[Cell]:
    """The nodes reached from ``start`` along ``edges``, ``start`` too."""
    seen, todo = {start}, [start]
    while todo:
        for node in edges[todo.pop()] - seen:
            seen.add(node)
            todo.append(node)
    return seen


def reached_squares(free: frozenset[Cell], sources: frozenset[Cell], pulls: bool) -> frozenset[Cell]:
    """The squares of ``free`` a lone box can be pushed (``pulls``: pulled) to from one of
    ``sources``, the player starting anywhere beside it and walking round."""
    return frozenset(box for box, _ in lone_box_states(free, sources, pulls, backwards=False))


@lru_cache(maxsize=4096)
def states_onto(free: frozenset[Cell], goal: Cell, pulls: bool) -> frozenset[tuple[Cell, int]]:
    """The (box square, player's region as bits of ``board_of(free)``) states from which a lone
    box can be pushed (``pulls``: pulled) onto ``goal``, walking and moving the box on ``free``
    only: the search moving the box back from ``goal``."""
    return frozenset(lone_box_states(free, frozenset({goal}), pulls, backwards=True))


def lone_box_states(free: frozenset[Cell], starts: frozenset[Cell], pulls: bool, backwards: bool) -> set[tuple[Cell, int]]:
    """The (box square, player's region) states a lone box on ``free`` reaches by pushes
    (``pulls``: pulls) from a square of ``starts``, the player anywhere beside it; ``backwards``,
    the states from which it reaches one (a push undone is a pull: the player steps back from
    the box and the box follows; a pull undone is a push)."""
    board, moves = board_of(free), move_table(free, pulls != backwards)
    todo = [(box, lone_box_region(free, box, add(box, delta)))
            for box in starts for delta in DIRECTIONS.values() if add(box, delta) in free]
    seen: set[tuple[Cell, int]] = set()
    while todo:
        state = todo.pop()
        if state in seen:
            continue
        seen.add(state)
        box, region = state
        for to, _, player_after, needs, _ in moves[box]:
            if needs & region:
                todo.append((to, lone_box_region(free, to, board.cell(player_after))))
    return seen


def lone_box_region(free: frozenset[Cell], box: Cell, player: Cell) -> int:
    """The player's region, as bits of ``board_of(free)``, with one box on ``box``: the key of a
    lone-box state, the same in ``states_onto`` and in the states looked up there. Flooded once
    per (box, player) square for each ``free`` (``lone_box_regions``): the searches onto each
    goal of a state meet the same squares again and again."""
    known = lone_box_regions(free)
    region = known.get((box, player))
    if region is None:
        board = board_of(free)
        region = known[box, player] = board.flood(floor_mask(free) & ~board.bit(box), board.bit(player))
    return region


@lru_cache(maxsize=256)
def lone_box_regions(free: frozenset[Cell]) -> dict[tuple[Cell, Cell], int]:
    """``lone_box_region``'s floods on ``free``, by (box, player) square, filled as they are asked."""
    return {}


def matching(edges: dict[Cell, list[Cell]]) -> dict[Cell, Cell]:
    """A maximum matching (goal -> box) by augmenting paths."""
    owner: dict[Cell, Cell] = {}

    def assign(box: Cell, visited: set[Cell]) -> bool:
        for goal in edges[box]:
            if goal not in visited:
                visited.add(goal)
                if goal not in owner or assign(owner[goal], visited):
                    owner[goal] = box
                    return True
        return False

    for box in edges:
        assign(box, set())
    return owner
