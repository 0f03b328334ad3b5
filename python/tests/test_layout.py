"""The Python package's Rust half keeps the project's rule (CONTRIBUTING): no source file
over 700 lines, a module per concern."""

from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def test_no_rust_source_file_of_the_package_is_over_700_lines():
    lengths = {p.name: len(p.read_text().splitlines()) for p in SRC.glob("*.rs")}
    assert "lib.rs" in lengths
    assert {n: k for n, k in lengths.items() if k > 700} == {}
