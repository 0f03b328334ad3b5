"""A path argument (a tables directory, a course file) starts with `~` as in a shell (the
home directory, os.path.expanduser's rules), and is text or any os.PathLike."""

import os
from pathlib import Path

import pytest

import fifteen

B = "1 2 3 0 4 6 7 5 8"
PROBLEM = "1.2\n\n1 2 3\n4 0 6\n7 5 8\n\n1 2 3\n4 5 6\n7 8 0\n"


class Where(os.PathLike):
    """An os.PathLike that is no pathlib.Path."""

    def __init__(self, path):
        self.path = path

    def __fspath__(self):
        return self.path


@pytest.fixture
def home(tmp_path, monkeypatch):
    """HOME is a fresh directory; the working directory another, where a literal `~`
    would show up."""
    home = tmp_path / "home"
    home.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(work)
    yield home
    assert not (work / "~").exists(), "a directory named ~ was made"


@pytest.mark.parametrize("given", ["~/t", Path("~/t"), Where("~/t"), b"~/t", "~"])
def test_tables_dir_expands_the_home_directory(home, given):
    want = home if given == "~" else home / "t"
    assert fifteen.tables_dir(given) == want


def test_tables_in_the_home_directory_are_built_and_used_there(home):
    assert fifteen.load_tables(3, tables="~/t") == ["8"]
    assert sorted(p.name for p in (home / "t").glob("*.pdb")) == ["3x3-b0-1.2.3.4.5.6.7.8.pdb"]
    assert fifteen.solve(B, tables=Path("~/t")).heuristic == "pdb"
    assert fifteen.heuristic(B, "pdb", tables=Where("~/t")) == 3
    assert fifteen.distance([B], tables="~/t").tolist() == [3]
    assert fifteen.solve_many([B], tables="~/t").tolist() == [3]
    assert fifteen.search(B, heuristic="pdb", tables="~/t").moves == "RDR"
    assert fifteen.compare(B, tables="~/t", as_frame=False)[0]["length"] == 3


def test_course_files_in_the_home_directory(home):
    (home / "input.txt").write_text(PROBLEM)
    for given in ("~/input.txt", Path("~/input.txt"), Where("~/input.txt")):
        p = fifteen.read_problem(given)
        assert p.weight == 1.2
    r = fifteen.search(p.board, p.goal, heuristic="manhattan", weight=p.weight)
    text = fifteen.write_report("~/output.txt", p, r)
    assert (home / "output.txt").read_text() == text
    text = fifteen.write_report(Where("~/output.txt"), p, r, overwrite=True)
    with pytest.raises(FileExistsError):
        fifteen.write_report(Path("~/output.txt"), p, r)


def test_a_table_written_to_while_in_use_raises_then_is_opened_again(tmp_path):
    """A table file written in place after it was mapped (here its own first byte written
    back: its modification time changes, its bytes do not) makes the next search raise
    OSError naming the file, not answer from values nobody checked; the call after maps
    and checks the file again."""
    import time

    board = "8 6 7 2 5 4 3 0 1"
    assert fifteen.solve(board, tables=tmp_path).length == 31
    (table,) = tmp_path.glob("3x3-*.pdb")
    time.sleep(0.02)
    with open(table, "r+b") as f:
        first = f.read(1)
        f.seek(0)
        f.write(first)
    with pytest.raises(OSError, match="written to while this call used it") as e:
        fifteen.solve(board, tables=tmp_path)
    assert str(table) in str(e.value)
    # Python's terms: pip installs no `fifteen tables verify`, and no command runs again.
    assert "the next call opens the tables again" in str(e.value)
    assert "tables verify" not in str(e.value)
    many = fifteen.solve_many([board, "1 2 3 4 5 6 0 7 8"], tables=tmp_path)
    assert list(many) == [31, 2]
    time.sleep(0.02)
    with open(table, "r+b") as f:
        f.write(first)
    with pytest.raises(OSError, match="written to while this call used it"):
        fifteen.solve_many([board], tables=tmp_path)
    assert fifteen.solve(board, tables=tmp_path).length == 31


def test_processes_starting_together_build_the_tables_once(tmp_path):
    """Processes that need the same missing tables at once (a pool's workers) build them
    once, under the directory's build lock that `fifteen solve` takes too: the others wait,
    then find them there. Each built them all before, each holding a build's memory."""
    import subprocess
    import sys
    import time

    start = time.time() + 2.0
    script = (
        "import sys, time, fifteen\n"
        f"time.sleep(max(0.0, {start} - time.time()))\n"
        "s = fifteen.solve('1 2 3 4\\n5 6 7 0\\n9 10 11 8', tables=sys.argv[1])\n"
        "print(s.length, s.heuristic)\n"
    )
    runs = [subprocess.Popen([sys.executable, "-c", script, str(tmp_path / "t")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(3)]
    outs = [r.communicate(timeout=300) for r in runs]
    assert [r.returncode for r in runs] == [0, 0, 0], outs
    assert [o for o, _ in outs] == ["1 pdb\n"] * 3, outs
    builders = [e for _, e in outs if "building the pattern databases" in e]
    assert len(builders) == 1, outs


def test_fifteen_tables_expands_the_home_directory(home, monkeypatch):
    """`FIFTEEN_TABLES="~/t"` (set in a notebook, or quoted in a job script) is the home
    directory's `t`, as for `tables=`, not a directory named `~` wherever one runs."""
    monkeypatch.setenv("FIFTEEN_TABLES", "~/envt")
    assert fifteen.tables_dir() == home / "envt"
    assert fifteen.solve("1 2 3 0 4 6 7 5 8").heuristic == "pdb"
    assert (home / "envt" / "3x3-b0-1.2.3.4.5.6.7.8.pdb").exists()
