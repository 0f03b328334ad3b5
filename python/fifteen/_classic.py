"""The searches a course teaches, side by side: breadth-first, depth-first, greedy, A* and
textbook IDA*, each with the exact counts the command line prints (``fifteen solve
--algorithm``, ``fifteen compare``), and the weighted A* course's problem files and reports.

The rules behind every count (successor order ``U D L R``, when the goal is tested, how
duplicates and ties are handled) are in docs/teaching.md; the searches are the Rust
library's own (``fifteen::classic``), so a count here is the command line's to the node.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from typing import Any, Dict, NamedTuple, Optional, Tuple, Union

import numpy as np

from . import SearchStopped, _file, _frozen, _Moves, _native, _path
from ._args import (
    Board,
    Goal,
    _MAX_NODES,
    _board,
    _flag,
    _goal,
    _seconds,
    _text,
    _typename,
    _weight,
    _whole,
)

def _limits(max_nodes: Any, max_memory: Any, depth_limit: Any, timeout: Any) -> Tuple[Any, ...]:
    """The limits of a classic search, in the command line's ranges (``--max-nodes``,
    ``--max-memory`` from 1 KiB to 1024 TiB, ``--depth-limit`` to 10,000)."""
    if isinstance(max_memory, str):
        # The command line's `--max-memory 256M`, copied: say the unit Python takes.
        raise TypeError(
            f"max_memory: give a number of bytes (--max-memory 256M is 256 * 2**20), not "
            f"str {max_memory[:20]!r}"
        )
    return (
        _whole("max_nodes", max_nodes, 1, _MAX_NODES),
        _whole("max_memory", max_memory, 1 << 10, 1 << 50),
        _whole("depth_limit", depth_limit, 0, 10_000),
        _seconds(timeout),
    )


#: The searches :func:`search` runs.
ALGORITHMS = ("bfs", "dfs", "greedy", "astar", "ida")


class SearchResult(_Moves):
    """What one classic search found, and exactly what it did to find it: a value,
    read-only.

    Attributes:
        algorithm: ``bfs``, ``dfs``, ``greedy``, ``astar`` or ``ida``.
        heuristic: the estimate it read: ``None`` for a blind search (bfs, dfs), even with
            ``heuristic=`` named (that estimate gives only the ``h`` of ``steps``), as the
            command line's JSON records none.
        board, goal: the board searched and its goal, as read-only ``(rows, cols)`` arrays.
        moves: the blank's moves (``U``, ``D``, ``L``, ``R``); ``length`` their number.
        optimal: whether the length is proven optimal (BFS; A* and IDA* with weight 1 and
            an admissible estimate).
        bound: a weighted search's factor (the answer is at most that times optimal).
        weight: the weight the search ran with: the one asked for, rounded down to a
            multiple of 1/1000 as the command line's ``--weight`` is (1.2345 runs as 1.234).
        expanded, generated, peak_frontier, closed, memory_bytes: the counts
            (docs/teaching.md defines each; ``closed`` is ``None`` for a tree search).
        seconds: wall-clock time of the search.
        steps: ``(g, h)`` of every board on the path, the start first (a tuple).
        f: ``g + W*h`` of every board on the path (what the course's report lists; a
            tuple).

    Two results are equal (``==``) when everything but ``seconds`` is: the algorithm and
    estimate, the boards, the weight, the path and every count. Unlike a
    :class:`Solution`'s nodes, a classic search's counts are what it found (what a course
    compares, the same on every run and machine), so they are compared; only the time is
    not. Equal results have equal hashes (every field compared is read-only).

    ``boards`` is the sequence of boards along the path; in a notebook a result shows itself
    as a picture stepping through it.
    """

    __slots__ = (
        "algorithm", "heuristic", "board", "goal", "moves", "length", "optimal", "bound",
        "weight", "expanded", "generated", "peak_frontier", "closed", "memory_bytes",
        "seconds", "steps", "f", "_tiles", "_rows", "_cols", "_goal", "_boards",
    )

    def __init__(self, tiles: bytes, rows: int, cols: int, goal: bytes, weight: float,
                 raw: Dict[str, Any]) -> None:
        steps = tuple((g, h) for g, h in raw["steps"])
        milli = round(1000 * weight) if raw["algorithm"] in ("astar", "ida") else 1000
        self._init(
            _tiles=tiles, _rows=rows, _cols=cols, _goal=goal,
            algorithm=raw["algorithm"], heuristic=raw["heuristic"], moves=raw["moves"],
            optimal=raw["optimal"], bound=raw["bound"], weight=weight,
            expanded=raw["expanded"], generated=raw["generated"],
            peak_frontier=raw["peak_frontier"], closed=raw["closed"],
            memory_bytes=raw["memory_bytes"], seconds=raw["millis"] / 1000.0, steps=steps,
            # In thousandths, W being a multiple of 1/1000: one division, so each f is
            # the double nearest its decimal, the number the report prints (26.6, not
            # g + w*h's 26.599999999999998).
            f=tuple((1000 * g + milli * h) / 1000 for g, h in steps),
        )

    def _key(self) -> Tuple[Any, ...]:
        # Everything but the time (`length`, `f` and `boards` follow from these).
        return (self._tiles, self._rows, self._cols, self._goal, self.algorithm,
                self.heuristic, self.weight, self.moves, self.optimal, self.bound,
                self.expanded, self.generated, self.peak_frontier, self.closed,
                self.memory_bytes, self.steps)

    def __repr__(self) -> str:
        kind = f"optimal={self.optimal}"
        if self.weight != 1.0:
            kind += f", weight={self.weight!r}"
        return (
            f"SearchResult(algorithm={self.algorithm!r}, heuristic={self.heuristic!r}, "
            f"{self._where()}, moves={self.moves!r}, length={self.length}, {kind}, "
            f"expanded={self.expanded}, generated={self.generated}, "
            f"peak_frontier={self.peak_frontier}, seconds={self.seconds:.4f})"
        )


def search(
    board: Board,
    goal: Goal = None,
    *,
    algorithm: str = "astar",
    heuristic: Optional[str] = None,
    weight: float = 1.0,
    max_nodes: Optional[int] = None,
    max_memory: Optional[int] = None,
    depth_limit: Optional[int] = None,
    timeout: Optional[float] = None,
    tables: Union[str, os.PathLike, None] = None,
) -> SearchResult:
    """Runs one classic search on one board, as ``fifteen solve --algorithm`` does.

    >>> import fifteen
    >>> r = fifteen.search("1 2 3 0 4 6 7 5 8", algorithm="astar", heuristic="manhattan")
    >>> r.moves, r.optimal, r.expanded, r.generated
    ('RDR', True, 3, 11)

    Args:
        board: the board (text, numbers, or a 2-D array of rows).
        goal: ``None``/``"standard"``, ``"blank-first"``, or a goal board.
        algorithm: ``"bfs"``, ``"dfs"``, ``"greedy"``, ``"astar"`` (default) or ``"ida"``.
        heuristic: ``"hamming"``, ``"manhattan"``, ``"linear-conflict"`` or ``"pdb"`` (the
            default for greedy, A* and IDA*, as on the command line); BFS and DFS read none:
            it is the ``h`` of their ``steps`` and ``f`` (Manhattan distance by default, and
            for ``"pdb"``, as on the command line, whose counts stay theirs), and their
            result's ``heuristic`` is ``None`` all the same.
        weight: A* and IDA* search on ``f = g + weight * h`` (1: optimal), ``weight``
            rounded down to a multiple of 1/1000 (as ``--weight`` is; ``.weight`` says
            the one used); another than 1 with bfs, dfs or greedy is a ``ValueError``.
        max_nodes: stop after generating this many nodes (raises :class:`SearchStopped`).
        max_memory: bytes a graph search (bfs, greedy, astar) may hold (default 1 GiB).
        depth_limit: how deep dfs goes (default: 31 on 3x3, 80 on 4x4, otherwise 200);
            with another algorithm, a ``ValueError`` (it would not be used).
        timeout: seconds before giving up (raises :class:`SearchStopped`).
        tables: the tables directory for ``"pdb"``.

    Raises:
        ValueError: a malformed or unsolvable board, an unknown algorithm or heuristic.
        SearchStopped: a limit came first, or dfs found nothing within its depth limit;
            its ``counts`` say what the search did until then.
        KeyboardInterrupt: Ctrl-C.
    """
    tiles, rows, cols = _board(board)
    goal_tiles = _goal(goal, rows, cols)
    max_nodes, max_memory, depth_limit, timeout = _limits(max_nodes, max_memory, depth_limit, timeout)
    algorithm = _text("algorithm", algorithm, "bfs, dfs, greedy, astar or ida")  # type: ignore[assignment]
    heuristic = _text(
        "heuristic", heuristic, "hamming, manhattan, linear-conflict, pdb or None (the default)",
        optional=True,
    )
    w = _weight(weight)
    if depth_limit is not None and algorithm in ("bfs", "greedy", "astar", "ida"):
        # It would run without the limit and say nothing, as for weight= above.
        raise ValueError(
            f"depth_limit bounds how deep \"dfs\" goes ({algorithm!r} does not use it): "
            f"drop depth_limit, or choose dfs"
        )
    raw = _native.search(
        tiles, rows, cols, goal_tiles, algorithm, heuristic, float(weight), max_nodes,
        max_memory, depth_limit, timeout, _path(tables),
    )
    if "stopped" in raw:
        raise SearchStopped(raw["stopped"], raw["generated"], None, counts=_counts(raw))
    return SearchResult(tiles, rows, cols, goal_tiles, w, raw)


_COUNTS = ("expanded", "generated", "peak_frontier", "closed", "memory_bytes")


def _counts(raw: Dict[str, Any]) -> Dict[str, Any]:
    return {k: raw[k] for k in _COUNTS}


class Comparison(list):
    """The rows of :func:`compare`: one record (a ``dict``) per algorithm and estimate, in
    the command line's order, shown in a notebook as a table."""

    COLUMNS = ("algorithm", "heuristic", "length", "optimal") + _COUNTS + ("millis", "note")

    def _repr_html_(self) -> str:
        from html import escape

        head = "".join(f"<th>{c}</th>" for c in self.COLUMNS)
        body = "".join(
            "<tr>" + "".join(
                f"<td>{'' if r[c] is None else escape(str(r[c]))}</td>" for c in self.COLUMNS
            ) + "</tr>"
            for r in self
        )
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def compare(
    board: Board,
    goal: Goal = None,
    *,
    max_nodes: int = 1_000_000,
    max_memory: Optional[int] = None,
    depth_limit: Optional[int] = None,
    timeout: Optional[float] = None,
    tables: Union[str, os.PathLike, None] = None,
    as_frame: Optional[bool] = None,
) -> Any:
    """Every classic search and estimate on one board, each under the same limits: the
    rows ``fifteen compare`` prints, with the same counts.

    Returns a pandas ``DataFrame`` when pandas is installed (``as_frame=None``) or asked
    for (``as_frame=True``), otherwise a :class:`Comparison`, a list of records with the
    keys ``algorithm``, ``heuristic``, ``length``, ``optimal``, ``expanded``,
    ``generated``, ``peak_frontier``, ``closed``, ``memory_bytes``, ``millis`` and
    ``note`` (why a row stopped without an answer; its ``length`` is then ``None``).
    ``board`` and ``goal`` are as for :func:`search`; the limits (``max_nodes``, ``max_memory``,
    ``depth_limit``, ``timeout``) and the tables directory ``tables`` are :func:`search`'s,
    applied to each row.
    """
    tiles, rows, cols = _board(board)
    goal_tiles = _goal(goal, rows, cols)
    max_nodes, max_memory, depth_limit, timeout = _limits(max_nodes, max_memory, depth_limit, timeout)
    if as_frame is not None:
        as_frame = _flag("as_frame", as_frame)
    tables = _path(tables)
    table = Comparison()
    for algorithm, heuristic in _native.comparison_rows():
        raw = _native.search(
            tiles, rows, cols, goal_tiles, algorithm, heuristic, 1.0, max_nodes, max_memory,
            depth_limit, timeout, tables,
        )
        stopped = raw.get("stopped")
        table.append({
            "algorithm": algorithm,
            "heuristic": raw["heuristic"],
            "length": None if stopped else len(raw["moves"]),
            "optimal": None if stopped else raw["optimal"],
            **_counts(raw),
            "millis": raw["millis"],
            "note": f"stopped: {stopped}" if stopped else None,
        })
    if as_frame is False:
        return table
    try:
        import pandas  # type: ignore[import-not-found, import-untyped]
    except ImportError:
        if as_frame:
            raise
        return table
    return pandas.DataFrame(table, columns=list(Comparison.COLUMNS))


