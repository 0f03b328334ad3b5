"""Provably optimal solutions to sliding-tile puzzles (8-, 15-, 24-puzzle and other
rectangles), from Python.

This is the ``fifteen`` solver (IDA* over additive pattern databases, written in Rust)
with the same search, tables and answers as its command line::

    >>> import fifteen
    >>> s = fifteen.solve("1 2 3 0 4 6 7 5 8")
    >>> s.moves, s.length, s.optimal
    ('RDR', 3, True)
    >>> fifteen.distance(fifteen.random_boards(3, size=3, seed=1))
    array([...], dtype=int32)

Boards are given as text (``"1 2 3 4 5 6 7 8 0"``, or rows on lines), as a sequence of
numbers (a square board), or as a 2-D array of rows; ``0`` is the blank. Batches are NumPy
``uint8`` arrays of shape ``(N, cells)`` (``(N, rows, cols)`` for boards that are not
square). Moves are the blank's moves, ``U``, ``D``, ``L``, ``R``, as on the command line.

Goals: ``None`` or ``"standard"`` (1 2 ... with the blank last), ``"blank-first"``
(Korf's: the blank first), or any board of the same shape.

Pattern databases live in the same per-user directory as the command line's
(``tables_dir()``; ``FIFTEEN_TABLES`` or ``tables=`` choose another), are built on first use
with the same notice (the 4x4 tables take about 35 seconds, once), and are opened once per
process.
"""

from __future__ import annotations

import math
import os
import sys
import time
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native

__all__ = [
    "Solution",
    "Batch",
    "SearchStopped",
    "solve",
    "solve_many",
    "distance",
    "random_boards",
    "is_solvable",
    "check",
    "heuristic",
    "load_tables",
    "tables_dir",
    "HEURISTICS",
    "search",
    "compare",
    "SearchResult",
    "Comparison",
    "ALGORITHMS",
    "Problem",
    "read_problem",
    "report",
    "write_report",
]

__version__ = "0.1.0"

#: The estimates :func:`heuristic` computes.
HEURISTICS = ("hamming", "manhattan", "linear-conflict", "walking-distance", "pdb", "solve")

Board = Union[str, Sequence[int], np.ndarray]
Goal = Union[None, str, Sequence[int], np.ndarray]

class SearchStopped(RuntimeError):
    """A search ended by a limit (``timeout``, ``max_nodes``, ``max_memory``, a depth
    limit) before it proved an answer.

    ``reason`` (``"time limit reached"``, ``"node limit reached"``, ...), ``nodes``
    (generated) and ``lower_bound`` (no solution is shorter; ``None`` where the search
    proves no bound, as the classic searches of :func:`search`) say how far it got;
    ``counts`` holds a classic search's counts (``expanded``, ``generated``, ...).
    """

    def __init__(self, reason: str, nodes: int, lower_bound: Optional[int] = None,
                 counts: Optional[Dict[str, Any]] = None) -> None:
        bound = "" if lower_bound is None else (
            f"; no solution is shorter than {lower_bound} moves"
        )
        super().__init__(f"search stopped ({reason}) after {nodes} nodes{bound}")
        self.reason = reason
        self.nodes = nodes
        self.lower_bound = lower_bound
        self.counts = counts

    def __reduce__(self) -> Tuple[Any, ...]:
        # Rebuilt from its own arguments: pickling (multiprocessing) and copying would
        # otherwise call __init__ with the message alone, and a Pool's result thread dies.
        return (type(self), (self.reason, self.nodes, self.lower_bound, self.counts))


# --- boards and goals -------------------------------------------------------------------


def _numbers(board: Any) -> Tuple[List[int], int, int]:
    _ragged(board)
    if isinstance(board, (list, tuple)):
        # The cells as given: NumPy reads a list that mixes numbers with bools as numbers
        # (True as 1), and with text as text (the first cell, a number, named as text).
        _cells([x for r in board for x in (_row_cells(r) if _is_row(r) else [r])])
    try:
        arr = np.asarray(board)
    except ValueError:
        # Rows within rows, of different lengths: no board at all.
        raise TypeError("a board cell must be a whole number; got a sequence") from None
    if arr.ndim == 0:
        raise TypeError(
            f"a board is text, a sequence of numbers or a 2-D array of rows, not "
            f"{_typename(board)}"
        )
    if arr.dtype.kind not in "iu":
        # Floats, bools, objects (None, text, NumPy keeping huge ints as objects): each cell must
        # be a whole number; a float that is one (2.0) counts as one.
        values = arr.ravel().tolist()
        _cells(values)
        # Whole floats too (1e20 is the number 100000000000000000000): out of range here,
        # never int64's OverflowError.
        ints = [int(x) for x in values]
        big = next((x for x in ints if not -2**63 <= x < 2**63), None)
        if big is not None:
            raise ValueError(f"the number {str(big)[:24]} is out of range")
        arr = np.array(ints, dtype=np.int64).reshape(arr.shape)
    if arr.ndim == 2:
        rows, cols = arr.shape
        return [int(x) for x in arr.ravel()], int(rows), int(cols)
    if arr.ndim == 1:
        return [int(x) for x in arr], 0, 0
    raise ValueError(
        f"a board is a sequence of numbers or a 2-D array of rows, not an array of "
        f"{arr.ndim} dimensions"
    )


def _cells(values: Sequence[Any]) -> None:
    """Refuses the first of a board's cells that is no whole number: ``TypeError`` naming
    it (a bool too: no number, though Python counts it as one), ``ValueError`` for a float
    that is not whole (2.0 is the number 2). Rows within rows are left to the shape's
    checks."""
    for x in values:
        if _is_int(x) or _is_row(x):
            continue
        if isinstance(x, (float, np.floating)):
            if math.isfinite(x) and x == round(x):
                continue
            raise ValueError(f"'{str(x)[:20]}' is not a number")
        raise TypeError(f"a board cell must be a whole number; got {_what(x)}")


def _row_cells(row: Any) -> List[Any]:
    """A row's cells as given (an array's as Python values)."""
    return row.tolist() if isinstance(row, np.ndarray) else list(row)


