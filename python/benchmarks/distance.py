"""`fifteen.distance(fifteen.random_boards(N, size=S, seed=1))` beside the command line on
the same boards (`fifteen random --count N --seed 1 --size S`, then `fifteen bench`) and
threads, alternated, each in a fresh process; boards per second of each.

    python benchmarks/distance.py --fifteen ../target/release/fifteen --count 10000 --size 3
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
import numpy as np, fifteen
n, size, threads = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
boards = fifteen.random_boards(n, size=size, seed=1)
t1 = time.perf_counter()
d = fifteen.distance(boards, threads=threads)
t2 = time.perf_counter()
print(json.dumps({"wall": t2 - t1, "sum": int(d.sum()), "boards": boards.tobytes().hex()[:64]}))
"""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fifteen", default=str(ROOT / "target/release/fifteen"))
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--size", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    text = subprocess.run(
        [a.fifteen, "random", "--count", str(a.count), "--seed", "1", "--size", str(a.size)],
        capture_output=True, text=True, check=True,
    ).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
        path = f.name
    first = bytes(int(x) for x in text.split()[: a.size * a.size * 2]).hex()
    cli, py = [], []
    for _ in range(a.runs):
        out = subprocess.run([a.fifteen, "bench", path, "--threads", str(a.threads)],
                             capture_output=True, text=True, check=True).stdout
        m = re.search(r"wall ([0-9.]+) s", out)
        total = re.search(r"total length (\d+)", out)
        cli.append({"wall": float(m.group(1)), "sum": int(total.group(1))})
        r = subprocess.run([sys.executable, "-c", CHILD, str(a.count), str(a.size),
                            str(a.threads)], capture_output=True, text=True, check=True,
                           # Not beside python/fifteen, which would shadow the installed package.
                           cwd=tempfile.gettempdir())
        py.append(json.loads(r.stdout.strip().splitlines()[-1]))
    same = py[0]["boards"].startswith(first[:32])
    cw = statistics.median(r["wall"] for r in cli)
    pw = statistics.median(r["wall"] for r in py)
    print(f"{a.count} random {a.size}x{a.size} boards, seed 1, {a.threads} threads; same boards "
          f"as `fifteen random`: {same}; sum of distances: cli {cli[0]['sum']}, "
          f"python {py[0]['sum']}")
    cs = " ".join(f"{r['wall']:.3f}" for r in cli)
    ps = " ".join(f"{r['wall']:.3f}" for r in py)
    print(f"fifteen bench: wall s {cs}; median {cw:.3f} "
          f"= {a.count / cw:,.0f} boards/s")
    print(f"distance():    wall s {ps}; median {pw:.3f} "
          f"= {a.count / pw:,.0f} boards/s")
    print(f"ratio distance / bench (medians): {pw / cw:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