class Problem(NamedTuple):
    """A course problem file: the weight ``W`` (as a number, the one the search runs with:
    ``W`` rounded down to a multiple of 1/1000, as everywhere; and as the file writes it,
    so that the report repeats it unchanged), the start board and the goal board (``(n,
    n)`` read-only arrays: a problem is a value, as the file it was read from)."""

    weight: float
    weight_text: str
    board: np.ndarray
    goal: np.ndarray

    # A tuple compares its fields with `==`, which for arrays is an array, not a truth
    # value: two problems compare by their weight and their boards' cells instead.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Problem):
            return False
        return (
            self.weight_text == other.weight_text
            and np.array_equal(self.board, other.board)
            and np.array_equal(self.goal, other.goal)
        )

    def __ne__(self, other: object) -> bool:
        return not self == other


# Arrays cannot be hashed: neither can a problem. Set after the class, as a NamedTuple's
# body may hold fields and methods only (mypy refuses the assignment there).
Problem.__hash__ = None  # type: ignore[assignment]

# help(Problem) shows each field's own words, not "Alias for field number 0".
Problem.weight.__doc__ = "W as the search runs it: rounded down to a multiple of 1/1000."
Problem.weight_text.__doc__ = "W as the file writes it (the report repeats it unchanged)."
Problem.board.__doc__ = "The start board, a read-only ``(n, n)`` array."
Problem.goal.__doc__ = "The goal board, a read-only ``(n, n)`` array."


