"""Sets of squares as Python ints, one bit per square, for the hot loop of the box searches
(``push_search.push_search`` and ``push_search.states_onto``: the corral, group and filling tests; the
goal room's parking search, ``packing.room_plan``).

A square (x, y) is bit ``y * stride + x``, the stride two more than the largest x of the floor, so
a bit moved one place left or right from the floor's edge lands in a column that is never floor
(``tests/sokoban/test_bitboard.py`` fails with a stride one less). The player's region is then a flood
fill that grows a whole set by one step per round: a few integer shifts instead of one set
lookup per square. A search that moves one box floods from the region before the move, less
the box's new square where that square does not cut it (``Board.ring_joined``, a look at the
eight squares round it), so the flood starts nearly done.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from sokoasp.board.level import Cell


@dataclass(frozen=True)
class Board:
    stride: int

    def bit(self, cell: Cell) -> int:
        return 1 << (cell[1] * self.stride + cell[0]) if cell[0] >= 0 and cell[1] >= 0 else 0

    def mask(self, cells: frozenset[Cell] | set[Cell]) -> int:
        mask = 0
        for cell in cells:
            mask |= self.bit(cell)
        return mask

    def cell(self, bit: int) -> Cell:
        """The square of a single bit."""
        index = bit.bit_length() - 1
        return index % self.stride, index // self.stride

    def cells(self, bits: int) -> list[Cell]:
        """The squares of ``bits``, in bit order."""
        cells = []
        while bits:
            low = bits & -bits
            cells.append(self.cell(low))
            bits ^= low
        return cells

    def offset(self, step: Cell) -> int:
        """How far a square's bit moves when the square moves by ``step`` (``shifted``)."""
        return step[0] + step[1] * self.stride

    def flood(self, open_squares: int, seed: int) -> int:
        """The squares of ``open_squares`` connected to those of ``seed`` in it."""
        region = seed & open_squares
        stride = self.stride
        while True:
            grown = region | (((region << 1) | (region >> 1) | (region << stride) | (region >> stride)) & open_squares)
            if grown == region:
                return region
            region = grown

    def parts(self, open_squares: int) -> list[int]:
        """The connected parts of ``open_squares``, as bits, in the order of their lowest bits."""
        parts, left = [], open_squares
        while left:
            part = self.flood(left, left & -left)
            parts.append(part)
            left &= ~part
        return parts

    def ring_joined(self, free: int, bit: int) -> bool:
        """Whether the squares of ``free`` beside square ``bit`` (in its row and column) are
        joined round it, through ``free`` squares of the eight round it: then taking ``bit``
        out of a region leaves the rest of the region in one piece (a walk through it goes round)."""
        index = bit.bit_length() - 1
        corner = index - self.stride - 1  # the bit of the square up and left of it
        if corner < 0:
            return False
        pattern = (free >> corner) & 7 | ((free >> (index - 1)) & 7) << 3 | ((free >> (index + self.stride - 1)) & 7) << 6
        return RING_JOINED[pattern]


def ring_runs(pattern: int) -> int:
    """The runs of free squares round the middle of a 3x3 ``pattern`` (bit 3 * row + column)
    that hold a square beside it in its row or column."""
    ring = [bool(pattern >> position & 1) for position in (1, 2, 5, 8, 7, 6, 3, 0)]  # N, NE, E, SE, S, SW, W, NW
    if all(ring):
        return 1
    start, runs, run_has_side = ring.index(False), 0, False
    for step in range(1, 9):
        index = (start + step) % 8
        if ring[index]:
            run_has_side = run_has_side or index % 2 == 0
        elif run_has_side:
            runs, run_has_side = runs + 1, False
    return runs


RING_JOINED = tuple(ring_runs(pattern) <= 1 for pattern in range(512))  # by 3x3 pattern: Board.ring_joined


def shifted(bits: int, offset: int) -> int:
    """Every square of ``bits`` moved by the step whose ``Board.offset`` is ``offset``."""
    return bits << offset if offset >= 0 else bits >> -offset


@lru_cache(maxsize=256)
def board_of(floor: frozenset[Cell]) -> Board:
    """The board for squares no wider than ``floor``'s (cached: a level asks for it again and again)."""
    return Board(stride=max(x for x, _ in floor) + 2)


@lru_cache(maxsize=256)
def column_masks(floor: frozenset[Cell]) -> tuple[int, ...]:
    """The squares of ``floor`` in each column, left to right, as bits of ``board_of(floor)``."""
    board = board_of(floor)
    return tuple(board.mask({cell for cell in floor if cell[0] == x}) for x in range(board.stride))


def least_cell(floor: frozenset[Cell], bits: int) -> Cell:
    """The least square of ``bits`` (some squares of ``floor``) as cells order, column first:
    ``min(board.cells(bits))`` without listing them."""
    for column in column_masks(floor):
        if bits & column:
            low = bits & column
            return board_of(floor).cell(low & -low)
    raise ValueError("no square")


@lru_cache(maxsize=4096)
def floor_mask(floor: frozenset[Cell]) -> int:
    """The squares of ``floor`` as bits of ``board_of(floor)`` (cached: the box searches and the
    corral test ask for the same floors again and again)."""
    return board_of(floor).mask(floor)
