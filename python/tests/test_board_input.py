"""Boards and goals given as numbers or rows: every malformed one is a ValueError (or a
TypeError for a cell that is no number) with a message for Python, never NumPy's or an
OverflowError."""

import re

import numpy as np
import pytest

import fifteen

B = "1 2 3 0 4 6 7 5 8"


@pytest.mark.parametrize("huge", [1e20, -1e20, 1e300, np.float64(2.0**64)])
def test_a_whole_float_too_large_is_out_of_range_not_an_overflow(huge):
    board = [1, 2, 3, 0, 4, 6, 7, 5, huge]
    message = "is out of range"
    for call in (
        lambda: fifteen.solve(board),
        lambda: fifteen.heuristic(board),
        lambda: fifteen.is_solvable(board),
        lambda: fifteen.check(board, "RDR"),
        lambda: fifteen.distance([board]),
        lambda: fifteen.solve(B, goal=board),
        lambda: fifteen.solve(np.array(board, dtype=np.float64)),
    ):
        with pytest.raises(ValueError, match=message):
            call()
    with pytest.raises(ValueError, match=r"the number 100000000000000000000 is out of range"):
        fifteen.solve([1, 2, 3, 0, 4, 6, 7, 5, 1e20])


@pytest.mark.parametrize("call", [
    lambda board: fifteen.solve(board),
    lambda board: fifteen.is_solvable(board),
    lambda board: fifteen.heuristic(board),
    lambda board: fifteen.check(board, "RDR"),
    lambda board: fifteen.solve(B, goal=board),
])
def test_rows_of_different_lengths_in_a_list_are_refused_as_in_text(call):
    with pytest.raises(ValueError, match=r"row 2 has 2 numbers but row 1 has 3 \(a board's rows must all be the same length\)"):
        call([[1, 2, 3], [4, 5], [6, 7, 8, 0]])
    with pytest.raises(ValueError, match="row 3 has 4 numbers but row 1 has 3"):
        call(((1, 2, 3), np.array([0, 4, 6]), [7, 5, 8, 0]))
    with pytest.raises(ValueError, match=r"row 3 is one number \(7\) but row 1 is a row"):
        call([[1, 2, 3], [0, 4, 6], 7, 5, 8])
    with pytest.raises(TypeError, match="a board cell must be a whole number; got None"):
        call([[1, 2, 3], [0, 4, 6], None])


@pytest.mark.parametrize("board, count", [([1, 2, 3, 4, 0, 5], 6), ("1 2 3 4 0 5", 6), ([1, 2, 0], 3)])
def test_a_count_that_makes_no_board_gets_python_advice(board, count):
    for call in (fifteen.solve, fifteen.heuristic, fifteen.is_solvable):
        with pytest.raises(ValueError) as e:
            call(board)
        message = str(e.value)
        assert message.startswith(f"{count} numbers do not make a board (give 4, 9, 16, 25 or 36 numbers")
        assert "np.array([[1, 2, 3], [4, 0, 5]])" in message
        assert "--size" not in message and "size:" not in message
    with pytest.raises(ValueError, match=r"10 numbers do not make a board \(give 4, 9,"):
        fifteen.distance(np.zeros((2, 10), dtype=np.uint8))


def test_a_flat_goal_of_the_wrong_length_says_so():
    for goal in ([1, 2, 3, 4, 5, 0], "1 2 3 4 5 0", np.array([1, 2, 3, 4, 5, 0]), list(range(16))):
        with pytest.raises(ValueError, match=f"the goal has {len(goal.split()) if isinstance(goal, str) else len(goal)} cells but the board has 9"):
            fifteen.solve(B, goal=goal)
    with pytest.raises(ValueError, match="the goal has 6 cells but the board has 9"):
        fifteen.distance(fifteen.random_boards(2, size=3, seed=1), goal=[1, 2, 3, 4, 5, 0])


