"""Squares as bits (sokoasp/bitboard.py): the flood fill finds the player's region exactly as
the set-based search does, on every reachable state of the corpus levels, for every start."""

from __future__ import annotations

from test_deadlocks import corpus_states

from sokoasp.sokoban.bitboard import board_of, least_cell
from sokoasp.sokoban.breadth_first import region_from


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


def test_a_square_ring_joined_leaves_the_region_round_it_in_one_piece() -> None:
    """``Board.ring_joined`` may say no where the square does not cut the region (the walk
    round goes further out), never yes where it does; and it says yes often enough to matter."""
    joined = cut = 0
    for state in corpus_states(pulls=False)[::7]:
        board = board_of(state.floor)
        free = board.mask(state.floor - state.boxes)
        for square in sorted(state.floor - state.boxes):
            rest = state.floor - state.boxes - {square}
            beside = [cell for cell in rest if abs(cell[0] - square[0]) + abs(cell[1] - square[1]) == 1]
            if not beside:
                continue
            pieces = {min(region_from(state.floor, state.boxes | {square}, [cell])) for cell in beside}
            if board.ring_joined(free & ~board.bit(square), board.bit(square)):
                assert len(pieces) == 1, (state, square)
                joined += 1
            else:
                cut += len(pieces) > 1
    assert joined > 1000 and cut > 100


def test_the_least_cell_of_some_squares_is_the_least_of_their_cells() -> None:
    for state in corpus_states(False)[::13]:
        board = board_of(state.floor)
        for cells in (state.boxes, state.floor - state.boxes, frozenset({max(state.floor)}), state.floor):
            assert least_cell(state.floor, board.mask(cells)) == min(cells)