def _holds_bool(x: Any) -> bool:
    """Whether boards given as lists (of numbers, rows or boards) hold a bool: NumPy reads
    a list that mixes bools with whole numbers as whole numbers, True as 1."""
    if isinstance(x, np.ndarray):
        return x.dtype.kind == "b" or (x.dtype == object and _holds_bool(x.ravel().tolist()))
    if not isinstance(x, (list, tuple)):
        return isinstance(x, (bool, np.bool_))
    types = set(map(type, x))
    if bool in types or np.bool_ in types:
        return True
    if not any(issubclass(t, (list, tuple, np.ndarray)) for t in types):
        return False
    return any(_holds_bool(v) for v in x if isinstance(v, (list, tuple, np.ndarray)))


def _is_row(x: Any) -> bool:
    return isinstance(x, (list, tuple)) or (isinstance(x, np.ndarray) and x.ndim == 1)


def _ragged(board: Any) -> None:
    """Refuses a board given as a list of rows that are not all as long as the first, as
    its text is refused (NumPy would say "inhomogeneous shape")."""
    if not isinstance(board, (list, tuple)) or not any(_is_row(r) for r in board):
        return
    for i, r in enumerate(board):
        if not _is_row(r):
            if not _is_int(r) and not isinstance(r, (float, np.floating)):
                raise TypeError(f"a board cell must be a whole number; got {_what(r)}")
            first = next(j for j, x in enumerate(board) if _is_row(x))
            raise ValueError(
                f"row {i + 1} is one number ({str(r)[:20]}) but row {first + 1} is a row (a "
                f"board's rows must all be the same length)"
            )
    first = len(board[0])
    for i, r in enumerate(board):
        if len(r) != first:
            raise ValueError(
                f"row {i + 1} has {len(r)} numbers but row 1 has {first} (a board's rows "
                f"must all be the same length)"
            )


def _what(x: Any) -> str:
    """A value that is no number, as an error names it: ``None``, ``str '7'``."""
    if x is None:
        return "None"
    return f"{type(x).__name__} {str(x)[:20]!r}"


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def _typename(x: Any) -> str:
    """What an argument of the wrong type is, as an error names it: ``None``, ``str``."""
    return "None" if x is None else type(x).__name__


def _text(name: str, value: Any, what: str, optional: bool = False) -> Optional[str]:
    """A text argument (a name: an algorithm, an estimate): ``TypeError`` naming the
    argument and what it takes for anything else (``None`` too, unless ``optional``)."""
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{name}: give {what}, not {_typename(value)}")
    return value


def _flag(name: str, value: Any) -> bool:
    """A yes-or-no argument: ``True`` or ``False`` (NumPy's too), else ``TypeError``."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: give True or False, not {_typename(value)}")
    return bool(value)


def _real(x: Any) -> bool:
    return isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, (bool, np.bool_))


# The command line's ranges (`--threads`, `--max-nodes`).
_MAX_THREADS = 1024
_MAX_NODES = 10**18


def _whole(name: str, value: Any, lo: int, hi: int, optional: bool = True) -> Optional[int]:
    """A whole-number argument (``None`` allowed when ``optional``), checked here so that
    every bad value raises ``TypeError`` (not a whole number) or ``ValueError`` (out of
    range), never the extension's ``OverflowError``."""
    if value is None and optional:
        return None
    if not _is_int(value):
        raise TypeError(f"{name}: give a whole number from {lo:,} to {hi:,}, not {_typename(value)}")
    if not lo <= int(value) <= hi:
        raise ValueError(f"{name}: give a whole number from {lo:,} to {hi:,} (got {int(value):,})")
    return int(value)


def _seconds(value: Any) -> Optional[float]:
    """A timeout in seconds: ``None`` or ``math.inf`` for none, else a number 0 or more."""
    if value is None:
        return None
    if not _real(value):
        raise TypeError(f"timeout: give a number of seconds, not {_typename(value)}")
    if _is_int(value) and value > 2**63:
        return None  # more than a float holds, and no limit (as math.inf)
    v = float(value)
    if math.isnan(v) or v < 0:
        raise ValueError("timeout: give a number of seconds, 0 or more (None or math.inf: no limit)")
    # A century and beyond is no limit (and more than a Duration holds).
    return None if v > 3.2e9 else v


def _weight(value: Any) -> float:
    """The weight a search runs with: ``value`` rounded down to a multiple of 1/1000 (1.2345
    runs as 1.234), as the command line's ``--weight`` is; ``TypeError`` for text (``"2"``)
    and anything else that is not a number, ``ValueError`` outside 1 to 100."""
    if not _real(value):
        raise TypeError(f"weight: give a number from 1 to 100, not {_typename(value)}")
    if _is_int(value) and not 1 <= value <= 100:
        value = 0.0  # refused below, with its message (a float would not hold 10**400)
    return _native.weight_factor(float(value))


def _board(board: Board) -> Tuple[bytes, int, int]:
    """The board's tiles, rows and columns, checked as the command line checks them."""
    if isinstance(board, str):
        return _native.parse_board(board)
    numbers, rows, cols = _numbers(board)
    return _native.make_board(numbers, rows, cols)


def _goal(goal: Goal, rows: int, cols: int) -> bytes:
    """The goal's tiles for boards of this shape; ``rows == 0`` (an empty batch, of no shape)
    takes the goal in its own shape, a name or flat numbers as 4x4 or as a square."""
    if goal is None:
        goal = "standard"
    if rows == 0:
        if isinstance(goal, str) and "\n" not in goal.strip():
            words = goal.split()
            rows = cols = 4 if len(words) <= 1 else max(2, math.isqrt(len(words)))
        elif not isinstance(goal, str):
            numbers, r, c = _goal_numbers(goal)
            side = math.isqrt(len(numbers))
            if not r and side * side != len(numbers):
                raise ValueError(
                    f"the goal's {len(numbers)} numbers make no square board; give its rows"
                )
            rows, cols = (r, c) if r else (side, side)
        else:
            return _native.parse_board(goal.strip())[0]
    if isinstance(goal, str):
        text = goal.strip()
        if "\n" not in text:
            # A name (standard, blank-first) or numbers, as `--goal` reads them.
            return _native.named_goal(text, rows, cols)
        tiles, r, c = _native.parse_board(text)
    else:
        numbers, r, c = _goal_numbers(goal)
        if r == 0:
            # A flat goal: as many numbers as the board has cells, in the board's shape.
            if len(numbers) != rows * cols:
                raise ValueError(f"the goal has {len(numbers)} cells but the board has {rows * cols}")
            r, c = rows, cols
        tiles, r, c = _native.make_board(numbers, r, c)
    if (r, c) != (rows, cols):
        if r * c == rows * cols:  # as many cells, another shape: the counts would not say
            raise ValueError(f"the goal is {r}x{c} but the board is {rows}x{cols}")
        raise ValueError(f"the goal has {r * c} cells but the board has {rows * cols}")
    return tiles


