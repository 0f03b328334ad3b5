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
