"""docs/python.md runs: every ```python block, in order, in one namespace (its asserts are
the checks)."""

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def blocks():
    return re.findall(r"^```python\n(.*?)^```", DOC.read_text(), flags=re.S | re.M)


def test_the_python_guide_runs(capsys):
    code = blocks()
    assert len(code) >= 6
    namespace = {"__name__": "__docs__"}
    for i, block in enumerate(code):
        exec(compile(block, f"{DOC.name} block {i + 1}", "exec"), namespace)
    out = capsys.readouterr().out
    assert "RDR 3 True" in out
    assert "boards/s" in out and "hamming" in out
