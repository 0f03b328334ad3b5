"""What a search returns is a value: its attributes are read-only, `==` compares what it
found (not the object), it is hashable exactly when that is consistent with `==`, it
survives pickling and copying, and its repr says which board it answers."""

import copy
import pickle

import numpy as np
import pytest

import fifteen

B = "1 2 3 0 4 6 7 5 8"
HARD = "8 6 7 2 5 4 3 0 1"


def test_two_solutions_of_one_board_are_equal_whatever_the_run():
    a, b = fifteen.solve(B), fifteen.solve(B, threads=1)
    assert a is not b and a == b and not a != b
    assert hash(a) == hash(b) and len({a, b}) == 1 and {a: 1}[b] == 1
    # How it was found (the estimate, the nodes, the time) is not what was found.
    m = fifteen.solve(B, heuristic="manhattan")
    assert (m.moves, m.heuristic) == ("RDR", "manhattan")
    assert m == a and hash(m) == hash(a)


def test_solutions_differ_by_board_goal_moves_weight_or_bound():
    a = fifteen.solve(HARD)
    assert a != fifteen.solve(B)
    assert a != fifteen.solve("1 2 3 4 5 6 7 8 0", goal="blank-first")
    w = fifteen.solve(HARD, weight=2)
    assert (w.optimal, w.weight) == (False, 2.0) and w != a
    # Not equal to what is not a solution, even with the same moves.
    assert a != a.moves and a != None and a != (a.board, a.moves)  # noqa: E711
    assert a != fifteen.search(HARD, heuristic="manhattan")


def test_a_solution_is_read_only():
    s = fifteen.solve(B)
    for name in ("board", "goal", "moves", "length", "optimal", "lower_bound", "weight",
                 "nodes", "seconds", "heuristic", "boards", "_tiles", "other"):
        with pytest.raises(AttributeError, match="immutable"):
            setattr(s, name, 1)
        if name != "other":
            with pytest.raises(AttributeError, match="immutable"):
                delattr(s, name)
    for arr in (s.board, s.goal, s.boards):
        with pytest.raises(ValueError, match="read-only"):
            arr[0, 0] = 9
        with pytest.raises(ValueError):
            arr.flags.writeable = True
    assert (s.moves, s.length) == ("RDR", 3) and s == fifteen.solve(B)
    assert s.board.tolist() == [[1, 2, 3], [0, 4, 6], [7, 5, 8]]


def test_a_solution_survives_pickling_and_copying():
    s = fifteen.solve(HARD, weight=1.5)
    s.boards  # a cached path is no part of the value
    for again in (pickle.loads(pickle.dumps(s)), copy.copy(s), copy.deepcopy(s)):
        assert again == s and hash(again) == hash(s)
        assert (again.nodes, again.seconds, again.heuristic) == (s.nodes, s.seconds, s.heuristic)
        assert not again.board.flags.writeable and again.boards.shape == s.boards.shape
        with pytest.raises(AttributeError):
            again.moves = "U"


def test_a_solutions_repr_names_its_board():
    s = fifteen.solve(B)
    r = repr(s)
    assert r.startswith("Solution(board='1 2 3 0 4 6 7 5 8', moves='RDR', length=3, optimal=True, "), r
    assert "goal=" not in r and "weight=" not in r and "nodes=" in r and "heuristic='pdb'" in r
    assert "goal='blank-first'" in repr(fifteen.solve("1 2 3 4 5 6 7 8 0", goal="blank-first"))
    # A board that is not square is given by its rows, as solve takes it.
    t = fifteen.solve(np.array([[1, 2, 3], [4, 0, 5]]))
    assert repr(t).startswith("Solution(board='1 2 3\\n4 0 5', moves='R'")
    assert fifteen.solve(eval(repr(t).split("board=")[1].split(", moves")[0])) == t
    assert "optimal=False, weight=2.0," in repr(fifteen.solve(HARD, weight=2))


def test_search_results_are_values_too():
    a = fifteen.search(B, algorithm="astar", heuristic="manhattan")
    b = fifteen.search(B, algorithm="astar", heuristic="manhattan")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    # A classic search's counts are what it found (the same on every run): compared.
    bfs = fifteen.search(B, algorithm="bfs")
    assert bfs.moves == a.moves and bfs != a
    assert isinstance(a.steps, tuple) and isinstance(a.f, tuple)
    with pytest.raises(AttributeError, match="immutable"):
        a.expanded = 0
    with pytest.raises(ValueError, match="read-only"):
        a.board[0, 0] = 9
    for again in (pickle.loads(pickle.dumps(a)), copy.deepcopy(a)):
        assert again == a and again.seconds == a.seconds and again.f == a.f
    assert repr(a).startswith(
        "SearchResult(algorithm='astar', heuristic='manhattan', board='1 2 3 0 4 6 7 5 8', "
        "moves='RDR', length=3, optimal=True, expanded=3, generated=11, "
    ), repr(a)


def test_a_batch_compares_by_its_contents():
    boards = fifteen.random_boards(5, size=3, seed=2)
    a = fifteen.solve_many(boards, stats=True, moves=True)
    assert a == a._replace() and not a != a._replace()   # NumPy's == raised 'ambiguous'
    assert a != a._replace(lengths=a.lengths + 1) and a != tuple(a)
    assert a in [a._replace()]
    with pytest.raises(TypeError):
        hash(a)