def _goal_numbers(goal: Any) -> Tuple[List[int], int, int]:
    """A goal's numbers as :func:`_numbers` reads a board's, a ``TypeError`` naming the
    argument (``goal: ...``): it is no board the caller gave as such."""
    try:
        return _numbers(goal)
    except TypeError as e:
        raise TypeError(f"goal: {e}") from None


def _single(boards: Any) -> bool:
    """Whether ``boards`` is one board rather than a batch: text, a sequence of numbers, or
    a 2-D array (or list) of rows that reads better as one board than as boards (see
    :func:`_one_board`). Empty input is an empty batch, as :func:`distance` reads it."""
    if isinstance(boards, str):
        return True
    if isinstance(boards, np.ndarray):
        if boards.ndim == 2 and boards.size and boards.dtype.kind != "b":
            return _one_board(boards)  # (bools are no board: a batch, named by its dtype)
        return boards.ndim == 1 and boards.size > 0
    if isinstance(boards, (list, tuple)):
        if not boards:
            return False
        if any(isinstance(b, str) for b in boards):
            # Boards as text (a batch), unless among numbers: one board, its text cell
            # refused by name.
            return not all(isinstance(b, str) or _is_row(b) for b in boards)
        if any(
            isinstance(r, np.ndarray) and r.ndim > 1 or _is_row(r) and len(r) and _is_row(r[0])
            for r in boards
        ):
            return False  # boards given as rows: a list of 2-D boards
        if all(_is_row(r) for r in boards):
            return _one_board(boards)
        # Numbers (or cells that are none: one board's, refused by `solve`'s checks), or
        # numbers and rows mixed, which no batch is.
        return True
    try:
        arr = np.asarray(boards)
    except ValueError:
        return False
    return _single(arr) if arr.ndim in (1, 2) else False


# The most cells a board has (6x6, 4x9, 2x18) and the cell counts of square boards, the
# only ones an (N, cells) batch holds.
_MAX_CELLS = 36
_SQUARES = (4, 9, 16, 25, 36)


def _one_board(rows: Any) -> bool:
    """Whether rows of numbers (a 2-D array, or a list of rows of any lengths) are one
    board's rows rather than a batch of boards, a board a row.

    Rows of one length that no square board has (3 on a 3x3 board) are one board's; rows
    that together are too many cells for a board (more than 36), or a single row, are a
    batch. Otherwise the numbers decide: each reading is charged a number for every one
    out of its range or repeated (one board: 0 to cells - 1 once each; a batch: every row
    0 to its length - 1 once each), and the batch is taken only when it is charged fewer.
    So a valid board is always one board, a valid batch always a batch, and a batch with a
    bad number in one board is still the batch, its error naming that board."""
    if isinstance(rows, np.ndarray):
        count, longest = rows.shape
        even, total = True, rows.size
    else:
        lengths = [len(r) for r in rows]
        count, longest, total = len(lengths), max(lengths), sum(lengths)
        even = min(lengths) == longest
    if even and longest not in _SQUARES:
        return True
    if total > _MAX_CELLS or (even and count < 2):
        return False
    rows = [list(r) for r in rows]
    if any(_is_row(x) for r in rows for x in r):
        return False  # boards as rows: a batch of 2-D boards
    board = _misfits([x for r in rows for x in r])
    batch = sum(_misfits(r) for r in rows)
    return board <= batch


def _misfits(values: List[Any]) -> int:
    """How many of ``values`` keep them from being a board's cells, each number from 0 to
    ``len(values) - 1`` once: those out of that range, repeated, or no whole number."""
    seen = set()
    bad = 0
    for x in values:
        if isinstance(x, (float, np.floating)) and math.isfinite(x) and x == round(x):
            x = int(x)
        if _is_int(x) and 0 <= x < len(values) and int(x) not in seen:
            seen.add(int(x))
        else:
            bad += 1
    return bad


# A side of a board: at least 2, and at most 18 (2x18 is 36 cells, the most there are).
_MAX_SIDE = 18


def _shape_of(size: Union[int, str, Tuple[int, int]]) -> Tuple[int, int]:
    if isinstance(size, str):
        text = size.strip().lower()
        if "x" in text:
            r, _, c = text.partition("x")
            if r.strip().isdigit() and c.strip().isdigit():
                rows, cols = int(r), int(c)
            else:
                raise ValueError(f"bad size '{size[:30]}' (use RxC such as 3x4, N for NxN)")
        elif text.isdigit():
            rows = cols = int(text)
        else:
            raise ValueError(f"bad size '{size[:30]}' (use RxC such as 3x4, N for NxN)")
    elif isinstance(size, (tuple, list)) and len(size) == 2:
        rows, cols = size
    elif isinstance(size, (tuple, list)):
        raise ValueError(f"bad size {size!r:.30} (use RxC such as 3x4, N for NxN)")
    elif _real(size):
        rows = cols = size
    else:
        raise TypeError(f"size: give N, 'RxC' or (rows, cols), not {_typename(size)}")
    # As the other numeric arguments: TypeError for 3.7 (never cut to 3), ValueError for
    # -3; the cell count (4 to 36) is the native half's to check, with its message.
    return _whole("size", rows, 2, _MAX_SIDE), _whole("size", cols, 2, _MAX_SIDE)  # type: ignore[return-value]


