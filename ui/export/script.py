"""The scene as a Python script: the notebook's cells as ``# %%`` sections (VS Code, Spyder and
Jupytext read them as cells), its Markdown as comments. ``python scene.py`` prints the accuracies
and saves the figures as HTML files beside the script instead of opening a browser (small files
that load plotly.js from its CDN when opened)."""

from collections.abc import Iterable

SHOW = ".show()"


def _commented(markdown):
    return "\n".join("# " + line if line else "#" for line in markdown.splitlines())


def _for_a_script(code, figure_number):
    """A cell's code, with ``fig.show()`` writing an HTML file instead (a script has no notebook)."""
    lines = []
    for line in code.rstrip("\n").splitlines():
        if line.endswith(SHOW) and not line.startswith(" "):
            figure_number[0] += 1
            target = f'Path(__file__).with_name(Path(__file__).stem + "-{figure_number[0]}.html")'
            line = f'{line[: -len(SHOW)]}.write_html({target}, include_plotlyjs="cdn")'

        lines.append(line)
    return "\n".join(lines)


def script_text(cells: Iterable[tuple[str, str]]) -> str:
    parts = [
        '"""A scene of the linear-classification playground, as a script: python scene.py"""\n\n'
        "from pathlib import Path\n"
    ]
    figure_number = [0]
    for kind, source in cells:
        if kind == "markdown":
            parts.append("# %% [markdown]\n" + _commented(source))
        else:
            parts.append("# %%\n" + _for_a_script(source, figure_number))
    return "\n\n".join(parts) + "\n"
