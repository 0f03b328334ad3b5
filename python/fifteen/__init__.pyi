"""Type stubs of the ``fifteen`` package; the docstrings are in ``__init__.py``."""

import os
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Literal, NamedTuple, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

__version__: str
HEURISTICS: Tuple[str, ...]

# Whole floats (2.0) are read as numbers too; NumPy's integers as ints.
Int = Union[int, np.integer[Any]]
Board = Union[
    str,
    Sequence[float],
    Sequence[Sequence[float]],
    npt.NDArray[np.integer[Any]],
    npt.NDArray[np.floating[Any]],
]
Goal = Union[
    None,
    str,
    Sequence[float],
    Sequence[Sequence[float]],
    npt.NDArray[np.integer[Any]],
    npt.NDArray[np.floating[Any]],
]
Boards = Union[npt.NDArray[np.integer[Any]], Iterable[Board]]
Size = Union[Int, str, Tuple[Int, Int]]
Tables = Union[str, "os.PathLike[str]", None]
Progress = Union[bool, Callable[[int, int], Any]]

class SearchStopped(RuntimeError):
    reason: str
    nodes: int
    lower_bound: Optional[int]
    counts: Optional[Dict[str, Any]]
    def __init__(
        self,
        reason: str,
        nodes: int,
        lower_bound: Optional[int] = None,
        counts: Optional[Dict[str, Any]] = None,
    ) -> None: ...

