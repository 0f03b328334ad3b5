"""A weight is rounded down to a multiple of 1/1000, as the command line's --weight is,
and every object reports the weight the search ran with."""

import pytest

import fifteen


def test_weights_are_rounded_down_to_thousandths_everywhere_as_on_the_command_line():
    board = "8 6 7 2 5 4 3 0 1"
    # 1.0004 runs as 1: optimal, as solve and search both say.
    s = fifteen.solve(board, weight=1.0004)
    r = fifteen.search(board, heuristic="manhattan", weight=1.0004)
    assert (s.optimal, s.weight, r.optimal, r.weight, r.bound) == (True, 1.0, True, 1.0, None)
    assert "optimal" in repr(s) and "weight" not in repr(s)
    # 1.2345 runs as 1.234: .weight, .bound and .f all say so.
    r = fifteen.search("1 2 3 4 0 6 7 5 8", heuristic="manhattan", weight=1.2345)
    assert r.weight == r.bound == 1.234
    assert r.f == pytest.approx((2.468, 2.234, 2.0)) and r.f == tuple(g + 1.234 * h for g, h in r.steps)
    s = fifteen.solve(board, weight=1.2345)
    assert (s.weight, s.optimal) == (1.234, False)
    assert "optimal=False, weight=1.234," in repr(s)
    # BFS reads no weight: 1.0004 rounds to 1 and runs; 1.2345 would claim a weight the
    # search never used, and is refused.
    assert fifteen.search(board, algorithm="bfs", weight=1.0004).weight == 1.0
    with pytest.raises(ValueError, match="only \"astar\" and \"ida\""):
        fifteen.search(board, algorithm="bfs", weight=1.2345)


def test_a_course_weight_with_four_decimals_runs_as_three(tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("1.2345\n\n1 2 3\n4 0 6\n7 5 8\n\n1 2 3\n4 5 6\n7 8 0\n")
    p = fifteen.read_problem(path)
    assert (p.weight, p.weight_text) == (1.234, "1.2345")
    r = fifteen.search(p.board, p.goal, heuristic="manhattan", weight=p.weight)
    f = [float(x) for x in fifteen.report(p, r).splitlines()[-1].split()]
    assert f == pytest.approx(r.f)
    assert f == pytest.approx([2.468, 2.234, 2.0])
