"""A solution as a picture: the board as SVG, still at one step, or animated through every
move with SVG's own animation (no script, so it plays wherever a notebook shows SVG)."""

from __future__ import annotations

from typing import Dict, List, Optional, Tuple
from xml.sax.saxutils import escape

import numpy as np

# Seconds each move slides, and the pauses on the first and last boards.
STEP = 0.35
HOLD_START = 1.0
HOLD_END = 2.0


def render(boards: np.ndarray, moves: str, step: Optional[int] = None, cell: int = 48) -> str:
    """``boards``: ``(length + 1, rows, cols)``; ``step``: one board, or ``None`` to animate."""
    length = len(boards) - 1
    rows, cols = boards.shape[1], boards.shape[2]
    pad = 4
    width = cols * cell + 2 * pad
    caption_lines = _wrap(moves, max(8, (width - 8) // 9)) if moves else ["(already solved)"]
    caption_h = 18 * (len(caption_lines) + 1) + 4
    height = rows * cell + 2 * pad + caption_h
    font = int(cell * 0.45)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
        f'<rect x="0" y="0" width="{width}" height="{rows * cell + 2 * pad}" rx="6" '
        f'fill="#5b4a3a"/>',
    ]
    for r in range(rows):
        for c in range(cols):
            out.append(
                f'<rect x="{pad + c * cell + 2}" y="{pad + r * cell + 2}" width="{cell - 4}" '
                f'height="{cell - 4}" rx="4" fill="#3f3328"/>'
            )
    # Each tile's cell at every step.
    where: Dict[int, List[Tuple[int, int]]] = {}
    for b in boards:
        for r in range(rows):
            for c in range(cols):
                t = int(b[r, c])
                if t:
                    where.setdefault(t, []).append((r, c))
    animate = step is None and length > 0
    shown = 0 if step is None else max(0, min(int(step), length))
    total = HOLD_START + STEP * length + HOLD_END
    key_times = [0.0, HOLD_START] + [HOLD_START + STEP * (k + 1) for k in range(length)] + [total]
    key_times = [t / total for t in key_times]
    goal = boards[-1]
    for t, cells in sorted(where.items()):
        r, c = cells[0] if animate else cells[shown]
        home = bool((goal == t).any() and tuple(np.argwhere(goal == t)[0]) == (r, c))
        fill = "#f4d58d" if not animate and home else "#e9c46a"
        x, y = pad + c * cell + 2, pad + r * cell + 2
        out.append(f'<g transform="translate({x},{y})">')
        if animate:
            pts = [cells[0]] + cells + [cells[-1]]
            values = ";".join(f"{pc * cell - c * cell},{pr * cell - r * cell}" for pr, pc in pts)
            out.append(
                f'<animateTransform attributeName="transform" type="translate" additive="sum" '
                f'values="{values}" keyTimes="{";".join(f"{k:.5f}" for k in key_times)}" '
                f'dur="{total:.2f}s" repeatCount="indefinite"/>'
            )
        out.append(
            f'<rect width="{cell - 4}" height="{cell - 4}" rx="5" fill="{fill}" '
            f'stroke="#8a6d3b" stroke-width="1"/>'
        )
        out.append(
            f'<text x="{(cell - 4) / 2}" y="{(cell - 4) / 2}" font-size="{font}" '
            f'text-anchor="middle" dominant-baseline="central" fill="#2b2118">{t}</text>'
        )
        out.append("</g>")
    y0 = rows * cell + 2 * pad + 18
    if animate:
        head = f"{length} moves (the blank's), replaying"
    elif length:
        head = f"step {shown} of {length}"
    else:
        head = "the goal"
    out.append(f'<text x="4" y="{y0}" font-size="13" fill="#333">{escape(head)}</text>')
    for i, line in enumerate(caption_lines):
        out.append(
            f'<text x="4" y="{y0 + 18 * (i + 1)}" font-size="13" font-family="monospace" '
            f'fill="#333">{escape(line)}</text>'
        )
    out.append("</svg>")
    return "\n".join(out)


def _wrap(text: str, width: int) -> List[str]:
    return [text[i : i + width] for i in range(0, len(text), width)] or [""]