def _batch(boards: Any) -> Tuple[bytes, int, int, int]:
    """``(data, n, rows, cols)`` for a batch: an ``(N, cells)`` array of square boards, an
    ``(N, rows, cols)`` array, or a sequence of boards in any form :func:`solve` takes."""
    if isinstance(boards, (list, tuple)) and any(isinstance(b, str) for b in boards):
        return _each(boards)
    if isinstance(boards, np.ndarray):
        arr = boards
    else:
        try:
            arr = np.asarray(boards)
        except ValueError:
            # Rows of different lengths (a board with a number too few): each board on its
            # own, so that the error names the one at fault.
            return _each(boards)
        if arr.ndim in (2, 3) and (arr.dtype.kind not in "iu" or _holds_bool(boards)):
            # A list of boards holding floats, None, bools among numbers...: each read as
            # `solve` reads it (2.0 is a number), an error naming the board.
            return _each(boards)
    if arr.ndim == 1 and arr.size == 0:
        # No board gives the shape: the goal's own shape is taken (see `_goal`).
        return b"", 0, 0, 0
    if arr.ndim not in (2, 3):
        # One board (text, or a row of numbers) where a batch is asked for: say how.
        one = (arr.ndim == 0 and arr.dtype.kind == "U") or (
            arr.ndim == 1 and arr.dtype.kind in "iu"
        )
        raise ValueError(
            "boards: give an (N, cells) array of square boards, an (N, rows, cols) "
            "array, or a list of boards"
            + ("; this is one board: give [board], or solve(board) for one" if one else "")
        )
    if arr.dtype == object and arr.size:
        return _each(list(arr))
    if arr.dtype.kind not in "iu" and arr.size:
        raise TypeError(f"boards must be whole numbers; got an array of {arr.dtype}")
    if arr.ndim == 3:
        n, rows, cols = arr.shape
    else:
        n, cells = arr.shape
        side = int(round(cells ** 0.5))
        if side * side != cells:
            raise ValueError(
                f"{cells} numbers do not make a board (give 4, 9, 16, 25 or 36 numbers for a "
                f"square board; other shapes need an (N, rows, cols) array)"
            )
        rows = cols = side
    if arr.size and (arr.min() < 0 or arr.max() >= rows * cols):
        i = int(np.argwhere((arr < 0) | (arr >= rows * cols))[0][0])
        bad = arr[i].min() if arr[i].min() < 0 else arr[i].max()
        raise ValueError(f"board {i}: the number {bad} is out of range (0 to {rows * cols - 1})")
    data = np.ascontiguousarray(arr, dtype=np.uint8).tobytes()
    return data, int(n), int(rows), int(cols)


def _each(boards: Sequence[Any]) -> Tuple[bytes, int, int, int]:
    """A batch given as a sequence of boards in any form, read one by one: an error names
    the board's index."""
    parsed = []
    for i, b in enumerate(boards):
        try:
            parsed.append(_board(b))
        except (ValueError, TypeError) as e:
            raise type(e)(f"board {i}: {e}") from None
    shapes = {(r, c) for _, r, c in parsed}
    if len(shapes) > 1:
        raise ValueError("the boards of one batch must all have the same shape")
    if not parsed:
        raise ValueError("boards: an empty batch of unknown shape (give an (0, cells) array)")
    (rows, cols), = shapes
    return b"".join(t for t, _, _ in parsed), len(parsed), rows, cols


# --- notes and progress -----------------------------------------------------------------


