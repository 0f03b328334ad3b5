"""Errors are Python exceptions with the command line's messages: ValueError for boards,
OSError for tables, SearchStopped for limits, KeyboardInterrupt for Ctrl-C; never a
crash."""

import json
import os
import re
import signal
import threading
import time

import numpy as np
import pytest

import fifteen
from conftest import release_binary


@pytest.mark.parametrize(
    "board, message",
    [
        ("2 1 3 4 5 6 7 8 0", "unsolvable: this board cannot reach the goal"),
        ("1 2 3", "3 numbers do not make a board"),
        ("1 1 3 4 5 6 7 8 0", "the number 1 appears more than once"),
        ("1 2 3 4 5 6 7 8 9", "the number 9 is out of range (0 to 8)"),
        ("1 2 x 4 5 6 7 8 0", "'x' is not a number"),
        ("", "no numbers given"),
        # Rows of different lengths are refused, not read as a square board.
        ("1 2 3\n4 5\n6 7 8 0", "row 2 has 2 numbers but row 1 has 3"),
        ("1 2 3 4\n5 6 7 8 0", "row 2 has 5 numbers but row 1 has 4"),
        ("1 2 3\n\n4 0 6\n7 5 8 9", "row 3 has 4 numbers but row 1 has 3"),
        ([1, 2, 3, 4, 5, 6, 7, 8, -1], "the number -1 is out of range (0 to 8)"),
        ([1, 2, 3, 4, 5, 6, 7, 8, 300], "the number 300 is out of range (0 to 8)"),
        ([1.5, 2, 3, 4, 5, 6, 7, 8, 0], "'1.5' is not a whole number"),
        ([1.0, 2, 3, 4, 5, 6, 7, 8, float("nan")], "'nan' is not a whole number"),
        ([1, 2, 3, 4, 5, 6, 7, 8, 2**70], f"the number {2**70} is out of range"),
    ],
)
def test_bad_boards(board, message):
    with pytest.raises(ValueError) as e:
        fifteen.solve(board)
    assert message in str(e.value)


@pytest.mark.parametrize(
    "board, message",
    [
        ([1, 2, 3, 4, 5, 6, 7, 8, None], "a board cell must be a whole number; got None"),
        (np.array([1, 2, 3, 4, 5, 6, 7, 8, None], dtype=object), "whole number; got None"),
        (np.array([[1, 2, 3], [4, 5, 6], [7, 8, None]], dtype=object), "got None"),
        ([1, 2, 3, 4, 5, 6, 7, "8", 0], "whole number; got str '8'"),
        (None, "a board is text, a sequence of numbers or a 2-D array of rows, not None"),
    ],
)
def test_cells_that_are_not_numbers_raise_type_error(board, message):
    with pytest.raises(TypeError) as e:
        fifteen.solve(board)
    assert message in str(e.value)


def test_object_arrays_of_whole_numbers_are_boards():
    board = np.array([1, 2, 3, 0, 4, 6, 7, 5, 8], dtype=object)
    assert fifteen.solve(board, heuristic="manhattan").moves == "RDR"
    with pytest.raises(TypeError, match="board 1: a board cell must be a whole number; got None"):
        fifteen.distance(["1 2 3 0 4 6 7 5 8", [1, 2, 3, 4, 5, 6, 7, 8, None]])


def test_rows_of_one_length_and_blank_lines_read_as_before():
    assert fifteen.solve("1 2 3\n0 4 6\n\n7 5 8\n", heuristic="manhattan").moves == "RDR"
    assert fifteen.solve("1,2,3\n0,4,6\n7,5,8", heuristic="manhattan").moves == "RDR"
    with pytest.raises(ValueError, match="row 2 has 2 numbers but row 1 has 3"):
        fifteen.solve("1 2 3 0 4 6 7 5 8", goal="1 2 3\n4 5\n6 7 8 0")


def test_bad_goals():
    with pytest.raises(ValueError, match="the goal has 16 cells but the board has 9"):
        fifteen.solve("1 2 3 0 4 6 7 5 8", goal=list(range(16)))
    # As many cells in another shape: the shapes are named, not the counts.
    with pytest.raises(ValueError, match="the goal is 3x2 but the board is 2x3"):
        fifteen.solve(np.array([[1, 2, 3], [4, 0, 5]]), goal=np.array([[1, 2], [3, 4], [5, 0]]))
    with pytest.raises(ValueError, match="the goal is 3x4 but the board is 4x3"):
        fifteen.distance(fifteen.random_boards(2, size="4x3", seed=1), goal="1 2 3 4\n5 6 7 8\n9 10 11 0")
    with pytest.raises(ValueError, match="unknown goal 'diagonal'"):
        fifteen.solve("1 2 3 0 4 6 7 5 8", goal="diagonal")
    with pytest.raises(ValueError, match="unsolvable"):
        fifteen.solve("1 2 3 0 4 6 7 5 8", goal="2 1 3 4 5 6 7 8 0")