class Solution:
    # Read-only; == and hash by board, goal, moves, weight and lower bound.
    @property
    def board(self) -> npt.NDArray[np.uint8]: ...
    @property
    def goal(self) -> npt.NDArray[np.uint8]: ...
    @property
    def moves(self) -> str: ...
    @property
    def length(self) -> int: ...
    @property
    def optimal(self) -> bool: ...
    @property
    def lower_bound(self) -> int: ...
    @property
    def weight(self) -> float: ...
    @property
    def nodes(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def heuristic(self) -> str: ...
    @property
    def boards(self) -> npt.NDArray[np.uint8]: ...
    def svg(self, step: Optional[int] = None, cell: int = 48) -> str: ...
    def _repr_svg_(self) -> str: ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Batch(NamedTuple):
    lengths: npt.NDArray[np.int32]
    lower_bounds: npt.NDArray[np.int32]
    nodes: npt.NDArray[np.uint64]
    seconds: float
    # None for each board a limit stopped.
    moves: Optional[List[Optional[str]]]
    def __eq__(self, other: object) -> bool: ...

def solve(
    board: Board,
    goal: Goal = None,
    *,
    weight: float = 1.0,
    timeout: Optional[float] = None,
    threads: Optional[Int] = None,
    tables: Tables = None,
    max_nodes: Optional[Int] = None,
    heuristic: str = "pdb",
) -> Solution: ...
@overload
def solve_many(
    boards: Boards,
    goal: Goal = None,
    *,
    moves: Literal[False] = False,
    weight: float = 1.0,
    timeout: Optional[float] = None,
    max_nodes: Optional[Int] = None,
    threads: Optional[Int] = None,
    tables: Tables = None,
    progress: Progress = False,
    heuristic: str = "pdb",
    stats: Literal[False] = False,
) -> npt.NDArray[np.int32]: ...
@overload
def solve_many(
    boards: Boards,
    goal: Goal = None,
    *,
    moves: Literal[True],
    weight: float = 1.0,
    timeout: Optional[float] = None,
    max_nodes: Optional[Int] = None,
    threads: Optional[Int] = None,
    tables: Tables = None,
    progress: Progress = False,
    heuristic: str = "pdb",
    stats: Literal[False] = False,
) -> Tuple[npt.NDArray[np.int32], List[Optional[str]]]: ...
@overload
def solve_many(
    boards: Boards,
    goal: Goal = None,
    *,
    moves: bool = False,
    weight: float = 1.0,
    timeout: Optional[float] = None,
    max_nodes: Optional[Int] = None,
    threads: Optional[Int] = None,
    tables: Tables = None,
    progress: Progress = False,
    heuristic: str = "pdb",
    stats: Literal[True],
) -> Batch: ...
@overload
def solve_many(
    boards: Boards,
    goal: Goal = None,
    *,
    moves: bool = False,
    weight: float = 1.0,
    timeout: Optional[float] = None,
    max_nodes: Optional[Int] = None,
    threads: Optional[Int] = None,
    tables: Tables = None,
    progress: Progress = False,
    heuristic: str = "pdb",
    stats: bool = False,
) -> Union[npt.NDArray[np.int32], Tuple[npt.NDArray[np.int32], List[Optional[str]]], Batch]: ...
def distance(
    boards: Boards,
    goal: Goal = None,
    *,
    threads: Optional[Int] = None,
    tables: Tables = None,
    progress: Progress = False,
) -> npt.NDArray[np.int32]: ...
def random_boards(
    n: Int,
    size: Size = 4,
    seed: Optional[Int] = None,
    walk: Optional[Int] = None,
    goal: Goal = None,
    *,
    moves: Optional[Int] = None,
    distance: Optional[Int] = None,
    tables: Tables = None,
) -> npt.NDArray[np.uint8]: ...
@overload
def is_solvable(board: str, goal: Goal = None) -> bool: ...
@overload
def is_solvable(board: Boards, goal: Goal = None) -> Any: ...
@overload
def is_solvable(board: Sequence[int], goal: Goal = None) -> bool: ...
def check(board: Board, moves: str, goal: Goal = None) -> int: ...
@overload
def heuristic(boards: str, kind: str = "manhattan", goal: Goal = None, *, tables: Tables = None) -> int: ...
@overload
def heuristic(boards: Boards, kind: str = "manhattan", goal: Goal = None, *, tables: Tables = None) -> Any: ...
@overload
def heuristic(boards: Sequence[int], kind: str = "manhattan", goal: Goal = None, *, tables: Tables = None) -> int: ...
def load_tables(size: Size = 4, goal: Goal = None, *, tables: Tables = None) -> List[str]: ...
def tables_dir(tables: Tables = None) -> Path: ...

ALGORITHMS: Tuple[str, ...]

class SearchResult:
    # Read-only; == and hash by everything but seconds.
    @property
    def algorithm(self) -> str: ...
    @property
    def heuristic(self) -> Optional[str]: ...
    @property
    def board(self) -> npt.NDArray[np.uint8]: ...
    @property
    def goal(self) -> npt.NDArray[np.uint8]: ...
    @property
    def moves(self) -> str: ...
    @property
    def length(self) -> int: ...
    @property
    def optimal(self) -> bool: ...
    @property
    def bound(self) -> Optional[float]: ...
    @property
    def weight(self) -> float: ...
    @property
    def expanded(self) -> int: ...
    @property
    def generated(self) -> int: ...
    @property
    def peak_frontier(self) -> int: ...
    @property
    def closed(self) -> Optional[int]: ...
    @property
    def memory_bytes(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def steps(self) -> Tuple[Tuple[int, int], ...]: ...
    @property
    def f(self) -> Tuple[float, ...]: ...
    @property
    def boards(self) -> npt.NDArray[np.uint8]: ...
    def svg(self, step: Optional[int] = None, cell: int = 48) -> str: ...
    def _repr_svg_(self) -> str: ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Comparison(List[Dict[str, Any]]):
    COLUMNS: Tuple[str, ...]
    def _repr_html_(self) -> str: ...

def search(
    board: Board,
    goal: Goal = None,
    *,
    algorithm: str = "astar",
    heuristic: Optional[str] = None,
    weight: float = 1.0,
    max_nodes: Optional[Int] = None,
    max_memory: Optional[Int] = None,
    depth_limit: Optional[Int] = None,
    timeout: Optional[float] = None,
    tables: Tables = None,
) -> SearchResult: ...
def compare(
    board: Board,
    goal: Goal = None,
    *,
    max_nodes: Optional[Int] = 1_000_000,
    max_memory: Optional[Int] = None,
    depth_limit: Optional[Int] = None,
    timeout: Optional[float] = None,
    tables: Tables = None,
    as_frame: Optional[bool] = None,
) -> Any: ...

class Problem(NamedTuple):
    weight: float
    weight_text: str
    board: npt.NDArray[np.uint8]
    goal: npt.NDArray[np.uint8]

def read_problem(path: Union[str, "os.PathLike[str]"]) -> Problem: ...
def report(problem: Problem, result: SearchResult) -> str: ...
def write_report(
    path: Union[str, "os.PathLike[str]"],
    problem: Problem,
    result: SearchResult,
    *,
    overwrite: bool = False,
) -> str: ...

# Private helpers fifteen._classic imports from the package: mypy reads them here, this
# stub standing for __init__.py. A result's fields are set through object.__setattr__,
# which mypy cannot follow: their base is Any to it.
_Moves: Any
def _frozen(tiles: bytes, rows: int, cols: int) -> npt.NDArray[np.uint8]: ...
def _path(tables: Tables) -> Optional[str]: ...
def _file(name: str, path: Any, what: str) -> str: ...
