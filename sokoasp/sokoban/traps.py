"""Traps: stage end states proven dead by an exhaustive push search.

Every plan from a state with ``k`` boxes on goals passes through a state with ``k + 1`` (a push
changes the count by at most one), and only through states from which a plan exists: never one
with a box on a dead square, a dead group (``deadlocks.dead_group``) or, forwards, a frozen box
off a goal (``deadlocks.dead_freeze``). So when a push search from the state, those states
pruned, runs out of states without reaching ``k + 1`` boxes on goals, the state is dead, and so
is every state it took up. Backwards (the level turned round) the same holds for pulls.

The search is ``push_search.push_search`` (best first, towards the goals) with a state budget of
at most ``MOST_STATES``; a search that meets it proves nothing, and the state is tried again only
with a larger budget. Proofs hold for the level and are kept across passes. A ``whole`` proof asks for
every box placed (the room stages' question); a part proof (``dead_part``) asks it of a few boxes
near each other alone. SOUND: only states from which no plan exists are turned away
(``tests/sokoban/test_traps.py`` checks each proof against a breadth-first search)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from sokoasp.board.level import Cell, Level
from sokoasp.config import MOST_STATES
from sokoasp.sokoban import kernel
from sokoasp.sokoban.analysis import lone_box_distances
from sokoasp.sokoban.bitboard import board_of, floor_mask
from sokoasp.sokoban.breadth_first import player_region
from sokoasp.sokoban.deadlocks import box_axes, dead_freeze, dead_group, group_is_dead
from sokoasp.sokoban.pairs import pair_never_dead
from sokoasp.sokoban.push_search import SearchLimits, Target, push_search


class Traps:
    """The states of one level (or the level turned round, ``pulls``) proven dead so far: states
    from which no box more can be placed, or (``whole``) not every box."""

    def __init__(self, level: Level, pulls: bool, whole: bool = False, charge: Callable[[int], None] = lambda states: None) -> None:
        self.level, self.pulls, self.whole = level, pulls, whole  # its floor and goals (the boxes and player vary)
        self.charge = charge  # hears the states of each search (a run's work meter)
        self.distance = lone_box_distances(level.floor, level.goals, pulls)
        self.board, self.open_squares = board_of(level.floor), floor_mask(level.floor)
        self.dead: set[tuple[int, int]] = set()  # (boxes, player region), as bits, of the states proven dead
        self.tried: dict[tuple[int, int], int] = {}  # states whose search met its limit: its states
        self.dead_parts: set[tuple[frozenset[Cell], Cell]] = set()  # (boxes, least square of the player's region): proven unplaceable
        self.live_parts: set[tuple[frozenset[Cell], Cell]] = set()  # and those found placeable
        self.deadlocked = Deadlocked(level, pulls)
        self.proofs = 0  # searches that proved their state dead
        self.states = 0  # taken up by the searches: their work

    def key(self, state: Level) -> tuple[int, int]:
        boxes = self.board.mask(state.boxes)
        return boxes, self.board.flood(self.open_squares & ~boxes, self.board.bit(state.player))

    def known_dead(self, state: Level) -> bool:
        return bool(self.dead) and self.key(state) in self.dead

    def prove_dead(self, state: Level, states: int) -> bool:
        """Whether ``state`` is dead: known, or proven now by a search of at most ``states``
        states (skipped when one with at least as many met its limit before)."""
        placed = len(state.boxes & self.level.goals)
        if placed == len(state.boxes):
            return False  # every box placed: there is no box more to place
        key = self.key(state)
        if key in self.dead:
            return True
        states = min(states, MOST_STATES)
        if states <= 0 or self.tried.get(key, 0) >= states:
            return False
        if any(box not in self.distance for box in state.boxes):
            self.dead.add(key)  # a box on a dead square
            return True
        found = push_search(self.level.floor, state.boxes, state.player, self.distance,
                            Target(self.level.goals, need=None if self.whole else placed + 1), self.pulls,
                            SearchLimits(states, prune=self.deadlocked, newest_first=True, proof=True))
        self.searched(found.states)
        if found.answer is None:
            self.tried[key] = states
        if found.answer is not False:
            return False
        self.dead |= found.seen
        self.proofs += 1
        return True

    def dead_part(self, state: Level, states: int) -> frozenset[Cell] | None:
        """Some neighbourhood of boxes (``neighbourhoods``) that cannot all be placed, the other
        boxes taken away, with the player on its side (or a box on a dead square, alone), found
        by searches of at most ``states`` states in all (a part proven before is found whatever
        its work); or None. Other boxes only block: a plan's pushes of those boxes alone, the
        others gone, are a plan that places them; a part is proven far sooner than the whole
        state."""
        lost = next((box for box in sorted(state.boxes) if box not in self.distance), None)
        if lost is not None:
            return frozenset({lost})
        parts = list(self.parts(state))
        known = next((part for part, key in parts if key in self.dead_parts), None)
        if known is not None:
            return known
        left = min(states, MOST_STATES)
        for part, key in parts:
            if key in self.live_parts:
                continue
            if left <= 0:
                return None
            found = push_search(self.level.floor, part, state.player, self.distance, Target(self.level.goals), self.pulls,
                                SearchLimits(left, newest_first=True))
            self.searched(found.states)
            left -= found.states
            if found.answer is None:
                return None
            if found.answer is False:
                self.dead_parts.add(key)
                self.proofs += 1
                return part
            self.live_parts.add(key)
        return None

    def searched(self, states: int) -> None:
        self.states += states
        self.charge(states)

    def parts(self, state: Level) -> Iterator[tuple[frozenset[Cell], tuple[frozenset[Cell], Cell]]]:
        """The neighbourhoods of ``state``'s boxes (``neighbourhoods``), each with its key in
        ``dead_parts`` and ``live_parts``: the part and the least square of the player's region."""
        for part in neighbourhoods(state.boxes):
            yield part, (part, min(player_region(self.level.floor, part, state.player)))