def test_bad_batches_name_the_board():
    boards = fifteen.random_boards(5, size=3, seed=1)
    boards[3, :2] = boards[3, 1::-1]  # swapping two tiles (or the blank) flips solvability
    if fifteen.is_solvable(boards[3]):
        boards[3, 2:4] = boards[3, 3:1:-1]
    with pytest.raises(ValueError, match="board 3: unsolvable"):
        fifteen.distance(boards)
    with pytest.raises(ValueError, match="board 0: the number 9 is out of range"):
        fifteen.distance(np.full((2, 9), 9))
    with pytest.raises(ValueError, match="10 numbers do not make a board"):
        fifteen.distance(np.zeros((2, 10), dtype=np.uint8))
    with pytest.raises(ValueError, match="same shape"):
        fifteen.distance(["1 2 3 4 5 6 7 8 0", "1 2 3 0"])
    # A list of boards, in any form: the bad one is named by its index too.
    with pytest.raises(ValueError, match="board 2: the number 8 appears more than once"):
        fifteen.distance(["1 2 3 0 4 6 7 5 8", "1 2 3 4 5 6 7 8 0", "1 2 3 4 5 6 7 8 8"])
    with pytest.raises(ValueError, match="board 1: 'x' is not a number"):
        fifteen.distance(["1 2 3 4 5 6 7 8 0", "1 2 3 x 5 6 7 8 0"])
    with pytest.raises(ValueError, match="board 1: "):
        fifteen.distance([[1, 2, 3, 4, 5, 6, 7, 8, 0], [1, 2, 3, 4, 5, 6, 7, 0]])


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_a_batch_array_of_whole_floats_is_read_as_integers(dtype):
    # As a single board and a list of boards are: 2.0 is a number.
    boards = fifteen.random_boards(6, size=3, seed=1)
    want = fifteen.distance(boards).tolist()
    floats = boards.astype(dtype)
    assert fifteen.distance(floats).tolist() == want
    assert fifteen.heuristic(floats, "manhattan").tolist() == fifteen.heuristic(boards, "manhattan").tolist()
    assert fifteen.solve_many(floats.reshape(6, 3, 3)).tolist() == want
    assert fifteen.is_solvable(floats).all()
    # Anything else names its board, with the message solve gives for it.
    for bad, message in ((1.5, "'1.5' is not a whole number"), (np.nan, "not a whole number"),
                         (9.0, "the number 9 is out of range"), (-1.0, "out of range"),
                         (1e20, "the number 100000000000000000000 is out of range")):
        odd = floats.copy()
        odd[4, 2] = bad
        if dtype == "float32" and bad == 1e20:
            continue
        with pytest.raises(ValueError, match=f"board 4: .*{message}"):
            fifteen.distance(odd)


@pytest.mark.parametrize("dtype", ["bool"])
def test_a_batch_of_another_dtype_is_named(dtype):
    boards = fifteen.random_boards(3, size=3, seed=1).astype(dtype)
    message = f"boards must be whole numbers; got an array of {dtype}"
    with pytest.raises(TypeError, match=message):
        fifteen.distance(boards)
    with pytest.raises(TypeError, match=message):
        fifteen.heuristic(boards)
    with pytest.raises(TypeError, match=message):
        fifteen.solve_many(boards.reshape(3, 3, 3))


def test_a_list_batch_is_read_board_by_board_as_solve_reads_boards():
    # Whole floats are numbers in one board, so in a list of boards too; the rest is named.
    assert fifteen.distance([[1.0, 2, 3, 0, 4, 6, 7, 5, 8]]).tolist() == [3]
    with pytest.raises(ValueError, match="board 1: '1.5' is not a whole number"):
        fifteen.distance([[1, 2, 3, 0, 4, 6, 7, 5, 8], [1.5, 2, 3, 0, 4, 6, 7, 5, 8]])
    with pytest.raises(TypeError, match="board 0: a board cell must be a whole number; got bool"):
        fifteen.distance([[True] * 9])
    objects = np.array([[1, 2, 3, 0, 4, 6, 7, 5, 8], [1, 2, 3, 4, 5, 6, 7, 8, None]], dtype=object)
    with pytest.raises(TypeError, match="board 1: a board cell must be a whole number; got None"):
        fifteen.distance(objects)
    assert fifteen.distance(objects[:1]).tolist() == [3]


