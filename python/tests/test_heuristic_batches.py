"""heuristic() tells one board from a batch by which its numbers fit better, so that a
batch with a bad board is still a batch whose error names the board, as distance()'s does."""

import numpy as np
import pytest

import fifteen

B = "1 2 3 0 4 6 7 5 8"


@pytest.mark.parametrize("boards, message", [
    (np.array([[1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 5, 6, 7, 8, 0]]),
     r"board 0: the number 9 is out of range \(0 to 8\)"),
    (np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0], [255, 2, 3, 4, 5, 6, 7, 8, 0], [1, 2, 3, 4, 5, 6, 7, 8, 0]]),
     r"board 1: the number 255 is out of range \(0 to 8\)"),
    ([[1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 2, 3, 4, 5, 6, 7, 8, 8]], "board 1: the number 8 appears more than once"),
    (np.array([[1, 2, 3, 0], [1, 2, 3, 4]]), r"board 1: the number 4 is out of range \(0 to 3\)"),
    ([[1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 2, 3, 4, 5, 6, 7, 0]], "board 1: 8 numbers do not make a board"),
])
def test_heuristic_names_the_bad_board_of_a_batch_as_distance_does(boards, message):
    for f in (fifteen.distance, fifteen.heuristic):
        with pytest.raises(ValueError, match=message):
            f(boards)


def test_heuristic_still_reads_one_bad_board_as_one_board():
    # A 4x4 board's rows are 4 numbers long, as a 2x2 board is: still one board.
    with pytest.raises(ValueError, match="the number 5 appears more than once"):
        fifteen.heuristic([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 5, 0]])
    with pytest.raises(ValueError, match=r"the number 16 is out of range \(0 to 15\)"):
        fifteen.heuristic(np.array([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 16, 0]]))
    # Rows of a length no square board has: one board, whatever its numbers.
    with pytest.raises(ValueError, match="the number 1 appears more than once"):
        fifteen.heuristic([[1, 1, 1], [1, 1, 1], [1, 1, 0]])
    # A valid 2x4 board stays one (its rows would make a 2x2 board and a bad one).
    assert fifteen.heuristic(np.array([[1, 2, 3, 0], [5, 4, 6, 7]]), "manhattan") == 5


def test_heuristic_of_no_boards_is_an_empty_array_as_distance_gives():
    for empty in ([], (), np.zeros((0, 9), dtype=np.uint8), np.zeros(0, dtype=np.uint8)):
        h = fifteen.heuristic(empty, "manhattan")
        assert isinstance(h, np.ndarray) and h.dtype == np.int32 and h.shape == (0,)
        assert fifteen.distance(empty).shape == (0,)
    assert fifteen.heuristic([], "pdb").shape == (0,)  # no tables opened for no boards
    with pytest.raises(ValueError, match="unknown heuristic 'nope'"):
        fifteen.heuristic([], "nope")
    # The names exactly, as solve(heuristic=) takes them: no second spelling.
    for other in ("Manhattan", "linear_conflict", "walking distance"):
        with pytest.raises(ValueError, match=f"unknown heuristic '{other}'"):
            fifteen.heuristic("1 2 3 4 5 6 7 8 0", other)
        with pytest.raises(ValueError, match=f"unknown heuristic '{other}'"):
            fifteen.solve("1 2 3 4 5 6 7 8 0", heuristic=other)
    # The estimates heuristic() computes that no search takes are named as such.
    for only_estimate in ("walking-distance", "solve"):
        assert fifteen.heuristic("1 2 3 4 5 6 7 0 8", only_estimate) == 1
        message = f"'{only_estimate}' is an estimate fifteen.heuristic computes, not one a search takes"
        with pytest.raises(ValueError, match=message):
            fifteen.solve("1 2 3 4 5 6 7 8 0", heuristic=only_estimate)
        with pytest.raises(ValueError, match=message):
            fifteen.search("1 2 3 4 5 6 7 8 0", heuristic=only_estimate)


def test_heuristic_of_a_list_of_boards_given_as_rows_is_a_batch():
    rows = [[1, 2, 3], [0, 4, 6], [7, 5, 8]]
    solved = [[1, 2, 3], [4, 5, 6], [7, 8, 0]]
    for boards in ([rows, solved], [np.array(rows), np.array(solved)], np.array([rows, solved])):
        assert fifteen.heuristic(boards, "manhattan").tolist() == [3, 0]
    with pytest.raises(ValueError, match="board 1: the number 9 is out of range"):
        fifteen.heuristic([rows, [[1, 2, 3], [4, 5, 6], [7, 8, 9]]])