class Deadlocked:
    """The prune of the searches of one level (``pulls``: turned round): a dead group holding the
    box just moved or, forwards, a frozen box off a goal or frozen boxes that leave goals short
    (``deadlocks.dead_group``, ``dead_freeze``). Where the compiled kernel is built, it runs the
    same test (``kernel.deadlocks``), asking the Python only for each group's first answer."""

    def __init__(self, level: Level, pulls: bool) -> None:
        self.level, self.pulls = level, pulls
        self.made = False
        self.kept: object | None = None  # the kernel's prune, made when first asked

    def __call__(self, boxes: frozenset[Cell], player: Cell, moved: Cell) -> bool:
        prune = self.compiled(self.level.floor)
        if prune is not None:
            return kernel.deadlocked(prune, self.level.floor, boxes, player, moved, self.pulls)
        state = self.level.moved(boxes, player)
        return (dead_group(state, self.pulls, moved=frozenset({moved})) is not None
                or (not self.pulls and dead_freeze(state) is not None))

    def compiled(self, free: frozenset[Cell]) -> object | None:
        """The test in the kernel for a search on ``free`` (None on another floor, or without the kernel)."""
        if free != self.level.floor:
            return None
        if not self.made:
            floor, goals, pulls = self.level.floor, self.level.goals, self.pulls
            self.made, self.kept = True, kernel.deadlocks(
                floor, goals, box_axes(floor, goals), not pulls,
                lambda group, side: group_is_dead(floor, goals, group, side, pulls),
                None if pulls else lambda pair: pair_never_dead(floor, goals, pair))
        return self.kept


def neighbourhoods(boxes: frozenset[Cell]) -> list[frozenset[Cell]]:
    """For each box, it and the boxes within two squares of it (either way, diagonals too),
    when that is more than one box and fewer than all, smallest first."""
    found = {frozenset(other for other in boxes if max(abs(other[0] - box[0]), abs(other[1] - box[1])) <= 2)
             for box in boxes}
    return sorted((part for part in found if 1 < len(part) < len(boxes)), key=lambda part: (len(part), sorted(part)))
