"""The type stubs (`__init__.pyi`) agree with what the package takes and gives: a user's
code that runs, written as the docs show, passes mypy. Skipped without mypy, except under
CI, where `.ci/run` installs it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

USER_CODE = '''
import fifteen
b = fifteen.solve_many(fifteen.random_boards(3, 3, seed=1), stats=True)
lengths, lower, nodes, seconds, moves = b            # a Batch unpacks to its five fields
labels, paths = fifteen.solve_many(fifteen.random_boards(3, 3, seed=1), moves=True)
first = paths[0]                                     # None where a limit stopped the board
if first is not None:
    print(first.lower())
s = fifteen.solve([[1, 2, 3], [4, 5, 6], [7, 0, 8]])     # a board as a list of rows
d = fifteen.distance(x for x in fifteen.random_boards(3, 3, seed=1))   # any iterable
t = fifteen.compare("1 2 3 4 5 6 7 0 8", max_nodes=None)               # no limit
print(s.moves, s.length, d, t, lengths, lower, nodes, seconds, moves, labels)
import numpy as np
with_moves = len(labels) > 1
either = fifteen.solve_many(fifteen.random_boards(3, 3, seed=1), moves=with_moves)  # a bool
g = fifteen.solve("1 2 3 0 4 6 7 5 8", goal=[[1, 2, 3], [4, 5, 6], [7, 8, 0]])   # goal as rows
w = fifteen.solve([1.0, 2.0, 3.0, 0.0, 4.0, 6.0, 7.0, 5.0, 8.0])                # whole floats
r = fifteen.random_boards(np.int64(3), size=3, seed=np.uint64(1))              # NumPy ints
u = fifteen.solve_many(r, threads=np.int64(2))
print(either, g, w, u)
empty = fifteen.heuristic([])                        # no boards: an empty array
print(empty.shape, fifteen.is_solvable([]).shape, fifteen.heuristic("1 2 3 0") + 1)
fg = fifteen.solve("1 2 3 0 4 6 7 5 8", goal=np.array([1, 2, 3, 4, 5, 6, 7, 8, 0.0]))  # floats
lim = fifteen.solve("1 2 3 0", max_nodes=np.int64(50))                         # NumPy limits
sr = fifteen.search("1 2 3 0", max_memory=np.int64(2**20), max_nodes=np.int64(99))
rb = fifteen.random_boards(2, size=(np.int64(2), 3))                          # NumPy sizes
rc = fifteen.random_boards(2, size=np.int64(3))
print(fg, lim, sr, rb, rc)
'''


def require_mypy():
    """Skips a test without mypy, except under CI, which installs it."""
    try:
        import mypy  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("mypy is missing: .ci/run installs it")
        pytest.skip("mypy is not installed")


def mypy(target, tmp_path):
    """mypy run afresh on ``target`` (a file or the package's directory)."""
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", str(tmp_path / "c"),
         str(target)], capture_output=True, text=True, cwd=tmp_path, timeout=600)


def test_documented_uses_pass_mypy(tmp_path):
    require_mypy()
    user = tmp_path / "user_code.py"
    user.write_text(USER_CODE)
    # The code runs...
    ran = subprocess.run([sys.executable, str(user)], capture_output=True, text=True,
                         cwd=tmp_path, timeout=300)
    assert ran.returncode == 0, ran.stderr
    # ...and the stubs say so.
    checked = mypy(user, tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_package_itself_passes_mypy(tmp_path):
    # Its own modules (fifteen._classic, fifteen._progress) read the package through
    # __init__.pyi: what they import from it must be there, so that mypy (and stubtest,
    # which runs it first) checks the package clean, tqdm and pandas installed or not.
    require_mypy()
    package = Path(__file__).resolve().parents[1] / "fifteen"
    checked = mypy(package, tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_stubs_match_the_package_at_run_time(tmp_path):
    # stubtest imports the installed package and compares every name with the stubs;
    # what it may find by design is in python/stubtest-allowlist.txt, each with why.
    require_mypy()
    allowlist = Path(__file__).resolve().parents[1] / "stubtest-allowlist.txt"
    checked = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "fifteen", "--allowlist", str(allowlist)],
        capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert checked.returncode == 0, checked.stdout + checked.stderr