def test_random_boards_refuses_what_it_cannot_do():
    with pytest.raises(ValueError, match="walk: give a number from 0 to 1,000,000"):
        fifteen.random_boards(1, size=3, walk=10**11)
    with pytest.raises(ValueError, match="walk"):
        fifteen.random_boards(1, size=3, walk=-1)
    with pytest.raises(TypeError, match="give walk= alone"):
        fifteen.random_boards(1, size=3, walk=2, moves=2)
    with pytest.raises(MemoryError):
        fifteen.random_boards(2**62, size=4)


def test_one_board_where_a_batch_is_asked_says_how():
    board = "1 2 3 4 5 6 7 0 8"
    for one in (board, [1, 2, 3, 4, 5, 6, 7, 0, 8], np.array([1, 2, 3, 4, 5, 6, 7, 0, 8])):
        for batch_only in (fifteen.distance, fifteen.solve_many):
            with pytest.raises(ValueError, match=r"this is one board: give \[board\]"):
                batch_only(one)
    assert fifteen.distance([board]).tolist() == [1] == [fifteen.solve(board).length]
    # No board at all: a TypeError naming the argument, as for any argument of the wrong
    # type (docs/python.md, "Errors"), and no such hint.
    for batch_only in (fifteen.distance, fifteen.solve_many, fifteen.heuristic):
        for nothing, name in ((5, "int"), (None, "None"), ({}, "dict"), ({board}, "set")):
            with pytest.raises(TypeError, match=f"^boards: give .* or a list of boards, not {name}$"):
                batch_only(nothing)


def test_a_generator_of_boards_is_a_batch():
    boards = ["1 2 3 4 5 6 7 0 8", "1 2 3 4 5 6 0 7 8"]
    assert fifteen.distance(b for b in boards).tolist() == [1, 2]
    assert fifteen.distance(iter(boards)).tolist() == fifteen.distance(boards).tolist()


def test_a_column_of_boards_is_a_batch():
    # What pandas' `df["board"].to_numpy()` gives for a column of lists, and an array of
    # texts: each board read as `solve` reads it, a bad one named by its index.
    col = np.empty(2, dtype=object)
    col[:] = [[1, 2, 3, 0, 4, 6, 7, 5, 8], [1, 2, 3, 4, 5, 6, 7, 0, 8]]
    assert fifteen.distance(col).tolist() == [3, 1]
    texts = np.array(["1 2 3 0 4 6 7 5 8", "1 2 3 4 5 6 7 0 8"])
    assert fifteen.distance(texts).tolist() == [3, 1]
    assert fifteen.heuristic(texts, "manhattan").tolist() == [3, 1]
    with pytest.raises(ValueError, match=r"^board 1: .*more than once"):
        fifteen.distance(np.array(["1 2 3 0 4 6 7 5 8", "1 1 3 4 5 6 7 0 8"]))


