"""The Level value: floor, boxes, goals and player of one Sokoban level.

Coordinates follow the thesis (listing 4.1): ``(x, y)`` with origin ``(1, 1)`` in the
top-left corner, x to the right, y downwards. Every cell that is not floor is a wall.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sokoasp.errors import InputError

Cell = tuple[int, int]

# Direction letters of a LURD plan and their (dx, dy).
DIRECTIONS: dict[str, Cell] = {"l": (-1, 0), "u": (0, -1), "r": (1, 0), "d": (0, 1)}
LETTER_OF: dict[Cell, str] = {d: c for c, d in DIRECTIONS.items()}

MAX_SIDE = 200


def add(cell: Cell, delta: Cell) -> Cell:
    return (cell[0] + delta[0], cell[1] + delta[1])


@dataclass(frozen=True)
class Level:
    """An immutable, validated Sokoban level."""

    floor: frozenset[Cell]
    boxes: frozenset[Cell]
    goals: frozenset[Cell]
    player: Cell
    title: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        validate(self)

    @property
    def width(self) -> int:
        return max(x for x, _ in self.floor)

    @property
    def height(self) -> int:
        return max(y for _, y in self.floor)

    @property
    def walls(self) -> frozenset[Cell]:
        """Non-floor cells touching the floor (8-neighbourhood): what XSB draws as ``#``."""
        ring = {
            (x + dx, y + dy)
            for x, y in self.floor
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
        }
        return frozenset(ring - self.floor)

    def moved(self, boxes: frozenset[Cell], player: Cell) -> Level:
        """This level with its boxes and player moved, not checked again: for the hot loops of
        the box searches, which move boxes only onto the floor (``validate`` was a fifth of
        the time of a search with the deadlock tests, ``traps.Traps.deadlocked``)."""
        state = object.__new__(Level)
        for name, value in (("floor", self.floor), ("boxes", boxes), ("goals", self.goals),
                            ("player", player), ("title", self.title)):
            object.__setattr__(state, name, value)
        return state

    def with_title(self, title: str) -> Level:
        return Level(self.floor, self.boxes, self.goals, self.player, title)


def validate(level: Level) -> None:
    """Raise InputError unless the level is well formed."""
    if not level.floor:
        raise InputError("the level has no floor")
    if min(x for x, _ in level.floor) < 1 or min(y for _, y in level.floor) < 1:
        raise InputError("floor cells must have coordinates >= 1")
    if level.width > MAX_SIDE or level.height > MAX_SIDE:
        raise InputError(f"the level is larger than {MAX_SIDE}x{MAX_SIDE}")
    if level.player not in level.floor:
        raise InputError(f"the player at {level.player} is not on the floor")
    outside = sorted((level.boxes | level.goals) - level.floor)
    if outside:
        raise InputError(f"box or goal off the floor at {outside[0]}")
    if level.player in level.boxes:
        raise InputError(f"the player and a box share the cell {level.player}")
    if not level.boxes:
        raise InputError("the level has no boxes")
    if len(level.boxes) != len(level.goals):
        raise InputError(
            f"the level has {len(level.boxes)} box(es) but {len(level.goals)} goal(s)"
        )
