"""Boards, goals and the other arguments as Python gives them, checked and turned into what
the native half takes (tiles as bytes, a shape), with the errors the command line gives:
``TypeError`` naming the argument for a value of the wrong type, ``ValueError`` for one
out of range. Shared by the package's functions (``fifteen/__init__.py``, ``_classic.py``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _native

Board = Union[str, Sequence[int], np.ndarray]
Goal = Union[None, str, Sequence[int], np.ndarray]


def _plain(value: Any, prefix: str = "") -> None:
    """Refuses what NumPy would read as numbers but may mean something else: bytes (text,
    or one byte a cell?) and a masked array (whose mask NumPy's readers drop)."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError(
            f"{prefix}{_typename(value)} is no board (text, or one byte a cell?): give text as "
            f"str, b.decode(), or the numbers as list(b) or np.frombuffer(b, np.uint8)"
        )
    if isinstance(value, np.ma.MaskedArray):
        raise TypeError(
            f"{prefix}a masked array's mask would be ignored: give arr.filled(...) or arr.data"
        )


def _numbers(board: Any) -> Tuple[List[int], int, int]:
    _plain(board)
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
        what = "a 0-dimensional array" if isinstance(board, np.ndarray) else _typename(board)
        raise TypeError(
            f"a board is text, a sequence of numbers or a 2-D array of rows, not {what}"
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
            # Cut as the native half cuts a long token: 40 characters and an ellipsis.
            digits = str(big)
            shown = digits if len(digits) <= 40 else digits[:40] + "…"
            raise ValueError(f"the number {shown} is out of range")
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
            raise ValueError(f"'{str(x)[:20]}' is not a whole number")
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
    if _is_int(value) and value < 0:
        value = -1  # refused below, with its message (a float would not hold -10**400)
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
    """The board's tiles, rows and columns, checked as the command line checks them. A
    batch given where one board goes (each row a whole board) is refused saying so: read as
    one board it would only be "the number 3 appears more than once"."""
    if isinstance(board, str):
        return _native.parse_board(board)
    numbers, rows, cols = _numbers(board)
    try:
        return _native.make_board(numbers, rows, cols)
    except ValueError as e:
        if rows and 4 <= cols and all(
            sorted(numbers[r * cols:(r + 1) * cols]) == list(range(cols)) for r in range(rows)
        ):
            which = "its one row is" if rows == 1 else f"each of its {rows} rows is"
            raise ValueError(
                f"{e}: {which} a whole board, as in a batch; give one board (boards[0]), "
                f"or the batch to solve_many, distance or heuristic"
            ) from None
        raise


def _goal(goal: Goal, rows: int, cols: int) -> bytes:
    """The goal's tiles for boards of this shape; ``rows == 0`` (an empty batch, of no shape)
    takes the goal in its own shape, a name or flat numbers as 4x4 or as a square. A goal
    that does not read is a ``ValueError`` that says it is the goal's (the board is fine)."""
    try:
        return _goal_tiles(goal, rows, cols)
    except ValueError as e:
        message = str(e)
        # The goal's own words already, or the boards' shape (no goal of any fits it).
        if message.startswith(("the goal", "unknown goal")) or "is not a board size" in message:
            raise
        raise ValueError(f"goal: {message}") from None


def _goal_tiles(goal: Goal, rows: int, cols: int) -> bytes:
    """:func:`_goal`, its errors as they come."""
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
            # A name (standard, blank-first) or numbers, as `--goal` reads them; numbers
            # too many or too few for the board are said to be (not one out of range).
            words = text.replace(",", " ").split()
            if len(words) > 1 and len(words) != rows * cols:
                raise ValueError(f"the goal has {len(words)} cells but the board has {rows * cols}")
            return _native.named_goal(text, rows, cols)
        tiles, r, c = _native.parse_board(text)
    else:
        numbers, r, c = _goal_numbers(goal)
        if r == 0:
            # A flat goal: as many numbers as the board has cells, in the board's shape.
            if len(numbers) != rows * cols:
                raise ValueError(f"the goal has {len(numbers)} cells but the board has {rows * cols}")
            r, c = rows, cols
        elif (r, c) != (rows, cols):
            # Said before the shape is read as a board's: a 1x9 goal (a batch's row,
            # `goal=boards[:1]`) is the goal's mistake, not "1x9 is not a board size".
            if r * c == rows * cols:
                raise ValueError(
                    f"the goal is {r}x{c} but the board is {rows}x{cols} (give the goal's "
                    f"rows, or its {r * c} numbers flat)"
                )
            if r > 1 and c == rows * cols:
                # Each row a whole goal (`goal=boards`, a goal a board): "the goal has 45
                # cells" would not say that a batch has one goal.
                raise ValueError(
                    f"the goal is {r} goals of {c} cells, but a batch has one goal, for "
                    f"every board: give one goal, and the boards of each goal as a batch "
                    f"of their own"
                )
            raise ValueError(f"the goal has {r * c} cells but the board has {rows * cols}")
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
    if isinstance(boards, (str, bytes, bytearray, memoryview)):
        return True  # (bytes: one board, refused as such)
    if isinstance(boards, np.ndarray):
        if boards.ndim == 2 and boards.size and boards.dtype.kind != "b":
            return _one_board(boards)  # (bools are no board: a batch, named by its dtype)
        if boards.ndim == 1 and boards.dtype.kind in "OUS":
            # A column of boards (texts, or lists as pandas holds them), read as a list.
            return _single(boards.tolist())
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


# A square board's side: 2x2 to 6x6 (7x7 has 49 cells).
_MAX_SQUARE = 6


def _square_side(n: Any) -> Tuple[int, int]:
    side = _whole("size", n, 2, _MAX_SQUARE)
    return side, side  # type: ignore[return-value]


def _shape_of(size: Union[int, str, Tuple[int, int]]) -> Tuple[int, int]:
    if isinstance(size, str):
        text = size.strip().lower()
        if "x" in text:
            r, _, c = text.partition("x")
            if all(t.strip().isascii() and t.strip().isdigit() for t in (r, c)):
                rows, cols = int(r), int(c)
            else:
                raise ValueError(f"bad size '{size[:30]}' (use RxC such as 3x4, N for NxN)")
        elif text.isascii() and text.isdigit():
            return _square_side(int(text))
        else:
            raise ValueError(f"bad size '{size[:30]}' (use RxC such as 3x4, N for NxN)")
    elif isinstance(size, (tuple, list)) and len(size) == 2:
        rows, cols = size
    elif isinstance(size, (tuple, list)):
        raise ValueError(f"bad size {size!r:.30} (use RxC such as 3x4, N for NxN)")
    elif _real(size):
        return _square_side(size)
    else:
        raise TypeError(f"size: give N, 'RxC' or (rows, cols), not {_typename(size)}")
    # As the other numeric arguments: TypeError for 3.7 (never cut to 3), ValueError for
    # -3; the cell count (4 to 36) is the native half's to check, with its message.
    return _whole("size", rows, 2, _MAX_SIDE), _whole("size", cols, 2, _MAX_SIDE)  # type: ignore[return-value]


def _batch(boards: Any) -> Tuple[bytes, int, int, int]:
    """``(data, n, rows, cols)`` for a batch: an ``(N, cells)`` array of square boards, an
    ``(N, rows, cols)`` array, or a sequence of boards in any form :func:`solve` takes."""
    if isinstance(boards, Iterator):
        # A generator of boards is read once, whole: a batch is answered in one call.
        boards = list(boards)
    if not isinstance(boards, (np.ndarray, list, tuple, str)) and not hasattr(
        boards, "__array__"
    ):
        raise TypeError(
            "boards: give an (N, cells) array of square boards, an (N, rows, cols) array, "
            f"or a list of boards, not {_typename(boards)}"
        )
    _plain(boards, "boards: ")
    if isinstance(boards, (list, tuple)):
        for i, b in enumerate(boards):
            _plain(b, f"board {i}: ")
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
    if arr.ndim == 1 and arr.dtype.kind in "OUS":
        # A column of boards (pandas' `df["board"].to_numpy()`, an array of texts): each
        # read as `solve` reads it, an error naming the board.
        return _each(arr.tolist())
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
    if arr.dtype.kind == "f" and arr.size:
        # Whole numbers held as floats (a tensor's or a DataFrame's), as a single board and
        # a list of boards take them: anything else read board by board, as `solve` reads
        # it, so that the error names the board and says what is wrong as it would.
        whole = np.isfinite(arr) & (arr == np.floor(arr))
        if not whole.all() or arr.min() < 0 or arr.max() >= arr[0].size:
            return _each(list(arr))
        arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iu" and arr.size:
        raise TypeError(f"boards must be whole numbers; got an array of {arr.dtype}")
    if arr.ndim == 3:
        n, rows, cols = arr.shape
    else:
        n, cells = arr.shape
        side = int(round(cells ** 0.5))
        if side * side != cells or side < 2:
            raise ValueError(
                f"{cells} {'number does' if cells == 1 else 'numbers do'} not make a board "
                f"(give 4, 9, 16, 25 or 36 numbers for a "
                f"square board; other shapes need an (N, rows, cols) array){_one_grid(arr)}"
            )
        rows = cols = side
    if arr.size and (arr.min() < 0 or arr.max() >= rows * cols):
        i = int(np.argwhere((arr < 0) | (arr >= rows * cols))[0][0])
        bad = arr[i].min() if arr[i].min() < 0 else arr[i].max()
        # The count on a board without a 0 is the blank written as the last tile, as some
        # puzzles number it.
        hint = _one_grid(arr) or (
            f"; the blank is 0, not {bad}" if bad == rows * cols and 0 not in arr[i] else ""
        )
        raise ValueError(
            f"board {i}: the number {bad} is out of range (0 to {rows * cols - 1}){hint}"
        )
    data = np.ascontiguousarray(arr, dtype=np.uint8).tobytes()
    return data, int(n), int(rows), int(cols)


def _one_grid(arr: Any) -> str:
    """A hint for a batch that does not read as one: a k x k array holding every number
    from 0 to k*k - 1 once is one board drawn as a grid, read as k boards of k cells."""
    k = arr.shape[0]
    if arr.ndim == 2 and arr.shape == (k, k) and 2 <= k <= 6 and \
            sorted(arr.ravel().tolist()) == list(range(k * k)):
        return f"; this is one {k}x{k} board drawn as a grid: give [board] for a batch of one"
    return ""


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