def test_bad_options():
    with pytest.raises(ValueError, match="weight: give a number from 1 to 100"):
        fifteen.solve("1 2 3 0 4 6 7 5 8", weight=0.5)
    with pytest.raises(ValueError, match="unknown heuristic 'nope'"):
        fifteen.heuristic("1 2 3 0 4 6 7 5 8", "nope")
    with pytest.raises(ValueError, match="threads"):
        fifteen.solve("1 2 3 0 4 6 7 5 8", threads=0)
    with pytest.raises(ValueError, match="bad size"):
        fifteen.random_boards(1, size="big")


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: fifteen.solve("1 2 3 0 4 6 7 5 8", threads=-1), ValueError, "threads: give a whole number from 1 to 1,024"),
        (lambda: fifteen.solve("1 2 3 0 4 6 7 5 8", threads=2**70), ValueError, "threads"),
        (lambda: fifteen.solve("1 2 3 0 4 6 7 5 8", threads=1.5), TypeError, "threads"),
        (lambda: fifteen.solve("1 2 3 0 4 6 7 5 8", max_nodes=-5), ValueError, "max_nodes: give a whole number from 1"),
        (lambda: fifteen.solve("1 2 3 0 4 6 7 5 8", max_nodes=0), ValueError, "max_nodes"),
        (lambda: fifteen.solve_many([[1, 2, 3, 0, 4, 6, 7, 5, 8]], threads=-2), ValueError, "threads"),
        (lambda: fifteen.solve_many([[1, 2, 3, 0, 4, 6, 7, 5, 8]], max_nodes="5"), TypeError, "max_nodes"),
        (lambda: fifteen.solve("1 2 3 0 4 6 7 5 8", timeout=-1), ValueError, "timeout"),
        (lambda: fifteen.solve("1 2 3 0 4 6 7 5 8", timeout=float("nan")), ValueError, "timeout"),
        (lambda: fifteen.solve("1 2 3 0 4 6 7 5 8", timeout="1"), TypeError, "timeout"),
        (lambda: fifteen.search("1 2 3 0 4 6 7 5 8", max_memory=-1), ValueError, "max_memory"),
        # The command line's `--max-memory 256M`: the unit Python takes is said.
        (lambda: fifteen.search("1 2 3 0 4 6 7 5 8", max_memory="256M"), TypeError,
         r"max_memory: give a number of bytes \(--max-memory 256M is 256 \* 2\*\*20\), not str '256M'"),
        (lambda: fifteen.compare("1 2 3 0 4 6 7 5 8", max_memory="1G"), TypeError,
         "max_memory: give a number of bytes"),
        (lambda: fifteen.search("1 2 3 0 4 6 7 5 8", algorithm="dfs", depth_limit=-1), ValueError, "depth_limit"),
        (lambda: fifteen.compare("1 2 3 0 4 6 7 5 8", max_nodes=-1), ValueError, "max_nodes"),
        (lambda: fifteen.random_boards(2, size=3, seed=1.5), TypeError, "seed"),
        (lambda: fifteen.random_boards(2, size=3, seed=-1), ValueError, "seed"),
        (lambda: fifteen.random_boards(2.0, size=3), TypeError, "n: give a count"),
        (lambda: fifteen.random_boards(2, size=3, walk=3.5), TypeError, "walk"),
        (lambda: fifteen.solve("1 2 3 0 4 6 7 5 8").svg(step=4), ValueError, "step: give a whole number from 0 to 3"),
        (lambda: fifteen.solve("1 2 3 0 4 6 7 5 8").svg(step=-1), ValueError, "step"),
        (lambda: fifteen.solve("1 2 3 0 4 6 7 5 8").svg(cell=-48), ValueError, "cell"),
        # A size is whole numbers of rows and columns: 3.7 is refused, never cut to 3.
        (lambda: fifteen.random_boards(1, size=(3.7, 3)), TypeError, "size: give a whole number from 2 to 18, not float"),
        (lambda: fifteen.random_boards(1, size=3.0), TypeError, "size"),
        (lambda: fifteen.load_tables(size=(3, 2.5)), TypeError, "size"),
        (lambda: fifteen.random_boards(1, size=(-3, 3)), ValueError, r"size: give a whole number from 2 to 18 \(got -3\)"),
        (lambda: fifteen.random_boards(1, size="3x99999999999999999999"), ValueError, "size"),
        # A square board's side is 2 to 6, said as such: 7x7 has 49 cells, over 36.
        (lambda: fifteen.random_boards(1, size=7), ValueError, r"size: give a whole number from 2 to 6 \(got 7\)"),
        (lambda: fifteen.random_boards(1, size="7"), ValueError, r"size: give a whole number from 2 to 6 \(got 7\)"),
        (lambda: fifteen.random_boards(1, size=1), ValueError, r"size: give a whole number from 2 to 6 \(got 1\)"),
        # A negative whole number beyond any float: out of range, not OverflowError.
        (lambda: fifteen.solve("1 2 3 0 4 6 7 5 8", timeout=-10**400), ValueError, "timeout: give a number of seconds, 0 or more"),
        (lambda: fifteen.search("1 2 3 0 4 6 7 5 8", timeout=-10**400), ValueError, "timeout"),
    ],
)
def test_numeric_arguments_out_of_range_or_not_whole_are_refused(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_an_infinite_or_huge_timeout_is_no_limit():
    for t in (float("inf"), 1e300, np.float64(10.0), 10):
        s = fifteen.solve("1 2 3 0 4 6 7 5 8", heuristic="manhattan", timeout=t)
        assert s.moves == "RDR"
    r = fifteen.search("1 2 3 0 4 6 7 5 8", algorithm="bfs", timeout=float("inf"))
    assert r.length == 3
    lengths = fifteen.solve_many([[1, 2, 3, 0, 4, 6, 7, 5, 8]], heuristic="manhattan",
                                 timeout=float("inf"), threads=np.int64(1))
    assert lengths.tolist() == [3]
    # Steps 0 and `length` are the board and the goal.
    s = fifteen.solve("1 2 3 0 4 6 7 5 8", heuristic="manhattan")
    assert s.svg(step=0) != s.svg(step=3)


def test_check_refuses_wrong_answers():
    assert fifteen.check("1 2 3 0 4 6 7 5 8", "RDR") == 3
    # A solution is the capitals U, D, L, R alone, as on the command line.
    for moves in ("rdr", "R D R", "R,D,R"):
        with pytest.raises(ValueError, match="is not a move: a solution is a string of the capitals"):
            fifteen.check("1 2 3 0 4 6 7 5 8", moves)
    with pytest.raises(ValueError, match="does not reach the goal: the 2 moves end at"):
        fifteen.check("1 2 3 0 4 6 7 5 8", "RD")
    with pytest.raises(ValueError, match="'X' is not a move"):
        fifteen.check("1 2 3 0 4 6 7 5 8", "RXR")
    with pytest.raises(ValueError):
        fifteen.check("1 2 3 0 4 6 7 5 8", "L")  # off the board


def test_tables_that_cannot_be_written(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(OSError, match="cannot write tables to"):
        fifteen.solve("1 2 3 0 4 6 7 5 8", tables=blocker / "tables")


def test_corrupt_tables(fresh_tables):
    fifteen.load_tables(3, tables=fresh_tables)  # builds them, with the notice
    for f in fresh_tables.glob("*.pdb"):
        data = bytearray(f.read_bytes())
        data[-1] ^= 0xFF
        f.write_bytes(bytes(data))
    for f in fresh_tables.glob("*.verified"):
        f.unlink()
    other = fresh_tables.parent / "copy"
    os.rename(fresh_tables, other)  # a directory this process has not opened yet
    with pytest.raises(OSError, match="corrupt table") as e:
        fifteen.solve("1 2 3 0 4 6 7 5 8", tables=other)
    # What to do from Python: pip installs no build-pdb.
    assert "delete it and call fifteen.load_tables" in str(e.value)
    assert "which `cargo install --locked --path .` in fifteen's repository installs (pip does not)" in str(e.value)
    for f in other.glob("*.pdb"):
        f.unlink()
    assert fifteen.load_tables(3, tables=other) == ["8"]
    assert fifteen.solve("1 2 3 0 4 6 7 5 8", tables=other).heuristic == "pdb"


def test_the_note_on_tables_never_built_on_first_use_says_where_build_pdb_is(fresh_tables, capfd):
    assert fifteen.load_tables("5x6", tables=fresh_tables) == []
    err = capfd.readouterr().err
    assert "no 5x6 tables in" in err and "`cargo install --locked --path .`" in err, err


@pytest.mark.parametrize("cell", [-1, np.iinfo(np.int64).min])
def test_a_negative_cell_is_out_of_range_not_no_number(cell):
    board = [1, 2, 3, cell, 4, 6, 7, 5, 8]
    message = f"the number {cell} is out of range (0 to 8)"
    with pytest.raises(ValueError, match=re.escape(message)):
        fifteen.solve(board)
    with pytest.raises(ValueError, match=re.escape(f"board 0: {message}")):
        fifteen.distance(np.array([board]))
    with pytest.raises(ValueError, match=re.escape(f"board 0: {message}")):
        fifteen.distance([board])


@pytest.mark.parametrize("n", [2**63, 2**64, 10**30])
def test_random_boards_of_a_count_beyond_any_memory(n):
    # As 2**62: MemoryError, documented, never int conversion's OverflowError.
    with pytest.raises(MemoryError, match="boards of 9 cells do not fit in memory"):
        fifteen.random_boards(n, size=3)


def test_the_build_notice_is_the_command_lines(fresh_tables, capfd):
    assert fifteen.load_tables(3, tables=fresh_tables) == ["8"]
    err = capfd.readouterr().err
    assert f"building the pattern databases for 3x3 boards (8 partition, goal blank in cell 0) into {fresh_tables}" in err
    assert "once" in err and "tables built in" in err
    # Opened once per process: no second notice, no second build.
    fifteen.solve("1 2 3 0 4 6 7 5 8", tables=fresh_tables)
    assert capfd.readouterr().err == ""


def test_limits_raise_search_stopped():
    hard = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1"  # 80 moves: far beyond 1,000 nodes
    with pytest.raises(fifteen.SearchStopped) as e:
        fifteen.solve(hard, heuristic="manhattan", max_nodes=1000)
    assert e.value.reason == "node limit reached" and e.value.lower_bound > 0
    t = time.monotonic()
    with pytest.raises(fifteen.SearchStopped, match="time limit reached"):
        fifteen.solve(hard, heuristic="manhattan", timeout=0.2)
    assert time.monotonic() - t < 5  # (uninterrupted: hours; room for a loaded machine)
    lengths = fifteen.solve_many([hard, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"],
                                 heuristic="manhattan", max_nodes=1000)
    assert lengths.tolist() == [-1, 1]


@pytest.mark.parametrize("batch", ["one", "batch", "random"])
def test_ctrl_c_raises_keyboard_interrupt_within_a_second(batch):
    # One of the two 80-move 15-puzzles: hours with Manhattan distance.
    hard = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1"
    sent = []

    def interrupt():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    # Python's own Ctrl-C handler, even where the runner was started with SIGINT ignored
    # (a background job of a script); the timeouts only keep a missed signal from hanging.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, interrupt)
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            if batch == "batch":
                fifteen.solve_many([hard] * 8, heuristic="manhattan", threads=2, timeout=10)
            elif batch == "random":
                # Ten thousand walks of a million moves: about two minutes uninterrupted.
                fifteen.random_boards(10_000, size=3, walk=1_000_000)
            else:
                fifteen.solve(hard, heuristic="manhattan", threads=2, timeout=20)
        assert sent and time.monotonic() - sent[0] < 1.0
    finally:
        timer.join()
        signal.signal(signal.SIGINT, previous)


def test_progress_is_reported():
    seen = []
    fifteen.solve_many(fifteen.random_boards(300, size=3, seed=2), progress=lambda d, n: seen.append((d, n)))
    assert seen and seen[-1] == (300, 300)


def test_a_solved_board_is_answered_without_a_search():
    # Its time per call is a benchmark's to show (benchmarks/latency.py), not a test's.
    for board in ["1 2 3 4 5 6 7 8 0", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"]:
        s = fifteen.solve(board)
        assert (s.length, s.moves, s.optimal) == (0, "", True)


def test_the_notice_matches_the_command_line(tmp_path, capfd):
    """The same words as `fifteen solve` says before building, for the same tables."""
    import subprocess
    from pathlib import Path

    binary = release_binary()
    cli_dir, py_dir = tmp_path / "cli", tmp_path / "py"
    err = subprocess.run([str(binary), "solve", "1 2 3 0 4 6 7 5 8"], capture_output=True, text=True,
                         env={**os.environ, "FIFTEEN_TABLES": str(cli_dir)}).stderr
    fifteen.solve("1 2 3 0 4 6 7 5 8", tables=py_dir)
    mine = capfd.readouterr().err

    def notices(text, d):
        return [line.replace(str(d), "DIR") for line in text.splitlines()
                if line.startswith("building the pattern databases")]

    assert notices(err, cli_dir) and notices(mine, py_dir) == notices(err, cli_dir)


def test_search_stopped_survives_pickling_and_copying():
    import copy
    import pickle

    with pytest.raises(fifteen.SearchStopped) as info:
        fifteen.search("8 6 7 2 5 4 3 0 1", algorithm="bfs", max_nodes=100)
    e = info.value
    for again in (pickle.loads(pickle.dumps(e)), copy.copy(e), copy.deepcopy(e)):
        assert type(again) is fifteen.SearchStopped
        assert (again.reason, again.nodes, again.lower_bound, again.counts) == (
            e.reason, e.nodes, e.lower_bound, e.counts)
        assert str(again) == str(e)


def test_moves_that_miss_the_goal_say_where_they_end():
    # As `fifteen check BOARD --moves M` says it, with one move a move.
    with pytest.raises(ValueError) as e:
        fifteen.check("1 0 2 7 6 3 5 4 8", "RDLDLURD")
    assert str(e.value) == "does not reach the goal: the 8 moves end at 1 2 3 4 5 6 7 0 8"
    with pytest.raises(ValueError) as e:
        fifteen.check("1 2 3 0 4 6 7 5 8", "R")
    assert str(e.value) == "does not reach the goal: the 1 move ends at 1 2 3 4 0 6 7 5 8"


KORF_1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"


def test_an_unsolvable_board_names_the_other_goal_as_python_asks_for_it():
    assert fifteen.is_solvable(KORF_1, goal="blank-first")
    tail = '; it can reach the blank-first goal (0 1 2 ..., Korf\'s): give goal="blank-first"'
    with pytest.raises(ValueError) as e:
        fifteen.solve(KORF_1, heuristic="manhattan")
    assert str(e.value) == "unsolvable: this board cannot reach the goal (the tile parity is wrong, as with two tiles swapped)" + tail
    # A batch names the board, in Python's words too.
    with pytest.raises(ValueError) as e:
        fifteen.distance([KORF_1])
    assert str(e.value).startswith("board 0: unsolvable") and tail in str(e.value)
    assert "--goal" not in str(e.value)
    # ...and how to leave out a random batch's unsolvable half.
    assert str(e.value).endswith("keep those fifteen.is_solvable marks True: boards[fifteen.is_solvable(boards)] (half of random permutations are not)")
    with pytest.raises(ValueError, match=re.escape('give goal="standard"')):
        fifteen.solve(list(range(1, 16)) + [0], goal="blank-first", heuristic="manhattan")
    # Nothing to suggest where both goals have the same parity (3x3).
    with pytest.raises(ValueError) as e:
        fifteen.solve("2 1 3 4 5 6 7 8 0", heuristic="manhattan")
    assert str(e.value) == "unsolvable: this board cannot reach the goal (the tile parity is wrong, as with two tiles swapped)"


def test_the_count_of_cells_on_a_board_without_0_is_said_to_be_no_blank():
    fifteen_16 = list(range(1, 17))
    message = "the number 16 is out of range (0 to 15); the blank is 0, not 16"
    for board in (fifteen_16, " ".join(map(str, fifteen_16))):
        with pytest.raises(ValueError) as e:
            fifteen.solve(board)
        assert str(e.value) == message
    with pytest.raises(ValueError) as e:
        fifteen.distance(np.array([fifteen_16]))
    assert str(e.value) == f"board 0: {message}"
    # A board with its 0 has a number out of range, nothing more.
    with pytest.raises(ValueError) as e:
        fifteen.distance(np.array([[1, 2, 3, 4, 9, 6, 7, 5, 0]]))
    assert str(e.value) == "board 0: the number 9 is out of range (0 to 8)"


def test_boards_written_as_lists_are_boards():
    board = [1, 2, 3, 0, 4, 6, 7, 5, 8]
    rows = [[1, 2, 3], [0, 4, 6], [7, 5, 8]]
    for text in (str(board), str(rows), json.dumps(rows), "[[1, 2, 3],\n [0, 4, 6],\n [7, 5, 8]]"):
        assert fifteen.solve(text, heuristic="manhattan").moves == "RDR", text
    assert fifteen.solve(str([[1, 2, 3], [4, 0, 5]]), heuristic="manhattan").board.shape == (2, 3)
    with pytest.raises(ValueError, match=re.escape("row 2 has 2 numbers but row 1 has 3")):
        fifteen.solve(str([[1, 2, 3], [0, 4], [6, 7, 5, 8]]))
    with pytest.raises(ValueError, match=re.escape("a [ without its ]: square brackets go around the whole board")):
        fifteen.solve("[1, 2, 3, 0, 4, 6, 7, 5, 8")


def test_goal_errors_say_they_are_the_goals():
    board = "1 2 3 4 5 6 7 8 0"
    # A goal given as one row (a batch's first, `goal=boards[:1]`) or one column: the
    # goal's shape is said, not "1x9 is not a board size".
    goal = np.array([[1, 2, 3, 4, 5, 6, 7, 8, 0]])
    boards = fifteen.random_boards(3, 3, seed=1)
    for g, shape in ((goal, "1x9"), (goal.T, "9x1")):
        with pytest.raises(ValueError, match=rf"^the goal is {shape} but the board is 3x3 "):
            fifteen.distance(boards, goal=g)
    with pytest.raises(ValueError, match=r"^the goal has 4 cells but the board has 9$"):
        fifteen.solve(board, goal=[[1, 2, 3, 0]])
    # A goal a board (`goal=boards`): a batch has one goal, not "the goal has 27 cells".
    with pytest.raises(ValueError, match=r"^the goal is 3 goals of 9 cells, but a batch has one goal"):
        fifteen.distance(boards, goal=boards)
    with pytest.raises(ValueError, match=r"^the goal is 2 goals of 9 cells"):
        fifteen.solve(board, goal=boards[:2])
    # Numbers too few for the board: a count, said as the goal's (not one out of range).
    with pytest.raises(ValueError, match=r"^the goal has 8 cells but the board has 9$"):
        fifteen.solve(board, goal="1 2 3 4 5 6 7 8")
    with pytest.raises(ValueError, match=r"^goal: the number 9 is out of range \(0 to 8\)$"):
        fifteen.solve(board, goal=[0, 1, 2, 3, 4, 5, 6, 7, 9])
    with pytest.raises(ValueError, match=r"^goal: .*more than once"):
        fifteen.solve(board, goal="1 1 2 3 4 5 6 7 0")


def test_a_huge_number_is_shown_whole_or_cut_with_an_ellipsis():
    with pytest.raises(ValueError, match=r"the number 1000000000000000000000000000000 is out of range"):
        fifteen.solve([10**30, 2, 3, 0, 4, 6, 7, 5, 8])
    with pytest.raises(ValueError, match=r"the number 1{40}… is out of range"):
        fifteen.solve([int("1" * 60), 2, 3, 0, 4, 6, 7, 5, 8])


def test_a_size_with_digits_python_alone_reads_is_a_bad_size():
    for size in ("²x3", "3x²", "²"):
        with pytest.raises(ValueError, match="bad size"):
            fifteen.random_boards(1, size)


def test_the_estimate_of_one_board_names_no_batch_index():
    with pytest.raises(ValueError, match=r"^unsolvable"):
        fifteen.heuristic("2 1 3 4 5 6 7 8 0")
    with pytest.raises(ValueError, match=r"^board 1: unsolvable"):
        fifteen.heuristic(["1 2 3 4 5 6 7 8 0", "2 1 3 4 5 6 7 8 0"])


def test_an_empty_path_is_refused_not_read_as_the_default():
    with pytest.raises(ValueError, match="tables: give a directory, not an empty name"):
        fifteen.tables_dir("")
    with pytest.raises(ValueError, match="tables: give a directory, not an empty name"):
        fifteen.solve("1 2 3 4 5 6 7 0 8", tables="")


def test_a_table_estimate_of_a_board_no_table_serves_says_why():
    b = np.array([list(range(1, 19)), list(range(19, 36)) + [0]])  # 2x18, 36 cells
    for kind in ("pdb", "solve"):
        with pytest.raises(ValueError, match=rf"no '{kind}' estimate for 2x18 boards: pattern databases go up to 32 cells"):
            fifteen.heuristic(b, kind)
    assert fifteen.heuristic(b, "linear-conflict") == 0


def test_one_number_or_a_0_d_array_is_said_as_it_is():
    for one in ([0], "5"):
        with pytest.raises(ValueError, match=r"^1 number does not make a board .* other shapes need their rows"):
            fifteen.solve(one)
    with pytest.raises(ValueError, match=r"^1 number does not make a board"):
        fifteen.distance(np.zeros((2, 1), dtype=np.int64))
    with pytest.raises(ValueError, match=r"^3 numbers do not make a board .* other shapes need their rows"):
        fifteen.solve("1 2 0")
    with pytest.raises(TypeError, match=r"not a 0-dimensional array$"):
        fifteen.solve(np.array(5))
    for shape in ((2, 1, 1), (2, 2, 1)):
        with pytest.raises(ValueError, match=r"^\dx1 is not a board size"):
            fifteen.distance(np.zeros(shape, dtype=np.int64))


def test_a_batch_given_where_one_board_goes_says_it_is_a_batch():
    """`solve(boards)` read a batch of two 3x3 boards as one 2x9 board: "the number 3
    appears more than once". It now says each row is a whole board, and what to give."""
    boards = fifteen.random_boards(2, size=3, seed=1)
    for call in (lambda b: fifteen.solve(b), lambda b: fifteen.check(b, "R")):
        for batch in (boards, boards[:1], boards.tolist()):
            with pytest.raises(ValueError, match="is a whole board, as in a batch; give one board"):
                call(batch)
    # One board drawn as rows is still one board.
    assert fifteen.solve(np.array([[1, 2, 3], [4, 5, 6], [7, 0, 8]])).length == 1
