"""A script may end while a daemon thread of its own is inside a `fifteen` call."""

import subprocess
import sys

SCRIPT = """
import threading, time, fifteen
boards = fifteen.random_boards(2000, 3, seed=1)
def work():
    while True:
        fifteen.distance(boards, threads=2)
threading.Thread(target=work, daemon=True).start()
time.sleep(0.3)
print("the main thread ends")
"""


def test_a_daemon_thread_in_a_call_does_not_abort_the_exit(tmp_path):
    # CPython ends such a thread with pthread_exit when it takes the GIL back during the
    # shutdown, which aborted the process through the Rust frames (exit status 134,
    # "FATAL: exception not rethrown"), in 9 of 12 runs before the fix.
    for run in range(6):
        # Run elsewhere than here: `-c` puts the working directory first on the path,
        # and this one holds the package's source, not the installed package.
        r = subprocess.run(
            [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120, cwd=tmp_path
        )
        assert (r.returncode, r.stdout) == (0, "the main thread ends\n"), (
            f"run {run}: exit status {r.returncode}: {r.stderr[-300:]}"
        )
