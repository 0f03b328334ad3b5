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

import atexit
import os
import time
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple, Union

import numpy as np

from . import _native
from ._args import (
    Board,
    Goal,
    _MAX_NODES,
    _MAX_THREADS,
    _batch,
    _board,
    _flag,
    _goal,
    _is_int,
    _seconds,
    _shape_of,
    _single,
    _text,
    _typename,
    _weight,
    _whole,
)
from ._progress import _progress, _report  # noqa: F401 (_report: the native half's reporter)

# A daemon thread still in a call when the interpreter shuts down would be ended by CPython
# in a way that aborts the process (exit status 134); after this hook such a thread waits,
# without the GIL, for the process to end.
atexit.register(_native.exiting)

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

    def __bool__(self) -> bool:
        # An answer is an answer, a board already at its goal's (no moves) too: `if
        # fifteen.solve(b):` must not read "no answer" from its length 0.
        return True

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
        optimal: whether the search was the optimal one (a weight of 1), as the command
            line's ``"optimal"``. A weighted answer can be optimal too: ``length ==
            lower_bound`` proves it whatever the weight.
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
    ``Solution`` shows itself as a picture of the board stepping through its moves;
    ``print()`` (``str()``) prints the moves alone, ``len()`` is the length, and a
    solution is true even with no moves.
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
        text = os.path.expanduser(os.fsdecode(os.fspath(path)))
    except TypeError:
        raise TypeError(f"{name}: give {what} (str or os.PathLike), not {_typename(path)}") from None
    if not text:
        # An empty name is no file: never read as "the default" nor as the current folder.
        raise ValueError(f"{name}: give {what}, not an empty name")
    return text


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
        boards: an ``(N, cells)`` integer array of square boards, an ``(N, rows, cols)``
            array, or a list of boards. A batch takes about 40-50 bytes a board beside
            its input while it runs (a copy as ``uint8``, the answers and their copies);
            one too large for the memory left raises ``MemoryError``.
        goal: the goal of every board (as for :func:`solve`).
        moves: also return each board's moves.
        weight: 1 for optimal lengths; ``w`` in (1, 100] for lengths at most ``w`` times
            optimal, found faster (as for :func:`solve`).
        timeout: seconds per board; a board not solved in time gets length -1.
        max_nodes: nodes per board; likewise.
        threads: worker threads (default: all cores).
        tables: the tables directory (as for :func:`solve`).
        progress: ``True`` for a progress bar (tqdm's when installed), or a callable
            ``progress(done, total)`` called as boards finish, at most every 50 ms.
        heuristic: the estimate, as for :func:`solve` (default ``"pdb"``).
        stats: return a :class:`Batch` (lengths, lower bounds, nodes, seconds, moves)
            instead.

    Returns:
        the optimal lengths, an ``int32`` array of shape ``(N,)``; with ``moves=True``, a
        pair ``(lengths, moves)`` with ``moves`` a list of strings (``None`` for a board a
        limit stopped, whose length is -1); with ``stats=True``, a
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
    move_list: Optional[List[Optional[str]]] = None
    if paths is not None:
        too_many = False
        try:
            move_list = _split_moves(paths, out)
        except MemoryError:
            too_many = True  # raised below, once this one and what it holds are let go
        if too_many:
            raise MemoryError(
                f"the moves of {n} boards do not fit in memory as strings: give the boards "
                "in smaller batches, or leave out moves=True")
    if stats:
        return Batch(
            out,
            np.frombuffer(bounds, dtype="<u4").astype(np.int32),
            np.frombuffer(nodes, dtype="<u8").astype(np.uint64),
            time.perf_counter() - t0,
            move_list,
        )
    if moves:
        return out, move_list
    return out


def _split_moves(letters: bytes, lengths: np.ndarray) -> List[Optional[str]]:
    """Each board's moves, cut from ``letters`` (every solved board's, one after another)
    by its length; ``None`` for a board a limit stopped (length -1), which ``""`` (the
    goal's) would hide."""
    text = letters.decode("ascii")
    ends = np.cumsum(np.maximum(lengths, 0), dtype=np.int64).tolist()
    return [None if length < 0 else text[end - length:end]
            for length, end in zip(lengths.tolist(), ends)]


class Batch(NamedTuple):
    """What :func:`solve_many` found, with ``stats=True``.

    Compares as a tuple, field by field, each array whole (``seconds`` too: a batch records
    one run); unhashable, as its arrays are."""

    #: Lengths (``int32``; optimal with ``weight=1``; -1 where a limit stopped the search).
    lengths: np.ndarray
    #: No solution is shorter (the length itself when solved optimally, ``weight=1``).
    lower_bounds: np.ndarray
    #: Nodes generated per board (``uint64``).
    nodes: np.ndarray
    #: Wall-clock seconds of the whole batch (tables opened or built included).
    seconds: float
    #: The moves, when asked for with ``moves=True`` (``None`` for a board a limit stopped).
    moves: Optional[List[Optional[str]]]

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
Batch.lengths.__doc__ = (
    "Lengths (``int32``; optimal with ``weight=1``; -1 where a limit stopped the search)."
)
Batch.lower_bounds.__doc__ = (
    "No solution is shorter (the length itself when solved optimally, ``weight=1``)."
)
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
    distance: Optional[int] = None,
    tables: Union[str, os.PathLike, None] = None,
) -> np.ndarray:
    """``n`` random boards that can reach the goal, as a ``uint8`` array of shape
    ``(n, cells)`` (``(n, rows, cols)`` when ``size`` is not square, e.g. ``"3x4"``).

    Uniform over all such boards, or, with ``walk=k``, ``k`` random moves from the goal
    (never undoing the last one; ``k`` at most 1,000,000). The same ``seed`` gives the same
    boards as ``fifteen random --count n --seed SEED --size SIZE`` (``--walk k``). Ctrl-C
    stops a long batch (``KeyboardInterrupt``); a count too large for memory raises
    ``MemoryError``. ``goal`` is as for :func:`solve`.

    ``distance=d`` gives boards exactly ``d`` moves from the goal (their optimal distance):
    each where a random walk from the goal first stands ``d`` away, measured by optimal
    searches (in ``tables``, as :func:`distance` does), in parallel. Not uniform among the
    boards at that distance; the same ``seed`` gives the boards of ``fifteen random
    --distance d``. ``ValueError`` at once beyond the known farthest (on the shapes whose
    every board has been solved, with the goal's blank in a corner: 31 on 3x3, 80 on 4x4;
    ``random::farthest`` in the Rust library), and after a bounded walk when
    boards that far are too rare to reach (a 3x3 board is 31 moves away from the standard
    goal only twice).

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
    if distance is not None:
        if walk is not None:
            raise TypeError("give walk= or distance=, not both")
        if not _is_int(distance):
            raise TypeError(f"distance: give a whole number of moves, not {_typename(distance)}")
        if not 0 <= distance <= 1000:
            raise ValueError("distance: give a number of moves from 0 to 1,000")
        shape = (rows * cols,) if rows == cols else (rows, cols)
        if n == 0:  # no boards: no tables opened (or built) for them
            return np.zeros((0, *shape), dtype=np.uint8)
        raw = _native.boards_at_distance(
            int(n), rows, cols, goal_tiles, int(seed), int(distance), _path(tables)
        )
        return np.frombuffer(raw, dtype=np.uint8).reshape(n, *shape).copy()
    raw = _native.random_boards(int(n), rows, cols, goal_tiles, int(seed), walk)
    arr = np.frombuffer(raw, dtype=np.uint8)
    if rows == cols:
        return arr.reshape(n, rows * cols).copy()
    return arr.reshape(n, rows, cols).copy()


def is_solvable(board: Any, goal: Goal = None) -> Any:
    """Whether a board can reach ``goal`` (half of all arrangements can).

    ``board``: one board, as :func:`solve` takes it (returns a ``bool``), or a batch, as
    :func:`heuristic` tells them apart (returns a ``bool`` array, one a board), so that
    ``boards[fifteen.is_solvable(boards)]`` keeps the boards a search can solve. ``goal``
    is as for :func:`solve`. A board that is no board (a number repeated or out of range)
    raises ``ValueError``, naming it in a batch."""
    if _single(board):
        tiles, rows, cols = _board(board)
        return _native.is_solvable(tiles, rows, cols, _goal(goal, rows, cols))
    data, n, rows, cols = _batch(board)
    goal_tiles = _goal(goal, rows, cols)
    if n == 0:
        return np.zeros(0, dtype=bool)
    raw = _native.are_solvable(data, rows, cols, goal_tiles)
    return np.frombuffer(raw, dtype=np.uint8).astype(bool)


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
    try:
        raw = _native.heuristic(data, rows, cols, goal_tiles, name, tables)
    except ValueError as e:
        # The native half numbers a batch's boards; one board is no batch's "board 0".
        if single and str(e).startswith("board 0: "):
            raise ValueError(str(e)[len("board 0: "):]) from None
        raise
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


def __dir__() -> List[str]:
    """What ``dir(fifteen)`` and a notebook's tab completion offer: the public names (and
    the ``Board`` and ``Goal`` types the signatures use), not the modules imported here
    (``np``, ``os``, ``time``, ...)."""
    return sorted({*__all__, "Board", "Goal", "__version__"})