class _Bar:
    """A table build's progress: tqdm's bar (a widget in a notebook) when tqdm is
    installed, else one line on stderr rewritten in place."""

    def __init__(self) -> None:
        self.tqdm: Any = None
        self.label = ""
        try:
            from tqdm.auto import tqdm  # type: ignore[import-not-found]

            self.tqdm = tqdm(total=1, leave=False, unit="block", file=sys.stderr)
        except Exception:
            self.tqdm = None
        self.shown = False

    def update(self, label: str, done: int, total: int, depth: int) -> None:
        if self.tqdm is not None:
            if label != self.label:
                self.tqdm.set_description(label)
            if total:
                self.tqdm.total = total
                self.tqdm.n = done
            self.tqdm.set_postfix_str(f"depth {depth}")
            self.tqdm.refresh()
        elif total and _interactive():
            width = 30
            full = width * done // max(total, 1)
            bar = "=" * full + (">" if full < width else "") + " " * (width - full - 1)
            sys.stderr.write(f"\r  {label} [{bar}] {done}/{total} depth {depth}\x1b[K")
            sys.stderr.flush()
            self.shown = True
        self.label = label

    def println(self, text: str) -> None:
        if self.tqdm is not None:
            self.tqdm.write(text, file=sys.stderr)
        else:
            if self.shown:
                sys.stderr.write("\r\x1b[K")
            print(text, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.tqdm is not None:
            self.tqdm.close()
        elif self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _interactive() -> bool:
    if "ipykernel" in sys.modules:
        return True
    try:
        return sys.stderr.isatty()
    except Exception:
        return False


_bar: Optional[_Bar] = None


def _report(kind: str, *args: Any) -> None:
    """Receives the notes and table-build progress of the native half."""
    global _bar
    if kind == "note":
        print(args[0], file=sys.stderr, flush=True)
    elif kind == "bar-start":
        _bar = _Bar()
    elif kind == "bar" and _bar is not None:
        _bar.update(*args)
    elif kind == "saved":
        if _bar is not None:
            _bar.println(f"  wrote {args[0]}")
        else:
            print(f"  wrote {args[0]}", file=sys.stderr, flush=True)
    elif kind == "bar-close" and _bar is not None:
        _bar.close()
        _bar = None


_native.set_reporter(_report)


def _progress(progress: Union[bool, Callable[[int, int], Any], None], total: int):
    """A ``progress(done, total)`` callable for :func:`solve_many`, and a closer."""
    if callable(progress):
        return progress, lambda: None
    if not progress:
        return None, lambda: None
    try:
        from tqdm.auto import tqdm  # type: ignore[import-not-found]

        bar = tqdm(total=total, unit="board", file=sys.stderr)

        def tick(done: int, _total: int) -> None:
            bar.update(done - bar.n)

        return tick, bar.close
    except Exception:
        state = {"shown": False, "tenths": -1}
        live = _interactive()

        def tick(done: int, total: int) -> None:
            if live:
                sys.stderr.write(f"\r{done}/{total} boards\x1b[K")
                sys.stderr.flush()
                state["shown"] = True
                return
            # A log file or a pipe: plain lines, one per tenth of the batch, no control codes.
            tenths = 10 * done // max(total, 1)
            if tenths > state["tenths"]:
                state["tenths"] = tenths
                print(f"{done}/{total} boards", file=sys.stderr, flush=True)

        def close() -> None:
            if state["shown"]:
                sys.stderr.write("\n")

        return tick, close


# --- solving ------------------------------------------------------------------------------


class _Moves:
    """What a solution and a classic search's answer share: they are values (read-only
    attributes, read-only arrays, equality by what was found, see each class's ``_key``),
    and they hold the boards along the moves and draw them.

    A value's fields are set once, by ``_init``; ``_derive`` makes the arrays from the
    bytes kept (read-only views: a caller cannot change a solution behind its hash)."""

    __slots__ = ()
    _tiles: bytes
    _rows: int
    _cols: int
    _goal: bytes
    _boards: Optional[np.ndarray]
    board: np.ndarray
    goal: np.ndarray
    moves: str
    length: int

    def _init(self, **fields: Any) -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)
        self._derive()

    def _derive(self) -> None:
        object.__setattr__(self, "board", _frozen(self._tiles, self._rows, self._cols))
        object.__setattr__(self, "goal", _frozen(self._goal, self._rows, self._cols))
        object.__setattr__(self, "length", len(self.moves))
        object.__setattr__(self, "_boards", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot delete {name!r}")

    def _key(self) -> Tuple[Any, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> Any:
        if type(other) is not type(self):
            return NotImplemented
        return self._key() == other._key()  # type: ignore[attr-defined]

    def __ne__(self, other: object) -> Any:
        if type(other) is not type(self):
            return NotImplemented
        return self._key() != other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__,) + self._key())

    def __reduce__(self) -> Tuple[Any, ...]:
        # Rebuilt from the fields kept (the arrays are made again, read-only): pickling
        # (multiprocessing) and copying would otherwise set the slots one by one.
        derived = ("board", "goal", "length", "_boards")
        state = {k: getattr(self, k) for k in type(self).__slots__ if k not in derived}
        return (_rebuild, (type(self), state))

    @property
    def boards(self) -> np.ndarray:
        """The boards along the solution, the board first and the goal last: a read-only
        array of shape ``(length + 1, rows, cols)``."""
        if self._boards is None:
            raw = _native.replay(self._tiles, self._rows, self._cols, self.moves)
            boards = np.frombuffer(raw, dtype=np.uint8).reshape(
                self.length + 1, self._rows, self._cols
            )
            object.__setattr__(self, "_boards", boards)
        return self._boards  # type: ignore[return-value]

    def __len__(self) -> int:
        return self.length

    def __str__(self) -> str:
        return self.moves

    def _where(self) -> str:
        """The board (and the goal, unless standard) as a repr shows them: text that
        :func:`solve` reads back."""
        goal = _goal_name(self._goal)
        board = f"board={_board_text(self._tiles, self._rows, self._cols)!r}"
        if goal == "standard":
            return board
        if goal is None:
            goal = _board_text(self._goal, self._rows, self._cols)
        return f"{board}, goal={goal!r}"

    def svg(self, step: Optional[int] = None, cell: int = 48) -> str:
        """The board as SVG: at ``step`` (0: the board, ``length``: the goal), or, by
        default, animated through every move (no script: SVG animation); ``cell`` is a
        cell's width in pixels (8 to 1000). A step outside 0 to ``length`` raises
        ``ValueError``."""
        from ._svg import render

        n = len(self.moves)
        step = _whole("step", step, 0, n)
        cell = _whole("cell", cell, 8, 1000, optional=False)
        return render(self.boards, self.moves, step=step, cell=cell)

    def _repr_svg_(self) -> str:
        return self.svg()


def _rebuild(cls: type, state: Dict[str, Any]) -> Any:
    """A value of ``cls`` from the fields ``__reduce__`` kept."""
    obj = cls.__new__(cls)
    obj._init(**state)
    return obj


def _frozen(tiles: bytes, rows: int, cols: int) -> np.ndarray:
    """A board as a read-only ``(rows, cols)`` array: a view of the bytes, which no one can
    make writable again."""
    return np.frombuffer(tiles, dtype=np.uint8).reshape(rows, cols)


def _board_text(tiles: bytes, rows: int, cols: int) -> str:
    """A board as text :func:`solve` reads: its numbers (a square board), or its rows on
    lines."""
    if rows == cols:
        return " ".join(map(str, tiles))
    return "\n".join(
        " ".join(map(str, tiles[r * cols:(r + 1) * cols])) for r in range(rows)
    )


def _goal_name(goal: bytes) -> Optional[str]:
    """``standard`` or ``blank-first`` when the goal is one of these, else ``None``."""
    n = len(goal)
    if goal == bytes(range(1, n)) + b"\0":
        return "standard"
    if goal == bytes(range(n)):
        return "blank-first"
    return None


class Solution(_Moves):
    """A solution and what it cost to find: a value, read-only.

    Attributes:
        board: the board solved, as a read-only ``(rows, cols)`` array.
        goal: the goal, as a read-only ``(rows, cols)`` array.
        moves: the blank's moves (``U``, ``D``, ``L``, ``R``), as the command line prints them.
        length: the number of moves.
        optimal: whether the length is proven optimal (a weight of 1).
        lower_bound: no solution is shorter (the length itself when optimal).
        weight: the weight the search ran with (1.0: optimal): the one asked for, rounded
            down to a multiple of 1/1000 as the command line's ``--weight`` is.
        nodes: nodes generated, over all iterations (machine-independent effort).
        seconds: wall-clock time of the search.
        heuristic: the estimate used: ``pdb``, ``linear-conflict``, ``manhattan`` or
            ``hamming``.

    Two solutions are equal (``==``) when they answer the same question the same way: the
    same board and goal, the same moves, found with the same weight and the same lower
    bound proven. ``nodes``, ``seconds`` and ``heuristic`` say how it was found, not what:
    they change from run to run (the time always, the nodes of the last iteration with
    more than one thread) and with the tables at hand, so they are not compared; two
    solves of one board are equal. Equal solutions have equal hashes (every field compared
    is read-only, the arrays too), so solutions can be set members and dict keys.

    ``boards`` is the sequence of boards from ``board`` to ``goal``. In a notebook a
    ``Solution`` shows itself as a picture of the board stepping through its moves.
    """

    __slots__ = (
        "board", "goal", "moves", "length", "optimal", "lower_bound", "weight", "nodes",
        "seconds", "heuristic", "_tiles", "_rows", "_cols", "_goal", "_boards",
    )

    def __init__(self, tiles: bytes, rows: int, cols: int, goal: bytes, moves: str,
                 lower_bound: int, weight: float, nodes: int, seconds: float,
                 heuristic: str) -> None:
        self._init(
            _tiles=tiles, _rows=rows, _cols=cols, _goal=goal, moves=moves,
            optimal=weight == 1.0, lower_bound=lower_bound, weight=weight, nodes=nodes,
            seconds=seconds, heuristic=heuristic,
        )

    def _key(self) -> Tuple[Any, ...]:
        # What was found, for which question; `optimal` and `length` follow from these.
        return (self._tiles, self._rows, self._cols, self._goal, self.moves, self.weight,
                self.lower_bound)

    def __repr__(self) -> str:
        kind = "optimal=True" if self.optimal else f"optimal=False, weight={self.weight!r}"
        return (
            f"Solution({self._where()}, moves={self.moves!r}, length={self.length}, {kind}, "
            f"lower_bound={self.lower_bound}, nodes={self.nodes}, "
            f"seconds={self.seconds:.4f}, heuristic={self.heuristic!r})"
        )