@pytest.mark.parametrize("cell", [True, False, np.True_, np.False_])
def test_a_bool_among_numbers_is_no_cell(cell):
    # NumPy reads a list mixing bools and whole numbers as whole numbers (True as 1); a
    # bool is refused wherever it is, as a board of bools alone is.
    board = [1, 2, 3, 0, 4, 6, 7, 5, 8]
    board[0 if cell else 3] = cell
    rows = [board[:3], board[3:6], board[6:]]
    message = f"a board cell must be a whole number; got bool '{bool(cell)}'"
    for call in (
        lambda: fifteen.solve(board),
        lambda: fifteen.solve(rows),
        lambda: fifteen.is_solvable(board),
        lambda: fifteen.check(board, "RDR"),
        lambda: fifteen.heuristic(board),
        lambda: fifteen.solve(B, goal=board),
        lambda: fifteen.solve(B, goal=rows),
    ):
        with pytest.raises(TypeError, match=message):
            call()
    for call in (
        lambda: fifteen.distance([B, board]),
        lambda: fifteen.distance([[1, 2, 3, 0, 4, 6, 7, 5, 8], board]),
        lambda: fifteen.distance([[[1, 2, 3], [0, 4, 6], [7, 5, 8]], rows]),
        lambda: fifteen.heuristic([[1, 2, 3, 0, 4, 6, 7, 5, 8], board]),
        lambda: fifteen.solve_many([[1, 2, 3, 0, 4, 6, 7, 5, 8], np.array(board, dtype=object)]),
    ):
        with pytest.raises(TypeError, match=f"board 1: {message}"):
            call()


@pytest.mark.parametrize("cell, named", [
    ("8", "str '8'"), (8 + 1j, "complex '(8+1j)'"), (b"8", "bytes \"b'8'\""), (None, "None"),
])
def test_a_cell_that_is_no_number_is_the_one_named(cell, named):
    # NumPy turns the whole list into text (or complex numbers): the first cell, a good
    # number, was named instead.
    board = [1, 2, 3, 0, 4, 6, 7, 5, cell]
    message = f"a board cell must be a whole number; got {named}"
    for call in (
        lambda: fifteen.solve(board),
        lambda: fifteen.solve([board[:3], board[3:6], board[6:]]),
        lambda: fifteen.solve(B, goal=board),
        lambda: fifteen.heuristic(board),  # one board, not a batch of text boards
    ):
        with pytest.raises(TypeError, match=re.escape(message)):
            call()
    with pytest.raises(TypeError, match=re.escape(f"board 0: {message}")):
        fifteen.distance([board])


@pytest.mark.parametrize("grid", [
    [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 0, 15]],
    [[1, 2, 3], [4, 5, 6], [7, 0, 8]],
])
def test_one_board_drawn_as_a_grid_where_a_batch_is_asked_says_so(grid):
    # Read as a batch, its rows are boards of their own; the error says what was meant.
    for boards in (grid, np.array(grid)):
        with pytest.raises(ValueError, match="this is one .* board drawn as a grid: give \\[board\\]"):
            fifteen.distance(boards)
    if len(grid) == 3:  # (a 4x4 distance would build the 4x4 tables)
        assert list(fifteen.distance([np.array(grid)])) == [fifteen.solve(grid).length]


@pytest.mark.parametrize("make", [bytes, bytearray, lambda b: memoryview(bytes(b))])
def test_bytes_are_no_board_whichever_kind(make):
    # Text or one byte a cell? NumPy reads bytes as text and a bytearray as numbers: the
    # two kinds were told apart by accident, so neither is taken, and the error says how.
    board = make([1, 2, 3, 0, 4, 6, 7, 5, 8])
    advice = "is no board (text, or one byte a cell?): give text as str"
    for call, prefix in (
        (lambda: fifteen.solve(board), ""),
        (lambda: fifteen.heuristic(board), ""),
        (lambda: fifteen.solve(B, goal=board), "goal: "),
        (lambda: fifteen.distance([board]), "board 0: "),
        (lambda: fifteen.solve_many([B, board]), "board 1: "),
    ):
        with pytest.raises(TypeError, match=re.escape(prefix) + ".* " + re.escape(advice)):
            call()
    # What the error advises reads it.
    assert fifteen.solve(list(board)).length == 3
    assert fifteen.solve(np.frombuffer(bytes(board), np.uint8)).length == 3


def test_a_masked_array_is_refused_not_read_without_its_mask():
    board = np.ma.masked_array([1, 2, 3, 0, 4, 6, 7, 5, 8], mask=[0] * 8 + [1])
    message = "a masked array's mask would be ignored"
    with pytest.raises(TypeError, match=message):
        fifteen.solve(board)
    with pytest.raises(TypeError, match="goal: " + message):
        fifteen.solve(B, goal=board)
    with pytest.raises(TypeError, match="boards: " + message):
        fifteen.distance(np.ma.masked_array([board.data]))
    with pytest.raises(TypeError, match="board 0: " + message):
        fifteen.distance([board])
    assert fifteen.solve(board.data).length == 3
