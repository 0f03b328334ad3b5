"""Ctrl-C during the long passes over a batch that come before or instead of a search
(reading and checking the boards, computing estimates) raises KeyboardInterrupt from the
call itself, and nothing is returned; and worker threads do not pile up."""

import _thread
import os
import signal
import sys
import threading
import time

import numpy as np
import pytest

import fifteen


def interrupted_inside(name, call, after=0.1):
    """Calls ``call()``, Ctrl-C arriving ``after`` seconds after it enters
    ``fifteen._native.<name>``, and requires KeyboardInterrupt.

    The handler raises only while that native function runs (``sys.setprofile`` sees it
    enter and leave), from its caller's frame (``check_signals`` in the native call): a
    call that looks at signals only once its native half has returned (its work done)
    gets no KeyboardInterrupt, and the test fails with "DID NOT RAISE" or with the error
    the work ran into.
    """
    native = getattr(fifteen._native, name)
    state = {"inside": False, "timer": None}

    def profile(frame, event, arg):
        if arg is not native:
            return
        if event == "c_call":
            state["inside"] = True
            state["timer"] = threading.Timer(after, _thread.interrupt_main)
            state["timer"].start()
        elif event in ("c_return", "c_exception"):
            state["inside"] = False

    def handler(signum, frame):
        # Not when the profile function is the first Python code to run after the native
        # call: it is then returning, about to say so.
        if state["inside"] and frame.f_code is not profile.__code__:
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, handler)
    sys.setprofile(profile)
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        sys.setprofile(None)
        if state["timer"] is not None:
            state["timer"].join()
        # A signal that came after the native call was handled as join() returned, by
        # the handler above (which ignored it), not by pytest's, put back only now.
        signal.signal(signal.SIGINT, previous)


def many_boards(n, size=3, seed=1):
    """``n`` boards (a few distinct ones repeated): a large batch without drawing it."""
    few = fifteen.random_boards(64, size=size, seed=seed)
    return np.resize(few, (n, few.shape[1]))


@pytest.mark.parametrize("kind", ["linear-conflict", "manhattan"])
def test_ctrl_c_stops_heuristic_on_a_large_batch(kind):
    boards = many_boards(4_000_000)
    interrupted_inside("heuristic", lambda: fifteen.heuristic(boards, kind))


def test_ctrl_c_stops_the_check_of_a_large_batch_before_its_search():
    # The last board cannot reach the goal: a check that ran to the end would raise
    # ValueError (board N-1: unsolvable) instead of answering Ctrl-C.
    boards = many_boards(4_000_000)
    boards[-1, :2] = boards[-1, 1::-1]
    if fifteen.is_solvable(boards[-1]):
        boards[-1, 2:4] = boards[-1, 3:1:-1]
    assert not fifteen.is_solvable(boards[-1])
    interrupted_inside("solve_many", lambda: fifteen.distance(boards, threads=1))


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
    # One pool of 42, not the 900 of 40 kept pools. A replaced pool's threads end on
    # their own time (on a loaded machine, some while later): wait for them to go.
    deadline = time.monotonic() + 30
    while threads() - before > 42 + 10 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert threads() - before <= 42 + 10


class _Holder:
    """A table build on another thread held at its end (the tables written, the claim on
    their directory not yet given up) until ``release`` is set, or ``hold`` seconds have
    passed (a bound, so that a call that waits for it without looking at Ctrl-C returns
    and its test fails rather than hangs)."""

    def __init__(self, tables, hold=8.0):
        self.release = threading.Event()
        self.held = threading.Event()
        self.thread = threading.Thread(
            target=fifteen.load_tables, args=(3,), kwargs={"tables": tables}, daemon=True
        )

        def reporter(kind, *args):
            if threading.current_thread() is self.thread and kind == "bar-close":
                self.held.set()
                self.release.wait(hold)
            fifteen._report(kind, *args)

        fifteen._native.set_reporter(reporter)
        self.thread.start()
        assert self.held.wait(60), "the build on another thread did not start"

    def close(self):
        self.release.set()
        self.thread.join()
        fifteen._native.set_reporter(fifteen._report)


def test_ctrl_c_stops_a_wait_for_another_threads_build(tmp_path):
    holder = _Holder(tmp_path / "t")
    try:
        # Tables of the same directory: waits for the build, Ctrl-C heard meanwhile.
        interrupted_inside(
            "load_tables", lambda: fifteen.load_tables("3x4", tables=tmp_path / "t"), after=0.3
        )
        # Not only once the build was done (when the call went on to its own).
        assert holder.thread.is_alive(), "Ctrl-C was heard only after the other build"
    finally:
        holder.close()
    assert fifteen.load_tables("3x4", tables=tmp_path / "t") == ["6-5"]


def test_tables_of_another_directory_do_not_wait_for_a_build(tmp_path):
    holder = _Holder(tmp_path / "a")
    try:
        assert fifteen.load_tables(3, tables=tmp_path / "b") == ["8"]
        assert holder.thread.is_alive(), "waited for the other directory's build"
    finally:
        holder.close()
