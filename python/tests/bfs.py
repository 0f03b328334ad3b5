"""Breadth-first search over every arrangement of a small puzzle, in pure Python: the
facts the solver's answers are checked against, computed without any of its code."""

from collections import deque
from typing import Dict, Tuple

Board = Tuple[int, ...]


def neighbours(board: Board, rows: int, cols: int):
    z = board.index(0)
    r, c = divmod(z, cols)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        nr, nc = r + dr, c + dc
        if 0 <= nr < rows and 0 <= nc < cols:
            n = nr * cols + nc
            b = list(board)
            b[z], b[n] = b[n], b[z]
            yield tuple(b)


def distances(goal: Board, rows: int, cols: int) -> Dict[Board, int]:
    """The distance of every board that can reach `goal`."""
    dist = {goal: 0}
    queue = deque([goal])
    while queue:
        b = queue.popleft()
        d = dist[b] + 1
        for n in neighbours(b, rows, cols):
            if n not in dist:
                dist[n] = d
                queue.append(n)
    return dist
