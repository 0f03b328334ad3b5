"""Worker threads do not pile up: calls with many thread counts keep one pool."""

import os

import pytest

import fifteen


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc")
def test_many_thread_counts_keep_one_pool():
    def threads():
        return len(os.listdir("/proc/self/task"))

    board = "1 2 3 0 4 6 7 5 8"
    fifteen.solve(board, heuristic="manhattan", threads=2)
    before = threads()
    for n in range(3, 43):
        fifteen.solve(board, heuristic="manhattan", threads=n)
        assert fifteen.solve_many([board], heuristic="manhattan", threads=n).tolist() == [3]
    # One pool of 42 (and the ends of replaced ones), not the 900 of 40 kept pools.
    assert threads() - before <= 42 + 100
