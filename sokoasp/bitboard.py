"""Sets of squares as Python ints, one bit per square, for the hot loop of the box searches
(``filling.push_search`` and ``filling.states_onto``: the corral, group and filling tests; the
goal room's parking search, ``goalroom.room_plan``).

A square (x, y) is bit ``y * stride + x``, the stride two more than the largest x of the floor, so
a bit moved one place left or right from the floor's edge lands in a column that is never floor
(``tests/test_bitboard.py`` fails with a stride one less). The player's region is then a flood
fill that grows a whole set by one step per round: a few integer shifts instead of one set
lookup per square.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .level import Cell


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


def shifted(bits: int, offset: int) -> int:
    """Every square of ``bits`` moved by the step whose ``Board.offset`` is ``offset``."""
    return bits << offset if offset >= 0 else bits >> -offset


@lru_cache(maxsize=256)
def board_of(floor: frozenset[Cell]) -> Board:
    """The board for squares no wider than ``floor``'s (cached: a level asks for it again and again)."""
    return Board(stride=max(x for x, _ in floor) + 2)


@lru_cache(maxsize=4096)
def floor_mask(floor: frozenset[Cell]) -> int:
    """The squares of ``floor`` as bits of ``board_of(floor)`` (cached: the box searches and the
    corral test ask for the same floors again and again)."""
    return board_of(floor).mask(floor)
