"""The visitor's state has one owner (ui/base/visitor.py): no other ui module reads Streamlit's session
state, and every key the ui reads or writes by name through ``visitor()`` is declared, with its
type, in ``VisitorState``. Keys made at run time go through ``widget_values()``."""

import ast
import importlib
from pathlib import Path

import pytest
import streamlit as st

from ui.base.visitor import VisitorState, visitor, widget_values

UI = Path(__file__).resolve().parent.parent / "ui"
OWNERS = {"base/visitor.py", "base/streamlit_private.py"}  # the state; Streamlit's private names (a captured context's)


def _modules():
    return sorted(path for path in UI.rglob("*.py"))


def _name(path):
    return ".".join(path.relative_to(UI.parent).with_suffix("").parts).removesuffix(".__init__")


def _keys_read_by_name(path):
    """(key text or the expression, line) of every visitor()[key], visitor().get/pop/setdefault(key)
    and ``key in visitor()`` in the module, its names resolved in the module's own namespace."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    namespace = vars(importlib.import_module(_name(path)))

    def is_visitor(node):
        return isinstance(node, ast.Call) and getattr(node.func, "id", None) == "visitor"

    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Subscript) and is_visitor(node.value):
            key = node.slice
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and is_visitor(node.func.value):
            key = node.args[0] if node.args else None
        elif isinstance(node, ast.Compare) and any(is_visitor(c) for c in node.comparators):
            key = node.left
        if key is None:
            continue
        try:
            value = eval(compile(ast.Expression(key), str(path), "eval"), namespace)  # a constant or a name
        except Exception:  # noqa: BLE001  (an expression of the run: reported as it is)
            value = None
        yield (value if isinstance(value, str) else ast.unparse(key)), node.lineno


def test_only_the_owner_reads_streamlits_session_state():
    readers = [
        str(path.relative_to(UI)) for path in _modules() if "st.session_state" in path.read_text(encoding="utf-8")
    ]
    assert set(readers) <= OWNERS, readers


@pytest.mark.parametrize("path", _modules(), ids=lambda path: str(path.relative_to(UI)))
def test_every_key_used_by_name_is_declared(path):
    declared = set(VisitorState.__annotations__)
    undeclared = [(key, line) for key, line in _keys_read_by_name(path) if key not in declared]
    assert not undeclared, f"{path.name}: keys not in ui.base.visitor.VisitorState: {undeclared}"


def test_the_checker_would_see_a_misspelt_key():
    """The test above finds keys as the code writes them: a fabricated module's misspelling is found."""
    source = 'from ui.base.visitor import visitor\nSCENE = "scnee"\ndef f():\n    return visitor().get(SCENE)\n'
    tree = ast.parse(source)
    namespace = {}
    exec(compile(source, "<fabricated>", "exec"), namespace)
    found = [
        eval(compile(ast.Expression(n.args[0]), "<fabricated>", "eval"), namespace)
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.args
    ]
    assert found == ["scnee"] and "scnee" not in VisitorState.__annotations__


def test_both_views_are_the_session_state_itself():
    """No copy: what one writes, Streamlit's widgets and the other view read."""
    assert visitor() is st.session_state and widget_values() is st.session_state
