"""A batch too large for the memory left raises MemoryError; the process lives on."""

import subprocess
import sys

SCRIPT = """
import resource, numpy as np, fifteen
boards = np.resize(fifteen.random_boards(64, 3, seed=1), (10_000_000, 9))  # 90 MB
first = fifteen.distance(boards[:64])
fifteen.heuristic(boards[:64], "manhattan")
size = int(open("/proc/self/status").read().split("VmSize:")[1].split()[0]) * 1024
# 120 MB more address space: the input's copy (90 MB) fits, its answers (4 bytes a board
# or more, 40 MB or more) not.
resource.setrlimit(resource.RLIMIT_AS, (size + (120 << 20), resource.RLIM_INFINITY))
for call in (
    lambda: fifteen.distance(boards),
    lambda: fifteen.solve_many(boards, stats=True),
    lambda: fifteen.heuristic(boards, "manhattan"),
):
    try:
        call()
        print("answered")
    except MemoryError as e:
        print("MemoryError:", e)
# 200 MB more: estimates fit (each board's labels are made as it is estimated, not kept
# as a list of about 40 bytes a board, which did not fit).
size = int(open("/proc/self/status").read().split("VmSize:")[1].split()[0]) * 1024
resource.setrlimit(resource.RLIMIT_AS, (size + (200 << 20), resource.RLIM_INFINITY))
h = fifteen.heuristic(boards, "manhattan")
print("answered", len(h))
# The limit lifted, the package still answers, and the same.
resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
assert (fifteen.distance(boards[:64]) == first).all()
print("after")
"""


def test_a_batch_larger_than_the_memory_left_raises_memory_error(tmp_path):
    # Before, Rust's answer to the failed allocation aborted the process (exit status 134,
    # "memory allocation of 380000000 bytes failed"): a notebook's kernel died.
    r = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert r.returncode == 0, r.stderr[-500:]
    lines = r.stdout.splitlines()
    assert len(lines) == 5 and lines[-1] == "after", r.stdout
    assert lines[3] == "answered 10000000", r.stdout
    for line in lines[:3]:
        assert line.startswith("MemoryError: ") and "fit in memory" in line, r.stdout
        assert line.endswith("give the boards in smaller batches"), r.stdout


MOVES_SCRIPT = """
import resource, numpy as np, fifteen
boards = np.resize(fifteen.random_boards(1000, "2x2", seed=1), (1_000_000, 2, 2))  # 4 MB
lengths, moves = fifteen.solve_many(boards[:1000], moves=True)
size = int(open("/proc/self/status").read().split("VmSize:")[1].split()[0]) * 1024
# 40 MB more address space: the answers' arrays (16 bytes a board, 16 MB) fit, with the
# moves as a million strings (about 50 bytes each) they do not.
resource.setrlimit(resource.RLIMIT_AS, (size + (40 << 20), resource.RLIM_INFINITY))
try:
    fifteen.solve_many(boards, moves=True)
    print("answered")
except MemoryError as e:
    print("MemoryError:", e)
resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
again = fifteen.solve_many(boards[:1000], moves=True)
assert (again[0] == lengths).all() and again[1] == moves
print("after")
"""


def test_the_moves_of_a_batch_larger_than_the_memory_left_raise_memory_error(tmp_path):
    # Each board's moves were a string of their own, made in Rust: under a limit one of
    # millions of small allocations could fail and abort the process (exit status 134), or
    # a worker panic making a Python string and the call hang (6 million 2x3 boards under
    # `ulimit -v 700000`). Now they are one buffer, each growth checked, and Python makes
    # the strings. (This smaller batch, which the test runs in seconds, happened to fit in
    # the limit before: the old code answered it.)
    r = subprocess.run(
        [sys.executable, "-c", MOVES_SCRIPT],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stderr[-500:]
    lines = r.stdout.splitlines()
    assert len(lines) == 2 and lines[-1] == "after", r.stdout
    # Where it fails depends on what is asked first (the moves, or an answer's array
    # after them); each says so.
    assert lines[0].startswith("MemoryError: ") and "fit in memory" in lines[0], r.stdout
    assert "give the boards in smaller batches" in lines[0], r.stdout
