"""An argument of the wrong type is a TypeError naming the argument and what it takes;
one out of range a ValueError; never an AttributeError or an internal name."""

import numpy as np
import pytest

import fifteen

B = "1 2 3 0 4 6 7 5 8"


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: fifteen.heuristic(B, None), "kind: give an estimate's name .*, not None"),
        (lambda: fifteen.heuristic(B, 5), "kind: give an estimate's name .*, not int"),
        (lambda: fifteen.heuristic(B, b"manhattan"), "kind: .*, not bytes"),
        (lambda: fifteen.solve(B).svg(cell=None), "cell: give a whole number from 8 to 1,000, not None"),
        (lambda: fifteen.search(B, algorithm=None), "algorithm: give bfs, dfs, greedy, astar or ida, not None"),
        (lambda: fifteen.search(B, heuristic=3), "heuristic: give hamming, .* or None"),
        (lambda: fifteen.compare(B, tables=3), "tables: give a directory"),
        (lambda: fifteen.solve(B, heuristic=None), "heuristic: give pdb, linear-conflict, manhattan or hamming, not None"),
        (lambda: fifteen.solve_many([B], heuristic=1), "heuristic: give pdb"),
        (lambda: fifteen.solve(B, weight="2"), "weight: give a number from 1 to 100, not str"),
        (lambda: fifteen.solve(B, weight=None), "weight: give a number from 1 to 100, not None"),
        (lambda: fifteen.solve(B, weight=True), "weight: .*, not bool"),
        (lambda: fifteen.solve_many([B], weight="2"), "weight: give a number"),
        (lambda: fifteen.search(B, weight="1.5"), "weight: give a number"),
        (lambda: fifteen.solve(B, tables=5), r"tables: give a directory \(str or os.PathLike\), not int"),
        (lambda: fifteen.heuristic(B, tables=5), "tables: give a directory"),
        (lambda: fifteen.check(B, None), r"moves: give the blank's moves as text \(U, D, L, R\), not None"),
        (lambda: fifteen.load_tables(size=None), r"size: give N, 'RxC' or \(rows, cols\), not None"),
        (lambda: fifteen.random_boards(1, size=b"3"), "size: give N, 'RxC' or .*, not bytes"),
        (lambda: fifteen.read_problem(None), r"path: give a file name \(str or os.PathLike\), not None"),
        (lambda: fifteen.report(None, None), r"problem: give a Problem \(from read_problem\), not None"),
        (lambda: fifteen.solve(None), "a board is text, a sequence of numbers or a 2-D array of rows, not None"),
        (lambda: fifteen.solve_many([B], moves=None), "moves: give True or False, not None"),
        (lambda: fifteen.solve_many([B], stats="yes"), "stats: give True or False, not str"),
        (lambda: fifteen.distance([B], progress="yes"), r"progress: give True, False or a callable progress\(done, total\), not str"),
        (lambda: fifteen.compare(B, as_frame="no"), "as_frame: give True or False, not str"),
        (lambda: fifteen.write_report(None, None, None), "path: give a file name"),
        (lambda: fifteen.random_boards(None), "n: give a count of 0 or more, not None"),
    ],
)
def test_an_argument_of_the_wrong_type_is_a_type_error_naming_it(call, message):
    with pytest.raises(TypeError, match=message):
        call()


def test_huge_whole_numbers_are_values_out_of_range_not_overflows():
    with pytest.raises(ValueError, match="weight: give a number from 1 to 100"):
        fifteen.solve(B, weight=10**400)
    assert fifteen.solve(B, heuristic="manhattan", timeout=10**400).moves == "RDR"
