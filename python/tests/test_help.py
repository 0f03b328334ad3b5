"""What help() shows a notebook user: every parameter of every public function named in
its docstring, every field of a named tuple described, and an argument given the wrong
type named in the error."""

import inspect
import re

import pytest

import fifteen

B = "1 2 3 0 4 6 7 5 8"


@pytest.mark.parametrize(
    "name", [n for n in fifteen.__all__ if inspect.isfunction(getattr(fifteen, n))]
)
def test_every_parameter_is_in_the_help(name):
    f = getattr(fifteen, name)
    # Named as code (``moves``, ``moves=True``) or as an argument in a list (moves: ...).
    missing = [p for p in inspect.signature(f).parameters
               if not re.search(rf"``{p}(=[^`]*)?``|^\s+{p}:", f.__doc__, flags=re.M)]
    assert not missing, f"help(fifteen.{name}) does not say what {missing} are"


@pytest.mark.parametrize("cls", [fifteen.Batch, fifteen.Problem])
def test_every_field_of_a_named_tuple_is_described(cls):
    for field in cls._fields:
        doc = getattr(cls, field).__doc__
        assert doc and not doc.startswith("Alias for field"), (cls.__name__, field)


@pytest.mark.parametrize(
    "call",
    [
        lambda: fifteen.solve(B, goal=5),
        lambda: fifteen.solve(B, goal=[None] * 9),
        lambda: fifteen.solve_many([B], goal=5.5),
        lambda: fifteen.heuristic(B, goal=object()),
        lambda: fifteen.random_boards(1, size=3, goal=3),
        lambda: fifteen.is_solvable(B, goal=5),
    ],
)
def test_a_goal_of_the_wrong_type_is_named_as_the_goal(call):
    with pytest.raises(TypeError, match="^goal: "):
        call()


def test_dir_offers_the_public_names_and_each_exists():
    names = dir(fifteen)
    assert set(fifteen.__all__) <= set(names)
    assert not {"np", "os", "time", "warnings", "atexit", "Any"} & set(names), names
    for n in names:
        assert hasattr(fifteen, n), n
