"""The Korf 100 through `fifteen.solve_many` beside `fifteen bench` on the same machine and
threads, alternated, each run in a fresh process (tables opened inside the timing, as the
command line's `wall` counts them).

    python benchmarks/korf100.py --fifteen ../target/release/fifteen --threads 2 --runs 5
"""

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
import numpy as np, fifteen
lines = [l.split() for l in open(sys.argv[1]) if l[:1].isdigit()]
boards = np.array([[int(x) for x in l[2:]] for l in lines], dtype=np.uint8)
known = np.array([int(l[1]) for l in lines])
t1 = time.perf_counter()
b = fifteen.solve_many(boards, goal="blank-first", threads=int(sys.argv[2]), stats=True)
t2 = time.perf_counter()
print(json.dumps({"wall": t2 - t1, "process": t2 - t0, "nodes": int(b.nodes.sum()),
                  "total": int(b.lengths.sum()), "wrong": int((b.lengths != known).sum()),
                  "n": len(boards)}))
"""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fifteen", default=str(ROOT / "target/release/fifteen"))
    ap.add_argument("--file", default=str(ROOT / "data/korf100.txt"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    cli, py = [], []
    for _ in range(a.runs):
        out = subprocess.run(
            [a.fifteen, "bench", a.file, "--threads", str(a.threads)],
            capture_output=True, text=True, check=True,
        ).stdout
        m = re.search(r"wall ([0-9.]+) s, (\d+) nodes", out)
        summary = re.search(r"(\d+) solved, (\d+) failed, (\d+) wrong lengths", out)
        cli.append({"wall": float(m.group(1)), "nodes": int(m.group(2)),
                    "wrong": int(summary.group(3))})
        r = subprocess.run([sys.executable, "-c", CHILD, a.file, str(a.threads)],
                           capture_output=True, text=True, check=True,
                           # Not beside python/fifteen, which would shadow the installed package.
                           cwd=tempfile.gettempdir())
        py.append(json.loads(r.stdout.strip().splitlines()[-1]))
    cw = [r["wall"] for r in cli]
    pw = [r["wall"] for r in py]
    print(f"fifteen bench   --threads {a.threads}: wall s {' '.join(f'{w:.3f}' for w in cw)}"
          f"  median {statistics.median(cw):.3f}; nodes {cli[0]['nodes']}; wrong {cli[0]['wrong']}")
    print(f"solve_many  threads={a.threads}: wall s {' '.join(f'{w:.3f}' for w in pw)}"
          f"  median {statistics.median(pw):.3f}; nodes {py[0]['nodes']}; "
          f"wrong lengths {py[0]['wrong']} of {py[0]['n']}; total length {py[0]['total']}")
    ratio = statistics.median(pw) / statistics.median(cw)
    print(f"ratio solve_many / bench (medians): {ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
