"""Squares as bits (sokoasp/bitboard.py): the flood fill finds the player's region exactly as
the set-based search does, on every reachable state of the corpus levels, for every start."""

from __future__ import annotations

from test_deadlocks import corpus_states

from sokoasp.bitboard import board_of
from sokoasp.search import region_from


def test_the_flood_fill_is_the_players_region_on_every_corpus_state() -> None:
    states = corpus_states(pulls=False)
    assert len(states) > 1000
    for state in states:
        board = board_of(state.floor)
        open_squares = board.mask(state.floor - state.boxes)
        for start in sorted(state.floor - state.boxes)[::3]:
            expected = region_from(state.floor, state.boxes, [start])
            assert board.flood(open_squares, board.bit(start)) == board.mask(expected)


def test_a_square_off_the_floor_edge_is_never_a_floor_square() -> None:
    """A bit moved one place left or right from the floor's edge lands on no floor square, so
    the flood cannot jump from one row's end to the next row's start."""
    ends = frozenset({(2, 1), (0, 2)})  # not joined: the end of row 1 and the start of row 2
    board = board_of(ends)
    assert board.flood(board.mask(ends), board.bit((2, 1))) == board.bit((2, 1))
    assert board.flood(board.mask(ends), board.bit((0, 2))) == board.bit((0, 2))
