"""The compiled push search (``search_kernel.c``, built as ``_search_kernel`` where a C compiler
is found at install; ``pip install`` without one installs the Python alone). ``search`` is
``push_search.push_search`` state for state: the same order, tie-breaks and limits, so the same
outcome, moves and work; ``deadlocks`` keeps a floor's deadlock prune (``traps.Deadlocked``) and
``routes`` the feature search's routes of a box (``feature_search.box_routes``), each answering
as the Python does (``tests/sokoban/test_kernel.py`` compares them). This module turns sets and
dicts into the kernel's bytes, and answers None where the kernel does not apply (a board of more
than ``MOST_SQUARES`` bits, or a guide with other than one target a box): the caller then works
in Python. ``SOKOASP_PURE=1`` in the environment leaves the kernel unloaded."""

from __future__ import annotations

import math
import os
from array import array
from collections.abc import Callable
from functools import lru_cache
from types import ModuleType
from typing import Any

from sokoasp.board.level import Cell
from sokoasp.sokoban.bitboard import board_of, floor_mask


def load() -> ModuleType | None:
    """The compiled module, or None where it is not built or ``SOKOASP_PURE`` is set."""
    if os.environ.get("SOKOASP_PURE"):
        return None
    try:
        from sokoasp.sokoban import _search_kernel  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _search_kernel


COMPILED: Any = load()  # the C module (untyped), or None
MOST_SQUARES = 1024  # the kernel's widest board (rows times stride), MAX_WORDS 64-bit words
UNREACHED = -1  # a square missing from a distance table

Moves = tuple[tuple[Cell, Cell], ...]  # push_search.Moves
# (stop, moves or None, states taken up, their (boxes, region) keys or None): stop 0 found, 1 exhausted,
# 2 state limit, 3 deadline, 4 live
Raw = tuple[int, list[tuple[Cell, Cell]] | None, int, set[tuple[int, int]] | None]


