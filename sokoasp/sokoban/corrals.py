"""PI-corral pruning (Junghanns; the Sokoban wiki's "PI-corral"): when squares the player cannot
reach are shut in by boxes that can only be pushed into them, and the player can make each of
those pushes now, some plan (and some plan with the fewest pushes) starts with one of them. A
search then tries only those pushes.

A corral is a connected part of the empty squares the player cannot reach; its fence, the boxes
beside it. It is a PI-corral here when every push of a fence box that does not go into the
corral is blocked (for good: until a fence box moves) by a wall or another fence box, or needs the
player inside the corral, and every push into it starts from a square the player reaches now or
is blocked so. It is
worth entering when a fence box stands off a target, or (every target to be filled) the corral
holds a target. Sound for a search of pushes that must put every box on a target (the boxes of
any plan's first fence push can be pushed first, the other pushes after it unchanged, to the same
state): ``tests/sokoban/test_corrals.py`` checks searches with the cut against breadth-first ones.
"""

from __future__ import annotations

from sokoasp.sokoban.bitboard import Board


def pi_corral(board: Board, open_squares: int, region: int, boxes: int, targets: int, fill_all: bool) -> tuple[int, int] | None:
    """(fence, corral) as bits: the PI-corral worth entering with the fewest fence boxes, or None.
    ``open_squares``: the floor; ``region``: the player's; ``fill_all``: every target needs a box."""
    hidden = open_squares & ~region & ~boxes
    if not hidden:
        return None
    best: tuple[int, int] | None = None
    for corral in board.parts(hidden):
        fence = beside(board, corral) & boxes
        if not fence & ~targets and not (fill_all and corral & targets):
            continue  # nothing to do in it
        if best is not None and fence.bit_count() >= best[0].bit_count():
            continue
        if fenced_in(board, open_squares, region, fence, corral):
            best = fence, corral
    return best


def beside(board: Board, bits: int) -> int:
    """The squares next to those of ``bits`` (in a row or column), ``bits`` among them."""
    stride = board.stride
    return bits | bits << 1 | bits >> 1 | bits << stride | bits >> stride


def fenced_in(board: Board, open_squares: int, region: int, fence: int, corral: int) -> bool:
    """Whether each fence box can only be pushed into ``corral`` and the player can make each such
    push now (walls and fence boxes block for good; other boxes may move away)."""
    stride = board.stride
    left = fence
    while left:
        box = left & -left
        left ^= box
        for ahead, behind in ((box << 1, box >> 1), (box >> 1, box << 1), (box << stride, box >> stride),
                              (box >> stride, box << stride)):
            # blocked until a fence box moves: a wall or fence box ahead, or behind (where the player
            # would stand) a wall, a fence box or the corral itself
            blocked = not ahead & open_squares or ahead & fence or not behind & open_squares or behind & (fence | corral)
            if ahead & corral:
                if not blocked and not behind & region:
                    return False  # a push into the corral the player cannot make now
            elif not blocked:
                return False  # a push out of the corral or along it that may become possible
    return True