def solve(
    board: Board,
    goal: Goal = None,
    *,
    weight: float = 1.0,
    timeout: Optional[float] = None,
    threads: Optional[int] = None,
    tables: Union[str, os.PathLike, None] = None,
    max_nodes: Optional[int] = None,
    heuristic: str = "pdb",
) -> Solution:
    """Solves one board: a shortest sequence of the blank's moves to the goal.

    The search runs on ``threads`` threads (default: all cores), split over them as
    ``fifteen solve BOARD`` does, with the estimate ``fifteen solve`` uses (the pattern
    databases for the board's shape, built on first use when quick; linear conflict where
    there are none, with a note), so node counts match the command line's.

    Args:
        board: the board (text, numbers, or a 2-D array of rows).
        goal: ``None``/``"standard"``, ``"blank-first"``, or a goal board.
        weight: 1 for a proven optimal answer; ``w`` in (1, 100] for an answer at most
            ``w`` times optimal, found faster (rounded down to a multiple of 1/1000, as
            ``--weight`` is: 1.0004 is 1, optimal).
        timeout: seconds before giving up (raises :class:`SearchStopped`).
        threads: worker threads (default: all cores).
        tables: the tables directory (default: ``FIFTEEN_TABLES``, else the per-user one);
            ``str`` or ``os.PathLike``, a leading ``~`` the home directory.
        max_nodes: nodes before giving up (raises :class:`SearchStopped`).
        heuristic: ``"pdb"`` (default), ``"linear-conflict"``, ``"manhattan"`` or
            ``"hamming"`` (tiles out of place), as ``fifteen solve --heuristic``.

    Raises:
        ValueError: a malformed board or goal, a board of another shape than its goal, or
            an unsolvable one (with the command line's message).
        TypeError: a board cell that is not a number (``None``, text in a list), or an
            argument of the wrong type.
        OSError: tables that cannot be read or built.
        SearchStopped: the timeout or node limit came first.
        KeyboardInterrupt: Ctrl-C (the search stops within a fraction of a second).
    """
    tiles, rows, cols = _board(board)
    goal_tiles = _goal(goal, rows, cols)
    w = _weight(weight)
    ok, moves, bound, nodes, millis, used, reason = _native.solve(
        tiles, rows, cols, goal_tiles, float(weight), _seconds(timeout),
        _whole("max_nodes", max_nodes, 1, _MAX_NODES),
        _whole("threads", threads, 1, _MAX_THREADS), _path(tables), _estimate(heuristic),
    )
    if not ok:
        raise SearchStopped(reason, nodes, bound)
    return Solution(tiles, rows, cols, goal_tiles, moves, bound, w, nodes, millis / 1000.0, used)


def _estimate(heuristic: Any) -> str:
    """The estimate of :func:`solve` and :func:`solve_many`, by name."""
    return _text("heuristic", heuristic, "pdb, linear-conflict, manhattan or hamming")  # type: ignore[return-value]


def _path(tables: Union[str, os.PathLike, None]) -> Optional[str]:
    return None if tables is None else _file("tables", tables, "a directory")


def _file(name: str, path: Any, what: str) -> str:
    """A path argument (``str``, ``bytes`` or any ``os.PathLike``) as text, a leading ``~``
    the home directory (``os.path.expanduser``), as a shell would have it on the command
    line: Python has no shell to do it. ``TypeError`` naming the argument for anything
    else."""
    try:
        return os.path.expanduser(os.fsdecode(os.fspath(path)))
    except TypeError:
        raise TypeError(f"{name}: give {what} (str or os.PathLike), not {_typename(path)}") from None


