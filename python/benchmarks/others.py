"""`fifteen` beside the sliding-puzzle packages people install from PyPI, on the same
boards: time, length, and whether the length is the optimal one (as `fifteen` proves it,
and as Korf published it for his instances).

The other packages run in their own virtual environment (they pin other NumPy versions),
each search in a child process killed at the time limit:

    python3 -m venv /tmp/others
    /tmp/others/bin/pip install slidingpuzzle==0.1.5 fifteen-puzzle-solvers==2.0.3
    python benchmarks/others.py --others /tmp/others/bin/python --limit 60

Korf's instances have the blank first in their goal; the packages solve for the standard
goal (blank last), so each board is turned half a turn and its tiles renamed (t -> 16 - t),
which maps one goal onto the other and keeps every distance.
"""

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import fifteen

ROOT = Path(__file__).resolve().parents[2]

# Each child prints {"length": n, "secs": search time, "valid": bool} for its package's
# answer (the time of the search alone, not the interpreter's start).
CHILD = {
    "slidingpuzzle A* (linear conflict)": r"""
import json, sys, time, slidingpuzzle as sp
b = sp.from_iter(4, 4, json.loads(sys.argv[1]))
t0 = time.perf_counter()
r = sp.search(b, "a*")
print(json.dumps({"length": len(r.solution), "secs": time.perf_counter() - t0}))
""",
    "slidingpuzzle IDA* (linear conflict)": r"""
import json, sys, time, slidingpuzzle as sp
b = sp.from_iter(4, 4, json.loads(sys.argv[1]))
t0 = time.perf_counter()
r = sp.search(b, "ida*")
print(json.dumps({"length": len(r.solution), "secs": time.perf_counter() - t0}))
""",
    "fifteen-puzzle-solvers A*": r"""
import json, sys, time
from fifteen_puzzle_solvers.domain import Puzzle
from fifteen_puzzle_solvers.services.algorithms import AStar
from fifteen_puzzle_solvers.services.solver import PuzzleSolver
t = json.loads(sys.argv[1])
s = AStar(Puzzle([t[i:i + 4] for i in range(0, 16, 4)]))
t0 = time.perf_counter()
PuzzleSolver(s).run()
secs = time.perf_counter() - t0
path = [sum(p.position, []) for p in s.solution]
def step(a, b):
    d = [i for i in range(16) if a[i] != b[i]]
    if len(d) != 2 or 0 not in (a[d[0]], a[d[1]]):
        return False
    (i, j) = d
    return abs(i - j) == 4 or (abs(i - j) == 1 and i // 4 == j // 4)
ok = path[0] == t and path[-1] == list(range(1, 16)) + [0]
ok = ok and all(step(a, b) for a, b in zip(path, path[1:]))
print(json.dumps({"length": len(path) - 1, "valid": ok, "secs": secs}))
""",
}


def standard(tiles):
    """A blank-first board as the equivalent board for the standard goal."""
    return [0 if t == 0 else 16 - t for t in reversed(tiles)]


def run_child(python, code, tiles, limit):
    t0 = time.perf_counter()
    try:
        out = subprocess.run([python, "-c", code, json.dumps(tiles)], capture_output=True,
                             text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return None, limit, "no answer"
    secs = time.perf_counter() - t0
    if out.returncode != 0:
        return None, secs, "error: " + (out.stderr.strip().splitlines() or ["?"])[-1][:60]
    r = json.loads(out.stdout.strip().splitlines()[-1])
    return r["length"], r["secs"], "" if r.get("valid", True) else "not a solution"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--others", required=True, help="python of a venv with the packages")
    ap.add_argument("--ids", default="55,16,1", help="Korf 100 instance ids")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per search")
    a = ap.parse_args()
    korf = {}
    for line in (ROOT / "data" / "korf100.txt").read_text().splitlines():
        f = line.split()
        if f and f[0].isdigit():
            korf[int(f[0])] = (int(f[1]), [int(x) for x in f[2:]])
    print("| board | solver | time | length | optimal |")
    print("| --- | --- | ---: | ---: | --- |")
    for i in [int(x) for x in a.ids.split(",")]:
        known, tiles = korf[i]
        board = standard(tiles)
        fifteen.solve(board, threads=1)  # tables opened once, outside the timing
        t0 = time.perf_counter()
        s = fifteen.solve(board, threads=1)
        secs = time.perf_counter() - t0
        assert s.length == known and fifteen.check(board, s.moves) == known
        name = f"Korf {i} ({known})"
        print(f"| {name} | fifteen (1 thread) | {secs:.4f} s | {s.length} | yes |", flush=True)
        for label, code in CHILD.items():
            length, secs, note = run_child(a.others, code, board, a.limit)
            if length is None:
                print(f"| {name} | {label} | over {a.limit:g} s | - | {note} |", flush=True)
            else:
                opt = "yes" if length == known else f"no ({length - known:+d})"
                if note:
                    opt += f", {note}"
                print(f"| {name} | {label} | {secs:.2f} s | {length} | {opt} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