def read_problem(path: Union[str, os.PathLike]) -> Problem:
    """Reads the course problem file at ``path`` (a weight ``W``, a blank line, the start
    grid, a blank line, the goal grid; docs/teaching.md). A UTF-8 byte order mark at its
    start is skipped.

    Raises:
        ValueError: the file does not read as one, with its name and the line.
        OSError: the file cannot be read.
    """
    name = _file("path", path, "a file name")
    with open(name, "rb") as f:
        data = f.read(64 * 1024 + 1)
    if len(data) > 64 * 1024:
        raise ValueError(f"{name}: a course problem file of more than 65536 bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"{name}: not UTF-8 text (byte {e.start})") from None
    # A byte order mark (Windows editors write one) is no part of the weight.
    text = text[1:] if text.startswith("\ufeff") else text
    w_text, w, start, goal, rows, cols = _native.parse_problem(text, name)
    return Problem(w, w_text, _frozen(start, rows, cols), _frozen(goal, rows, cols))


def report(problem: Problem, result: SearchResult) -> str:
    """The course's report of ``result`` (a search of ``problem``): the two grids, then
    ``W``, the depth, the nodes generated, the moves and the ``f`` values along the path,
    exactly as ``fifteen solve -i FILE --format report`` prints it for the same search.
    That command searches with Manhattan distance unless told otherwise, :func:`search`
    with the tables: search with ``heuristic="manhattan"`` for the course's report."""
    if not isinstance(problem, Problem):
        raise TypeError(f"problem: give a Problem (from read_problem), not {_typename(problem)}")
    if not isinstance(result, SearchResult):
        raise TypeError(f"result: give a SearchResult (from search), not {_typename(result)}")
    if not np.array_equal(problem.board, result.board) or not np.array_equal(
        problem.goal, result.goal
    ):
        raise ValueError("the result is not a search of this problem (other boards)")
    # The report's W and f line are the problem's: a weighted search (A*, IDA*) with
    # another weight would hand in a node count and moves they do not describe. The
    # others take no weight, and their report has the problem's, as the command line's.
    if result.algorithm in ("astar", "ida") and result.weight != problem.weight:
        raise ValueError(
            f"the result is a search with weight {result.weight:g}, but the problem's W is "
            f"{problem.weight_text}: search with weight=problem.weight (the report's W and f "
            f"are the problem's)"
        )
    rows, cols = problem.board.shape
    return _native.course_report(
        problem.weight_text, problem.board.astype(np.uint8).tobytes(),
        problem.goal.astype(np.uint8).tobytes(), rows, cols, result.moves,
        result.generated, result.steps,
    )


def write_report(
    path: Union[str, os.PathLike],
    problem: Problem,
    result: SearchResult,
    *,
    overwrite: bool = False,
) -> str:
    """Writes :func:`report` of ``result`` (a search of ``problem``, with
    ``heuristic="manhattan"`` for the course's report) to ``path`` and returns it. An
    existing file is left alone (``FileExistsError``) unless ``overwrite=True``, which
    writes the new report whole beside it before it takes its name. A write that fails (a
    full disk: ``OSError``) leaves no partial report behind, and an old report as it was."""
    name = _file("path", path, "a file name")
    overwrite = _flag("overwrite", overwrite)
    text = report(problem, result)
    if os.path.isdir(name):
        # open() would say only "File exists" (or "Is a directory" with overwrite=True).
        raise IsADirectoryError(
            f"path: {name} is a directory; give the name of the report file to write, "
            f"such as {os.path.join(name, 'output.txt')}"
        )
    beside = None
    if overwrite and os.path.isfile(name) and not os.path.islink(name):
        # Written whole beside the old report, then renamed over it: a write that fails
        # (a full disk) leaves the old report as it was, not cut short. (In a directory
        # that takes no new file, the old report is written over in place.)
        with contextlib.suppress(PermissionError):
            beside = tempfile.mkstemp(
                prefix=f".{os.path.basename(name)}.", suffix=".tmp",
                dir=os.path.dirname(os.path.abspath(name)),
            )
    if beside is not None:
        fd, tmp = beside
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.chmod(tmp, os.stat(name).st_mode & 0o777)
            os.replace(tmp, name)
        except BaseException:
            with contextlib.suppress(OSError):
                os.remove(tmp)
            raise
        return text
    existed = os.path.lexists(name)
    try:
        with open(name, "w" if overwrite else "x", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        # A full disk (or a file size limit) fails the write after the file was made: a
        # partial report left there would pass for the whole, and make a retry's "x" say
        # the file exists. Only a file this call made is removed (never a device such as
        # /dev/full, nor a file that was there).
        if not existed and not isinstance(e, FileExistsError) and os.path.isfile(name):
            with contextlib.suppress(OSError):
                os.remove(name)
        raise
    return text