def solve_many(
    boards: Any,
    goal: Goal = None,
    *,
    moves: bool = False,
    weight: float = 1.0,
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    threads: Optional[int] = None,
    tables: Union[str, os.PathLike, None] = None,
    progress: Union[bool, Callable[[int, int], Any]] = False,
    heuristic: str = "pdb",
    stats: bool = False,
) -> Any:
    """Solves many boards in parallel, one board per thread at a time (as ``fifteen solve
    -i FILE`` and ``fifteen bench`` do), with the GIL released.

    Args:
        boards: an ``(N, cells)`` integer array of square boards (``uint8`` is read without
            a copy), an ``(N, rows, cols)`` array, or a list of boards.
        goal: the goal of every board (as for :func:`solve`).
        moves: also return each board's moves.
        weight: 1 for optimal lengths; ``w`` in (1, 100] for lengths at most ``w`` times
            optimal, found faster (as for :func:`solve`).
        timeout: seconds per board; a board not solved in time gets length -1.
        max_nodes: nodes per board; likewise.
        threads: worker threads (default: all cores).
        tables: the tables directory (as for :func:`solve`).
        progress: ``True`` for a progress bar (tqdm's when installed), or a callable
            ``progress(done, total)`` called about every 50 ms.
        heuristic: the estimate, as for :func:`solve` (default ``"pdb"``).
        stats: return a :class:`Batch` (lengths, lower bounds, nodes, seconds, moves)
            instead.

    Returns:
        the optimal lengths, an ``int32`` array of shape ``(N,)``; with ``moves=True``, a
        pair ``(lengths, moves)`` with ``moves`` a list of strings; with ``stats=True``, a
        :class:`Batch`.

    Raises:
        ValueError: a malformed or unsolvable board (named by its index), or a bad goal.
        TypeError: an array of floats or bools (its type named), a cell that is no number.
        OSError: tables that cannot be read or built.
        KeyboardInterrupt: Ctrl-C; the running searches stop within a fraction of a second
            (as does the check of the boards before them, on a batch of millions).
    """
    timeout = _seconds(timeout)
    max_nodes = _whole("max_nodes", max_nodes, 1, _MAX_NODES)
    threads = _whole("threads", threads, 1, _MAX_THREADS)
    _weight(weight)
    heuristic = _estimate(heuristic)
    tables = _path(tables)
    moves, stats = _flag("moves", moves), _flag("stats", stats)
    if not (progress is None or isinstance(progress, (bool, np.bool_)) or callable(progress)):
        raise TypeError(
            f"progress: give True, False or a callable progress(done, total), not "
            f"{_typename(progress)}"
        )
    data, n, rows, cols = _batch(boards)
    goal_tiles = _goal(goal, rows, cols)
    if n == 0:  # nothing to search: no tables opened (or built) for it
        empty = np.zeros(0, dtype=np.int32)
        if stats:
            return Batch(empty, empty.copy(), np.zeros(0, dtype=np.uint64), 0.0,
                         [] if moves else None)
        return (empty, []) if moves else empty
    tick, close = _progress(progress, n)
    t0 = time.perf_counter()
    try:
        lengths, bounds, nodes, paths = _native.solve_many(
            data, rows, cols, goal_tiles, moves, float(weight), timeout, max_nodes, threads,
            tables, heuristic, tick,
        )
    finally:
        close()
    out = np.frombuffer(lengths, dtype="<i4").astype(np.int32)
    if stats:
        return Batch(
            out,
            np.frombuffer(bounds, dtype="<u4").astype(np.int32),
            np.frombuffer(nodes, dtype="<u8").astype(np.uint64),
            time.perf_counter() - t0,
            paths,
        )
    if moves:
        return out, paths
    return out


class Batch(NamedTuple):
    """What :func:`solve_many` found, with ``stats=True``.

    Compares as a tuple, field by field, each array whole (``seconds`` too: a batch records
    one run); unhashable, as its arrays are."""

    #: Optimal lengths (``int32``; -1 where a limit stopped the search).
    lengths: np.ndarray
    #: No solution is shorter (the length itself when solved).
    lower_bounds: np.ndarray
    #: Nodes generated per board (``uint64``).
    nodes: np.ndarray
    #: Wall-clock seconds of the whole batch (tables opened or built included).
    seconds: float
    #: The moves, when asked for with ``moves=True``.
    moves: Optional[List[str]]

    # As a tuple, field by field, but each array compared whole (a tuple's `==` would
    # compare them cell by cell, an array, not a truth value, and raise), as `Problem`.
    # Every field counts, `seconds` too: a batch is a record of one run.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Batch):
            return False
        return all(
            np.array_equal(a, b) if isinstance(a, np.ndarray) else a == b
            for a, b in zip(self, other)
        )

    def __ne__(self, other: object) -> bool:
        return not self == other

    # Arrays cannot be hashed: neither can a batch.
    __hash__ = None  # type: ignore[assignment]


# help(Batch) shows each field's own words, not "Alias for field number 0".
Batch.lengths.__doc__ = "Optimal lengths (``int32``; -1 where a limit stopped the search)."
Batch.lower_bounds.__doc__ = "No solution is shorter (the length itself when solved)."
Batch.nodes.__doc__ = "Nodes generated per board (``uint64``)."
Batch.seconds.__doc__ = "Wall-clock seconds of the whole batch (tables opened or built included)."
Batch.moves.__doc__ = "The moves, when asked for with ``moves=True``; else ``None``."


def distance(
    boards: Any,
    goal: Goal = None,
    *,
    threads: Optional[int] = None,
    tables: Union[str, os.PathLike, None] = None,
    progress: Union[bool, Callable[[int, int], Any]] = False,
) -> np.ndarray:
    """The optimal distance of each board to the goal (labels for learning): an ``int32``
    array of shape ``(N,)``. :func:`solve_many` without the moves.

    Args:
        boards: an ``(N, cells)`` or ``(N, rows, cols)`` integer array, or a list of boards.
        goal: the goal of every board (as for :func:`solve`).
        threads: worker threads (default: all cores).
        tables: the tables directory (as for :func:`solve`).
        progress: ``True`` for a progress bar, or a callable ``progress(done, total)``.
    """
    return solve_many(boards, goal, threads=threads, tables=tables, progress=progress)


# The longest random walk, as `fifteen random --walk`: a million moves take milliseconds.
_MAX_WALK = 1_000_000


def random_boards(
    n: int,
    size: Union[int, str, Tuple[int, int]] = 4,
    seed: Optional[int] = None,
    walk: Optional[int] = None,
    goal: Goal = None,
    *,
    moves: Optional[int] = None,
) -> np.ndarray:
    """``n`` random boards that can reach the goal, as a ``uint8`` array of shape
    ``(n, cells)`` (``(n, rows, cols)`` when ``size`` is not square, e.g. ``"3x4"``).

    Uniform over all such boards, or, with ``walk=k``, ``k`` random moves from the goal
    (never undoing the last one; ``k`` at most 1,000,000). The same ``seed`` gives the same
    boards as ``fifteen random --count n --seed SEED --size SIZE`` (``--walk k``). Ctrl-C
    stops a long batch (``KeyboardInterrupt``); a count too large for memory raises
    ``MemoryError``. ``goal`` is as for :func:`solve`.

    ``moves=k`` is the former name of ``walk=k`` (it warns): elsewhere ``moves`` are a
    solution's moves.
    """
    if moves is not None:
        if walk is not None:
            raise TypeError("give walk= alone: moves= is its former name")
        warnings.warn(
            "random_boards(moves=k) is now random_boards(walk=k), as fifteen random --walk",
            DeprecationWarning,
            stacklevel=2,
        )
        walk = moves
    rows, cols = _shape_of(size)
    if not _is_int(n):
        raise TypeError(f"n: give a count of 0 or more, not {_typename(n)}")
    if n < 0:
        raise ValueError("n: give a count of 0 or more")
    if walk is not None and not _is_int(walk):
        raise TypeError(f"walk: give a whole number from 0 to {_MAX_WALK:,}, not {_typename(walk)}")
    if walk is not None and not 0 <= walk <= _MAX_WALK:
        raise ValueError(f"walk: give a number from 0 to {_MAX_WALK:,} (longer walks add nothing)")
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    if not _is_int(seed):
        raise TypeError(f"seed: give a whole number from 0 to 2^64 - 1, not {_typename(seed)}")
    if not 0 <= seed < 2**64:
        raise ValueError("seed: give a number from 0 to 2^64 - 1")
    goal_tiles = _goal(goal, rows, cols)
    if n >= 2**63:  # more than an address space holds (the native half takes a usize)
        raise MemoryError(f"{n} boards of {rows * cols} cells do not fit in memory")
    raw = _native.random_boards(int(n), rows, cols, goal_tiles, int(seed), walk)
    arr = np.frombuffer(raw, dtype=np.uint8)
    if rows == cols:
        return arr.reshape(n, rows * cols).copy()
    return arr.reshape(n, rows, cols).copy()


