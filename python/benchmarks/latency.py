"""The cost of one `fifteen.solve` call on a solved board (or `--board`), tables already
open: the median and 90th percentile of many calls, in microseconds (a notebook solving
boards one at a time pays this per board). Each call hands the search to a thread and
waits for it, so on a machine whose cores are busy (even with lower-priority work) a call
costs a scheduler tick, about 4 ms, instead of about 0.08 ms.

    python benchmarks/latency.py --calls 1001
"""

import argparse
import statistics
import time

import fifteen


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=1001)
    ap.add_argument("--board", default="1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0")
    a = ap.parse_args()
    fifteen.solve(a.board)  # opens (or builds) the tables once
    times = []
    for _ in range(a.calls):
        t = time.perf_counter()
        fifteen.solve(a.board)
        times.append(time.perf_counter() - t)
    times.sort()
    print(f"{a.calls} calls: median {statistics.median(times) * 1e6:.0f} us, "
          f"90th percentile {times[len(times) * 9 // 10] * 1e6:.0f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