@lru_cache(maxsize=4096)
def floor_bytes(free: frozenset[Cell]) -> tuple[int, int, bytes]:
    """The board's stride, its squares (bits) and the floor as little-endian bytes."""
    mask = floor_mask(free)
    squares = mask.bit_length()
    return board_of(free).stride, squares, mask.to_bytes((squares + 7) // 8, "little")


def fitting(free: frozenset[Cell]) -> tuple[int, int, bytes] | None:
    """``floor_bytes(free)`` where the kernel is loaded and the board fits it; None otherwise."""
    if COMPILED is None:
        return None
    stride, squares, open_bytes = floor_bytes(free)
    return None if squares > MOST_SQUARES or not squares else (stride, squares, open_bytes)


def index(cell: Cell, stride: int) -> int:
    """The square's bit on a board of ``stride`` (``bitboard.Board``)."""
    return cell[1] * stride + cell[0]


def distance_bytes(distance: dict[Cell, int], free: frozenset[Cell], stride: int, squares: int) -> bytes:
    """``distance`` as one int32 a square of ``free`` (``UNREACHED`` elsewhere)."""
    values = array("i", [UNREACHED]) * squares
    for (x, y), steps in distance.items():
        if x < stride - 1 and (x, y) in free:
            values[y * stride + x] = steps
    return values.tobytes()


def deadlocks(free: frozenset[Cell], goals: frozenset[Cell], axes: dict[Cell, tuple[tuple[Cell, Cell], ...]], freeze: bool,
              group_dead: Callable[[tuple[Cell, ...], Cell], bool], never_dead: Callable[[tuple[Cell, ...]], bool] | None) -> object | None:
    """The deadlock prune of ``free`` in the kernel (``traps.Deadlocked``), kept between calls with
    the answers it asked for; None without the kernel or on a board too wide for it. ``axes``:
    ``deadlocks.box_axes``; ``freeze``: test frozen boxes; ``group_dead(group, side)``: a group's
    answer; ``never_dead(pair)``: a pair alive from every side (None: ask ``group_dead``)."""
    board_bytes = fitting(free)
    if board_bytes is None:
        return None
    stride, squares, open_bytes = board_bytes
    spec = (cells_bytes(free, goals), axes_bytes(free, axes), freeze, group_dead, never_dead)
    capsule: object = COMPILED.deadlocks(stride, squares, open_bytes, spec)
    return capsule


def deadlocked(prune: object, free: frozenset[Cell], boxes: frozenset[Cell], player: Cell, moved: Cell, pulls: bool) -> bool:
    """The kernel's prune (``deadlocks``) of one state: a dead group with the box just ``moved``
    or, where it tests them, frozen boxes that leave it dead."""
    stride, _, _ = floor_bytes(free)
    dead: bool = COMPILED.deadlocked(prune, cells_bytes(free, boxes), index(player, stride), index(moved, stride), pulls)
    return dead


def routes(free: frozenset[Cell], distance: dict[Cell, int]) -> object | None:
    """The pushes and distances of ``free`` kept in the kernel for ``box_routes``; None without the
    kernel or on a board too wide for it."""
    board_bytes = fitting(free)
    if board_bytes is None:
        return None
    stride, squares, open_bytes = board_bytes
    kept: object = COMPILED.routes(stride, squares, open_bytes, distance_bytes(distance, free, stride, squares))
    return kept


def box_routes(kept: object, free: frozenset[Cell], others: int, box: Cell, region: int) -> list[tuple[Cell, int, Moves]]:
    """``feature_search.box_routes`` in the kernel (``kept``: ``routes(free, distance)``)."""
    stride, squares, _ = floor_bytes(free)
    width = (squares + 7) // 8
    found: list[tuple[Cell, int, Moves]] = COMPILED.box_routes(
        kept, others.to_bytes(width, "little"), index(box, stride), region.to_bytes(width, "little"))
    return found


def cells_bytes(free: frozenset[Cell], cells: frozenset[Cell]) -> bytes:
    """``cells`` as the kernel's mask on the board of ``free``."""
    stride, squares, _ = floor_bytes(free)
    return (board_of(free).mask(cells) & floor_mask(free)).to_bytes((squares + 7) // 8, "little")


def axes_bytes(free: frozenset[Cell], axes: dict[Cell, tuple[tuple[Cell, Cell], ...]]) -> bytes:
    """Each square's axes a box could move along (``deadlocks.box_axes``) as four int16 a
    square: (ahead, behind) twice, ``UNREACHED`` where there are fewer axes."""
    stride, squares, _ = floor_bytes(free)
    values = array("h", [UNREACHED]) * (4 * squares)
    for square, pairs in axes.items():
        for axis, (ahead, behind) in enumerate(pairs):
            at = 4 * index(square, stride) + 2 * axis
            values[at], values[at + 1] = index(ahead, stride), index(behind, stride)
    return values.tobytes()


def costs_bytes(costs: dict[Cell, list[int]], stride: int, squares: int, targets: int, infinity: int) -> bytes:
    """A matching guide's costs (square -> fewest moves to each target) as int32, square by square."""
    values = array("i", [infinity]) * (squares * targets)
    for (x, y), row in costs.items():
        index = y * stride + x
        if x < stride - 1 and index < squares:
            values[index * targets:(index + 1) * targets] = array("i", row)
    return values.tobytes()


def search(free: frozenset[Cell], start: frozenset[Cell], player: Cell, distance: dict[Cell, int], targets: frozenset[Cell],
           enough: int, escape: frozenset[Cell], home: Cell | None, pulls: bool, states: int, deadline: float,
           prune: Callable[[frozenset[Cell], Cell, Cell], bool] | None, newest_first: bool, corrals: bool,
           live: set[tuple[int, int]] | None, costs: Callable[[int, int], bytes] | None, keep_seen: bool) -> Raw | None:
    """``push_search.push_search`` in the kernel (its arguments unpacked; ``costs(stride,
    squares)``: the guide's costs as bytes), or None where the kernel does not apply. A prune
    with a ``compiled(free)`` method (``traps.Deadlocked``) runs in the kernel; any other is
    called back."""
    board_bytes = fitting(free)
    if board_bytes is None or (home is not None and home not in free):
        return None
    stride, squares, open_bytes = board_bytes
    compiled_prune = getattr(prune, "compiled", None)
    test = prune if compiled_prune is None else compiled_prune(free) or prune

    guide = None if costs is None else costs(stride, squares)
    if guide is not None and len(guide) != 4 * squares * len(start):
        return None  # the guide matches as many targets as boxes only
    raw: Any = COMPILED.search(
        stride, squares, open_bytes, cells_bytes(free, start), index(player, stride), distance_bytes(distance, free, stride, squares),
        cells_bytes(free, targets), cells_bytes(free, escape), cells_bytes(free, frozenset() if home is None else frozenset({home})),
        enough, pulls,
        min(states, 2**62), deadline if deadline < math.inf else 1e308, newest_first, corrals, test, live, guide, keep_seen)
    return raw


def path_keys(free: frozenset[Cell], boxes: frozenset[Cell], moves: Moves, pulls: bool) -> list[tuple[int, int]] | None:
    """The (boxes, player region) keys, as bits of ``board_of(free)``, of the states along
    ``moves`` from ``boxes``, the player where each move leaves it; None without the kernel."""
    board_bytes = fitting(free)
    if board_bytes is None:
        return None
    stride, squares, open_bytes = board_bytes
    indices = [(index(before, stride), index(after, stride)) for before, after in moves]
    keys: list[tuple[int, int]] = COMPILED.path_keys(stride, squares, open_bytes, cells_bytes(free, boxes), indices, pulls)
    return keys
