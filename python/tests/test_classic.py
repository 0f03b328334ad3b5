"""The classic searches (`search`, `compare`) and the course files (`read_problem`,
`report`, `write_report`): the same answers and counts as the command line, lengths as
breadth-first search over every board (tests/bfs.py, pure Python) proves them, and every
answer replayed to the goal."""

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import fifteen
from bfs import distances
from conftest import release_binary

ROOT = Path(__file__).resolve().parents[2]
GOAL = (1, 2, 3, 4, 5, 6, 7, 8, 0)
# Every 3x3 board's distance to the standard goal, without any of the solver's code.
DIST = distances(GOAL, 3, 3)
# Boards of every depth band, from one seeded draw (the 3x3 space has 181,440).
SAMPLE = random.Random(20261125).sample(sorted(DIST), 40)


def _text(board):
    return " ".join(map(str, board))


def cli(*args):
    out = subprocess.run([str(release_binary()), *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.parametrize("algorithm,heuristic", [
    ("bfs", None), ("astar", "hamming"), ("astar", "manhattan"), ("astar", "linear-conflict"),
    ("ida", "manhattan"), ("astar", "pdb"), ("ida", "pdb"),
])
def test_optimal_searches_give_bfs_lengths_and_replay(algorithm, heuristic):
    for board in SAMPLE:
        r = fifteen.search(_text(board), algorithm=algorithm, heuristic=heuristic)
        assert r.length == DIST[board], (board, r)
        assert r.optimal
        assert fifteen.check(_text(board), r.moves) == r.length
        assert tuple(r.boards[-1].ravel()) == GOAL


@pytest.mark.parametrize("algorithm,heuristic,weight", [
    ("dfs", None, 1.0), ("greedy", "manhattan", 1.0), ("astar", "manhattan", 1.5),
    ("ida", "linear-conflict", 2.0),
])
def test_other_searches_give_valid_answers_within_their_bounds(algorithm, heuristic, weight):
    for board in SAMPLE[:20]:
        r = fifteen.search(_text(board), algorithm=algorithm, heuristic=heuristic,
                           weight=weight)
        assert fifteen.check(_text(board), r.moves) == r.length
        assert not r.optimal
        if algorithm == "dfs":
            assert r.length <= 31  # the default depth limit on 3x3
        if weight > 1:
            assert r.bound == weight
            assert r.length <= weight * DIST[board]


@pytest.mark.parametrize("algorithm", ["bfs", "dfs", "greedy"])
def test_a_weight_where_the_search_reads_none_is_refused(algorithm):
    # It ran unweighted and its result claimed the weight (optimal=True, weight=1.5).
    board = _text(SAMPLE[0])
    with pytest.raises(ValueError, match="only \"astar\" and \"ida\""):
        fifteen.search(board, algorithm=algorithm, weight=1.5)
    assert fifteen.search(board, algorithm=algorithm, weight=1).weight == 1.0


@pytest.mark.parametrize("algorithm,heuristic", [
    ("bfs", "manhattan"), ("dfs", "manhattan"), ("greedy", "hamming"), ("astar", "manhattan"),
    ("astar", "linear-conflict"), ("ida", "hamming"), ("ida", "manhattan"),
])
def test_counts_match_the_command_line(algorithm, heuristic):
    for board in SAMPLE[:8]:
        r = fifteen.search(_text(board), algorithm=algorithm, heuristic=heuristic)
        rec = json.loads(cli("solve", "--algorithm", algorithm, "--heuristic", heuristic,
                             "--format", "json", _text(board)))
        assert rec["moves"] == r.moves
        assert rec["optimal"] == r.optimal
        for key in ("expanded", "generated", "peak_frontier", "closed", "memory_bytes"):
            assert rec.get(key) == getattr(r, key), (key, board)


def test_compare_has_the_command_lines_rows_and_counts():
    board = _text(SAMPLE[0])
    rows = fifteen.compare(board, max_nodes=200_000, as_frame=False)
    lines = [json.loads(x) for x in cli("compare", "--format", "json", "--max-nodes",
                                        "200000", board).splitlines()]
    assert isinstance(rows, fifteen.Comparison)
    assert len(rows) == len(lines) == 14
    for mine, theirs in zip(rows, lines):
        assert mine["algorithm"] == theirs["algorithm"]
        assert mine["heuristic"] == theirs.get("heuristic")
        assert mine["length"] == theirs.get("length")
        for key in ("expanded", "generated", "peak_frontier", "closed", "memory_bytes"):
            assert mine[key] == theirs.get(key), (mine, theirs)
        assert (mine["note"] is None) == ("error" not in theirs)
    assert "<table>" in rows._repr_html_()


def test_a_limit_raises_with_the_counts_so_far():
    hard = _text(max(DIST, key=DIST.get))
    with pytest.raises(fifteen.SearchStopped) as e:
        fifteen.search(hard, algorithm="bfs", max_nodes=1000)
    assert e.value.reason == "node limit reached"
    assert e.value.counts["generated"] >= 1000
    assert e.value.lower_bound is None
    with pytest.raises(fifteen.SearchStopped, match="depth limit of 5 moves"):
        fifteen.search(hard, algorithm="dfs", depth_limit=5)
    with pytest.raises(fifteen.SearchStopped, match="memory limit"):
        fifteen.search(hard, algorithm="bfs", max_memory=4096)


def test_bad_arguments_are_value_errors():
    with pytest.raises(ValueError, match="unknown algorithm"):
        fifteen.search("1 2 3 4 5 6 7 0 8", algorithm="dijkstra")
    with pytest.raises(ValueError, match="unknown heuristic"):
        fifteen.search("1 2 3 4 5 6 7 0 8", heuristic="euclid")
    with pytest.raises(ValueError):
        fifteen.search("1 2 3 4 5 6 8 7 0")  # unsolvable


@pytest.mark.parametrize("name", ["input1.txt", "input2.txt", "input3.txt"])
def test_course_report_is_the_command_lines(name, tmp_path):
    path = ROOT / "data" / "course" / name
    p = fifteen.read_problem(path)
    assert p == fifteen.read_problem(path)
    with pytest.raises(ValueError, match="read-only"):
        p.board[0, 0] = 0  # a problem is a value: its boards stay what the file says
    r = fifteen.search(p.board, p.goal, heuristic="manhattan", weight=p.weight)
    assert fifteen.check(p.board, r.moves, p.goal) == r.length
    out = tmp_path / "out.txt"
    text = fifteen.write_report(out, p, r)
    assert out.read_text() == text == cli("solve", "-i", str(path), "--format", "report")
    # The report's own lines: W, d, N, the moves, one f a board along the path.
    lines = text.splitlines()
    tail = lines[-5:]
    assert tail[0] == p.weight_text and int(tail[1]) == r.length
    assert int(tail[2]) == r.generated and tail[3].split() == list(r.moves)
    f = [float(x) for x in tail[4].split()]
    assert f == pytest.approx(r.f)
    if p.weight == 1.0:
        # Manhattan distance is consistent: f never decreases along an A* path.
        assert all(a <= b for a, b in zip(f, f[1:]))
    with pytest.raises(FileExistsError):
        fifteen.write_report(out, p, r)
    assert fifteen.write_report(out, p, r, overwrite=True) == text
    # A directory is said to be one, with the name to give instead, overwrite or not.
    for overwrite in (False, True):
        with pytest.raises(IsADirectoryError, match="is a directory; give the name of the report file"):
            fifteen.write_report(tmp_path, p, r, overwrite=overwrite)


def test_a_damaged_problem_file_names_its_line(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("1.2\n\n1 2 3\n4 0 6\n7 5\n\n1 2 3\n4 5 6\n7 8 0\n")
    with pytest.raises(ValueError, match=r"bad\.txt: line"):
        fifteen.read_problem(bad)
    bad.write_bytes(b"1\n\n\xff\n")
    with pytest.raises(ValueError, match="not UTF-8"):
        fifteen.read_problem(bad)


def test_a_problem_file_may_start_with_a_byte_order_mark(tmp_path):
    text = "1.2\n\n1 2 3\n4 0 6\n7 5 8\n\n1 2 3\n4 5 6\n7 8 0\n"
    plain, marked = tmp_path / "plain.txt", tmp_path / "marked.txt"
    plain.write_text(text, encoding="utf-8")
    marked.write_text(text, encoding="utf-8-sig")
    assert marked.read_bytes().startswith(b"\xef\xbb\xbf")
    a, b = fifteen.read_problem(plain), fifteen.read_problem(marked)
    assert (b.weight, b.weight_text) == (a.weight, a.weight_text) == (1.2, "1.2")
    assert (b.board == a.board).all() and (b.goal == a.goal).all()
    # Problems compare by their contents (a tuple of arrays would raise instead).
    assert a == b and not a != b
    assert a != fifteen.read_problem(ROOT / "data" / "course" / "input1.txt")
    assert a != tuple(a) and a != "1.2"


def test_a_report_of_another_board_is_refused():
    p = fifteen.read_problem(ROOT / "data" / "course" / "input1.txt")
    other = fifteen.search("1 2 3 4 5 6 7 0 8", heuristic="manhattan")
    with pytest.raises(ValueError, match="not a search of this problem"):
        fifteen.report(p, other)


def test_a_report_of_a_search_with_another_weight_is_refused(tmp_path):
    # A search left at weight 1 would have its N and moves reported beside a W and f
    # values it did not search with.
    path = tmp_path / "p.txt"
    path.write_text("1.2\n\n1 2 3\n4 0 6\n7 5 8\n\n1 2 3\n4 5 6\n7 8 0\n")
    p = fifteen.read_problem(path)
    r = fifteen.search(p.board, p.goal, algorithm="astar", heuristic="manhattan")
    with pytest.raises(ValueError, match=r"weight 1, but the problem's W is 1\.2: search with weight=problem\.weight"):
        fifteen.report(p, r)
    out = tmp_path / "report.txt"
    with pytest.raises(ValueError, match="weight=problem.weight"):
        fifteen.write_report(out, p, r)
    assert not out.exists()
    r = fifteen.search(p.board, p.goal, algorithm="astar", heuristic="manhattan", weight=p.weight)
    assert fifteen.report(p, r).splitlines()[-5] == "1.2"


@pytest.mark.parametrize("algorithm", ["bfs", "dfs", "greedy"])
@pytest.mark.parametrize("w", ["2", "1.5"])
def test_a_report_of_a_search_that_takes_no_weight_is_the_command_lines(algorithm, w, tmp_path):
    # BFS, DFS and greedy search take no weight: their report has the problem's W and f
    # values, as `fifteen solve --algorithm A --format report` writes it.
    path = tmp_path / "p.txt"
    path.write_text(f"{w}\n\n1 2 3\n0 4 6\n7 5 8\n\n1 2 3\n4 5 6\n7 8 0\n")
    p = fifteen.read_problem(path)
    r = fifteen.search(p.board, p.goal, algorithm=algorithm)
    text = fifteen.report(p, r)
    assert text == cli("solve", "-i", str(path), "--algorithm", algorithm, "--format", "report")
    assert text.splitlines()[-5] == w


def test_a_result_draws_itself():
    r = fifteen.search("1 2 3 0 4 6 7 5 8", heuristic="manhattan")
    assert r._repr_svg_().startswith("<svg")
    assert np.array_equal(r.boards[0], r.board)


def _greedy(start, goal):
    """Greedy best-first search as docs/teaching.md states its rules, written here without
    the solver: Manhattan distance, the frontier ordered by the lowest h, then the highest
    g, then the earliest inserted; a board met before is dropped (as breadth-first search
    does); the goal test when a board is taken off the frontier; successors U, D, L, R."""
    import heapq

    where = {t: divmod(i, 3) for i, t in enumerate(goal)}

    def h(b):
        return sum(abs(i // 3 - where[t][0]) + abs(i % 3 - where[t][1])
                   for i, t in enumerate(b) if t)

    parent = {start: None}
    frontier = [(h(start), 0, 0, start)]
    expanded, generated, seq = 0, 1, 0
    while frontier:
        _, neg_g, _, b = heapq.heappop(frontier)
        if b == goal:
            moves = []
            while parent[b]:
                b, m = parent[b]
                moves.append(m)
            return "".join(reversed(moves)), expanded, generated
        expanded += 1
        z = b.index(0)
        r, c = divmod(z, 3)
        for m, dr, dc in (("U", -1, 0), ("D", 1, 0), ("L", 0, -1), ("R", 0, 1)):
            if 0 <= r + dr < 3 and 0 <= c + dc < 3:
                n = (r + dr) * 3 + c + dc
                child = list(b)
                child[z], child[n] = child[n], child[z]
                child = tuple(child)
                generated += 1
                if child in parent:
                    continue
                parent[child] = (b, m)
                seq += 1
                heapq.heappush(frontier, (h(child), neg_g - 1, seq, child))
    raise AssertionError("no path")


def test_greedy_follows_its_documented_tie_breaking():
    for board in SAMPLE[:12]:
        r = fifteen.search(_text(board), algorithm="greedy", heuristic="manhattan")
        moves, expanded, generated = _greedy(board, GOAL)
        assert (r.moves, r.expanded, r.generated) == (moves, expanded, generated), board


@pytest.mark.parametrize("start, message", [
    # `_` for the blank: the range of this grid, not of the largest.
    ("1 2 3\n4 _ 6\n7 5 8", "line 4: numbers from 0 to 8 expected"),
    ("1 2\n_ 3", "line 4: numbers from 0 to 3 expected"),
    # A bad value on the grid's second line is reported there, not on its first.
    ("1 2 3\n4 9 6\n7 5 0", r"line 4: the number 9 is out of range \(0 to 8\)"),
    ("1 2 3\n4 0 6\n7 5 40", r"line 5: the number 40 is out of range \(0 to 8\)"),
    ("1 2 3\n4 0 6\n7 5 4", "line 5: the number 4 appears more than once"),
])
def test_a_problem_files_bad_grid_names_the_line_and_its_range(start, message, tmp_path):
    n = len(start.splitlines())
    goal = "1 2\n3 0" if n == 2 else "1 2 3\n4 5 6\n7 8 0"
    path = tmp_path / "bad.txt"
    path.write_text(f"1\n\n{start}\n\n{goal}\n")
    with pytest.raises(ValueError, match=message):
        fifteen.read_problem(path)


def test_f_values_are_the_decimals_the_report_prints():
    r = fifteen.search("8 6 7 2 5 4 3 0 1", algorithm="astar", heuristic="manhattan", weight=1.2)
    printed = fifteen.report(
        fifteen.Problem(1.2, "1.2", r.board, r.goal), r
    ).splitlines()[-1].split()
    assert [repr(f) for f in r.f] == [repr(float(x)) for x in printed]
    assert all(float(x) == f for x, f in zip(printed, r.f))


def test_a_depth_limit_is_dfs_alone():
    """`depth_limit` with another search than dfs ran without it, silently (A* found a
    3-move answer under a limit of 1); it is refused, as the command line refuses it."""
    for algorithm in ("bfs", "greedy", "astar", "ida"):
        with pytest.raises(ValueError, match=f"depth_limit bounds how deep .dfs. goes \\('{algorithm}'"):
            fifteen.search("1 2 3 0 4 6 7 5 8", algorithm=algorithm, depth_limit=1)
    with pytest.raises(fifteen.SearchStopped):
        fifteen.search("1 2 3 0 4 6 7 5 8", algorithm="dfs", depth_limit=1)
    assert fifteen.search("1 2 3 0 4 6 7 5 8", algorithm="dfs", depth_limit=3).length == 3


@pytest.mark.parametrize("algorithm", ["astar", "greedy", "ida"])
def test_the_course_report_needs_manhattan_distance_named(algorithm):
    # The command line searches a problem file with Manhattan distance, `search` with the
    # tables: the same report only with heuristic="manhattan", which the help says.
    path = ROOT / "data" / "course" / "input1.txt"
    p = fifteen.read_problem(path)
    course = cli("solve", "-i", str(path), "--algorithm", algorithm, "--format", "report")
    w = 1.0 if algorithm == "greedy" else p.weight
    r = fifteen.search(p.board, p.goal, algorithm=algorithm, heuristic="manhattan", weight=w)
    assert fifteen.report(p, r) == course
    r = fifteen.search(p.board, p.goal, algorithm=algorithm, weight=w)
    assert r.heuristic == "pdb" and fifteen.report(p, r) != course
    for f in (fifteen.report, fifteen.write_report):
        assert 'heuristic="manhattan"' in f.__doc__


@pytest.mark.parametrize("algorithm", ["bfs", "dfs"])
def test_a_blind_search_counts_the_same_whatever_estimate_is_named(algorithm):
    # BFS and DFS read no estimate: naming pdb (whose tables search a reflected board)
    # must not change their path or counts, as `--algorithm dfs --heuristic pdb` does not.
    board = "1 2 3 0 4 6 7 5 8" if algorithm == "dfs" else "8 6 7 2 5 4 3 0 1"
    plain = fifteen.search(board, algorithm=algorithm)
    for kind in ("manhattan", "hamming", "linear-conflict", "pdb"):
        r = fifteen.search(board, algorithm=algorithm, heuristic=kind)
        assert (r.moves, r.expanded, r.generated, r.peak_frontier, r.closed) == (
            plain.moves, plain.expanded, plain.generated, plain.peak_frontier, plain.closed
        ), kind


@pytest.mark.parametrize("algorithm", ["bfs", "dfs"])
def test_a_blind_search_reports_no_estimate_even_when_one_is_named(algorithm):
    # As the command line's JSON for `--algorithm bfs --heuristic hamming` (no
    # "heuristic"), and as the SearchResult docstring says: the named estimate gives
    # only the path's h.
    board = "1 2 3 0 4 6 7 5 8"
    for kind in (None, "manhattan", "hamming", "linear-conflict", "pdb"):
        r = fifteen.search(board, algorithm=algorithm, heuristic=kind)
        assert r.heuristic is None, kind


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_FSIZE as on Linux")
def test_a_report_a_full_disk_cut_short_is_not_left_behind(tmp_path):
    # A file size limit fails the write as a full disk does, after the file was made: the
    # OSError must leave no partial report, which a retry's "x" would call existing.
    out = tmp_path / "report.txt"
    code = f"""
import resource, signal, fifteen
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
p = fifteen.read_problem({str(ROOT / "data" / "course" / "input1.txt")!r})
r = fifteen.search(p.board, p.goal, heuristic="manhattan", weight=p.weight)
resource.setrlimit(resource.RLIMIT_FSIZE, (20, resource.RLIM_INFINITY))
for overwrite in (False, True):
    try:
        fifteen.write_report({str(out)!r}, p, r, overwrite=overwrite)
        print("written")
    except OSError as e:
        print(type(e).__name__)
"""
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert ran.stdout.split() == ["OSError", "OSError"], ran.stdout + ran.stderr
    assert not out.exists()
    # Over an old report (overwrite=True), a failed write leaves the old one whole, and no
    # temporary file beside it.
    out.write_text("the old report\n")
    ran = subprocess.run([sys.executable, "-c", code.replace("(False, True)", "(True,)")],
                         capture_output=True, text=True, timeout=120)
    assert ran.stdout.split() == ["OSError"], ran.stdout + ran.stderr
    assert out.read_text() == "the old report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.txt"]
