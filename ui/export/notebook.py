"""The scene as a Jupyter notebook (``.ipynb``), written with nbformat from ``cells.scene_cells``."""

from collections.abc import Iterable

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook


def notebook_of(cells: Iterable[tuple[str, str]], language: str) -> nbformat.NotebookNode:
    """An nbformat v4 notebook of the (kind, source) ``cells``, its Markdown in ``language``."""
    make = {"markdown": new_markdown_cell, "code": new_code_cell}
    notebook = new_notebook(cells=[make[kind](source.rstrip("\n")) for kind, source in cells])
    notebook.metadata.update(
        {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
            "playground": {"language": language},
        }
    )
    nbformat.validate(notebook)
    return notebook


def notebook_text(cells: Iterable[tuple[str, str]], language: str) -> str:
    return nbformat.writes(notebook_of(cells, language))
