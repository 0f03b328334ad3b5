"""The native half of the ``fifteen`` package (Rust, PyO3). Use :mod:`fifteen`, which checks
arguments and builds NumPy arrays and :class:`fifteen.Solution` objects from these."""

import os
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

_Path = Optional[Union[str, "os.PathLike[str]"]]

def parse_board(text: str) -> Tuple[bytes, int, int]: ...
def make_board(numbers: List[int], rows: int, cols: int) -> Tuple[bytes, int, int]: ...
def named_goal(name: str, rows: int, cols: int) -> bytes: ...
def is_solvable(tiles: bytes, rows: int, cols: int, goal_tiles: bytes) -> bool: ...
def are_solvable(data: bytes, rows: int, cols: int, goal_tiles: bytes) -> bytes: ...
def check(tiles: bytes, rows: int, cols: int, goal_tiles: bytes, moves: str) -> int: ...
def replay(tiles: bytes, rows: int, cols: int, moves: str) -> bytes: ...
def random_boards(
    n: int, rows: int, cols: int, goal_tiles: bytes, seed: int, walk: Optional[int] = None
) -> bytes: ...
def boards_at_distance(
    n: int, rows: int, cols: int, goal_tiles: bytes, seed: int, distance: int, tables: Optional[str] = None
) -> bytes: ...
def tables_dir(tables: _Path = None) -> str: ...
def load_tables(rows: int, cols: int, goal_tiles: bytes, tables: _Path = None) -> List[str]: ...
def solve(
    tiles: bytes,
    rows: int,
    cols: int,
    goal_tiles: bytes,
    weight_factor: float = 1.0,
    timeout_secs: Optional[float] = None,
    max_nodes: Optional[int] = None,
    n_threads: Optional[int] = None,
    tables: _Path = None,
    heuristic: str = "pdb",
) -> Tuple[bool, str, int, int, float, str, str]:
    """``(solved, moves, lower_bound, nodes, millis, heuristic_used, stop_reason)``."""

def solve_many(
    data: bytes,
    rows: int,
    cols: int,
    goal_tiles: bytes,
    want_moves: bool = False,
    weight_factor: float = 1.0,
    timeout_secs: Optional[float] = None,
    max_nodes: Optional[int] = None,
    n_threads: Optional[int] = None,
    tables: _Path = None,
    heuristic: str = "pdb",
    progress: Optional[Callable[[int, int], Any]] = None,
) -> Tuple[bytes, bytes, bytes, Optional[bytes]]:
    """``(lengths i32, lower_bounds u32, nodes u64, moves)``, little-endian; ``moves``: every
    solved board's move letters one after another, as many as its length."""

def heuristic(
    data: bytes, rows: int, cols: int, goal_tiles: bytes, which: str, tables: _Path = None
) -> bytes:
    """Little-endian ``u32`` estimates."""

def set_reporter(f: Optional[Callable[..., Any]] = None) -> None: ...
def exiting() -> None: ...
def weight_factor(w: float) -> float: ...

def search(
    tiles: bytes,
    rows: int,
    cols: int,
    goal_tiles: bytes,
    algorithm_name: str,
    heuristic: Optional[str] = None,
    weight_factor: float = 1.0,
    max_nodes: Optional[int] = None,
    max_memory: Optional[int] = None,
    depth_limit: Optional[int] = None,
    timeout_secs: Optional[float] = None,
    tables: _Path = None,
) -> Dict[str, Any]:
    """One classic search: its counts and answer, or ``stopped``."""

def comparison_rows() -> List[Tuple[str, Optional[str]]]: ...
def parse_problem(text: str, name: str) -> Tuple[str, float, bytes, bytes, int, int]: ...
def course_report(
    weight_text: str,
    start: bytes,
    goal_tiles: bytes,
    rows: int,
    cols: int,
    moves: str,
    generated: int,
    steps: List[Tuple[int, int]],
) -> str: ...
