"""Every test's tables go to a temporary directory (FIFTEEN_TABLES), never the user's;
only the Korf 100 test reads the per-user directory, where `.ci/run` builds the 4x4
tables before the tests run."""

import os
import shutil
import tempfile
from pathlib import Path

import pytest

import fifteen

#: The per-user tables directory (or the user's own FIFTEEN_TABLES), read before the
#: tests replace it.
USER_TABLES: Path = fifteen.tables_dir()

_TMP = tempfile.mkdtemp(prefix="fifteen-tables-")
os.environ["FIFTEEN_TABLES"] = _TMP


def pytest_sessionfinish(session, exitstatus):
    shutil.rmtree(_TMP, ignore_errors=True)


def release_binary() -> Path:
    """The command line of this checkout (`target/release/fifteen`), for the tests that
    compare with it: skipped without it, except under CI, where `.ci/run` builds it first
    and its absence is a failure."""
    binary = Path(__file__).resolve().parents[2] / "target" / "release" / "fifteen"
    if not binary.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"no {binary}: .ci/run builds it before the tests")
        pytest.skip("no release build of the command line")
    return binary


@pytest.fixture
def fresh_tables(tmp_path: Path) -> Path:
    """A tables directory no earlier call of this process has opened."""
    return tmp_path / "tables"
