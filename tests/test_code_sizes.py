"""The product's functions stay short: none over 60 lines (``def`` to its last line, as ``ast``
counts them), a data table apart.

A function past that does several things; it is split where its work divides, each part named
for what it does. The allow-list names the tables, whose length is their data, not their logic.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 60
PRODUCT = [
    *sorted((ROOT / "playground").rglob("*.py")),
    *sorted((ROOT / "ui").rglob("*.py")),
    ROOT / "streamlit_app.py",
]
# (file, function): data tables, a row a line.
DATA_TABLES = {("playground/presets.py", "_presets")}


def function_sizes(path):
    """[(name, first line, number of lines)] of every function and method in a Python file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        (node.name, node.lineno, node.end_lineno - node.lineno + 1)
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]


def test_no_product_function_is_over_sixty_lines():
    too_long = [
        f"{path.relative_to(ROOT)}:{line} {name} ({size} lines)"
        for path in PRODUCT
        for name, line, size in function_sizes(path)
        if size > MAX_LINES and (path.relative_to(ROOT).as_posix(), name) not in DATA_TABLES
    ]
    assert too_long == []


def test_the_allowed_tables_exist_and_are_long():
    """An allow-list entry that is gone or short again is stale: it would let a new function pass."""
    for file, name in DATA_TABLES:
        sizes = [size for function, _line, size in function_sizes(ROOT / file) if function == name]
        assert sizes and max(sizes) > MAX_LINES, (file, name)


def test_the_count_sees_a_long_function(tmp_path):
    source = tmp_path / "long.py"
    source.write_text("def long():\n" + "    x = 1\n" * MAX_LINES + "\n\ndef short():\n    return 1\n")
    assert [(name, size) for name, _line, size in function_sizes(source)] == [("long", MAX_LINES + 1), ("short", 2)]
