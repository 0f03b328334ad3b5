"""Answers checked against facts computed here without the solver: breadth-first
distances over every 8-puzzle and 2x3 board, the published Korf 100 lengths, and every
answer replayed move by move to its goal."""

import os
from pathlib import Path

import numpy as np
import pytest

import fifteen
from bfs import distances, neighbours
from conftest import USER_TABLES, release_binary

GOAL_3X3 = (1, 2, 3, 4, 5, 6, 7, 8, 0)


@pytest.fixture(scope="module")
def bfs_3x3():
    d = distances(GOAL_3X3, 3, 3)
    assert len(d) == 181440  # half of 9!: the solvable boards
    return d


def replay(board, moves, cols):
    """The board after the blank's moves, in pure Python."""
    b = list(board)
    step = {"U": -cols, "D": cols, "L": -1, "R": 1}
    for m in moves:
        z = b.index(0)
        n = z + step[m]
        assert 0 <= n < len(b) and (m in "UD" or n // cols == z // cols), (moves, m)
        b[z], b[n] = b[n], b[z]
    return tuple(b)


def test_distances_match_bfs_on_the_8_puzzle(bfs_3x3):
    boards = fifteen.random_boards(2000, size=3, seed=7)
    d = fifteen.distance(boards, threads=2)
    assert d.dtype == np.int32 and d.shape == (2000,)
    want = [bfs_3x3[tuple(int(x) for x in b)] for b in boards]
    assert d.tolist() == want


def test_the_hardest_8_puzzles_take_31_moves(bfs_3x3):
    hardest = [b for b, d in bfs_3x3.items() if d == 31]
    assert len(hardest) == 2  # a known fact of the 8-puzzle
    for b in hardest:
        s = fifteen.solve(list(b))
        assert (s.length, s.optimal, s.lower_bound) == (31, True, 31)
        assert replay(b, s.moves, 3) == GOAL_3X3


def test_solutions_replay_to_the_goal_and_boards_follow_them(bfs_3x3):
    for b in fifteen.random_boards(30, size=3, seed=3):
        s = fifteen.solve(b)
        start = tuple(int(x) for x in b)
        assert s.length == bfs_3x3[start] == len(s.moves)
        assert replay(start, s.moves, 3) == GOAL_3X3
        assert fifteen.check(b, s.moves) == s.length
        path = s.boards
        assert path.shape == (s.length + 1, 3, 3)
        assert tuple(path[0].ravel()) == start and tuple(path[-1].ravel()) == GOAL_3X3
        for a, c in zip(path[:-1], path[1:]):
            assert tuple(c.ravel()) in set(neighbours(tuple(a.ravel()), 3, 3))


def test_solve_many_gives_moves_in_input_order(bfs_3x3):
    boards = fifteen.random_boards(200, size=3, seed=11)
    lengths, moves = fifteen.solve_many(boards, moves=True, threads=2)
    for b, n, m in zip(boards, lengths, moves):
        start = tuple(int(x) for x in b)
        assert n == len(m) == bfs_3x3[start]
        assert replay(start, m, 3) == GOAL_3X3
    batch = fifteen.solve_many(boards, stats=True, threads=1)
    assert batch.lengths.tolist() == lengths.tolist()
    assert (batch.lower_bounds == batch.lengths).all() and (batch.nodes > 0).all()


def test_every_2x3_board_for_two_goals():
    for goal in [(1, 2, 3, 4, 5, 0), (0, 5, 4, 3, 2, 1)]:
        want = distances(goal, 2, 3)
        boards = np.array(list(want), dtype=np.uint8).reshape(-1, 2, 3)
        got = fifteen.distance(boards, goal=np.array(goal).reshape(2, 3))
        assert got.tolist() == list(want.values())


def test_blank_first_goal(bfs_3x3):
    goal = (0, 1, 2, 3, 4, 5, 6, 7, 8)
    want = distances(goal, 3, 3)
    boards = fifteen.random_boards(300, size=3, seed=5, goal="blank-first")
    got = fifteen.distance(boards, goal="blank-first")
    assert got.tolist() == [want[tuple(int(x) for x in b)] for b in boards]


def test_3x4_random_walks_and_heuristics():
    boards = fifteen.random_boards(40, size="3x4", seed=2, walk=30)
    assert boards.shape == (40, 3, 4)
    lengths, moves = fifteen.solve_many(boards, moves=True)
    goal = tuple(range(1, 12)) + (0,)
    for b, n, m in zip(boards, lengths, moves):
        assert n <= 30 and n % 2 == 0  # at most the walk, and of its parity
        assert replay(tuple(int(x) for x in b.ravel()), m, 4) == goal
    for kind in fifteen.HEURISTICS:
        h = fifteen.heuristic(boards, kind)
        assert (h <= lengths).all(), kind  # admissible


def test_weighted_search_is_within_its_bound(bfs_3x3):
    for b in fifteen.random_boards(20, size=3, seed=9):
        s = fifteen.solve(b, weight=1.5, heuristic="manhattan")
        opt = bfs_3x3[tuple(int(x) for x in b)]
        assert opt <= s.length <= 1.5 * opt and not s.optimal
        assert fifteen.check(b, s.moves) == s.length


def test_heuristics_against_pure_python(bfs_3x3):
    boards = fifteen.random_boards(500, size=3, seed=13)
    ham = fifteen.heuristic(boards, "hamming")
    man = fifteen.heuristic(boards, "manhattan")
    lc = fifteen.heuristic(boards, "linear-conflict")
    for b, h, m, l in zip(boards, ham, man, lc):
        tiles = [int(x) for x in b]
        want_h = sum(1 for i, t in enumerate(tiles) if t and t != GOAL_3X3[i])
        want_m = sum(abs(i // 3 - (t - 1) // 3) + abs(i % 3 - (t - 1) % 3)
                     for i, t in enumerate(tiles) if t)
        assert (h, m) == (want_h, want_m)
        assert m <= l <= bfs_3x3[tuple(tiles)]
    for kind in ("walking-distance", "pdb", "solve"):
        h = fifteen.heuristic(boards, kind)
        assert all(x <= bfs_3x3[tuple(int(t) for t in b)] for x, b in zip(h, boards)), kind
    assert fifteen.heuristic("1 2 3 4 5 6 7 8 0", "manhattan") == 0
    assert fifteen.heuristic([8, 6, 7, 2, 5, 4, 3, 0, 1], "pdb") <= 31


def test_board_forms():
    s = fifteen.solve("1 2 3\n0 4 6\n7 5 8")
    assert s.moves == "RDR" and s.board.shape == (3, 3)
    assert fifteen.solve([1, 2, 3, 0, 4, 6, 7, 5, 8]).moves == "RDR"
    assert fifteen.solve(np.array([[1, 2, 3], [0, 4, 6], [7, 5, 8]])).moves == "RDR"
    assert fifteen.solve(np.array([[1, 2, 3], [4, 5, 0]])).length == 0  # a 2x3 board
    assert fifteen.distance(["1 2 3 0 4 6 7 5 8", [1, 2, 3, 4, 5, 6, 7, 8, 0]]).tolist() == [3, 0]
    assert fifteen.is_solvable("1 2 3 4 5 6 7 8 0")
    assert not fifteen.is_solvable("2 1 3 4 5 6 7 8 0")
    assert fifteen.is_solvable("2 1 3 4 5 6 7 8 0", goal="2 1 3 4 5 6 7 8 0")
    # Its parameter has been `board` since the first release: by keyword, one board or a batch.
    assert fifteen.is_solvable(board="1 2 3 4 5 6 7 8 0") is True
    assert fifteen.is_solvable(board=["1 2 3 4 5 6 7 8 0", "2 1 3 4 5 6 7 8 0"]).tolist() == [True, False]


def _reaches(board, goal, cols):
    """Solvability by its rule, computed here: the permutation taking the goal to the board
    and the blank's taxicab distance between them have the same parity."""
    where = {t: i for i, t in enumerate(goal)}
    perm = [where[t] for t in board]
    seen, cycles = [False] * len(perm), 0
    for i in range(len(perm)):
        if not seen[i]:
            cycles += 1
            while not seen[i]:
                seen[i], i = True, perm[i]
    b, g = list(board).index(0), list(goal).index(0)
    blank = abs(b // cols - g // cols) + abs(b % cols - g % cols)
    return (len(perm) - cycles) % 2 == blank % 2


def test_random_boards_at_a_distance_are_that_far_by_bfs(bfs_3x3):
    # Every distance of the 8-puzzle but the last (31: two boards, which walks rarely find).
    for d in (0, 1, 2, 7, 16, 25, 28):
        boards = fifteen.random_boards(60, size=3, seed=d, distance=d)
        assert boards.dtype == np.uint8 and boards.shape == (60, 9)
        assert {bfs_3x3[tuple(b)] for b in boards.tolist()} == {d}, d
        if d >= 16:
            assert len({tuple(b) for b in boards.tolist()}) > 30  # not one board 60 times
    # Other shapes and goals, by a BFS from that goal.
    goal = (0, 1, 2, 3, 4, 5)
    want = distances(goal, 2, 3)
    boards = fifteen.random_boards(30, size="2x3", seed=1, distance=15, goal="blank-first")
    assert boards.shape == (30, 2, 3)
    assert {want[tuple(b.ravel().tolist())] for b in boards} == {15}
    # The same seed, the same boards; walk= and distance= are one or the other.
    again = fifteen.random_boards(30, size="2x3", seed=1, distance=15, goal="blank-first")
    assert (again == boards).all()
    with pytest.raises(TypeError, match="walk= or distance="):
        fifteen.random_boards(3, size=3, walk=5, distance=5)
    with pytest.raises(TypeError, match="distance: give a whole number"):
        fifteen.random_boards(3, size=3, distance=2.5)
    with pytest.raises(ValueError, match="distance: give a number of moves from 0"):
        fifteen.random_boards(3, size=3, distance=-1)
    # Farther than any board: said, not searched for ever.
    with pytest.raises(ValueError, match="no 2x2 board is more than 6 moves"):
        fifteen.random_boards(2, size=2, seed=1, distance=7)
    # Where the farthest is not known (the blank in the middle; 30 by BFS), after a walk.
    with pytest.raises(ValueError, match="stood 31 moves away .* rare or do not exist on 3x3"):
        fifteen.random_boards(1, size=3, seed=1, distance=31, goal="1 2 3 4 0 5 6 7 8")
    # Within the known radius, the boards exist; a walk that did not meet one says so.
    with pytest.raises(ValueError, match=r"that far exist \(the farthest are 31 moves away\)"):
        fifteen.random_boards(1, size=3, seed=2, distance=31)
    assert fifteen.random_boards(0, size=3, distance=5).shape == (0, 9)


@pytest.mark.parametrize("rows, cols, goal", [(3, 3, None), (4, 4, None), (4, 4, "blank-first"), (2, 3, None), (3, 4, "blank-first")])
def test_is_solvable_takes_a_batch_and_agrees_with_the_parity_rule(rows, cols, goal):
    rng = np.random.default_rng(rows * 10 + cols)
    perms = np.array([rng.permutation(rows * cols) for _ in range(400)], dtype=np.uint8)
    shaped = perms.reshape(400, rows, cols)
    got = fifteen.is_solvable(shaped if rows != cols else perms, goal=goal)
    assert got.dtype == bool and got.shape == (400,)
    goal_tiles = (list(range(rows * cols)) if goal == "blank-first"
                  else list(range(1, rows * cols)) + [0])
    want = [_reaches(b, goal_tiles, cols) for b in perms.tolist()]
    assert got.tolist() == want
    assert 120 < sum(want) < 280  # both kinds are there
    # The same as one board at a time, and as a list of boards.
    assert [fifteen.is_solvable(b, goal=goal) for b in shaped[:20]] == want[:20]
    assert fifteen.is_solvable(list(shaped[:20]), goal=goal).tolist() == want[:20]


def test_is_solvable_on_a_batch_names_a_board_that_is_no_board():
    boards = fifteen.random_boards(5, size=3, seed=1)
    boards[3, 0] = boards[3, 1]
    with pytest.raises(ValueError, match=r"^board 3: the number \d+ appears more than once"):
        fifteen.is_solvable(boards)
    assert fifteen.is_solvable(np.zeros((0, 9), dtype=np.uint8)).shape == (0,)


def test_random_boards_are_reproducible_and_solvable():
    a = fifteen.random_boards(100, size=4, seed=42)
    assert a.dtype == np.uint8 and a.shape == (100, 16)
    assert (a == fifteen.random_boards(100, size=4, seed=42)).all()
    assert not (a == fifteen.random_boards(100, size=4, seed=43)).all()
    assert all(fifteen.is_solvable(b) for b in a)
    assert all(sorted(b) == list(range(16)) for b in a.tolist())
    w = fifteen.random_boards(50, size=4, seed=1, walk=12)
    assert (fifteen.heuristic(w, "manhattan") <= 12).all()
    # The former name of walk=, still taken, with a warning.
    with pytest.warns(DeprecationWarning, match="walk"):
        assert (fifteen.random_boards(50, size=4, seed=1, moves=12) == w).all()


def test_the_same_boards_as_the_command_line():
    """`fifteen random --count 3 --seed 1 --size 3`, as printed by the command line."""
    binary = release_binary()
    import subprocess

    out = subprocess.run([str(binary), "random", "--count", "3", "--seed", "1", "--size", "3"],
                         capture_output=True, text=True, check=True).stdout
    cli = [[int(x) for x in line.split()] for line in out.splitlines() if line.strip()]
    assert fifteen.random_boards(3, size=3, seed=1).tolist() == cli
    # Boards at a distance too, though Python draws them in parallel and the command line
    # one at a time: each board has its own generator.
    for size, d, goal in (("3", 24, "standard"), ("2x3", 15, "blank-first"), ("4", 40, "standard")):
        out = subprocess.run([str(binary), "random", "--count", "5", "--seed", "7", "--size", size,
                              "--distance", str(d), "--goal", goal],
                             capture_output=True, text=True, check=True).stdout
        cli = [[int(x) for x in line.split()] for line in out.splitlines() if ":" not in line]
        got = fifteen.random_boards(5, size=size, seed=7, distance=d, goal=goal)
        assert got.reshape(5, -1).tolist() == cli, size


def test_solution_picture():
    import xml.etree.ElementTree as ET

    s = fifteen.solve("1 2 3 0 4 6 7 5 8")
    svg = s._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg") and "animateTransform" in svg and "RDR" in svg
    for k in range(s.length + 1):
        ET.fromstring(s.svg(step=k))
    assert "already solved" in fifteen.solve("1 2 3 4 5 6 7 8 0").svg()
    assert repr(s).startswith("Solution(board='1 2 3 0 4 6 7 5 8', moves='RDR', length=3, optimal=True")


def test_korf_100_published_lengths():
    """The Korf 100 (15-puzzle) through solve_many: every length the published one. Needs
    the 4x4 tables in the per-user directory (35 seconds to build): skipped without them,
    except under CI, where `.ci/run` builds them first and their absence is a failure."""
    tables = USER_TABLES
    have = all((tables / f).exists() for f in
               ["4x4-b0-1.2.3.4.5.6.7.pdb", "4x4-b0-8.9.10.11.12.13.14.15.pdb",
                "4x4-b0-1.2.3.4.8.12.5.pdb", "4x4-b0-6.7.9.10.11.13.14.15.pdb"])
    if not have:
        if os.environ.get("CI") == "true":
            pytest.fail(f"no 4x4 tables in {tables}: .ci/run builds them before the tests")
        pytest.skip(f"no 4x4 tables in {tables}")
    path = Path(__file__).resolve().parents[2] / "data" / "korf100.txt"
    rows = [line.split() for line in path.read_text().splitlines() if line[:1].isdigit()]
    boards = np.array([[int(x) for x in r[2:]] for r in rows], dtype=np.uint8)
    known = [int(r[1]) for r in rows]
    assert len(rows) == 100 and sum(known) == 5305
    batch = fifteen.solve_many(boards, goal="blank-first", moves=True, tables=tables,
                               stats=True)
    assert batch.lengths.tolist() == known
    for b, m in zip(boards, batch.moves):
        assert fifteen.check(b, m, goal="blank-first") == len(m)
    # The same estimate as the command line's default (tables, second partition, lazily):
    # the same nodes, instance by instance.
    binary = release_binary()
    if binary:
        import json
        import subprocess

        out = subprocess.run([str(binary), "solve", "-i", str(path), "--format", "json",
                              "--tables", str(tables)],
                             capture_output=True, text=True, check=True).stdout
        nodes = [json.loads(line)["nodes"] for line in out.splitlines() if line.startswith("{")]
        assert nodes == batch.nodes.tolist()


def test_empty_batches():
    assert fifteen.distance(np.zeros((0, 16), dtype=np.uint8)).shape == (0,)
    lengths, moves = fifteen.solve_many([], moves=True)
    assert lengths.shape == (0,) and moves == []
    assert fifteen.random_boards(0, size=3).shape == (0, 9)


def test_an_empty_batch_of_no_shape_takes_the_goals_shape():
    # `[]` gives no shape: the goal's own is taken, not refused as another board's.
    goal = [[1, 2, 3], [4, 5, 6], [7, 8, 0]]
    for given in (goal, "1 2 3\n4 5 6\n7 8 0", "1 2 3 4 5 6 7 8 0", [[1, 2], [3, 0], [4, 5]]):
        assert fifteen.distance([], goal=given).shape == (0,)
        assert fifteen.heuristic([], goal=given).shape == (0,)
    # The goal is still checked, and against the batch's shape when the batch has one.
    with pytest.raises(ValueError, match="the number 8 appears more than once"):
        fifteen.distance([], goal=[1, 2, 3, 4, 5, 6, 7, 8, 8])
    with pytest.raises(ValueError, match="make no square board"):
        fifteen.distance([], goal=[1, 2, 3, 4, 5, 6, 7, 0])
    with pytest.raises(ValueError, match="the goal has 9 cells but the board has 16"):
        fifteen.distance(np.zeros((0, 16), dtype=np.uint8), goal=goal)


def test_heuristic_takes_one_board_as_rows_as_solve_does():
    rows = [[1, 2, 3], [0, 4, 6], [7, 5, 8]]
    for board in (rows, np.array(rows), np.array(rows, dtype=np.uint8), np.array(rows, dtype=float)):
        assert fifteen.heuristic(board, "manhattan") == 3
    # A 4x4 board's rows: not four 2x2 boards (those hold only 0 to 3).
    korf1 = np.array([[14, 13, 15, 7], [11, 12, 9, 5], [6, 0, 2, 1], [4, 8, 10, 3]])
    assert fifteen.heuristic(korf1, "manhattan", goal="blank-first") == fifteen.heuristic(
        korf1.ravel(), "manhattan", goal="blank-first")
    # Non-square, as solve reads it.
    assert fifteen.heuristic(np.array([[1, 2, 3], [4, 0, 5]]), "manhattan") == 1
    # An (N, cells) array stays a batch, each row a board, even N = 1 and 2x2 boards.
    batch = fifteen.random_boards(4, size=3, seed=5)
    h = fifteen.heuristic(batch, "manhattan")
    assert isinstance(h, np.ndarray) and h.tolist() == [fifteen.heuristic(b, "manhattan") for b in batch]
    assert fifteen.heuristic(batch[:1], "manhattan").tolist() == h[:1].tolist()
    assert fifteen.heuristic(np.array([[1, 2, 3, 0], [1, 2, 0, 3]]), "hamming").tolist() == [0, 1]


def test_progress_to_a_log_is_plain_lines(tmp_path):
    # Without tqdm and without a terminal: lines a log can hold, no carriage returns or
    # escape codes.
    import subprocess
    import sys

    script = (
        "import sys; sys.modules['tqdm'] = None; sys.modules['tqdm.auto'] = None\n"
        "import fifteen\n"
        "b = fifteen.random_boards(40, size=3, seed=1)\n"
        f"print(fifteen.distance(b, progress=True, tables={str(tmp_path)!r}).sum())\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "\r" not in out.stderr and "\x1b" not in out.stderr, repr(out.stderr)
    lines = [line for line in out.stderr.splitlines() if line.endswith(" boards")]
    assert lines and lines[-1] == "40/40 boards", out.stderr
    assert len(lines) <= 11


def test_progress_to_a_log_is_plain_lines_even_with_tqdm(tmp_path):
    # A stand-in tqdm that marks what it draws: off a terminal it is not used (its
    # redraws would be text in the log); on one (here, said to be one) it is.
    import subprocess
    import sys

    fake = tmp_path / "fake" / "tqdm"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "auto.py").write_text(
        "import sys\n"
        "class tqdm:\n"
        "    def __init__(self, total=0, **kw): self.n = 0; self.total = total\n"
        "    def update(self, k): self.n += k; sys.stderr.write(f'\\rFAKE-TQDM {self.n}')\n"
        "    def close(self): sys.stderr.write('\\n')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "fake")}

    def run(terminal):
        script = (
            "import sys, fifteen\n"
            "p = sys.modules['fifteen._progress']  # the module, not its function\n"
            f"p._interactive = (lambda: True) if {terminal} else p._interactive\n"
            "b = fifteen.random_boards(40, size=3, seed=1)\n"
            f"print(fifteen.distance(b, progress=True, tables={str(tmp_path)!r}).sum())\n"
        )
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             cwd=tmp_path, timeout=120, env=env)
        assert out.returncode == 0, out.stderr
        return out.stderr

    log = run(False)
    assert "FAKE-TQDM" not in log and "\r" not in log, repr(log)
    assert "40/40 boards" in log.splitlines(), log
    assert "FAKE-TQDM 40" in run(True)


def test_solve_takes_hamming_as_the_command_line_does():
    """`fifteen solve --heuristic hamming` runs the solver's own search on misplaced tiles;
    so do solve and solve_many, with the command line's answer and nodes."""
    import json
    import subprocess

    hard = "8 6 7 2 5 4 3 0 1"
    s = fifteen.solve(hard, heuristic="hamming", threads=1)
    assert (s.length, s.optimal, s.heuristic) == (31, True, "hamming")
    assert fifteen.solve_many(["1 2 3 0 4 6 7 5 8", hard], heuristic="hamming").tolist() == [3, 31]
    out = subprocess.run(
        [str(release_binary()), "solve", "--heuristic", "hamming", "--threads", "1",
         "--format", "json", hard], capture_output=True, text=True, check=True).stdout
    cli = json.loads(out)
    assert (cli["moves"], cli["nodes"], cli["heuristic"]) == (s.moves, s.nodes, "hamming")


def test_a_solution_is_true_with_no_moves_too():
    done = fifteen.solve("1 2 3 4 5 6 7 8 0")
    assert len(done) == 0 and bool(done)
    assert bool(fifteen.solve("1 2 3 4 5 6 7 0 8"))



def test_a_stopped_board_has_no_moves_not_the_goals():
    """A board a limit stopped has length -1 and moves None; the goal itself has length 0
    and moves "": the two are never confused."""
    goal = "1 2 3 4 5 6 7 8 0"
    hard = "8 6 7 2 5 4 3 0 1"
    lengths, moves = fifteen.solve_many([goal, hard], moves=True, heuristic="hamming",
                                        max_nodes=10, threads=1)
    assert lengths.tolist() == [0, -1]
    assert moves == ["", None]
    batch = fifteen.solve_many([goal, hard], moves=True, stats=True, heuristic="hamming",
                               max_nodes=10, threads=1)
    assert batch.moves == ["", None]
    assert batch.lengths.tolist() == [0, -1]
