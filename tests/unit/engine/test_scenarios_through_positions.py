"""Tests outside the engine never touch a state's private fields: they set up rule scenarios
through positions (``engine.core.positions``: ``edited``, ``reload``, or a loaded position's
JSON) or the states' public fields and methods (docs/positions.md). Read from the tests'
source (``ast``), so a new test that reaches into a state fails here, naming where."""

from __future__ import annotations

import ast
from pathlib import Path

import engine
from engine.core.contract import State
from tests.support.platform import ROOT

TESTS = ROOT / "tests"
ACCESSORS = {"getattr", "setattr", "hasattr", "delattr"}


def private_fields() -> set[str]:
    """Every private field of a state: the base State's and each registered title's."""
    classes = [State, *(engine.title(t).state_class for t in engine.titles())]
    return {
        name
        for cls in classes
        for klass in cls.__mro__
        for name in getattr(klass, "__slots__", ())
        if name.startswith("_") and not name.startswith("__")
    }


def touches(tree: ast.AST, private: set[str]) -> list[tuple[int, str]]:
    """(line, field) of each private field read or written: ``x._field`` (but a state's own
    ``self._field``, in a title a test defines) and ``getattr(x, "_field")``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in private:
            if not (isinstance(node.value, ast.Name) and node.value.id == "self"):
                found.append((node.lineno, node.attr))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ACCESSORS
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in private
        ):
            found.append((node.lineno, node.args[1].value))
    return found


def test_the_private_fields_are_known():
    assert {"_decision", "_chance", "_actions", "_picks"} <= private_fields()


def test_the_reader_finds_a_private_field_however_it_is_touched():
    source = (
        "g._decision = None\n"
        "twin._chance._rng = 1\n"
        "n = len(state._actions)\n"
        "setattr(g, '_decision', None)\n"
        "class Toy(State):\n"
        "    def _apply(self, option):\n"
        "        self._chance.shuffle(self.deck)\n"
        "g.decision()\n"
    )
    found = touches(ast.parse(source), private_fields())
    assert sorted(found) == [(1, "_decision"), (2, "_chance"), (3, "_actions"), (4, "_decision")]


def test_no_test_touches_a_states_private_fields():
    private = private_fields()
    assert Path(__file__) in set(TESTS.rglob("*.py"))
    found = [
        f"{path.relative_to(ROOT)}:{line}: {field}"
        for path in sorted(TESTS.rglob("*.py"))
        for line, field in touches(ast.parse(path.read_text(encoding="utf-8")), private)
    ]
    assert not found, (
        "tests set up scenarios through positions (engine.core.positions.edited or reload, "
        "docs/positions.md), not a state's private fields:\n" + "\n".join(found)
    )