def is_solvable(board: Board, goal: Goal = None) -> bool:
    """Whether ``board`` can reach ``goal`` (half of all arrangements can), both as
    :func:`solve` takes them."""
    tiles, rows, cols = _board(board)
    return _native.is_solvable(tiles, rows, cols, _goal(goal, rows, cols))


def check(board: Board, moves: str, goal: Goal = None) -> int:
    """Replays ``moves`` (the blank's, ``U D L R``) from ``board``, independently of the
    solver: returns their number when they end on ``goal`` (both as :func:`solve` takes
    them); raises ``ValueError`` (with the command line's message) when a move leaves the
    board or they end elsewhere. Any solver's answer can be checked this way."""
    tiles, rows, cols = _board(board)
    moves = _text("moves", moves, "the blank's moves as text (U, D, L, R)")  # type: ignore[assignment]
    return _native.check(tiles, rows, cols, _goal(goal, rows, cols), moves)


def heuristic(
    boards: Any,
    kind: str = "manhattan",
    goal: Goal = None,
    *,
    tables: Union[str, os.PathLike, None] = None,
) -> Any:
    """The estimate ``kind`` of the distance to the goal, never more than the true one:

    - ``"hamming"``: tiles out of place;
    - ``"manhattan"``: the tiles' taxicab distances to their goal cells, summed;
    - ``"linear-conflict"``: Manhattan plus two moves per tile that must step out of its row
      or column to let another pass;
    - ``"walking-distance"``: walking distance (up to 4x4 and similar);
    - ``"pdb"``: the additive pattern databases (with their mirrored lookup);
    - ``"solve"``: what :func:`solve` starts from: the tables and every estimate max'd
      with them.

    ``boards``: one board, as :func:`solve` takes it (text, a sequence of numbers, or a
    2-D array or list of rows: returns an ``int``), or a batch, as :func:`distance` takes
    it (an ``(N, cells)`` or ``(N, rows, cols)`` array, or a list of boards: returns an
    ``int32`` array). A 2-D array or list of rows is read as one board, or as a batch with
    a board a row, whichever its numbers fit better: each reading is charged a number for
    every one out of range or repeated (one board: 0 to cells - 1 once each; a batch: each
    row 0 to its length - 1 once each), and the batch is taken only when charged fewer. So
    a valid board is always one board (a 4x4 board's rows too, though 4 numbers long like
    a 2x2 board), a valid batch always a batch, and a batch with a bad board is a batch,
    its error naming that board. Rows of a length no square board has (3, on a 3x3 board)
    are one board; more than 36 numbers in all, or a single row, a batch. An empty list
    or array is an empty batch (an empty ``int32`` array, as :func:`distance` returns).
    Ctrl-C stops a long batch (``KeyboardInterrupt``, nothing returned). ``goal`` and
    ``tables`` (read by ``pdb`` and ``solve``) are as for :func:`solve`.
    """
    name = _text(
        "kind", kind,
        "an estimate's name (hamming, manhattan, linear-conflict, walking-distance, pdb or solve)",
    )
    # The names exactly, as solve(heuristic=) and fifteen --heuristic take them.
    if name not in HEURISTICS:
        raise ValueError(
            f"unknown heuristic '{name}' (use hamming, manhattan, linear-conflict, "
            f"walking-distance, pdb or solve)"
        )
    tables = _path(tables)
    single = _single(boards)
    if single:
        tiles, rows, cols = _board(boards)
        data, n = tiles, 1
    else:
        data, n, rows, cols = _batch(boards)
    goal_tiles = _goal(goal, rows, cols)
    if n == 0:  # nothing to estimate: no tables opened (or built) for it
        return np.zeros(0, dtype=np.int32)
    raw = _native.heuristic(data, rows, cols, goal_tiles, name, tables)
    out = np.frombuffer(raw, dtype="<u4").astype(np.int32)
    return int(out[0]) if single else out


def load_tables(
    size: Union[int, str, Tuple[int, int]] = 4,
    goal: Goal = None,
    *,
    tables: Union[str, os.PathLike, None] = None,
) -> List[str]:
    """Opens now (building them first if missing and quick, as :func:`solve` would) the
    pattern databases for boards of ``size`` (``N``, ``"RxC"`` or ``(rows, cols)``) and
    ``goal``, in ``tables`` (the directory, as for :func:`solve`); returns the partitions in
    use (empty when there are none and the search uses linear conflict)."""
    rows, cols = _shape_of(size)
    return _native.load_tables(rows, cols, _goal(goal, rows, cols), _path(tables))


def tables_dir(tables: Union[str, os.PathLike, None] = None) -> Path:
    """The tables directory in use: ``tables`` (a leading ``~`` the home directory, as
    everywhere a path is taken), else ``FIFTEEN_TABLES``, else the per-user directory the
    command line uses (``~/.local/share/fifteen`` on Linux)."""
    return Path(_native.tables_dir(_path(tables)))


# The classic searches and the course files (`_classic` imports the helpers above).
from ._classic import (  # noqa: E402
    ALGORITHMS,
    Comparison,
    Problem,
    SearchResult,
    compare,
    read_problem,
    report,
    search,
    write_report,
)
