"""What the package says on stderr: the native half's notes and table-build progress
(``_report``, set as its reporter), and the progress of a batch (``_progress``): on a
terminal or in a notebook, tqdm's bar when tqdm is installed (a widget in a notebook), else
a line rewritten in place; elsewhere (a log file, a pipe) plain lines, tqdm or not."""

from __future__ import annotations

import sys
from typing import Any, Callable, Optional, Union

from . import _native


class _Bar:
    """A table build's progress: tqdm's bar (a widget in a notebook) when tqdm is
    installed, else one line on stderr rewritten in place."""

    def __init__(self) -> None:
        self.tqdm: Any = None
        self.label = ""
        # Off a terminal (a log file, a pipe) tqdm would write each redraw as text.
        if _interactive():
            try:
                from tqdm.auto import tqdm  # type: ignore[import-not-found, import-untyped]

                self.tqdm = tqdm(total=1, leave=False, unit="block", file=sys.stderr)
            except Exception:
                self.tqdm = None
        self.shown = False

    def update(self, label: str, done: int, total: int, depth: int) -> None:
        if self.tqdm is not None:
            if label != self.label:
                self.tqdm.set_description(label)
            if total:
                self.tqdm.total = total
                self.tqdm.n = done
            self.tqdm.set_postfix_str(f"depth {depth}")
            self.tqdm.refresh()
        elif total and _interactive():
            width = 30
            full = width * done // max(total, 1)
            bar = "=" * full + (">" if full < width else "") + " " * (width - full - 1)
            sys.stderr.write(f"\r  {label} [{bar}] {done}/{total} depth {depth}\x1b[K")
            sys.stderr.flush()
            self.shown = True
        self.label = label

    def println(self, text: str) -> None:
        if self.tqdm is not None:
            self.tqdm.write(text, file=sys.stderr)
        else:
            if self.shown:
                sys.stderr.write("\r\x1b[K")
            print(text, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.tqdm is not None:
            self.tqdm.close()
        elif self.shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _interactive() -> bool:
    if "ipykernel" in sys.modules:
        return True
    try:
        return sys.stderr.isatty()
    except Exception:
        return False


_bar: Optional[_Bar] = None


def _report(kind: str, *args: Any) -> None:
    """Receives the notes and table-build progress of the native half."""
    global _bar
    if kind == "note":
        print(args[0], file=sys.stderr, flush=True)
    elif kind == "bar-start":
        _bar = _Bar()
    elif kind == "bar" and _bar is not None:
        _bar.update(*args)
    elif kind == "saved":
        if _bar is not None:
            _bar.println(f"  wrote {args[0]}")
        else:
            print(f"  wrote {args[0]}", file=sys.stderr, flush=True)
    elif kind == "bar-close" and _bar is not None:
        _bar.close()
        _bar = None


_native.set_reporter(_report)


def _progress(progress: Union[bool, Callable[[int, int], Any], None], total: int):
    """A ``progress(done, total)`` callable for :func:`solve_many`, and a closer."""
    if callable(progress):
        return progress, lambda: None
    if not progress:
        return None, lambda: None
    live = _interactive()
    if live:
        # Off a terminal (a log file, a pipe) tqdm would write each redraw as text: the
        # plain lines below are written there instead.
        try:
            from tqdm.auto import tqdm  # type: ignore[import-not-found, import-untyped]

            bar = tqdm(total=total, unit="board", file=sys.stderr)

            def tqdm_tick(done: int, _total: int) -> None:
                bar.update(done - bar.n)

            return tqdm_tick, bar.close
        except Exception:
            pass
    state = {"shown": False, "tenths": -1}

    def tick(done: int, total: int) -> None:
        if live:
            sys.stderr.write(f"\r{done}/{total} boards\x1b[K")
            sys.stderr.flush()
            state["shown"] = True
            return
        # A log file or a pipe: plain lines, one per tenth of the batch, no control codes.
        tenths = 10 * done // max(total, 1)
        if tenths > state["tenths"]:
            state["tenths"] = tenths
            print(f"{done}/{total} boards", file=sys.stderr, flush=True)

    def close() -> None:
        if state["shown"]:
            sys.stderr.write("\n")

    return tick, close
