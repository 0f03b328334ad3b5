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
    """The command line of this checkout (`target/release/fifteen`, or under
    `$CARGO_TARGET_DIR` as cargo puts it there), for the tests that compare with it:
    skipped without it, saying how to build it, except under CI, where `.ci/run` builds it
    first and its absence is a failure."""
    checkout = Path(__file__).resolve().parents[2]
    target = Path(os.environ.get("CARGO_TARGET_DIR") or "target")
    binary = (checkout / target / "release" / "fifteen").resolve()
    if not binary.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"no {binary}: .ci/run builds it before the tests")
        pytest.skip(f"no {binary}: `cargo build --release` in {checkout} builds it")
    return binary


@pytest.fixture
def fresh_tables(tmp_path: Path) -> Path:
    """A tables directory no earlier call of this process has opened."""
    return tmp_path / "tables"
