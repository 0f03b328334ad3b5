"""A forked child (multiprocessing's default start method on Linux before Python 3.14)
computes as the parent does, whatever the parent had started before the fork: the worker
pool of its last thread count, tables it opened or built. A child that hangs fails the
test (after a timeout) rather than CI."""

import multiprocessing
import os
import signal
import sys

import pytest

import fifteen

pytestmark = pytest.mark.skipif(
    sys.platform == "win32" or "fork" not in multiprocessing.get_all_start_methods(),
    reason="needs fork",
)

#: Seconds a child may take for work that takes milliseconds.
PATIENCE = 20

BOARDS = ["1 2 3 0 4 6 7 5 8", "8 6 7 2 5 4 3 0 1", "1 2 3 4 5 6 7 8 0"]
LENGTHS = [3, 31, 0]


def _distances(threads):
    return fifteen.distance(BOARDS, threads=threads).tolist()


def _in_pool(f, args):
    """``f`` of each of ``args`` in a pool of two forked children: their answers, or a
    failure when they do not come within PATIENCE seconds."""
    ctx = multiprocessing.get_context("fork")
    pool = ctx.Pool(2)
    try:
        answers = pool.map_async(f, args).get(timeout=PATIENCE)
    except multiprocessing.TimeoutError:
        pytest.fail(f"forked children gave no answer in {PATIENCE} s (hung)")
    finally:
        pool.terminate()
        pool.join()
    return answers


@pytest.mark.parametrize("threads", [1, 2])
def test_distance_in_forked_children_after_the_parent_used_the_pool(threads):
    # The parent's pool of this count is kept; its threads do not exist in a child.
    assert _distances(threads) == LENGTHS
    assert _in_pool(_distances, [threads] * 4) == [LENGTHS] * 4


def _hard_solve(threads):
    return len(fifteen.solve(BOARDS[1], heuristic="manhattan", threads=threads))


def test_solve_on_threads_in_a_forked_child():
    assert _hard_solve(2) == 31
    assert _in_pool(_hard_solve, [2, 2]) == [31, 31]


def _build(tables):
    return fifteen.load_tables(3, tables=tables), fifteen.distance(BOARDS, tables=tables).tolist()


def test_a_table_build_in_a_forked_child_after_one_in_the_parent(tmp_path):
    # The parent's build started the worker threads a build runs on; the child builds
    # the same tables in another directory.
    parent = _build(tmp_path / "a")
    assert parent[0] and parent[1] == LENGTHS
    assert _in_pool(_build, [tmp_path / "b"]) == [parent]


def test_os_fork_child_answers():
    assert _distances(2) == LENGTHS
    pid = os.fork()
    if pid == 0:
        # The child: exit status 0 when it answers right, 1 when wrong; killed by the
        # alarm when it hangs.
        signal.alarm(PATIENCE)
        try:
            os._exit(0 if _distances(2) == LENGTHS else 1)
        finally:
            os._exit(2)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status), f"the child hung (killed by signal {os.WTERMSIG(status)})"
    assert os.WEXITSTATUS(status) == 0


def test_a_fork_while_another_thread_changes_the_thread_count():
    # The parent's other thread keeps replacing the kept pool, which takes its lock on a
    # thread of its own: a fork at that moment gave a child whose first call waited for
    # that lock for ever (2 of 300 forks, or one in the first hundred, before the fix).
    import threading

    stop = threading.Event()

    def churn():
        i = 0
        while not stop.is_set():
            i += 1
            fifteen.distance(BOARDS[:1], threads=1 + i % 4)

    t = threading.Thread(target=churn, daemon=True)
    t.start()
    try:
        for n in range(400):
            pid = os.fork()
            if pid == 0:
                signal.alarm(PATIENCE)
                try:
                    os._exit(0 if fifteen.distance(BOARDS[:1], threads=2).tolist() == [3] else 1)
                finally:
                    os._exit(2)
            _, status = os.waitpid(pid, 0)
            assert os.WIFEXITED(status), f"fork {n}: the child hung (signal {os.WTERMSIG(status)})"
            assert os.WEXITSTATUS(status) == 0, f"fork {n}: the child answered wrong"
    finally:
        stop.set()
        t.join()
