"""Boards at an exact optimal distance from the goal, for :func:`fifteen.random_boards`
(``distance=d``): each is where a random walk from the goal first stands ``d`` moves away.

An optimal distance changes by exactly one with each move, so a walk that stands ``k < d``
moves away cannot stand ``d`` away before ``d - k`` more moves: each walk is measured (an
optimal search, :func:`fifteen.distance`) only then, and the first time it measures ``d``
is the first time it stands there. The boards are not uniform among those at distance
``d`` (no cheap way to draw those is known beyond the small boards): a walk reaches some
of them more often than others."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional

import numpy as np


def at_distance(
    goal: np.ndarray,
    rows: int,
    cols: int,
    n: int,
    d: int,
    seed: int,
    measure: Callable[[np.ndarray], np.ndarray],
    budget: Optional[int] = None,
) -> np.ndarray:
    """``n`` boards (an ``(n, cells)`` ``uint8`` array) at distance ``d`` from ``goal`` (its
    cells, the blank 0), by walks that never undo their last move, drawn from ``seed``.
    ``measure`` gives the optimal distances of a batch of boards. Raises ``ValueError``
    when some walk has not reached ``d`` within ``budget`` moves (by default 10,000 plus
    1,000 a move of ``d``): boards that far are rare or do not exist."""
    cells = rows * cols
    rng = np.random.default_rng(seed)
    boards = np.tile(np.asarray(goal, dtype=np.uint8).reshape(cells), (n, 1))
    blank = np.full(n, int(np.flatnonzero(boards[0] == 0)[0]) if n else 0, dtype=np.int64)
    last = np.full(n, -1, dtype=np.int64)
    # Moves left before a walk can first stand d away: d at the goal.
    wait = np.full(n, d, dtype=np.int64)
    active = np.flatnonzero(wait > 0)
    budget = 10_000 + 1_000 * d if budget is None else budget
    moved = 0
    # Distances measured, by board: walks on small boards, or near the farthest ones, meet
    # the same boards again and again, and a search call costs a millisecond however small.
    known: Dict[bytes, int] = {}

    def measured(batch: np.ndarray) -> np.ndarray:
        keys = [row.tobytes() for row in batch]
        new = [i for i, k in enumerate(keys) if k not in known]
        if new:
            for i, v in zip(new, np.asarray(measure(batch[new])).tolist()):
                known[keys[i]] = int(v)
        out = np.array([known[k] for k in keys], dtype=np.int64)
        if len(known) > 1_000_000:
            known.clear()
        return out

    while active.size:
        if moved == budget:
            raise ValueError(
                f"distance: {active.size} of {n} walks from the goal stood less than {d} "
                f"moves away after {budget:,} moves each: boards that far are rare or do "
                f"not exist on {rows}x{cols} boards"
            )
        moved += 1
        b = blank[active]
        r, c = b // cols, b % cols
        # The cells the blank can move to (up, down, left, right), -1 where it cannot.
        to = np.stack(
            [
                np.where(r > 0, b - cols, -1),
                np.where(r < rows - 1, b + cols, -1),
                np.where(c > 0, b - 1, -1),
                np.where(c < cols - 1, b + 1, -1),
            ],
            axis=1,
        )
        legal = (to >= 0) & (to != last[active][:, None])
        pick = np.argmax(np.where(legal, rng.random(to.shape), -1.0), axis=1)
        nb = to[np.arange(active.size), pick]
        boards[active, b] = boards[active, nb]
        boards[active, nb] = 0
        last[active], blank[active] = b, nb
        wait[active] -= 1
        due = active[wait[active] == 0]
        if due.size:
            wait[due] = d - measured(boards[due])
            if (wait[due] < 0).any():
                raise RuntimeError("a walk's distance grew by more than a move a move")
        active = active[wait[active] > 0]
    return boards


def check_distance(distance: Any) -> int:
    """``distance`` as a count of moves, or the error that names it."""
    from ._args import _is_int, _typename

    if not _is_int(distance):
        raise TypeError(f"distance: give a whole number of moves, not {_typename(distance)}")
    if not 0 <= distance <= 1000:
        raise ValueError("distance: give a number of moves from 0 to 1,000")
    return int(distance)
